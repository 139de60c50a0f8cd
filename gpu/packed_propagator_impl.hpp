#pragma once
// Definitions of PackedPropagator<Device>; included only by the two files that instantiate it
// (cuda_propagator.cu for CudaDevice, host_twin.cpp for HostDevice).
#include "packed_propagator.hpp"

#include "fwi/error.hpp"
#include "propagator/padding.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace fwi::gpu {

namespace detail {
inline constexpr std::int64_t kTraceChunkSteps = 512; // receiver samples buffered on the device per download
} // namespace detail

template <class Device>
PackedPropagator<Device>::PackedPropagator(const PropagatorSetup& setup, std::unique_ptr<Device> device,
                                           std::string backend_name)
    : setup_(setup), backend_name_(std::move(backend_name)), device_(std::move(device)) {
    validate_propagator_setup(setup); // the same checks and messages as the CPU backend
    // The factories (host_twin.cpp, cuda_backend.cpp) build PackedPropagator3D for a 3D grid.
    if (setup.grid.rank != 2)
        throw ConfigError("the 2D " + backend_name_ + " propagator was given a " +
                          std::to_string(setup.grid.rank) + "D grid");
    grid_ = PaddedGrid{setup.grid, setup.order, setup.pml_width, setup.order / 2};
    pml_x_ = make_pml_profile(setup.grid.nx(), setup.pml_width, grid_.halo, setup.grid.dx(), setup.dt_s,
                              setup.pml_velocity_mps, setup.freq_hz, setup.pml_reflection);
    pml_z_ = make_pml_profile(setup.grid.nz(), setup.pml_width, grid_.halo, setup.grid.dz(), setup.dt_s,
                              setup.pml_velocity_mps, setup.freq_hz, setup.pml_reflection);
    plan_ = make_kernel_plan(grid_, pml_x_, pml_z_);

    device_->activate();
    std::vector<float> profiles;
    for (const PmlProfile* p : {&pml_x_, &pml_z_})
        for (const std::vector<float>* v : {&p->a, &p->b, &p->b_over_a})
            profiles.insert(profiles.end(), v->begin(), v->end());
    profiles_ = upload_vector(*device_, profiles, "uploading the PML profiles");
    const auto cells = std::size_t(grid_.cells());
    c_ = device_->template alloc<float>(cells, "allocating the model on the GPU");
    inv_c_ = device_->template alloc<float>(cells, "allocating the model on the GPU");
    grad_c_ = device_->template alloc<float>(cells, "allocating the gradient on the GPU");

    GridArgs& g = plan_.grid;
    const auto nx = std::size_t(g.nx), nz = std::size_t(g.nz);
    float* p = profiles_.data();
    g.px.a = p;
    g.px.b = p + nx;
    g.px.b_over_a = p + 2 * nx;
    g.pz.a = p + 3 * nx;
    g.pz.b = p + 3 * nx + nz;
    g.pz.b_over_a = p + 3 * nx + 2 * nz;
    g.c = c_.data();
    g.inv_c = inv_c_.data();
}

template <class Device> PackedPropagator<Device>::~PackedPropagator() = default;

template <class Device>
float* PackedPropagator<Device>::scratch(Buffer<float>& buffer, std::size_t count, const char* what) const {
    if (buffer.size() < count) {
        buffer = Buffer<float>(); // free first: the old and the new size need not fit together
        buffer = device_->template alloc<float>(count, what);
    }
    return buffer.data();
}

template <class Device> void PackedPropagator<Device>::require_model() const {
    if (!has_model_) throw Error("propagator used before set_model");
}

