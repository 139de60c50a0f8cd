#include "propagator/cpu_propagator_3d.hpp"

#include "fwi/error.hpp"
#include "propagator/cpu_kernels_3d.hpp"
#include "propagator/cpu_step_ends.hpp"
#include "propagator/order_dispatch.hpp"
#include "propagator/padding.hpp"
#include "propagator/point_sampling.hpp"
#include "propagator/state_clearing.hpp"
#include "propagator/stencil_scales.hpp"
#include "runtime/machine_memory.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <sstream>

namespace fwi {
namespace {

using Span = std::pair<std::int64_t, std::int64_t>;

std::int64_t layer_cells(const PmlProfile& p) {
    return (p.lo_end - p.lo_begin) + (p.hi_end - p.hi_begin);
}

std::array<Span, 2> layer_spans(const PmlProfile& p) {
    return {Span{p.lo_begin, p.lo_end}, Span{p.hi_begin, p.hi_end}};
}

/// Where an axis's memory variables (psi, zeta; r, s) can be non-zero in a padded array, the kernels writing
/// them only in the axis's layers: runs of contiguous cells, in the order the checkpoint strips hold them.
/// z: the two slabs of layer planes; y: the two blocks of layer rows of every plane; x: the two layer pieces
/// of every row.
struct LayerRuns {
    std::int64_t nz, ny, nx;
    std::array<const PmlProfile*, 3> profile; ///< z, y, x
    /// run(offset, cells) for every run of axis 0 (z), 1 (y) or 2 (x).
    template <class Run> void each(int axis, Run&& run) const {
        const std::array<Span, 2> spans = layer_spans(*profile[std::size_t(axis)]);
        if (axis == 0) {
            for (auto [b0, b1] : spans)
                run(b0 * ny * nx, (b1 - b0) * ny * nx);
        } else if (axis == 1) {
            for (std::int64_t iz = 0; iz < nz; ++iz)
                for (auto [b0, b1] : spans)
                    run((iz * ny + b0) * nx, (b1 - b0) * nx);
        } else {
            for (std::int64_t row = 0; row < nz * ny; ++row)
                for (auto [b0, b1] : spans)
                    run(row * nx + b0, b1 - b0);
        }
    }
    /// f(run start, axis, cells) for every run of each axis's two variables (z, y, x; {psi, zeta} or {r, s},
    /// in the order given): the order the checkpoint strips hold them.
    template <class F> void each_run_of(const std::array<std::array<float*, 2>, 3>& variables, F&& f) const {
        for (int axis = 0; axis < 3; ++axis)
            for (float* field : variables[std::size_t(axis)])
                each(axis, [&](std::int64_t offset, std::int64_t n) { f(field + offset, axis, n); });
    }
    /// Sizes a y or z memory variable (psi, zeta; the adjoint's r, s) to the padded grid and populates only
    /// the axis's runs, shared out over the team: the kernels write it only there and read it also in the R
    /// fringe cells next to them (zeros: the kernel's zero page), so the rest, most of the array, never costs
    /// memory (zeroed_allocator.hpp). z variables sit on huge pages (two slabs of planes); y variables on
    /// 4 KiB pages, since every huge page would hold some plane's layer rows (no TLB cost was measurable,
    /// fwi bench --dims 3, 200 x 220 x 220, one and two threads).
    template <class Vector> void populate(Vector& v, int axis) const {
        v.resize(std::size_t(nz * ny * nx));
        std::vector<Span> runs;
        each(axis, [&](std::int64_t offset, std::int64_t n) { runs.emplace_back(offset, n); });
#pragma omp parallel for schedule(static) if (runs.size() > 2)
        for (std::size_t k = 0; k < runs.size(); ++k)
            Vector::allocator_type::populate_part(v.data(), v.size(), std::size_t(runs[k].first),
                                                  std::size_t(runs[k].second));
    }
};

/// Forward state: full padded arrays for the kernels; fields() exposes u, u_prev (as nz * ny rows of nx) and
/// the PML variables packed as strips (they are exactly zero outside their layers), so checkpoints hold only
/// what is needed: x strips (2 nz ny rows of the x-layer width), y strips (2 nz wy rows of nx), z slabs (2 wz
/// ny rows of nx), psi before zeta in each.
class CpuWaveState3D final : public WaveState {
  public:
    CpuWaveState3D(const PaddedGrid& g, const PmlProfile& px, const PmlProfile& py, const PmlProfile& pz)
        : nz_(g.nz()), ny_(g.ny()), nx_(g.nx()), layers_{nz_, ny_, nx_, {&pz, &py, &px}} {
        const auto n = std::size_t(g.cells());
        for (auto* v : {&u, &u_prev, &psi_x, &zeta_x})
            v->resize(n); // zeros: populated once by the kernel (zeroed_allocator.hpp)
        for (auto* v : {&psi_y, &zeta_y})
            layers_.populate(*v, 1);
        for (auto* v : {&psi_z, &zeta_z})
            layers_.populate(*v, 0);
        wx_ = layer_cells(px);
        wy_ = layer_cells(py);
        wz_ = layer_cells(pz);
    }
    std::vector<FieldView> fields() override {
        make_strips();
        // Viewed as volumes (plane_rows, field.hpp) so that ZFP codes them in 4x4x4 blocks.
        return {{u.data(), nz_ * ny_, nx_, ny_},
                {u_prev.data(), nz_ * ny_, nx_, ny_},
                {packed_x_.data(), 2 * nz_ * ny_, wx_, ny_},
                {packed_y_.data(), 2 * nz_ * wy_, nx_, wy_},
                {packed_z_.data(), 2 * wz_ * ny_, nx_, ny_}};
    }
    void to_host() override { transfer(Transfer::pack); }
    void from_host() override { transfer(Transfer::unpack); }
    bool clear() override {
        detail::zero_arrays(u, u_prev, packed_x_, packed_y_, packed_z_);
        transfer(Transfer::zero);
        step = 0;
        return true;
    }

