#pragma once
// Definitions of PackedPropagator3D<Device>; included only by the two files that instantiate it
// (cuda_propagator_3d.cu for CudaDevice, host_twin.cpp for HostDevice).
#include "packed_propagator_3d.hpp"

#include "fwi/error.hpp"
#include "propagator/padding.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace fwi::gpu {

namespace detail3d {
inline constexpr std::int64_t kTraceChunkSteps = 512; // receiver samples buffered on the device per download

/// CpuPropagator3D's profile of axis 0 (z), 1 (y) or 2 (x).
inline PmlProfile axis_profile(const PropagatorSetup& s, int halo, int axis) {
    return make_pml_profile(s.grid.shape[std::size_t(axis)], s.pml_width, halo,
                            s.grid.spacing_m[std::size_t(axis)], s.dt_s, s.pml_velocity_mps, s.freq_hz,
                            s.pml_reflection);
}
} // namespace detail3d

template <class Device>
PackedPropagator3D<Device>::PackedPropagator3D(const PropagatorSetup& setup, std::unique_ptr<Device> device,
                                               std::string backend_name)
    : setup_(setup), backend_name_(std::move(backend_name)), device_(std::move(device)) {
    validate_propagator_setup(setup); // the same checks and messages as the CPU backend
    if (setup.grid.rank != 3) throw ConfigError("the 3D " + backend_name_ + " propagator needs a 3D grid");
    grid_ = PaddedGrid{setup.grid, setup.order, setup.pml_width, setup.order / 2};
    pml_z_ = detail3d::axis_profile(setup, grid_.halo, 0);
    pml_y_ = detail3d::axis_profile(setup, grid_.halo, 1);
    pml_x_ = detail3d::axis_profile(setup, grid_.halo, 2);
    plan_ = make_kernel_plan_3d(grid_, pml_x_, pml_y_, pml_z_);

    device_->activate();
    std::vector<float> profiles;
    for (const PmlProfile* p : {&pml_x_, &pml_y_, &pml_z_})
        for (const std::vector<float>* v : {&p->a, &p->b, &p->b_over_a})
            profiles.insert(profiles.end(), v->begin(), v->end());
    profiles_ = upload_vector(*device_, profiles, "uploading the PML profiles");
    const auto cells = std::size_t(grid_.cells());
    c_ = device_->template alloc<float>(cells, "allocating the 3D model on the GPU");
    inv_c_ = device_->template alloc<float>(cells, "allocating the 3D model on the GPU");
    grad_c_ = device_->template alloc<float>(cells, "allocating the 3D gradient on the GPU");

    GridArgs3D& g = plan_.grid;
    float* p = profiles_.data();
    for (AxisPml* a : {&g.px, &g.py, &g.pz}) {
        const std::size_t n = a == &g.px ? pml_x_.a.size() : a == &g.py ? pml_y_.a.size() : pml_z_.a.size();
        a->a = p;
        a->b = p + n;
        a->b_over_a = p + 2 * n;
        p += 3 * n;
    }
    g.c = c_.data();
    g.inv_c = inv_c_.data();
}

template <class Device> PackedPropagator3D<Device>::~PackedPropagator3D() = default;

template <class Device>
float* PackedPropagator3D<Device>::scratch(Buffer<float>& buffer, std::size_t count, const char* what) const {
    if (buffer.size() < count) {
        buffer = Buffer<float>(); // free first: the old and the new size need not fit together
        buffer = device_->template alloc<float>(count, what);
    }
    return buffer.data();
}

template <class Device> void PackedPropagator3D<Device>::require_model() const {
    if (!has_model_) throw Error("3D propagator used before set_model");
}

