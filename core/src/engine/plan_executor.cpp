#include "engine/plan_executor.hpp"

#include "fwi/checkpoint_store.hpp"
#include "fwi/error.hpp"
#include "fwi/run_plan.hpp"
#include "runtime/seconds_since.hpp"

#include <algorithm>

namespace fwi {

PlanExecutor::PlanExecutor(Simulation& sim, const GradientOptions& options,
                           std::chrono::steady_clock::time_point t0)
    : sim_(sim), options_(options), t0_(t0) {
    ResolvedPlan resolved = resolve_plan(sim, options.settings);
    // Planning ends here: making the storage (mapping and touching the snapshot arena) is part of the run,
    // as the performance model charges it.
    planning_seconds_ = wall();
    plan_ = std::move(resolved.plan);
    plan_name_ = resolved.schedule;
    if (resolved.adaptive) adaptive_ = std::make_unique<AdaptiveRevolveSchedule>(*resolved.adaptive);
    predicted_shot_s_ = resolved.prediction.total_s;
    tiers_ = resolved.tiers;
    // Later shots reuse the memory the first one touched.
    predicted_first_touch_s_ = resolved.prediction.first_touch_s;
    // Tier-0 state slots the plan uses (an adaptive plan picks its own: its states stay in the store).
    std::int64_t memory_state_slots = 0;
    if (!adaptive_)
        for (const Action& a : plan_)
            if (a.type == ActionType::Store && a.tier == 0)
                memory_state_slots = std::max<std::int64_t>(memory_state_slots, a.slot + 1);
    storage_ = make_item_storage(
        options.settings, resolved.tiers, resolved.prediction.counts.peak_kept_snapshots,
        sim.propagator().padded().cells(), adaptive_ != nullptr, &sim.propagator(), memory_state_slots);
    snapshot_.resize(std::size_t(sim.propagator().padded().cells())); // zeros (zeroed_allocator.hpp)
    reverse_scratch_ = sim.propagator().snapshot_memory(sim.propagator().padded().cells());
}

PlanExecutor::~PlanExecutor() = default;

double PlanExecutor::wall() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

void PlanExecutor::emit(EventType type, std::int64_t step, std::int64_t steps, int tier, std::uint64_t bytes,
                        double seconds) {
    if (!options_.observer) return;
    Event e;
    e.type = type;
    e.wall_s = wall();
    e.step = step;
    e.steps = steps;
    e.shot = shot_;
    e.tier = tier;
    e.bytes = bytes;
    e.seconds = seconds;
    e.bytes_per_tier = storage_->bytes_in_use();
    options_.observer->on_event(e);
}

void PlanExecutor::emit_codec_time(std::int64_t step) {
    if (!options_.observer) return;
    const double c = storage_->compress_seconds(), d = storage_->decompress_seconds();
    if (c > compress_reported_s_) emit(EventType::Compress, step, 0, -1, 0, c - compress_reported_s_);
    if (d > decompress_reported_s_) emit(EventType::Decompress, step, 0, -1, 0, d - decompress_reported_s_);
    compress_reported_s_ = c;
    decompress_reported_s_ = d;
}

void PlanExecutor::advance(WaveState& state, std::int64_t to, bool keep_snapshots) {
    Propagator& p = sim_.propagator();
    const ShotGeometry& g = sim_.geometry(std::size_t(shot_));
    const std::int64_t inner_nt = sim_.time().inner_nt;
    const int k = options_.settings.sampling_interval;
    const std::int64_t chunk = forward_steps_per_call(inner_nt, std::int64_t(g.receivers.size()));
    const auto& model = p.padded().model;
    std::vector<float> view;
    while (state.step < to) {
        if (options_.cancel) options_.cancel->checkpoint();
        const std::int64_t from = state.step;
        const bool first_time = from >= recorded_upto_;
        float* traces = first_time ? inner_traces_.data() : nullptr;
        // Steps are recorded only once; a chunk never straddles the recorded frontier.
        std::int64_t end = std::min(to, from + chunk);
        if (!first_time) end = std::min(end, recorded_upto_);
        if (keep_snapshots) {
            for (std::int64_t n = from; n < end; ++n) {
                if (n % k == 0) {
                    // Straight into its place in the store when it keeps snapshots in memory as they are.
                    float* slot = storage_->snapshot_slot(n);
                    const auto t0 = std::chrono::steady_clock::now();
                    if (slot != nullptr) // kept until the adjoint sweep reads it
                        p.forward_with_kept_snapshot(state, g, sim_.inner_source(), traces, inner_nt, slot);
                    else
                        p.forward_with_snapshot(state, g, sim_.inner_source(), traces, inner_nt,
                                                snapshot_.data());
                    measured_.snapshot_forward.add(seconds_since(t0), 1);
                    if (slot == nullptr)
                        storage_->put({ItemKind::Snapshot, 0, n},
                                      {ConstFieldView(snapshot_.data(), p.padded().rows(), p.padded().nx(),
                                                      p.padded().plane_rows())});
                } else {
                    const auto t0 = std::chrono::steady_clock::now();
                    p.forward(state, 1, g, sim_.inner_source(), traces, inner_nt);
                    (first_time ? measured_.forward : measured_.recompute).add(seconds_since(t0), 1);
                }
            }
        } else {
            const auto t0 = std::chrono::steady_clock::now();
            p.forward(state, end - from, g, sim_.inner_source(), traces, inner_nt);
            (first_time ? measured_.forward : measured_.recompute).add(seconds_since(t0), end - from);
        }
        forward_steps_ += end - from;
        computed_upto_ = std::max(computed_upto_, end);
        if (first_time)
            recorded_upto_ = std::max(recorded_upto_, end);
        else
            recompute_steps_ += end - from;
        emit(first_time ? EventType::ForwardStep : EventType::Recompute, from, end - from);
        emit_codec_time(end);
        if (options_.observer && options_.observer->wants_field(FieldKind::ForwardWavefield, end)) {
            view.resize(std::size_t(model.cells()));
            p.model_region_wavefield(state, view);
            options_.observer->on_field(FieldKind::ForwardWavefield, end,
                                        {view.data(), model.rows(), model.nx()});
        }
    }
}

void PlanExecutor::begin_reversal(WaveState& state, const Gather& observed, ShotOutcome& out) {
    const std::int64_t inner_nt = sim_.time().inner_nt;
    sim_.propagator().synchronize(); // every sample of the first sweep is in inner_traces_
    // The last sample is read from state l-1 itself when the plan never advanced past it (Revolve).
    if (recorded_upto_ < inner_nt && state.step == inner_nt - 1) {
        sim_.propagator().record(state, sim_.geometry(std::size_t(shot_)), inner_traces_.data(), inner_nt);
        recorded_upto_ = inner_nt;
    }
    if (recorded_upto_ < inner_nt)
        throw Error("plan '" + plan_name_ + "' reverses before the forward sweep ended");
    const auto nrec = std::int64_t(sim_.geometry(std::size_t(shot_)).receivers.size());
    out.modelled = sim_.gather_from_inner(std::size_t(shot_), inner_traces_);
    std::vector<float> user_adjoint;
    out.misfit = options_.misfit ? options_.misfit(out.modelled, observed, user_adjoint)
                                 : l2_misfit(out.modelled, observed, user_adjoint);
    if (user_adjoint.size() != out.modelled.traces.size())
        throw Error("misfit function returned a wrongly sized adjoint source");
    sim_.to_inner_rate_adjoint(user_adjoint, nrec, adjoint_source_); // the last shot's memory, reused
}

void PlanExecutor::reverse(WaveState& state, AdjointState& adj, std::int64_t n) {
    Propagator& p = sim_.propagator();
    const ShotGeometry& g = sim_.geometry(std::size_t(shot_));
    const std::int64_t inner_nt = sim_.time().inner_nt;
    const int k = options_.settings.sampling_interval;
    if (adj.step != n + 1) throw Error("plan reverses step " + std::to_string(n) + " out of order");
    if (options_.cancel && n % 64 == 0) options_.cancel->checkpoint();
    const float* snap = nullptr;
    bool snap_in_place = false;
    if (n % k == 0) {
        const StoreKey key{ItemKind::Snapshot, 0, n};
        if (const float* in_place = storage_->snapshot_in_place(n)) {
            snap = in_place; // read where the forward sweep wrote it; freed after the adjoint step
            snap_in_place = true;
        } else if (storage_->contains(key)) {
            const PaddedGrid& grid = p.padded();
            storage_->get(key, {FieldView{snapshot_.data(), grid.rows(), grid.nx(), grid.plane_rows()}});
            storage_->free(key);
            snap = snapshot_.data();
        } else if (state.step == n) { // no buffered snapshot: one forward step from the state in hand
            float* out = reverse_scratch_ ? reverse_scratch_->data() : snapshot_.data();
            p.forward_with_snapshot(state, g, sim_.inner_source(), nullptr, inner_nt, out);
            snap = out;
            ++forward_steps_;
            if (n < computed_upto_) ++recompute_steps_; // else: Revolve's first computation of the last step
            computed_upto_ = std::max(computed_upto_, n + 1);
        } else {
            throw Error("plan reverses step " + std::to_string(n) +
                        " with neither its snapshot nor its state");
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    p.adjoint(adj, g, adjoint_source_, inner_nt, snap, float(k));
    measured_.adjoint.add(seconds_since(t0), 1);
    if (snap_in_place) storage_->free({ItemKind::Snapshot, 0, n});
    ++adjoint_steps_;
    if (n % 64 == 0 || n == 0) {
        emit(EventType::AdjointStep, n, std::min<std::int64_t>(64, inner_nt - n));
        emit_codec_time(n);
    }
}

ShotOutcome PlanExecutor::run_shot(int shot, const Gather& observed) {
    shot_ = shot;
    ++shots_run_;
    Propagator& p = sim_.propagator();
    const std::int64_t inner_nt = sim_.time().inner_nt;
    const auto nrec = std::int64_t(sim_.geometry(std::size_t(shot)).receivers.size());
    inner_traces_.assign(std::size_t(nrec * inner_nt), 0.0f);
    recorded_upto_ = 0;
    computed_upto_ = 0;
    emit(EventType::ShotStart, 0, 0);
    renew_state(p, state_);
    renew_state(p, adjoint_);
    WaveState* state = state_.get();
    AdjointState* adj = adjoint_.get();
    adj->step = inner_nt;
    ShotOutcome out;
    bool reversing = false;
    // Receiver samples a backend delivers late (Propagator::synchronize) land in inner_traces_ before the run
    // reads them or goes on to the next shot, or here before an error leaves: never into freed memory.
    struct DeliverSamples {
        Propagator& p;
        ~DeliverSamples() {
            try {
                p.synchronize();
            } catch (...) { // the error that stopped the run is the one to report
            }
        }
    } deliver{p};
    try {
        run_actions(*state, *adj, observed, out, reversing);
    } catch (const BudgetExceeded& e) {
        throw BudgetExceeded("schedule " + plan_name_ + " with codec " + options_.settings.compression +
                             ", shot " + std::to_string(shot) + ": " + e.what() +
                             ". The run stopped before exceeding it; try --schedule auto or fewer slots");
    }
    if (adj->step != 0) throw Error("plan '" + plan_name_ + "' did not reverse every step");
    emit(EventType::ShotEnd, 0, 0);
    return out;
}

void PlanExecutor::run_actions(WaveState& state, AdjointState& adj, const Gather& observed, ShotOutcome& out,
                               bool& reversing) {
    if (!adaptive_) {
        for (std::size_t i = 0; i < plan_.size(); ++i)
            apply(i, plan_[i], state, adj, observed, out, reversing);
        return;
    }
    adaptive_->reset(sim_.time().inner_nt);
    std::size_t index = 0;
    for (;;) {
        // Puts are synchronous here: tier 0's bytes are the real stored sizes of the states held.
        const std::vector<Action> batch = adaptive_->next(storage_->bytes_in_use().at(0));
        if (batch.empty()) break;
        for (const Action& a : batch)
            apply(index++, a, state, adj, observed, out, reversing);
    }
}

void PlanExecutor::apply(std::size_t i, const Action& a, WaveState& st, AdjointState& adj,
                         const Gather& observed, ShotOutcome& out, bool& reversing) {
    WaveState* state = &st;
    switch (a.type) {
    case ActionType::Advance:
    case ActionType::AdvanceSnapshots:
        if (state->step != a.from)
            throw Error("plan action " + std::to_string(i) + " advances from " + std::to_string(a.from) +
                        " but the state is at " + std::to_string(state->step));
        advance(*state, a.to, a.type == ActionType::AdvanceSnapshots);
        break;
    case ActionType::Store: {
        const std::uint64_t bytes = storage_->put_state({ItemKind::State, a.tier, a.slot}, *state);
        emit(EventType::Store, state->step, 0, a.tier, bytes);
        emit_codec_time(state->step);
        break;
    }
    case ActionType::Restore:
        storage_->get_state({ItemKind::State, a.tier, a.slot}, *state);
        state->step = a.from;
        emit(EventType::Load, a.from, 0, a.tier);
        emit_codec_time(a.from);
        break;
    case ActionType::Free:
        storage_->free({ItemKind::State, a.tier, a.slot});
        emit(EventType::Free, state->step, 0, a.tier);
        break;
    case ActionType::Reverse:
        if (!reversing) {
            begin_reversal(*state, observed, out);
            reversing = true;
        }
        reverse(*state, adj, a.from);
        break;
    }
}

void PlanExecutor::fill(GradientResult& r) const {
    r.schedule = plan_name_;
    r.forward_steps = forward_steps_;
    r.adjoint_steps = adjoint_steps_;
    r.recompute_steps = recompute_steps_;
    r.checkpoint_writes = storage_->writes();
    r.checkpoint_reads = storage_->reads();
    r.peak_snapshot_bytes = storage_->peak_snapshot_bytes();
    r.peak_bytes_per_tier = storage_->peak_bytes();
    r.compression_ratio = storage_->compression_ratio();
    r.predicted_seconds = shots_run_ == 0 ? 0.0
                                          : predicted_shot_s_ * double(shots_run_) -
                                                predicted_first_touch_s_ * double(shots_run_ - 1);
}

RunMeasurement PlanExecutor::measurement() const {
    RunMeasurement m = measured_;
    m.store_workers =
        tiers_ >= 2 || (!options_.settings.compression.empty() && options_.settings.compression != "none");
    m.fresh_touched_bytes = storage_->fresh_touched_bytes();
    m.touch_seconds = storage_->touch_seconds();
    m.items_stored = storage_->items_compressed();
    m.items_loaded = storage_->items_decompressed();
    m.compress_seconds = storage_->compress_seconds();
    m.decompress_seconds = storage_->decompress_seconds();
    m.states_stored = storage_->writes();
    m.states_loaded = storage_->reads();
    m.state_compress_seconds = storage_->state_compress_seconds();
    m.state_decompress_seconds = storage_->state_decompress_seconds();
    m.compression_ratio = storage_->compression_ratio();
    return m;
}

} // namespace fwi
