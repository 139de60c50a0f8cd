#include "fwi/plan_sweep.hpp"

#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "fwi/schedules.hpp"
#include "schedule/revolve_emitter.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace fwi {

namespace {

SweepPlan priced(const Schedule& schedule, std::int64_t slots, std::int64_t steps, const StepCosts& costs,
                 std::uint64_t budget_bytes) {
    const Prediction p = predict(schedule.plan(steps), steps, costs);
    SweepPlan plan;
    plan.schedule = schedule.name();
    plan.ram_slots = slots;
    plan.predicted_s = p.total_s;
    plan.recompute_steps = p.counts.advance_steps + p.counts.reverse_forward_steps - steps;
    plan.peak_bytes = p.peak_bytes.empty() ? 0 : p.peak_bytes[0];
    plan.fits_budget = plan.peak_bytes <= budget_bytes;
    return plan;
}

StepCosts with_estimate(StepCosts costs, const CodecEstimate& codec) {
    costs.snapshots_in_place = codec.codec == "none"; // as plan_table() and the executor keep them
    costs.compression_ratio = codec.ratio;
    codec.price(costs);
    try {
        costs.validate();
    } catch (const ConfigError& e) {
        throw ConfigError("plan sweep: codec '" + codec.codec + "': " + e.what());
    }
    return costs;
}

/// The fastest fitting plan for one codec: its fitted Revolve, or a faster plan_table() row that fits.
SweepPlan best_plan(const SweepRequest& r, const CodecEstimate& codec, std::uint64_t budget_bytes,
                    const SweepPlan& revolve) {
    PlanRequest table;
    table.steps = r.steps;
    table.costs = r.costs;
    table.budget_bytes = budget_bytes;
    table.codecs = {codec};
    SweepPlan best = revolve.fits_budget ? revolve : SweepPlan{};
    for (const PlanRow& row : plan_table(table)) {
        if (!row.fits_budget || (!best.schedule.empty() && row.predicted_s >= best.predicted_s)) continue;
        best.schedule = row.schedule;
        best.ram_slots = row.ram_slots;
        best.predicted_s = row.predicted_s;
        best.recompute_steps =
            row.prediction.counts.advance_steps + row.prediction.counts.reverse_forward_steps - r.steps;
        best.peak_bytes = row.peak_bytes.empty() ? 0 : row.peak_bytes[0];
        best.fits_budget = true;
        best.fits_only_at_probed_ratio = row.fits_only_at_probed_ratio;
    }
    return best;
}

double ratio(double revolve_alone_s, const SweepPlan& plan) {
    if (plan.schedule.empty()) return 0;
    return plan.predicted_s > 0 ? revolve_alone_s / plan.predicted_s : 1.0;
}

} // namespace

StepCosts uncompressed_costs(StepCosts costs, const CodecEstimate& none) {
    costs.compression_ratio = 1;
    none.price(costs);
    costs.snapshots_in_place = true; // uncompressed snapshots are written and read in place
    return costs;
}

SweepPlan fitted_revolve(std::int64_t steps, const StepCosts& costs, std::uint64_t budget_bytes) {
    std::int64_t slots = std::clamp<std::int64_t>(
        slots_for_budget(budget_bytes, costs.state_bytes, costs.compression_ratio), 1, steps);
    // slots_for_budget counts states only; the snapshot buffer may push the peak over: drop as many states as
    // the excess takes.
    for (;;) {
        SweepPlan plan = priced(RevolveSchedule(slots), slots, steps, costs, budget_bytes);
        if (plan.fits_budget || slots == 1) return plan;
        const std::uint64_t state = costs.stored_state_bytes();
        const auto drop = std::int64_t((plan.peak_bytes - budget_bytes + state - 1) / state);
        slots = std::max<std::int64_t>(1, slots - std::max<std::int64_t>(1, drop));
    }
}