template <class Device> void PackedPropagator3D<Device>::set_model(const Model& model) {
    if (!(model.grid == setup_.grid)) throw ConfigError("model grid differs from the propagator's grid");
    validate_model(model, "3D model");
    const std::span<const float> vp_mps = model.vp_mps;
    for (std::size_t i = 0; i < vp_mps.size(); ++i)
        if (vp_mps[i] > setup_.pml_velocity_mps * (1 + 1e-6)) {
            std::ostringstream m;
            m << "3D model velocity " << vp_mps[i] << " m/s at cell " << i
              << " exceeds the reference velocity " << setup_.pml_velocity_mps
              << " m/s that fixed the time step";
            throw ConfigError(m.str());
        }
    device_->activate();
    velocity_ = pad_model(grid_, vp_mps);
    // The CPU's arithmetic (double, then rounded), so that both backends start from the same c bit for bit.
    const double dt2 = setup_.dt_s * setup_.dt_s;
    std::vector<float> c(velocity_.size());
    inv_c_host_.resize(velocity_.size());
    for (std::size_t i = 0; i < velocity_.size(); ++i) {
        c[i] = float(double(velocity_[i]) * velocity_[i] * dt2);
        inv_c_host_[i] = 1.0f / c[i];
    }
    device_->upload(c_.data(), c.data(), c.size() * sizeof(float));
    device_->upload(inv_c_.data(), inv_c_host_.data(), inv_c_host_.size() * sizeof(float));
    has_model_ = true;
}

template <class Device> std::unique_ptr<WaveState> PackedPropagator3D<Device>::new_state() const {
    device_->activate();
    return std::make_unique<PackedWaveState3D<Device>>(*device_, plan_);
}

template <class Device> std::unique_ptr<AdjointState> PackedPropagator3D<Device>::new_adjoint_state() const {
    device_->activate();
    return std::make_unique<PackedAdjointState3D<Device>>(*device_, plan_);
}

template <class Device>
auto PackedPropagator3D<Device>::on_device(const ShotGeometry& geometry) const -> const Tables& {
    return geometries_.get(*device_, geometry, grid_.cells(), c_.data());
}

template <class Device>
void PackedPropagator3D<Device>::gather(const PackedWaveState3D<Device>& state, const Tables& geometry,
                                        float* out, std::int64_t stride) const {
    GatherArgs a = geometry.record;
    a.field = state.packed().current();
    a.out = out;
    a.out_stride = stride;
    device_->gather(a);
}

template <class Device>
void PackedPropagator3D<Device>::record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                                        std::int64_t trace_length) const {
    if (!traces || state.step >= trace_length) return;
    device_->activate();
    const Tables& d = on_device(geometry);
    if (d.receivers == 0) return;
    float* out = scratch(traces_, std::size_t(d.receivers), "allocating receiver samples on the GPU");
    gather(static_cast<const PackedWaveState3D<Device>&>(state), d, out, 1);
    device_->download_rows(traces + state.step, std::size_t(trace_length) * sizeof(float), out, sizeof(float),
                           sizeof(float), std::size_t(d.receivers));
}

template <class Device>
void PackedPropagator3D<Device>::step(PackedWaveState3D<Device>& state, const Tables* geometry,
                                      std::span<const float> source, float* snapshot,
                                      const float* secondary) {
    PackedFields3D<Device>& s = state.packed();
    const ForwardPtrs3D f{s.current(),   s.previous(),  s.variable(0), s.variable(1), s.variable(2),
                          s.variable(3), s.variable(4), s.variable(5), snapshot,      secondary};
    device_->forward_psi_3d(plan_.radius, plan_.grid, f);
    device_->forward_update_3d(plan_.radius, plan_.grid, f);
    const std::int64_t n = state.step;
    if (geometry && !secondary && n < std::int64_t(source.size())) {
        ScatterArgs a = geometry->source;
        a.amplitude = source[std::size_t(n)];
        a.dst = s.previous();
        a.snapshot = snapshot;
        device_->scatter(a);
    }
    s.swap();
    ++state.step;
}