template <class Device> void PackedPropagator<Device>::set_model(const Model& model) {
    if (!(model.grid == setup_.grid)) throw ConfigError("model grid differs from the propagator's grid");
    validate_model(model);
    device_->activate();
    velocity_ = pad_model(grid_, model.vp_mps);
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

template <class Device> std::unique_ptr<WaveState> PackedPropagator<Device>::new_state() const {
    device_->activate();
    return std::make_unique<PackedWaveState<Device>>(*device_, plan_);
}

template <class Device> std::unique_ptr<AdjointState> PackedPropagator<Device>::new_adjoint_state() const {
    device_->activate();
    return std::make_unique<PackedAdjointState<Device>>(*device_, plan_);
}

template <class Device>
auto PackedPropagator<Device>::on_device(const ShotGeometry& geometry) const -> const Tables& {
    return geometries_.get(*device_, geometry, grid_.cells(), c_.data());
}

template <class Device>
void PackedPropagator<Device>::gather(const PackedWaveState<Device>& state, const Tables& geometry,
                                      float* out, std::int64_t stride) const {
    GatherArgs a = geometry.record;
    a.field = state.packed().current();
    a.out = out;
    a.out_stride = stride;
    device_->gather(a);
}

template <class Device>
void PackedPropagator<Device>::record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                                      std::int64_t trace_length) const {
    if (!traces || state.step >= trace_length) return;
    device_->activate();
    const Tables& d = on_device(geometry);
    if (d.receivers == 0) return;
    float* out = scratch(traces_, std::size_t(d.receivers), "allocating receiver samples on the GPU");
    gather(static_cast<const PackedWaveState<Device>&>(state), d, out, 1);
    device_->download_rows(traces + state.step, std::size_t(trace_length) * sizeof(float), out, sizeof(float),
                           sizeof(float), std::size_t(d.receivers));
}