    ZeroedHugeVector u, u_prev, psi_x, zeta_x;
    UnpopulatedVector psi_y, zeta_y;
    UnpopulatedHugeVector psi_z, zeta_z;

  private:
    /// The strips are made when a state is first checkpointed, not with every state: a run that keeps none
    /// (a forward, store-all) never holds them (another array's worth of memory at 20 PML cells on 128^3).
    void make_strips() {
        if (strips_made_) return;
        packed_x_.assign(std::size_t(2 * nz_ * ny_ * wx_), 0.0f);
        packed_y_.assign(std::size_t(2 * nz_ * wy_ * nx_), 0.0f);
        packed_z_.assign(std::size_t(2 * wz_ * ny_ * nx_), 0.0f);
        strips_made_ = true;
    }
    enum class Transfer { pack, unpack, zero }; ///< the PML layers into the strips, back, or to zero
    void transfer(Transfer what) {
        if (what != Transfer::zero) make_strips(); // zeroing needs no strips: a run may never make them
        auto move = [what](float* full, float*& strip, std::int64_t n) {
            if (what == Transfer::pack)
                std::memcpy(strip, full, std::size_t(n) * sizeof(float));
            else if (what == Transfer::unpack)
                std::memcpy(full, strip, std::size_t(n) * sizeof(float));
            else
                detail::zero_floats(full, std::size_t(n));
            if (strip) strip += n;
        };
        // Axis by axis (z, y, x), psi before zeta: each strip in the order LayerRuns gives.
        const std::array<std::array<float*, 2>, 3> variables{
            {{psi_z.data(), zeta_z.data()}, {psi_y.data(), zeta_y.data()}, {psi_x.data(), zeta_x.data()}}};
        std::array<float*, 3> strips{packed_z_.data(), packed_y_.data(), packed_x_.data()};
        layers_.each_run_of(variables, [&](float* run, int axis, std::int64_t n) {
            move(run, strips[std::size_t(axis)], n);
        });
    }
    std::int64_t nz_, ny_, nx_, wx_ = 0, wy_ = 0, wz_ = 0;
    LayerRuns layers_;
    std::vector<float> packed_x_, packed_y_, packed_z_;
    bool strips_made_ = false;
};

class CpuAdjointState3D final : public AdjointState {
  public:
    CpuAdjointState3D(const PaddedGrid& g, const PmlProfile& px, const PmlProfile& py, const PmlProfile& pz)
        : layers_{g.nz(), g.ny(), g.nx(), {&pz, &py, &px}} {
        const auto n = std::size_t(g.cells());
        for (auto* v : {&mu, &mu_prev, &r_x, &s_x})
            v->resize(n); // zeros (zeroed_allocator.hpp)
        for (auto* v : {&r_y, &s_y})
            layers_.populate(*v, 1);
        for (auto* v : {&r_z, &s_z})
            layers_.populate(*v, 0);
    }
    /// The kernels write r and s only in their axis's layers (cpu_kernels_3d.hpp), as psi and zeta.
    bool clear() override {
        detail::zero_arrays(mu, mu_prev);
        const std::array<std::array<float*, 2>, 3> variables{
            {{r_z.data(), s_z.data()}, {r_y.data(), s_y.data()}, {r_x.data(), s_x.data()}}};
        layers_.each_run_of(
            variables, [](float* run, int, std::int64_t n) { detail::zero_floats(run, std::size_t(n)); });
        residual_stage = {};
        step = 0;
        return true;
    }
    ZeroedHugeVector mu, mu_prev, r_x, s_x;
    UnpopulatedVector r_y, s_y;
    UnpopulatedHugeVector r_z, s_z;
    ResidualStage residual_stage; ///< the sweep's residual samples, step-major (point_sampling.hpp)

