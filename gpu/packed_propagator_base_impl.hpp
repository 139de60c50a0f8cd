#pragma once
// Definitions of PackedPropagatorBase; included by the rank's definitions (packed_propagator_impl.hpp,
// packed_propagator_3d_impl.hpp), which the files that instantiate a propagator include.
#include "packed_propagator_base.hpp"

#include "fwi/error.hpp"
#include "propagator/padding.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace fwi::gpu {

namespace detail {
inline constexpr std::int64_t kTraceChunkSteps = 512; // receiver samples buffered on the device per download
} // namespace detail

template <class Device, class Plan, class Wave, class Adjoint>
PackedPropagatorBase<Device, Plan, Wave, Adjoint>::PackedPropagatorBase(const PropagatorSetup& setup,
                                                                        std::unique_ptr<Device> device,
                                                                        std::string backend_name, int rank)
    : setup_(setup), backend_name_(std::move(backend_name)), device_(std::move(device)) {
    validate_propagator_setup(setup); // the same checks and messages as the CPU backend
    // The factories (host_twin.cpp, cuda_backend.cpp) pick the propagator of the grid's rank.
    if (setup.grid.rank != rank)
        throw ConfigError("the " + std::to_string(rank) + "D " + backend_name_ + " propagator was given a " +
                          std::to_string(setup.grid.rank) + "D grid");
    grid_ = PaddedGrid{setup.grid, setup.order, setup.pml_width, setup.order / 2, setup.free_surface};
}

template <class Device, class Plan, class Wave, class Adjoint>
PackedPropagatorBase<Device, Plan, Wave, Adjoint>::~PackedPropagatorBase() = default;

template <class Device, class Plan, class Wave, class Adjoint>
const float* PackedPropagatorBase<Device, Plan, Wave, Adjoint>::allocate(
    std::initializer_list<const PmlProfile*> profiles) {
    device_->activate();
    std::vector<float> host;
    for (const PmlProfile* p : profiles)
        for (const std::vector<float>* v : {&p->a, &p->b, &p->b_over_a})
            host.insert(host.end(), v->begin(), v->end());
    profiles_ = upload_vector(*device_, host, "uploading the PML profiles");
    const auto cells = std::size_t(grid_.cells());
    c_ = device_->template alloc<float>(cells, "allocating the model on the GPU");
    inv_c_ = device_->template alloc<float>(cells, "allocating the model on the GPU");
    grad_c_ = device_->template alloc<float>(cells, "allocating the gradient on the GPU");
    return profiles_.data();
}

template <class Device, class Plan, class Wave, class Adjoint>
float* PackedPropagatorBase<Device, Plan, Wave, Adjoint>::scratch(Buffer<float>& buffer, std::size_t count,
                                                                  const char* what) const {
    if (buffer.size() < count) {
        buffer = Buffer<float>(); // free first: the old and the new size need not fit together
        buffer = device_->template alloc<float>(count, what);
    }
    return buffer.data();
}

template <class Device, class Plan, class Wave, class Adjoint>
bool PackedPropagatorBase<Device, Plan, Wave, Adjoint>::in_own_memory(const float* snapshot) const {
    return snapshot != nullptr && own_snapshots_->contains(snapshot, std::size_t(grid_.cells()));
}

template <class Device, class Plan, class Wave, class Adjoint>
auto PackedPropagatorBase<Device, Plan, Wave, Adjoint>::lendable(std::size_t floats, const char* what)
    -> Buffer<float> {
    if (floats == 0) return {};
    device_->activate();
    const auto [free, total] = device_->memory_info();
    // What a run allocates after its snapshots and states: forward and adjoint states, the host-path snapshot
    // and trace scratch, and the runtime's own.
    const std::size_t headroom =
        16 * std::size_t(grid_.cells()) * sizeof(float) + (std::size_t(256) << 20) + total / 20;
    if (free < headroom || (free - headroom) / sizeof(float) < floats) return {};
    try {
        return device_->template alloc<float>(floats, what); // zeroed: a snapshot's halo must read as zero
    } catch (const ResourceError&) {
        return {}; // another process took the memory meanwhile: the run keeps these on the host
    }
}

