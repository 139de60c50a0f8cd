#pragma once
// The 3D CPU backend: the Propagator interface (propagator.hpp) over a (z, y, x) grid, on the kernels of
// cpu_kernels_3d.hpp (OpenMP across planes, y blocks for cache, SIMD along x). make_propagator("cpu") builds
// it for a setup grid of rank 3. States reuse WaveState / AdjointState, so checkpoint stores and codecs see
// the usual list of fields (nz * ny rows of nx). Velocities in m/s on model cells, (z, y, x) order; padded
// arrays as PaddedGrid.
#include "fwi/propagator.hpp"
#include "propagator/pml_profile.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <memory>
#include <span>
#include <vector>

namespace fwi {
namespace cpu3d {
struct KernelGrid;
}

class CpuPropagator3D final : public Propagator {
  public:
    /// Throws ConfigError for a bad set-up (validate_propagator_setup) or a grid that is not 3D.
    explicit CpuPropagator3D(const PropagatorSetup& setup);
    std::string backend() const override { return "cpu"; }
    const PaddedGrid& padded() const override { return grid_; }
    const PropagatorSetup& setup() const override { return setup_; }

    /// Throws ConfigError for a model on another grid, a bad velocity (validate_model) or one above the
    /// reference velocity (it fixed the time step).
    void set_model(const Model& model) override;
    std::unique_ptr<WaveState> new_state() const override;
    std::unique_ptr<AdjointState> new_adjoint_state() const override;
    void record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                std::int64_t trace_length) const override;
    void forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                 std::span<const float> source, float* traces, std::int64_t trace_length) override;
    void forward_with_snapshot(WaveState& state, const ShotGeometry& geometry, std::span<const float> source,
                               float* traces, std::int64_t trace_length, float* snapshot) override;
    void forward_scattered(WaveState& state, const float* secondary) override;
    void adjoint(AdjointState& adj, const ShotGeometry& geometry, std::span<const float> residual,
                 std::int64_t trace_length, const float* snapshot, float weight) override;
    void take_velocity_gradient(std::span<float> gradient_mps) override;
    void model_region_wavefield(const WaveState& state, std::span<float> out) const override;
    void model_region_adjoint(const AdjointState& adj, std::span<float> out) const override;
    std::vector<float> padded_velocity_perturbation(std::span<const float> dv_mps) const override;

  private:
    cpu3d::KernelGrid kernel_grid() const;
    void step(WaveState& state, const ShotGeometry& geometry, std::span<const float> source, float* traces,
              std::int64_t trace_length, float* snapshot, const float* secondary);

    PropagatorSetup setup_;
    PaddedGrid grid_;
    PmlProfile pml_x_, pml_y_, pml_z_;
    std::vector<float> velocity_;     ///< padded, m/s
    std::vector<float> record_stage_; ///< forward(): dense surveys' samples, step-major (point_sampling.hpp)
    ZeroedHugeVector c_, inv_c_;      ///< v^2 dt^2 and its inverse, padded (huge pages: read every step)
    ZeroedHugeVector grad_c_;         ///< dJ/dc accumulator, padded
    bool has_model_ = false;
};

} // namespace fwi