  private:
    LayerRuns layers_;
};

/// A gradient on this grid holds at least 15-23 padded arrays' worth at once, whatever the schedule: the
/// propagator's 4 (velocity, v^2 dt^2, its inverse, the gradient); a forward and an adjoint state of 4 whole
/// arrays each, 2 y-axis memory variables each of which only the y-layer rows take memory, and 2 z-axis ones
/// of which only the z-layer planes do (LayerRuns::populate); and one checkpoint and one
/// snapshot (about 3 more). A grid whose minimum exceeds the machine's memory is refused here, before
/// anything large is allocated, instead of failing (or swapping) part-way.
void check_working_memory(const PaddedGrid& g, const PmlProfile& py, const PmlProfile& pz) {
    const double y_variable = double(layer_cells(py)) / double(g.ny()); // of an array
    const double z_variable = double(layer_cells(pz)) / double(g.nz());
    const double arrays = 4 + 2 * (4 + 2 * y_variable + 2 * z_variable) + 3;
    const double need = arrays * double(g.cells()) * sizeof(float);
    const double have = double(detail::physical_memory_bytes());
    if (have > 0 && need > have) {
        std::ostringstream m;
        m.precision(3);
        m << "the 3D grid of " << g.nz() << " x " << g.ny() << " x " << g.nx()
          << " cells (PML included) needs at least " << need / double(1 << 30)
          << " GiB for a gradient with any checkpoint schedule (wavefields, C-PML memory variables, one "
             "checkpoint and one snapshot: "
          << "the equivalent of " << arrays << " arrays of "
          << double(g.cells()) * sizeof(float) / double(1 << 30) << " GiB); this machine has "
          << have / double(1 << 30)
          << " GiB. Use a coarser grid (fwi new --resample), a smaller model or a machine with more memory";
        throw ResourceError(m.str());
    }
}

} // namespace

CpuPropagator3D::CpuPropagator3D(const PropagatorSetup& setup) : setup_(setup) {
    validate_propagator_setup(setup);
    if (setup.grid.rank != 3) throw ConfigError("the 3D CPU propagator needs a 3D grid");
    grid_ = PaddedGrid{setup.grid, setup.order, setup.pml_width, setup.order / 2, setup.free_surface};
    pml_z_ = setup_pml_profile(setup, grid_.halo, 0);
    pml_y_ = setup_pml_profile(setup, grid_.halo, 1);
    check_working_memory(grid_, pml_y_, pml_z_);
    pml_x_ = setup_pml_profile(setup, grid_.halo, 2);
    grad_c_.resize(std::size_t(grid_.cells())); // zeros: populated once by the kernel (zeroed_allocator.hpp)
}

void CpuPropagator3D::set_model(const Model& model) {
    validate_model_for_setup(setup_, model);
    const std::span<const float> vp_mps = model.vp_mps;
    velocity_ = pad_model(grid_, vp_mps);
    c_.resize(velocity_.size());
    inv_c_.resize(velocity_.size());
    wave_coefficients(velocity_, setup_.dt_s, c_, inv_c_);
    has_model_ = true;
}

std::unique_ptr<WaveState> CpuPropagator3D::new_state() const {
    return std::make_unique<CpuWaveState3D>(grid_, pml_x_, pml_y_, pml_z_);
}
std::unique_ptr<AdjointState> CpuPropagator3D::new_adjoint_state() const {
    return std::make_unique<CpuAdjointState3D>(grid_, pml_x_, pml_y_, pml_z_);
}

void CpuPropagator3D::record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                             std::int64_t trace_length) const {
    const auto& s = static_cast<const CpuWaveState3D&>(state);
    if (!traces || state.step >= trace_length) return;
    record_points(geometry.receivers, s.u.data(), traces + state.step, trace_length);
}

cpu3d::KernelGrid CpuPropagator3D::kernel_grid() const {
    const std::int64_t halo = grid_.halo;
    cpu3d::KernelGrid g;
    g.nz = grid_.nz();
    g.ny = grid_.ny();
    g.nx = grid_.nx();
    g.y0 = g.x0 = halo;
    g.z0 = first_computed_plane(grid_);
    g.z1 = g.nz - halo;
    g.y1 = g.ny - halo;
    g.x1 = g.nx - halo;
    set_stencil_scales_3d(g, grid_.model);
    g.c = c_.data();
    g.inv_c = inv_c_.data();
    g.pml_x = &pml_x_;
    g.pml_y = &pml_y_;
    g.pml_z = &pml_z_;
    return g;
}