template <class Device>
void PackedPropagator3D<Device>::forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                                         std::span<const float> source, float* traces,
                                         std::int64_t trace_length) {
    require_model();
    device_->activate();
    auto& s = static_cast<PackedWaveState3D<Device>&>(state);
    const Tables& d = on_device(geometry);
    // Samples n < trace_length are recorded (as CpuPropagator3D::record), buffered on the device in chunks of
    // up to kTraceChunkSteps steps, laid out [receiver][step], and downloaded once per chunk.
    const std::int64_t recorded =
        traces && d.receivers > 0 ? std::clamp<std::int64_t>(trace_length - s.step, 0, count) : 0;
    for (std::int64_t done = 0; done < count;) {
        const std::int64_t chunk = std::min(count - done, detail3d::kTraceChunkSteps);
        const std::int64_t rec = std::clamp<std::int64_t>(recorded - done, 0, chunk);
        const std::int64_t first = s.step;
        float* buffer = rec > 0 ? scratch(traces_, std::size_t(d.receivers * detail3d::kTraceChunkSteps),
                                          "allocating receiver samples on the GPU")
                                : nullptr;
        for (std::int64_t j = 0; j < chunk; ++j) {
            if (j < rec) gather(s, d, buffer + j, chunk);
            step(s, &d, source, nullptr, nullptr);
        }
        if (rec > 0)
            device_->download_rows(traces + first, std::size_t(trace_length) * sizeof(float), buffer,
                                   std::size_t(chunk) * sizeof(float), std::size_t(rec) * sizeof(float),
                                   std::size_t(d.receivers));
        done += chunk;
    }
}

template <class Device>
void PackedPropagator3D<Device>::forward_with_snapshot(WaveState& state, const ShotGeometry& geometry,
                                                       std::span<const float> source, float* traces,
                                                       std::int64_t trace_length, float* snapshot) {
    require_model();
    device_->activate();
    record(state, geometry, traces, trace_length);
    const auto cells = std::size_t(grid_.cells());
    float* d_snapshot = scratch(snapshot_out_, cells, "allocating the gradient snapshot on the GPU");
    step(static_cast<PackedWaveState3D<Device>&>(state), &on_device(geometry), source, d_snapshot, nullptr);
    // The halo of B^n is never written and stays zero (the CPU leaves the caller's values there; nobody reads
    // them).
    device_->download(snapshot, d_snapshot, cells * sizeof(float));
}

template <class Device>
void PackedPropagator3D<Device>::forward_scattered(WaveState& state, const float* secondary) {
    require_model();
    device_->activate();
    const auto cells = std::size_t(grid_.cells());
    float* d_secondary = scratch(upload_, cells, "allocating the Born source on the GPU");
    device_->upload(d_secondary, secondary, cells * sizeof(float));
    step(static_cast<PackedWaveState3D<Device>&>(state), nullptr, {}, nullptr, d_secondary);
}

template <class Device>
void PackedPropagator3D<Device>::adjoint(AdjointState& adj, const ShotGeometry& geometry,
                                         std::span<const float> residual, std::int64_t trace_length,
                                         const float* snapshot, float weight) {
    require_model();
    if (adj.step <= 0) throw Error("adjoint stepped past step 0");
    device_->activate();
    PackedFields3D<Device>& s = static_cast<PackedAdjointState3D<Device>&>(adj).packed();
    const auto cells = std::size_t(grid_.cells());
    const float* d_snapshot = nullptr;
    if (snapshot) {
        float* buffer = scratch(upload_, cells, "allocating the gradient snapshot on the GPU");
        device_->upload(buffer, snapshot, cells * sizeof(float));
        d_snapshot = buffer;
    }
    // r sits in psi's slot, s in zeta's (packed_state_3d.hpp).
    const AdjointPtrs3D f{s.current(),    s.previous(),  s.variable(0), s.variable(1),
                          s.variable(2),  s.variable(3), s.variable(4), s.variable(5),
                          grad_c_.data(), d_snapshot,    weight};
    device_->adjoint_s_3d(plan_.grid, f);
    device_->adjoint_r_3d(plan_.radius, plan_.grid, f);
    device_->adjoint_update_3d(plan_.radius, plan_.grid, f);
    const std::int64_t n = adj.step - 1;
    if (n < trace_length && !residual.empty()) {
        const Tables& d = on_device(geometry);
        if (std::int64_t(residual.size()) < std::int64_t(d.receivers) * trace_length)
            throw ConfigError("residual has " + std::to_string(residual.size()) + " samples; expected " +
                              std::to_string(d.receivers) + " receivers x " + std::to_string(trace_length));
        if (d.receivers > 0) {
            std::vector<float> values(std::size_t(d.receivers));
            for (std::size_t r = 0; r < values.size(); ++r)
                values[r] = residual[std::size_t(std::int64_t(r) * trace_length + n)];
            float* d_values = scratch(residual_, values.size(), "allocating residual samples on the GPU");
            device_->upload_small(d_values, values.data(), values.size() * sizeof(float));
            ScatterArgs a = d.inject;
            a.values = d_values;
            a.dst = s.previous();
            device_->scatter(a);
        }
    }
    s.swap();
    adj.step = n;
}

