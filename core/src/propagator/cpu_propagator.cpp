#include "propagator/cpu_propagator.hpp"

#include "fwi/error.hpp"
#include "propagator/cpu_kernels.hpp"
#include "propagator/cpu_step_ends.hpp"
#include "propagator/order_dispatch.hpp"
#include "propagator/padding.hpp"
#include "propagator/point_sampling.hpp"
#include "propagator/state_clearing.hpp"
#include "propagator/stencil_scales.hpp"
#include "runtime/cache_line.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace fwi {
namespace {

/// Forward state: full padded arrays for the kernels; fields() exposes u, u_prev and the PML variables packed
/// as strips (they are exactly zero outside their layers), so checkpoints hold only what is needed.
class CpuWaveState final : public WaveState {
  public:
    CpuWaveState(const PaddedGrid& g, const PmlProfile& px, const PmlProfile& pz)
        : nz_(g.nz()), nx_(g.nx()), px_(px), pz_(pz) {
        const auto n = std::size_t(g.cells());
        for (auto* v : {&u, &u_prev, &psi_x, &psi_z, &zeta_x, &zeta_z})
            v->resize(n); // zeros: populated once by the kernel (zeroed_allocator.hpp)
        const auto wx = (px.lo_end - px.lo_begin) + (px.hi_end - px.hi_begin);
        const auto wz = (pz.lo_end - pz.lo_begin) + (pz.hi_end - pz.hi_begin);
        packed_x_.assign(std::size_t(2 * nz_ * wx), 0.0f);
        packed_z_.assign(std::size_t(2 * wz * nx_), 0.0f);
        wx_ = wx;
        wz_ = wz;
    }
    std::vector<FieldView> fields() override {
        return {{u.data(), nz_, nx_},
                {u_prev.data(), nz_, nx_},
                {packed_x_.data(), 2 * nz_, wx_},
                {packed_z_.data(), 2 * wz_, nx_}};
    }
    void to_host() override { transfer(Transfer::pack); }
    void from_host() override { transfer(Transfer::unpack); }
    bool clear() override {
        detail::zero_arrays(u, u_prev, packed_x_, packed_z_);
        transfer(Transfer::zero);
        step = 0;
        return true;
    }

    ZeroedVector u, u_prev, psi_x, psi_z, zeta_x, zeta_z;

  private:
    enum class Transfer { pack, unpack, zero }; ///< the PML layers into the strips, back, or to zero
    void transfer(Transfer what) {
        auto move = [what](float* full, float* strip, std::size_t n) {
            if (what == Transfer::pack)
                std::memcpy(strip, full, n * sizeof(float));
            else if (what == Transfer::unpack)
                std::memcpy(full, strip, n * sizeof(float));
            else
                std::memset(full, 0, n * sizeof(float));
        };
        float* px = packed_x_.data();
        for (float* field : {psi_x.data(), zeta_x.data()})
            for (std::int64_t iz = 0; iz < nz_; ++iz)
                for (auto [b0, b1] :
                     {std::pair{px_.lo_begin, px_.lo_end}, std::pair{px_.hi_begin, px_.hi_end}}) {
                    move(field + iz * nx_ + b0, px, std::size_t(b1 - b0));
                    px += b1 - b0;
                }
        float* pz = packed_z_.data();
        for (float* field : {psi_z.data(), zeta_z.data()})
            for (auto [b0, b1] : {std::pair{pz_.lo_begin, pz_.lo_end}, std::pair{pz_.hi_begin, pz_.hi_end}}) {
                move(field + b0 * nx_, pz, std::size_t((b1 - b0) * nx_));
                pz += (b1 - b0) * nx_;
            }
    }
    std::int64_t nz_, nx_, wx_ = 0, wz_ = 0;
    const PmlProfile& px_;
    const PmlProfile& pz_;
    std::vector<float> packed_x_, packed_z_;
};

class CpuAdjointState final : public AdjointState {
  public:
    explicit CpuAdjointState(const PaddedGrid& g) {
        const auto n = std::size_t(g.cells());
        for (auto* v : {&mu, &mu_prev, &r_x, &r_z, &s_x, &s_z})
            v->resize(n); // zeros (zeroed_allocator.hpp)
    }
    bool clear() override {
        detail::zero_arrays(mu, mu_prev, r_x, r_z, s_x, s_z);
        residual_stage = {};
        step = 0;
        return true;
    }
    ZeroedVector mu, mu_prev, r_x, r_z, s_x, s_z;
    ResidualStage residual_stage; ///< the sweep's residual samples, step-major (point_sampling.hpp)
};

} // namespace