template <class Device>
void PackedPropagator<Device>::step(PackedWaveState<Device>& state, const Tables* geometry,
                                    std::span<const float> source, float* snapshot, const float* secondary) {
    PackedFields<Device>& s = state.packed();
    const ForwardPtrs f{s.current(), s.previous(), s.x_strips(), s.z_strips(), snapshot, secondary};
    const GridArgs& g = plan_.grid;
    device_->forward_psi(plan_.radius, g, f, plan_.layers);
    device_->forward_interior(plan_.radius, g, f);
    device_->forward_pml(plan_.radius, g, f, plan_.zones);
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
void PackedPropagator<Device>::forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                                       std::span<const float> source, float* traces,
                                       std::int64_t trace_length) {
    require_model();
    device_->activate();
    auto& s = static_cast<PackedWaveState<Device>&>(state);
    const Tables& d = on_device(geometry);
    // Samples n < trace_length are recorded (as CpuPropagator::record); they are buffered on the device in
    // chunks of up to kTraceChunkSteps steps, laid out [receiver][step], and downloaded once per chunk.
    const std::int64_t recorded =
        traces && d.receivers > 0 ? std::clamp<std::int64_t>(trace_length - s.step, 0, count) : 0;
    for (std::int64_t done = 0; done < count;) {
        const std::int64_t chunk = std::min(count - done, detail::kTraceChunkSteps);
        const std::int64_t rec = std::clamp<std::int64_t>(recorded - done, 0, chunk);
        const std::int64_t first = s.step;
        float* buffer = rec > 0 ? scratch(traces_, std::size_t(d.receivers * detail::kTraceChunkSteps),
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
void PackedPropagator<Device>::forward_with_snapshot(WaveState& state, const ShotGeometry& geometry,
                                                     std::span<const float> source, float* traces,
                                                     std::int64_t trace_length, float* snapshot) {
    require_model();
    device_->activate();
    record(state, geometry, traces, trace_length);
    const auto cells = std::size_t(grid_.cells());
    float* d_snapshot = scratch(snapshot_out_, cells, "allocating the gradient snapshot on the GPU");
    step(static_cast<PackedWaveState<Device>&>(state), &on_device(geometry), source, d_snapshot, nullptr);
    // The halo of B^n is never written and stays zero (the CPU leaves the caller's values there; nobody reads
    // them).
    device_->download(snapshot, d_snapshot, cells * sizeof(float));
}

template <class Device>
void PackedPropagator<Device>::forward_scattered(WaveState& state, const float* secondary) {
    require_model();
    device_->activate();
    const auto cells = std::size_t(grid_.cells());
    float* d_secondary = scratch(upload_, cells, "allocating the Born source on the GPU");
    device_->upload(d_secondary, secondary, cells * sizeof(float));
    step(static_cast<PackedWaveState<Device>&>(state), nullptr, {}, nullptr, d_secondary);
}

template <class Device>
void PackedPropagator<Device>::adjoint(AdjointState& adj, const ShotGeometry& geometry,
                                       std::span<const float> residual, std::int64_t trace_length,
                                       const float* snapshot, float weight) {
    require_model();
    if (adj.step <= 0) throw Error("adjoint stepped past step 0");
    device_->activate();
    PackedFields<Device>& s = static_cast<PackedAdjointState<Device>&>(adj).packed();
    const auto cells = std::size_t(grid_.cells());
    const float* d_snapshot = nullptr;
    if (snapshot) {
        float* buffer = scratch(upload_, cells, "allocating the gradient snapshot on the GPU");
        device_->upload(buffer, snapshot, cells * sizeof(float));
        d_snapshot = buffer;
    }
    const AdjointPtrs f{s.current(),    s.previous(), s.x_strips(), s.z_strips(),
                        grad_c_.data(), d_snapshot,   weight};
    const GridArgs& g = plan_.grid;
    device_->adjoint_s(g, f, plan_.layers);
    device_->adjoint_r(plan_.radius, g, f, plan_.layers);
    device_->adjoint_interior(plan_.radius, g, f);
    device_->adjoint_pml(plan_.radius, g, f, plan_.zones);
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

template <class Device> void PackedPropagator<Device>::take_velocity_gradient(std::span<float> gradient_mps) {
    if (std::int64_t(gradient_mps.size()) != grid_.model.cells())
        throw ConfigError("gradient has " + std::to_string(gradient_mps.size()) + " cells; the model has " +
                          std::to_string(grid_.model.cells()));
    require_model();
    device_->activate();
    std::vector<float> grad(std::size_t(grid_.cells()));
    device_->download(grad.data(), grad_c_.data(), grad.size() * sizeof(float));
    // dJ/dv = E^T (dJ/dc * 2 v dt^2), as CpuPropagator::take_velocity_gradient.
    const double dt2 = setup_.dt_s * setup_.dt_s;
    for (std::size_t i = 0; i < grad.size(); ++i)
        grad[i] = float(grad[i] * 2.0 * velocity_[i] * dt2);
    fold_padded(grid_, grad, gradient_mps);
    device_->zero(grad_c_.data(), grad_c_.bytes());
}

template <class Device>
void PackedPropagator<Device>::download_model_region(const float* field, std::span<float> out) const {
    const std::int64_t mz = grid_.model.nz(), mx = grid_.model.nx(), o = grid_.origin(), nx = grid_.nx();
    if (std::int64_t(out.size()) != mz * mx)
        throw ConfigError("output has " + std::to_string(out.size()) + " cells; the model has " +
                          std::to_string(mz * mx));
    device_->activate();
    device_->download_rows(out.data(), std::size_t(mx) * sizeof(float), field + o * nx + o,
                           std::size_t(nx) * sizeof(float), std::size_t(mx) * sizeof(float), std::size_t(mz));
}

template <class Device>
void PackedPropagator<Device>::model_region_wavefield(const WaveState& state, std::span<float> out) const {
    download_model_region(static_cast<const PackedWaveState<Device>&>(state).packed().current(), out);
}

template <class Device>
void PackedPropagator<Device>::model_region_adjoint(const AdjointState& adj, std::span<float> out) const {
    require_model();
    download_model_region(static_cast<const PackedAdjointState<Device>&>(adj).packed().current(), out);
    // lambda = mu / c on the model region
    const std::int64_t o = grid_.origin(), nx = grid_.model.nx();
    for (std::int64_t iz = 0; iz < grid_.model.nz(); ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            out[std::size_t(iz * nx + ix)] *= inv_c_host_[std::size_t((iz + o) * grid_.nx() + ix + o)];
}

template <class Device>
std::vector<float>
PackedPropagator<Device>::padded_velocity_perturbation(std::span<const float> dv_mps) const {
    require_model();
    std::vector<float> dc = pad_model(grid_, dv_mps);
    const double dt2 = setup_.dt_s * setup_.dt_s;
    for (std::size_t i = 0; i < dc.size(); ++i)
        dc[i] = float(dc[i] * 2.0 * velocity_[i] * dt2);
    return dc;
}

} // namespace fwi::gpu