template <class Device>
void PackedPropagator3D<Device>::take_velocity_gradient(std::span<float> gradient_mps) {
    if (std::int64_t(gradient_mps.size()) != grid_.model.cells())
        throw ConfigError("gradient has " + std::to_string(gradient_mps.size()) + " cells; the model has " +
                          std::to_string(grid_.model.cells()));
    require_model();
    device_->activate();
    std::vector<float> grad(std::size_t(grid_.cells()));
    device_->download(grad.data(), grad_c_.data(), grad.size() * sizeof(float));
    // dJ/dv = E^T (dJ/dc * 2 v dt^2), as CpuPropagator3D::take_velocity_gradient.
    const double dt2 = setup_.dt_s * setup_.dt_s;
    for (std::size_t i = 0; i < grad.size(); ++i)
        grad[i] = float(grad[i] * 2.0 * velocity_[i] * dt2);
    fold_padded(grid_, grad, gradient_mps);
    device_->zero(grad_c_.data(), grad_c_.bytes());
}

template <class Device>
void PackedPropagator3D<Device>::download_model_region(const float* field, std::span<float> out) const {
    const std::int64_t mz = grid_.model.nz(), my = grid_.model.ny(), mx = grid_.model.nx();
    const std::int64_t o = grid_.origin(), ny = grid_.ny(), nx = grid_.nx();
    if (std::int64_t(out.size()) != mz * my * mx)
        throw ConfigError("output has " + std::to_string(out.size()) + " cells; the model has " +
                          std::to_string(mz * my * mx));
    device_->activate();
    for (std::int64_t iz = 0; iz < mz; ++iz) // one plane of my rows of mx at a time
        device_->download_rows(out.data() + iz * my * mx, std::size_t(mx) * sizeof(float),
                               field + ((iz + o) * ny + o) * nx + o, std::size_t(nx) * sizeof(float),
                               std::size_t(mx) * sizeof(float), std::size_t(my));
}

template <class Device>
void PackedPropagator3D<Device>::model_region_wavefield(const WaveState& state, std::span<float> out) const {
    download_model_region(static_cast<const PackedWaveState3D<Device>&>(state).packed().current(), out);
}

template <class Device>
void PackedPropagator3D<Device>::model_region_adjoint(const AdjointState& adj, std::span<float> out) const {
    require_model();
    download_model_region(static_cast<const PackedAdjointState3D<Device>&>(adj).packed().current(), out);
    std::vector<float> inv_c_model(out.size()); // lambda = mu / c on the model region
    extract_model_region(grid_, inv_c_host_.data(), inv_c_model);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] *= inv_c_model[i];
}

template <class Device>
std::vector<float>
PackedPropagator3D<Device>::padded_velocity_perturbation(std::span<const float> dv_mps) const {
    require_model();
    std::vector<float> dc = pad_model(grid_, dv_mps);
    const double dt2 = setup_.dt_s * setup_.dt_s;
    for (std::size_t i = 0; i < dc.size(); ++i)
        dc[i] = float(dc[i] * 2.0 * velocity_[i] * dt2);
    return dc;
}

} // namespace fwi::gpu