CpuPropagator::CpuPropagator(const PropagatorSetup& setup) : setup_(setup) {
    validate_propagator_setup(setup);
    if (setup.grid.rank != 2) throw ConfigError("the 2D CPU propagator needs a 2D grid");
    grid_ = PaddedGrid{setup.grid, setup.order, setup.pml_width, setup.order / 2, setup.free_surface};
    pml_x_ = setup_pml_profile(setup, grid_.halo, 2);
    pml_z_ = setup_pml_profile(setup, grid_.halo, 0);
    grad_c_.resize(std::size_t(grid_.cells())); // zeros (zeroed_allocator.hpp)
}

void CpuPropagator::set_model(const Model& model) {
    validate_model_for_setup(setup_, model);
    velocity_ = pad_model(grid_, model.vp_mps);
    c_.resize(velocity_.size());
    inv_c_.resize(velocity_.size());
    wave_coefficients(velocity_, setup_.dt_s, c_, inv_c_);
    has_model_ = true;
}

std::unique_ptr<WaveState> CpuPropagator::new_state() const {
    return std::make_unique<CpuWaveState>(grid_, pml_x_, pml_z_);
}
std::unique_ptr<AdjointState> CpuPropagator::new_adjoint_state() const {
    return std::make_unique<CpuAdjointState>(grid_);
}

void CpuPropagator::record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                           std::int64_t trace_length) const {
    const auto& s = static_cast<const CpuWaveState&>(state);
    if (!traces || state.step >= trace_length) return;
    record_points(geometry.receivers, s.u.data(), traces + state.step, trace_length);
}

cpu::KernelGrid CpuPropagator::kernel_grid() const {
    const StencilScales k = stencil_scales(grid_.model);
    const std::int64_t h = grid_.halo;
    cpu::KernelGrid g{grid_.nz(),     grid_.nx(),    h,        grid_.nz() - h, h,
                      grid_.nx() - h, k.inv[2],      k.inv[0], k.inv2[2],      k.inv2[0],
                      c_.data(),      inv_c_.data(), &pml_x_,  &pml_z_};
    g.z0 = first_computed_plane(grid_); // below a free surface
    return g;
}

void CpuPropagator::step(WaveState& state, const ShotGeometry& geometry, std::span<const float> source,
                         float* traces, std::int64_t trace_length, float* snapshot, const float* secondary,
                         bool kept_snapshot) {
    if (!has_model_) throw Error("propagator used before set_model");
    auto& s = static_cast<CpuWaveState&>(state);
    record(state, geometry, traces, trace_length);
    const cpu::KernelGrid g = kernel_grid();
    cpu::ForwardFields f{s.u.data(),      s.u_prev.data(), s.psi_x.data(), s.psi_z.data(),
                         s.zeta_x.data(), s.zeta_z.data(), snapshot,       secondary};
    // Streamed where its lines line up with u_next's (the arena's slots and the states are line-aligned).
    const auto offset =
        reinterpret_cast<std::uintptr_t>(snapshot) - reinterpret_cast<std::uintptr_t>(f.u_next);
    f.stream_snapshot = kept_snapshot && snapshot != nullptr && offset % cache_line_bytes == 0;
    dispatch_order(grid_.order, [&](auto r) { cpu::forward_step<decltype(r)::value>(g, f); });
    end_forward_step(grid_, geometry.source, source, state.step, secondary != nullptr, s.u_prev.data(),
                     c_.data(), snapshot);
    std::swap(s.u, s.u_prev);
    ++state.step;
}