std::vector<std::uint64_t> sweep_budgets(std::int64_t steps, const StepCosts& costs, int count) {
    if (steps < 1) throw ConfigError("plan sweep: step count must be >= 1, got " + std::to_string(steps));
    if (count < 1) throw ConfigError("plan sweep: budget count must be >= 1, got " + std::to_string(count));
    const auto peak = [&](std::int64_t slots) {
        const Prediction p = predict(RevolveSchedule(slots).plan(steps), steps, costs);
        return p.peak_bytes.empty() ? std::uint64_t(1) : std::max<std::uint64_t>(1, p.peak_bytes[0]);
    };
    const std::uint64_t lo = peak(std::min<std::int64_t>(2, steps));
    const std::uint64_t hi = std::max(lo, peak(std::max<std::int64_t>(1, steps - 1)));
    std::vector<std::uint64_t> budgets;
    for (int i = 0; i < count; ++i) {
        const double t = count == 1 ? 1.0 : double(i) / double(count - 1);
        budgets.push_back(
            i == count - 1 ? hi
                           : std::uint64_t(std::llround(double(lo) * std::pow(double(hi) / double(lo), t))));
    }
    std::sort(budgets.begin(), budgets.end());
    budgets.erase(std::unique(budgets.begin(), budgets.end()), budgets.end());
    return budgets;
}

PlanSweep plan_sweep(const SweepRequest& r) {
    if (r.steps < 1) throw ConfigError("plan sweep: step count must be >= 1, got " + std::to_string(r.steps));
    if (r.codecs.empty()) throw ConfigError("plan sweep: no codec to compare");
    // Every point prices adaptive schedules over the same ranges: they count each range once.
    const auto counts = detail::shared_segment_counter();
    const StepCosts raw = with_estimate(uncompressed_costs(r.costs, r.uncompressed), r.uncompressed);

    PlanSweep sweep;
    sweep.steps = r.steps;
    sweep.budgets_bytes = r.budgets_bytes.empty() ? sweep_budgets(r.steps, raw, 16) : r.budgets_bytes;
    std::sort(sweep.budgets_bytes.begin(), sweep.budgets_bytes.end());
    sweep.budgets_bytes.erase(std::unique(sweep.budgets_bytes.begin(), sweep.budgets_bytes.end()),
                              sweep.budgets_bytes.end());
    if (sweep.budgets_bytes.front() == 0)
        throw ConfigError("plan sweep: a budget of 0 bytes (unlimited) is not a point of the sweep");

    for (std::uint64_t budget : sweep.budgets_bytes)
        sweep.revolve_alone.push_back(fitted_revolve(r.steps, raw, budget));
    for (const CodecEstimate& codec : r.codecs) {
        const StepCosts costs = with_estimate(r.costs, codec);
        StepCosts safe = costs; // what the codec guarantees, whatever the data
        safe.compression_ratio = safe_compression_ratio(codec.codec, codec.ratio);
        SweepCurve curve{codec, {}};
        for (std::size_t i = 0; i < sweep.budgets_bytes.size(); ++i) {
            const double alone_s = sweep.revolve_alone[i].predicted_s;
            SweepCodecPoint point;
            point.revolve = fitted_revolve(r.steps, costs, sweep.budgets_bytes[i]);
            point.revolve.fits_only_at_probed_ratio =
                point.revolve.fits_budget && exceeds_guaranteed_ratio(codec.codec, codec.ratio) &&
                !priced(RevolveSchedule(point.revolve.ram_slots), point.revolve.ram_slots, r.steps, safe,
                        sweep.budgets_bytes[i])
                     .fits_budget;
            point.speedup = ratio(alone_s, point.revolve);
            point.best = best_plan(r, codec, sweep.budgets_bytes[i], point.revolve);
            point.best_speedup = ratio(alone_s, point.best);
            curve.points.push_back(point);
        }
        sweep.curves.push_back(std::move(curve));
    }
    return sweep;
}

} // namespace fwi
