// The performance model's step and per-item prices, measured on the run's own propagator (a scratch state,
// no source): forward, forward with snapshot and adjoint steps, state copies, first touch of fresh memory.
#include "fwi/run_plan.hpp"

#include "engine/snapshot_arena.hpp"
#include "engine/warm_up.hpp"
#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "runtime/seconds_since.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

namespace fwi {
namespace {

using Clock = std::chrono::steady_clock;

// Assumed disk tier (a local SSD behind the page cache) until a run with a disk tier measures its own
// (with_disk_tier). Only the multilevel choice and the prediction use it.
constexpr double disk_bytes_per_s = 1e9;
constexpr double disk_s_per_file = 2e-4;

/// The least of `tries` timings (`once` returns seconds): on a shared machine noise only ever adds time.
template <class Once> double least_of(int tries, Once&& once) {
    double best = once();
    for (int attempt = 1; attempt < tries; ++attempt)
        best = std::min(best, once());
    return best;
}

} // namespace

StepCosts measure_step_costs(Simulation& sim, int probe_steps) {
    // The probe does a shot's set-up as a gradient does (its traces at both rates): refused here, before it
    // allocates them, where the gradient could not hold them (4 shots of 10^6 receivers took `fwi plan` to
    // 8.3 GB).
    check_gradient_trace_memory(sim, false);
    if (probe_steps < 1) throw ConfigError("probe steps must be >= 1");
    Propagator& p = sim.propagator();
    const std::int64_t cells = p.padded().cells();
    StepCosts c;
    auto state = p.new_state();
    std::uint64_t raw = 0;
    std::size_t fields = 0;
    for (const FieldView& f : state->fields()) {
        raw += std::uint64_t(f.size()) * sizeof(float);
        ++fields;
    }
    // Stored sizes include one frame header per field: what the store charges against the budget.
    c.state_bytes = raw + fields * codec_frame_header_bytes;
    c.snapshot_bytes = std::uint64_t(cells) * sizeof(float) + codec_frame_header_bytes;
    c.sampling_interval = 1;

    // A scratch shot with the middle shot's source, wavelet and receivers: the run's kernels, loop bounds,
    // source injection, receiver recording and residual injection, none of its state. On a GPU a small
    // grid's step is bound by its launches and the host's work per step, and the source scatter, receiver
    // gather and residual upload and scatter are three of a step's six or seven (a source-free probe priced
    // Marmousi-II's CUDA steps at half what the run took). Steps are timed in the calls the executor makes,
    // in batches of at least `probe_steps` steps and 10 ms; a batch wraps around at max_steps.
    const std::size_t shots = sim.acquisition().shots.size();
    const ShotGeometry none;
    const ShotGeometry& geometry = shots > 0 ? sim.geometry(shots / 2) : none;
    const std::int64_t max_steps = std::max<std::int64_t>(probe_steps, 256);
    const std::int64_t trace_length = max_steps + 2;
    const std::vector<float>& source = sim.inner_source();
    // The receivers' samples, and zeroed, the adjoint's residual: one buffer, released before the shot
    // set-up.
    std::vector<float> traces(geometry.receivers.size() * std::size_t(trace_length), 0.0f);
    // The least of three batches (least_of). `step` makes one call and returns the steps it ran. A GPU's
    // steps are queued: each batch starts and stops on an idle device (its throughput, as in a run).
    const auto time_steps = [&](auto&& step) {
        step(); // warm caches and threads
        return least_of(3, [&] {
            p.synchronize();
            const auto t0 = Clock::now();
            std::int64_t n = 0;
            while (n < max_steps && (n < probe_steps || seconds_since(t0) < 0.01))
                n += step();
            p.synchronize();
            return seconds_since(t0) / double(n);
        });
    };
    // Steps that keep no snapshot go as the executor asks for them, several per call (a GPU downloads the
    // receiver samples once per call: a step per call cost the Marmousi-II shot twice its time per step).
    const std::int64_t per_call = std::min(
        forward_steps_per_call(sim.time().inner_nt, std::int64_t(geometry.receivers.size())), max_steps);
    // A recomputed step records no receiver samples (traces == nullptr).
    const auto forward_steps = [&](float* record) {
        if (state->step + per_call > max_steps) state->step = 0;
        p.forward(*state, per_call, geometry, source, record, trace_length);
        return per_call;
    };
    const auto forward_step = [&] { return forward_steps(traces.data()); };
    warm_up(forward_step); // the process's first steps run slower (warm_up.hpp)
    c.forward_step_s = time_steps(forward_step);
    c.recompute_step_s = time_steps([&] { return forward_steps(nullptr); });
    // Snapshots where the executor keeps them: in the backend's own memory when it has some (a GPU's), else
    // on the host.
    ZeroedVector host_snapshot(static_cast<std::size_t>(cells)); // line-aligned like the arena's slots
    const std::unique_ptr<SnapshotMemory> own = p.snapshot_memory(cells);
    float* snapshot = own ? own->data() : host_snapshot.data();
    // Kept snapshots as the executor writes them into the arena (the CPU streams them past its caches).
    const auto forward_with_snapshot_s = [&](float* out, bool kept) {
        return time_steps([&] {
            if (state->step >= max_steps) state->step = 0;
            if (kept)
                p.forward_with_kept_snapshot(*state, geometry, source, traces.data(), trace_length, out);
            else
                p.forward_with_snapshot(*state, geometry, source, traces.data(), trace_length, out);
            return std::int64_t(1);
        });
    };
    const double with_snapshot_s = forward_with_snapshot_s(snapshot, true);
    c.snapshot_write_s = std::max(0.0, with_snapshot_s - c.forward_step_s);
    // The adjoint step of a gradient run also accumulates lambda * B: time it with a snapshot. The adjoint
    // field stays zero (zero residual), so it adds exact zeros to the propagator's gradient accumulator.
    auto adj = p.new_adjoint_state();
    const auto adjoint_s = [&](const float* in) {
        p.synchronize(); // no recording still writes the traces
        std::fill(traces.begin(), traces.end(), 0.0f);
        adj->step = max_steps + 1;
        return time_steps([&] {
            if (adj->step < 1) adj->step = max_steps + 1;
            p.adjoint(*adj, geometry, traces, trace_length, in, 1.0f);
            return std::int64_t(1);
        });
    };
    c.adjoint_step_s = adjoint_s(snapshot);
    // A snapshot the store codes leaves the backend's memory after its forward step and comes back for its
    // adjoint step: the difference of the host-memory steps.
    if (own)
        c.snapshot_transfer_s =
            std::max(0.0, forward_with_snapshot_s(host_snapshot.data(), false) - with_snapshot_s) +
            std::max(0.0, adjoint_s(host_snapshot.data()) - c.adjoint_step_s);
    c.backend_memory = own != nullptr;
    // A state's way out and back, the mean of the two, the least of three synchronised tries.
    const auto out_and_back_s = [&](auto&& out, auto&& back) {
        return least_of(3, [&] {
            p.synchronize();
            const auto t0 = Clock::now();
            out();
            back();
            p.synchronize();
            return seconds_since(t0) / 2;
        });
    };
    // Into a slot of the backend's memory and back (a device copy each way).
    if (const std::unique_ptr<StateSlots> slot = own ? p.state_slots(1) : nullptr)
        c.backend_state_copy_s =
            out_and_back_s([&] { slot->save(*state, 0); }, [&] { slot->load(0, *state); });
    // A state stored leaves the backend (to_host) and a state restored goes back (from_host): nothing on the
    // CPU, PCIe on a GPU.
    c.state_transfer_s = out_and_back_s([&] { state->to_host(); }, [&] { state->from_host(); });

    std::vector<float>().swap(traces); // the set-up below holds a shot's traces at both rates

    // A shot's work outside its steps, as the executor does it: its two states renewed (cleared where the
    // backend can, made again where not: renew_state), the traces zeroed, taken to the user's rate and an
    // adjoint source back, the gradient fetched (a model-sized download, as model_region_wavefield's); the
    // least of two tries (the first pays the process's first resampling plans and fresh pages: 0.54 s against
    // the 3D Marmousi-II run's 0.03 s per shot). The run's first shot also makes its two states, once: not
    // charged (tens of milliseconds on a 1000^2 grid, beside seconds of steps).
    if (shots > 0) {
        const auto receivers = std::int64_t(geometry.receivers.size());
        std::vector<float> inner, adjoint_source, model_field(std::size_t(p.padded().model.cells()));
        std::unique_ptr<WaveState> shot_state = p.new_state();
        std::unique_ptr<AdjointState> shot_adjoint = p.new_adjoint_state();
        c.shot_setup_s = least_of(2, [&] {
            p.synchronize();
            const auto t0 = Clock::now();
            renew_state(p, shot_state);
            renew_state(p, shot_adjoint);
            inner.assign(std::size_t(receivers * sim.time().inner_nt), 0.0f);
            const Gather gather = sim.gather_from_inner(shots / 2, inner);
            sim.to_inner_rate_adjoint(gather.traces, receivers, adjoint_source); // reused, as by the run
            p.model_region_wavefield(*shot_state, model_field);
            p.synchronize();
            return seconds_since(t0);
        });
    }

    // RAM tier: a copy of a state into memory already in use (items reuse freed memory), and the extra cost
    // of touching fresh pages, which the model charges once for the plan's peak.
    const std::size_t floats = raw / sizeof(float);
    const auto copy_into = [&](float* out) {
        const auto t0 = Clock::now();
        std::size_t offset = 0;
        for (const FieldView& f : state->fields()) {
            if (f.size() > 0) // an empty field (no PML: no auxiliaries) may have no data pointer at all
                std::memcpy(out + offset, f.data, std::size_t(f.size()) * sizeof(float));
            offset += std::size_t(f.size());
        }
        return std::max(1e-9, seconds_since(t0));
    };
    std::vector<float> warm(floats, 0.0f);
    const double copy_s = least_of(2, [&] { return copy_into(warm.data()); });
    const double bytes = double(std::max<std::uint64_t>(raw, 1));
    const double per_byte = copy_s / bytes;
    // Fresh memory is mapped as the SnapshotArena maps it (populated by the kernel on the team), at least
    // 64 MiB of it, the least of two tries.
    const std::size_t touch_bytes = std::max<std::size_t>(std::size_t(raw), std::size_t(64) << 20);
    const double touch_s = least_of(2, [&] {
        const auto t0 = Clock::now();
        void* fresh = map_touched_memory(touch_bytes);
        const double s = seconds_since(t0);
        unmap_touched_memory(fresh, touch_bytes);
        return s;
    });
    c.first_touch_s_per_byte = touch_s / double(touch_bytes);
    c.tiers = {TierCosts{0, 0, per_byte, per_byte},
               TierCosts{disk_s_per_file, disk_s_per_file, 1.0 / disk_bytes_per_s, 1.0 / disk_bytes_per_s}};
    return c;
}

} // namespace fwi