void CpuPropagator::forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                            std::span<const float> source, float* traces, std::int64_t trace_length) {
    const auto& s = static_cast<const CpuWaveState&>(state);
    forward_recording(
        geometry.receivers, traces, trace_length, state.step, count, record_stage_,
        [&] { return s.u.data(); }, [&] { step(state, geometry, source, nullptr, 0, nullptr, nullptr); });
}

void CpuPropagator::forward_with_snapshot(WaveState& state, const ShotGeometry& geometry,
                                          std::span<const float> source, float* traces,
                                          std::int64_t trace_length, float* snapshot) {
    step(state, geometry, source, traces, trace_length, snapshot, nullptr);
}

void CpuPropagator::forward_with_kept_snapshot(WaveState& state, const ShotGeometry& geometry,
                                               std::span<const float> source, float* traces,
                                               std::int64_t trace_length, float* snapshot) {
    step(state, geometry, source, traces, trace_length, snapshot, nullptr, true);
}

void CpuPropagator::forward_scattered(WaveState& state, const float* secondary) {
    static const ShotGeometry none;
    step(state, none, {}, nullptr, 0, nullptr, secondary);
}

void CpuPropagator::adjoint(AdjointState& adj, const ShotGeometry& geometry, std::span<const float> residual,
                            std::int64_t trace_length, const float* snapshot, float weight) {
    if (!has_model_) throw Error("propagator used before set_model");
    if (adj.step <= 0) throw Error("adjoint stepped past step 0");
    auto& a = static_cast<CpuAdjointState&>(adj);
    const cpu::KernelGrid g = kernel_grid();
    cpu::AdjointFields f{a.mu.data(),  a.mu_prev.data(), a.r_x.data(), a.r_z.data(), a.s_x.data(),
                         a.s_z.data(), grad_c_.data(),   snapshot,     weight};
    dispatch_order(grid_.order, [&](auto r) { cpu::adjoint_step<decltype(r)::value>(g, f); });
    const std::int64_t n = adj.step - 1;
    end_adjoint_step(grid_, a.residual_stage, geometry, residual, trace_length, n, a.mu_prev.data(),
                     c_.data());
    std::swap(a.mu, a.mu_prev);
    adj.step = n;
}

void CpuPropagator::take_velocity_gradient(std::span<float> gradient_mps) {
    fold_velocity_gradient(grid_, grad_c_, velocity_, setup_.dt_s, gradient_mps);
    std::fill(grad_c_.begin(), grad_c_.end(), 0.0f);
}

void CpuPropagator::model_region_wavefield(const WaveState& state, std::span<float> out) const {
    extract_model_region(grid_, static_cast<const CpuWaveState&>(state).u.data(), out);
}
void CpuPropagator::model_region_adjoint(const AdjointState& adj, std::span<float> out) const {
    const auto& a = static_cast<const CpuAdjointState&>(adj);
    extract_model_region(grid_, a.mu.data(), out);
    // lambda = mu / c on the model region
    const std::int64_t o = grid_.origin(), nx = grid_.model.nx();
    for (std::int64_t iz = 0; iz < grid_.model.nz(); ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            out[std::size_t(iz * nx + ix)] *= inv_c_[std::size_t((iz + o) * grid_.nx() + ix + o)];
}

std::vector<float> CpuPropagator::padded_velocity_perturbation(std::span<const float> dv_mps) const {
    std::vector<float> dc = pad_model(grid_, dv_mps);
    const double dt2 = setup_.dt_s * setup_.dt_s;
    for (std::size_t i = 0; i < dc.size(); ++i)
        dc[i] = float(dc[i] * 2.0 * velocity_[i] * dt2);
    return dc;
}

} // namespace fwi
