#pragma once
// The CPU reference backend: OpenMP across rows, SIMD along x. Kernels and their derivation: cpu_kernels.hpp.
#include "fwi/propagator.hpp"
#include "propagator/pml_profile.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <vector>

namespace fwi {
namespace cpu {
struct KernelGrid;
}

class CpuPropagator final : public Propagator {
  public:
    explicit CpuPropagator(const PropagatorSetup& setup);
    std::string backend() const override { return "cpu"; }
    const PaddedGrid& padded() const override { return grid_; }
    const PropagatorSetup& setup() const override { return setup_; }
    void set_model(const Model& model) override;
    std::unique_ptr<WaveState> new_state() const override;
    std::unique_ptr<AdjointState> new_adjoint_state() const override;
    void record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                std::int64_t trace_length) const override;
    void forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                 std::span<const float> source, float* traces, std::int64_t trace_length) override;
    void forward_with_snapshot(WaveState& state, const ShotGeometry& geometry, std::span<const float> source,
                               float* traces, std::int64_t trace_length, float* snapshot) override;
    void forward_with_kept_snapshot(WaveState& state, const ShotGeometry& geometry,
                                    std::span<const float> source, float* traces, std::int64_t trace_length,
                                    float* snapshot) override;
    void forward_scattered(WaveState& state, const float* secondary) override;
    void adjoint(AdjointState& adj, const ShotGeometry& geometry, std::span<const float> residual,
                 std::int64_t trace_length, const float* snapshot, float weight) override;
    void take_velocity_gradient(std::span<float> gradient_mps) override;
    void model_region_wavefield(const WaveState& state, std::span<float> out) const override;
    void model_region_adjoint(const AdjointState& adj, std::span<float> out) const override;
    std::vector<float> padded_velocity_perturbation(std::span<const float> dv_mps) const override;

  private:
    /// The grid, coefficients and PML profiles the kernels read (cpu_kernels.hpp).
    cpu::KernelGrid kernel_grid() const;
    void step(WaveState& state, const ShotGeometry& geometry, std::span<const float> source, float* traces,
              std::int64_t trace_length, float* snapshot, const float* secondary, bool kept_snapshot = false);

    PropagatorSetup setup_;
    PaddedGrid grid_;
    PmlProfile pml_x_, pml_z_;
    std::vector<float> velocity_;     ///< padded, m/s
    std::vector<float> record_stage_; ///< forward(): dense surveys' samples, step-major (point_sampling.hpp)
    ZeroedVector c_, inv_c_;          ///< v^2 dt^2 and its inverse, padded
    ZeroedVector grad_c_;             ///< dJ/dc accumulator, padded
    bool has_model_ = false;
};

} // namespace fwi