template <class Device, class Plan, class Wave, class Adjoint>
std::unique_ptr<SnapshotMemory>
PackedPropagatorBase<Device, Plan, Wave, Adjoint>::snapshot_memory(std::int64_t floats) {
    if (floats <= 0) return nullptr;
    Buffer<float> memory = lendable(std::size_t(floats), "allocating gradient snapshots on the GPU");
    if (!memory.data()) return nullptr;
    return std::make_unique<OwnedSnapshotMemory<Buffer<float>>>(std::move(memory), own_snapshots_);
}

template <class Device, class Plan, class Wave, class Adjoint>
std::unique_ptr<StateSlots>
PackedPropagatorBase<Device, Plan, Wave, Adjoint>::state_slots(std::int64_t count) {
    const auto per_slot = std::size_t(plan_.state_floats());
    if (count <= 0 || per_slot == 0) return nullptr;
    Buffer<float> memory = lendable(std::size_t(count) * per_slot, "allocating checkpoint states on the GPU");
    if (!memory.data()) return nullptr;
    return std::make_unique<DeviceStateSlots<Device, Wave>>(*device_, std::move(memory), count, per_slot);
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::synchronize() {
    device_->activate();
    deliver_pending();
    device_->synchronize();
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::deliver_pending() {
    PendingSamples& p = pending_;
    if (p.count == 0) return;
    const std::int64_t count = p.count;
    p.count = 0; // delivered or not, these samples are not delivered twice
    device_->download_rows(p.traces + p.first, std::size_t(p.trace_length) * sizeof(float), p.samples.data(),
                           std::size_t(detail::kTraceChunkSteps) * sizeof(float),
                           std::size_t(count) * sizeof(float), std::size_t(p.receivers));
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::record_pending(const Wave& state,
                                                                       const ShotGeometry& shot,
                                                                       const Tables& geometry, float* traces,
                                                                       std::int64_t trace_length) {
    if (!traces || state.step >= trace_length || geometry.receivers == 0) return;
    PendingSamples& p = pending_;
    if (p.count > 0 && (p.shot != &shot || p.receivers != geometry.receivers || p.traces != traces ||
                        p.trace_length != trace_length || p.first + p.count != state.step ||
                        p.count == detail::kTraceChunkSteps))
        deliver_pending();
    if (p.count == 0) {
        const auto floats = std::size_t(geometry.receivers) * std::size_t(detail::kTraceChunkSteps);
        if (p.samples.size() < floats) {
            p.samples = Buffer<float>();
            p.samples = device_->template alloc<float>(floats, "allocating receiver samples on the GPU");
        }
        p.shot = &shot;
        p.receivers = geometry.receivers;
        p.traces = traces;
        p.trace_length = trace_length;
        p.first = state.step;
    }
    gather(state, geometry, p.samples.data() + p.count, detail::kTraceChunkSteps);
    ++p.count;
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::require_model() const {
    if (!has_model_) throw Error("propagator used before set_model");
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::set_model(const Model& model) {
    validate_model_for_setup(setup_, model); // the same checks and messages as the CPU backends
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

template <class Device, class Plan, class Wave, class Adjoint>
std::unique_ptr<WaveState> PackedPropagatorBase<Device, Plan, Wave, Adjoint>::new_state() const {
    device_->activate();
    return std::make_unique<Wave>(*device_, plan_);
}

template <class Device, class Plan, class Wave, class Adjoint>
std::unique_ptr<AdjointState> PackedPropagatorBase<Device, Plan, Wave, Adjoint>::new_adjoint_state() const {
    device_->activate();
    return std::make_unique<Adjoint>(*device_, plan_);
}

template <class Device, class Plan, class Wave, class Adjoint>
auto PackedPropagatorBase<Device, Plan, Wave, Adjoint>::on_device(const ShotGeometry& geometry) const
    -> const Tables& {
    return geometries_.get(*device_, geometry, grid_.cells(), c_.data());
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::gather(const Wave& state, const Tables& geometry,
                                                               float* out, std::int64_t stride) const {
    GatherArgs a = geometry.record;
    a.field = state.packed().current();
    a.out = out;
    a.out_stride = stride;
    device_->gather(a);
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::record(const WaveState& state,
                                                               const ShotGeometry& geometry, float* traces,
                                                               std::int64_t trace_length) const {
    if (!traces || state.step >= trace_length) return;
    device_->activate();
    const Tables& d = on_device(geometry);
    if (d.receivers == 0) return;
    float* out = scratch(traces_, std::size_t(d.receivers), "allocating receiver samples on the GPU");
    gather(static_cast<const Wave&>(state), d, out, 1);
    device_->download_rows(traces + state.step, std::size_t(trace_length) * sizeof(float), out, sizeof(float),
                           sizeof(float), std::size_t(d.receivers));
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::step(Wave& state, const Tables* geometry,
                                                             std::span<const float> source, float* snapshot,
                                                             const float* secondary) {
    Fields& s = state.packed();
    launch_forward(s, snapshot, secondary);
    const std::int64_t n = state.step;
    if (geometry && !secondary && n < std::int64_t(source.size())) {
        ScatterArgs a = geometry->source;
        a.amplitude = source[std::size_t(n)];
        a.dst = s.previous();
        a.snapshot = snapshot;
        device_->scatter(a);
    }
    mirror(s.previous());
    s.swap();
    ++state.step;
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::mirror(float* field) const {
    if (!grid_.free_surface) return;
    MirrorArgs a;
    a.field = field;
    a.surface = grid_.origin();
    a.plane = grid_.ny() * grid_.nx();
    a.radius = grid_.halo;
    device_->mirror(a);
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::forward(WaveState& state, std::int64_t count,
                                                                const ShotGeometry& geometry,
                                                                std::span<const float> source, float* traces,
                                                                std::int64_t trace_length) {
    require_model();
    device_->activate();
    auto& s = static_cast<Wave&>(state);
    const Tables& d = on_device(geometry);
    // Samples n < trace_length are recorded (as the CPU backend's record), buffered on the device in chunks
    // of up to kTraceChunkSteps steps, laid out [receiver][step], and downloaded once per chunk.
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

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::forward_with_snapshot(
    WaveState& state, const ShotGeometry& geometry, std::span<const float> source, float* traces,
    std::int64_t trace_length, float* snapshot) {
    require_model();
    device_->activate();
    if (in_own_memory(snapshot)) { // written in place, on the device; samples delivered by chunks
        const Tables& d = on_device(geometry);
        record_pending(static_cast<const Wave&>(state), geometry, d, traces, trace_length);
        step(static_cast<Wave&>(state), &d, source, snapshot, nullptr);
        return;
    }
    record(state, geometry, traces, trace_length);
    const auto cells = std::size_t(grid_.cells());
    float* d_snapshot = scratch(snapshot_out_, cells, "allocating the gradient snapshot on the GPU");
    step(static_cast<Wave&>(state), &on_device(geometry), source, d_snapshot, nullptr);
    // The halo of B^n is never written and stays zero (the CPU leaves the caller's values there; nobody reads
    // them).
    device_->download(snapshot, d_snapshot, cells * sizeof(float));
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::forward_scattered(WaveState& state,
                                                                          const float* secondary) {
    require_model();
    device_->activate();
    const auto cells = std::size_t(grid_.cells());
    float* d_secondary = scratch(upload_, cells, "allocating the Born source on the GPU");
    device_->upload(d_secondary, secondary, cells * sizeof(float));
    step(static_cast<Wave&>(state), nullptr, {}, nullptr, d_secondary);
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::adjoint(AdjointState& adj,
                                                                const ShotGeometry& geometry,
                                                                std::span<const float> residual,
                                                                std::int64_t trace_length,
                                                                const float* snapshot, float weight) {
    require_model();
    if (adj.step <= 0) throw Error("adjoint stepped past step 0");
    device_->activate();
    Fields& s = static_cast<Adjoint&>(adj).packed();
    const auto cells = std::size_t(grid_.cells());
    const float* d_snapshot = nullptr;
    if (in_own_memory(snapshot)) {
        d_snapshot = snapshot; // read in place
    } else if (snapshot) {
        float* buffer = scratch(upload_, cells, "allocating the gradient snapshot on the GPU");
        device_->upload(buffer, snapshot, cells * sizeof(float));
        d_snapshot = buffer;
    }
    launch_adjoint(s, d_snapshot, weight);
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
    mirror(s.previous());
    s.swap();
    adj.step = n;
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::take_velocity_gradient(
    std::span<float> gradient_mps) {
    if (std::int64_t(gradient_mps.size()) != grid_.model.cells())
        throw ConfigError("gradient has " + std::to_string(gradient_mps.size()) + " cells; the model has " +
                          std::to_string(grid_.model.cells()));
    require_model();
    device_->activate();
    std::vector<float> grad(std::size_t(grid_.cells()));
    device_->download(grad.data(), grad_c_.data(), grad.size() * sizeof(float));
    fold_velocity_gradient(grid_, grad, velocity_, setup_.dt_s, gradient_mps); // as the CPU backends
    device_->zero(grad_c_.data(), grad_c_.bytes());
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::download_model_region(const float* field,
                                                                              std::span<float> out) const {
    const std::int64_t mz = grid_.model.nz(), my = grid_.model.ny(), mx = grid_.model.nx();
    const std::int64_t o = grid_.origin(), oy = grid_.origin_y(), ny = grid_.ny(), nx = grid_.nx();
    if (std::int64_t(out.size()) != mz * my * mx)
        throw ConfigError("output has " + std::to_string(out.size()) + " cells; the model has " +
                          std::to_string(mz * my * mx));
    device_->activate();
    if (!grid_.three_d()) { // one 2D copy of mz rows of mx
        device_->download_rows(out.data(), std::size_t(mx) * sizeof(float), field + o * nx + o,
                               std::size_t(nx) * sizeof(float), std::size_t(mx) * sizeof(float),
                               std::size_t(mz));
        return;
    }
    for (std::int64_t iz = 0; iz < mz; ++iz) // one plane of my rows of mx at a time
        device_->download_rows(out.data() + iz * my * mx, std::size_t(mx) * sizeof(float),
                               field + ((iz + o) * ny + oy) * nx + o, std::size_t(nx) * sizeof(float),
                               std::size_t(mx) * sizeof(float), std::size_t(my));
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::model_region_wavefield(const WaveState& state,
                                                                               std::span<float> out) const {
    download_model_region(static_cast<const Wave&>(state).packed().current(), out);
}

template <class Device, class Plan, class Wave, class Adjoint>
void PackedPropagatorBase<Device, Plan, Wave, Adjoint>::model_region_adjoint(const AdjointState& adj,
                                                                             std::span<float> out) const {
    require_model();
    download_model_region(static_cast<const Adjoint&>(adj).packed().current(), out);
    std::vector<float> inv_c_model(out.size()); // lambda = mu / c on the model region
    extract_model_region(grid_, inv_c_host_.data(), inv_c_model);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] *= inv_c_model[i];
}

template <class Device, class Plan, class Wave, class Adjoint>
std::vector<float> PackedPropagatorBase<Device, Plan, Wave, Adjoint>::padded_velocity_perturbation(
    std::span<const float> dv_mps) const {
    require_model();
    std::vector<float> dc = pad_model(grid_, dv_mps);
    const double dt2 = setup_.dt_s * setup_.dt_s;
    for (std::size_t i = 0; i < dc.size(); ++i)
        dc[i] = float(dc[i] * 2.0 * velocity_[i] * dt2);
    return dc;
}

} // namespace fwi::gpu