void CpuPropagator3D::step(WaveState& state, const ShotGeometry& geometry, std::span<const float> source,
                           float* traces, std::int64_t trace_length, float* snapshot,
                           const float* secondary) {
    if (!has_model_) throw Error("3D propagator used before set_model");
    auto& s = static_cast<CpuWaveState3D&>(state);
    record(state, geometry, traces, trace_length);
    const cpu3d::KernelGrid g = kernel_grid();
    const cpu3d::ForwardFields f{s.u.data(),     s.u_prev.data(), s.psi_x.data(),  s.psi_y.data(),
                                 s.psi_z.data(), s.zeta_x.data(), s.zeta_y.data(), s.zeta_z.data(),
                                 snapshot,       secondary};
    dispatch_order(grid_.order, [&](auto r) { cpu3d::forward_step<decltype(r)::value>(g, f); });
    end_forward_step(grid_, geometry.source, source, state.step, secondary != nullptr, s.u_prev.data(),
                     c_.data(), snapshot);
    std::swap(s.u, s.u_prev);
    ++state.step;
}

void CpuPropagator3D::forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                              std::span<const float> source, float* traces, std::int64_t trace_length) {
    const auto& s = static_cast<const CpuWaveState3D&>(state);
    forward_recording(
        geometry.receivers, traces, trace_length, state.step, count, record_stage_,
        [&] { return s.u.data(); }, [&] { step(state, geometry, source, nullptr, 0, nullptr, nullptr); });
}

void CpuPropagator3D::forward_with_snapshot(WaveState& state, const ShotGeometry& geometry,
                                            std::span<const float> source, float* traces,
                                            std::int64_t trace_length, float* snapshot) {
    step(state, geometry, source, traces, trace_length, snapshot, nullptr);
}

void CpuPropagator3D::forward_scattered(WaveState& state, const float* secondary) {
    static const ShotGeometry none;
    step(state, none, {}, nullptr, 0, nullptr, secondary);
}

void CpuPropagator3D::adjoint(AdjointState& adj, const ShotGeometry& geometry,
                              std::span<const float> residual, std::int64_t trace_length,
                              const float* snapshot, float weight) {
    if (!has_model_) throw Error("3D propagator used before set_model");
    if (adj.step <= 0) throw Error("adjoint stepped past step 0");
    auto& a = static_cast<CpuAdjointState3D&>(adj);
    const cpu3d::KernelGrid g = kernel_grid();
    const cpu3d::AdjointFields f{a.mu.data(),    a.mu_prev.data(), a.r_x.data(), a.r_y.data(),
                                 a.r_z.data(),   a.s_x.data(),     a.s_y.data(), a.s_z.data(),
                                 grad_c_.data(), snapshot,         weight};
    dispatch_order(grid_.order, [&](auto r) { cpu3d::adjoint_step<decltype(r)::value>(g, f); });
    const std::int64_t n = adj.step - 1;
    end_adjoint_step(grid_, a.residual_stage, geometry, residual, trace_length, n, a.mu_prev.data(),
                     c_.data());
    std::swap(a.mu, a.mu_prev);
    adj.step = n;
}

void CpuPropagator3D::take_velocity_gradient(std::span<float> gradient_mps) {
    fold_velocity_gradient(grid_, grad_c_, velocity_, setup_.dt_s, gradient_mps);
    std::fill(grad_c_.begin(), grad_c_.end(), 0.0f);
}

void CpuPropagator3D::model_region_wavefield(const WaveState& state, std::span<float> out) const {
    extract_model_region(grid_, static_cast<const CpuWaveState3D&>(state).u.data(), out);
}

void CpuPropagator3D::model_region_adjoint(const AdjointState& adj, std::span<float> out) const {
    extract_model_region(grid_, static_cast<const CpuAdjointState3D&>(adj).mu.data(), out);
    std::vector<float> inv_c_model(out.size());
    extract_model_region(grid_, inv_c_.data(), inv_c_model);
    for (std::size_t i = 0; i < out.size(); ++i) // lambda = mu / c
        out[i] *= inv_c_model[i];
}

std::vector<float> CpuPropagator3D::padded_velocity_perturbation(std::span<const float> dv_mps) const {
    std::vector<float> dc = pad_model(grid_, dv_mps);
    const double dt2 = setup_.dt_s * setup_.dt_s;
    for (std::size_t i = 0; i < dc.size(); ++i)
        dc[i] = float(dc[i] * 2.0 * velocity_[i] * dt2);
    return dc;
}

} // namespace fwi
