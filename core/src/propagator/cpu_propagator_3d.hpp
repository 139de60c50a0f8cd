#pragma once
// The 3D CPU propagator: the operations of the 2D Propagator interface (propagator.hpp) over a (z, y, x)
// grid, on the kernels of cpu_kernels_3d.hpp (OpenMP across planes, y blocks for cache, SIMD along x).
// Internal for now: it is not a Propagator (whose set-up and grid are 2D) and no backend registry serves it;
// a later step of issue 11 unifies the types. States reuse WaveState / AdjointState, so checkpoint stores and
// codecs see the usual list of fields. Velocities in m/s on model cells, (z, y, x) order; padded arrays as
// padded_grid_3d.hpp.
#include "fwi/propagator.hpp"
#include "propagator/padded_grid_3d.hpp"
#include "propagator/pml_profile.hpp"

#include <memory>
#include <span>
#include <vector>

namespace fwi {
namespace cpu3d {
struct KernelGrid;
}

class CpuPropagator3D {
  public:
    /// Throws ConfigError for a bad set-up (validate_propagator_setup_3d).
    explicit CpuPropagator3D(const PropagatorSetup3D& setup);
    const PaddedGrid3D& padded() const { return grid_; }
    const PropagatorSetup3D& setup() const { return setup_; }

    /// Velocities on the model cells (m/s). Throws ConfigError for a wrong size or a non-positive, non-finite
    /// or above-reference velocity (the reference fixed the time step).
    void set_model(std::span<const float> vp_mps);
    std::unique_ptr<WaveState> new_state() const;
    std::unique_ptr<AdjointState> new_adjoint_state() const;

    /// As Propagator (propagator.hpp): receiver r's sample n = state.step goes to traces[r * trace_length +
    /// n].
    void record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                std::int64_t trace_length) const;
    void forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                 std::span<const float> source, float* traces, std::int64_t trace_length);
    /// One step that also writes the gradient snapshot B^n (padded().cells() floats).
    void forward_with_snapshot(WaveState& state, const ShotGeometry& geometry, std::span<const float> source,
                               float* traces, std::int64_t trace_length, float* snapshot);
    /// One source-free step with `secondary` (padded cells) added to u^(n+1): the Born scattered field.
    void forward_scattered(WaveState& state, const float* secondary);
    /// The adjoint of forward step n = adj.step - 1 with gradient accumulation (see Propagator::adjoint).
    void adjoint(AdjointState& adj, const ShotGeometry& geometry, std::span<const float> residual,
                 std::int64_t trace_length, const float* snapshot, float weight);
    /// dJ/dv on the model cells (PML contributions folded onto the edge cells), added to `gradient_mps`;
    /// clears the accumulator.
    void take_velocity_gradient(std::span<float> gradient_mps);
    /// u^n (or lambda_u) on the model region, model cells.
    void model_region_wavefield(const WaveState& state, std::span<float> out) const;
    void model_region_adjoint(const AdjointState& adj, std::span<float> out) const;
    /// dc = 2 v dt^2 E dv on the padded grid, for Born modelling.
    std::vector<float> padded_velocity_perturbation(std::span<const float> dv_mps) const;

  private:
    cpu3d::KernelGrid kernel_grid() const;
    void step(WaveState& state, const ShotGeometry& geometry, std::span<const float> source, float* traces,
              std::int64_t trace_length, float* snapshot, const float* secondary);

    PropagatorSetup3D setup_;
    PaddedGrid3D grid_;
    PmlProfile pml_x_, pml_y_, pml_z_;
    std::vector<float> velocity_;  ///< padded, m/s
    std::vector<float> c_, inv_c_; ///< v^2 dt^2 and its inverse, padded
    std::vector<float> grad_c_;    ///< dJ/dc accumulator, padded
    bool has_model_ = false;
};

} // namespace fwi
