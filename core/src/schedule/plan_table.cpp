#include "fwi/performance_model.hpp"
#include "fwi/schedules.hpp"

#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "schedule/revolve_emitter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace fwi {

namespace {

bool fits(const Prediction& p, const PlanRequest& r) {
    for (std::size_t t = 0; t < p.peak_bytes.size(); ++t) {
        const std::uint64_t bytes = p.peak_bytes[t];
        if (bytes == 0) continue;
        if (t == 0 && r.budget_bytes != 0 && bytes > r.budget_bytes) return false;
        if (t == 1 && (!r.disk_tier || (r.disk_budget_bytes != 0 && bytes > r.disk_budget_bytes)))
            return false;
        if (t >= 2) return false;
    }
    return true;
}

/// Tier-0 slots for the budget, within [1, l] (l slots = everything stored; more would be wasted).
std::int64_t ram_slots(const PlanRequest& r, const StepCosts& c) {
    if (r.budget_bytes == 0) return r.steps;
    return std::clamp<std::int64_t>(slots_for_budget(r.budget_bytes, c.state_bytes, c.compression_ratio), 1,
                                    r.steps);
}

/// Smallest K (the fastest: least recomputation) whose uniform plan surely fits: K states plus the sampled
/// snapshots of the longest of K+1 segments (at most ceil(len / k) of any len consecutive steps). If none
/// fits, the K needing least memory by that bound.
std::int64_t uniform_slots(const PlanRequest& r, const StepCosts& c) {
    const std::int64_t l = r.steps;
    const auto k = static_cast<std::uint64_t>(c.sampling_interval);
    std::int64_t least = 1;
    std::uint64_t least_bytes = std::numeric_limits<std::uint64_t>::max();
    for (std::int64_t slots = 1; slots <= l - 1; ++slots) {
        const auto longest = static_cast<std::uint64_t>((l + slots) / (slots + 1)); // ceil(l / (K+1))
        const std::uint64_t bytes = static_cast<std::uint64_t>(slots) * c.stored_state_bytes() +
                                    (longest + k - 1) / k * c.stored_snapshot_bytes();
        if (r.budget_bytes == 0 || bytes <= r.budget_bytes) return slots;
        if (bytes < least_bytes) {
            least_bytes = bytes;
            least = slots;
        }
    }
    return least;
}

/// True when a plan that fits at `sized` (a codec's probed ratio) would not at the ratio the codec
/// guarantees: the run stores what its data really compress to and stops if that exceeds the budget.
bool needs_probed_ratio(const std::vector<Action>& plan, const std::string& codec, const PlanRequest& r,
                        const StepCosts& sized) {
    if (r.budget_bytes == 0 || !exceeds_guaranteed_ratio(codec, sized.compression_ratio)) return false;
    StepCosts safe = sized;
    safe.compression_ratio = safe_compression_ratio(codec, sized.compression_ratio);
    return !fits(predict(plan, r.steps, safe), r);
}

/// A row for `schedule`'s plan: peak memory and the budget check at `sized` (the ratio the slots were sized
/// with), time at `priced` (the expected ratio; the same costs unless the request sizes with guaranteed
/// ratios).
PlanRow make_row(const Schedule& schedule, const std::string& codec, std::int64_t slots,
                 std::int64_t disk_slots, const PlanRequest& r, const StepCosts& sized,
                 const StepCosts& priced, double baseline_s) {
    PlanRow row;
    row.schedule = schedule.name();
    row.codec = codec;
    row.ram_slots = slots;
    row.disk_slots = disk_slots;
    const std::vector<Action> plan = schedule.plan(r.steps);
    row.prediction = predict(plan, r.steps, priced);
    row.predicted_s = row.prediction.total_s;
    row.speedup_vs_store_all = row.predicted_s > 0 ? baseline_s / row.predicted_s : 1.0;
    const Prediction bound = sized == priced ? row.prediction : predict(plan, r.steps, sized);
    row.peak_bytes = bound.peak_bytes;
    row.fits_budget = fits(bound, r);
    row.fits_only_at_probed_ratio = row.fits_budget && needs_probed_ratio(plan, codec, r, sized);
    return row;
}

/// "adaptive:S" for a compressing codec under a budget: S slots sized at the guaranteed ratio (its
/// pessimistic plan holds no more than revolve:S, so it fits wherever that does, whatever the data), more as
/// the real sizes arrive, fewer where a state costs more to code than the recomputation it saves. Priced as
/// a run of it is (predict_run, at the probed ratio): only its time depends on the data, never its memory
/// (its peak is at most revolve:S's). Nothing where it would be revolve:S: no slot to gain (the probed ratio
/// is what the codec guarantees, or Revolve stores every state already) and every slot pays (a store
/// cheaper than a step).
std::optional<PlanRow> adaptive_row(const CodecEstimate& codec, const PlanRequest& r, const StepCosts& priced,
                                    double baseline_s) {
    if (r.budget_bytes == 0 || r.steps < 3 || codec.codec == "none") return std::nullopt;
    StepCosts safe = priced;
    safe.compression_ratio = safe_compression_ratio(codec.codec, codec.ratio);
    const std::uint64_t p = safe.stored_state_bytes();
    const std::int64_t slots = ram_slots(r, safe);
    const AdaptivePrices prices = adaptive_prices(safe);
    const bool gains_slots = priced.stored_state_bytes() < p && slots + 1 < r.steps;
    const bool fewer_may_pay = slots >= 2 && !prices.every_slot_pays();
    if (!gains_slots && !fewer_may_pay) return std::nullopt;
    const AdaptiveRevolveSchedule schedule(std::uint64_t(slots) * p, p, 0, prices);
    const Prediction bound = predict(RevolveSchedule(slots).plan(r.steps), r.steps, safe); // >= plan()'s
    PlanRow row;
    row.schedule = schedule.name();
    row.codec = codec.codec;
    row.ram_slots = slots;
    row.prediction = schedule.predict_run(r.steps, priced);
    row.predicted_s = row.prediction.total_s;
    row.speedup_vs_store_all = row.predicted_s > 0 ? baseline_s / row.predicted_s : 1.0;
    row.peak_bytes = bound.peak_bytes;
    row.fits_budget = fits(bound, r) && fits(row.prediction, r);
    return row;
}

} // namespace

std::vector<PlanRow> plan_table(const PlanRequest& r) {
    if (r.steps < 1) throw ConfigError("plan table: step count must be >= 1, got " + std::to_string(r.steps));
    r.costs.validate();
    if (r.codecs.empty()) throw ConfigError("plan table: no codec to consider");
    // Every codec's adaptive rows price the same ranges: they count each range once.
    const auto counts = detail::shared_segment_counter();
    // The baseline is uncompressed store-all: with the "none" codec's own (copy and checksum) times when it
    // is listed.
    StepCosts raw = r.costs;
    raw.compression_ratio = 1;
    CodecEstimate{}.price(raw);    // free, unless "none" is listed with its times
    raw.snapshots_in_place = true; // uncompressed snapshots are written and read in place
    for (const CodecEstimate& codec : r.codecs)
        if (codec.codec == "none") codec.price(raw);
    const double baseline_s = predict(StoreAllSchedule().plan(r.steps), r.steps, raw).total_s;

    std::vector<PlanRow> rows;
    for (const CodecEstimate& codec : r.codecs) {
        StepCosts c = r.costs;                        // priced at the codec's probed ratio
        c.snapshots_in_place = codec.codec == "none"; // as the executor keeps them
        c.compression_ratio = codec.ratio;
        codec.price(c);
        try {
            c.validate();
        } catch (const ConfigError& e) {
            throw ConfigError("plan table: codec '" + codec.codec + "': " + e.what());
        }
        StepCosts sized = c; // slots and budget checks
        if (r.size_with_guaranteed_ratio)
            sized.compression_ratio = safe_compression_ratio(codec.codec, codec.ratio);
        const std::int64_t slots = ram_slots(r, sized);
        rows.push_back(make_row(StoreAllSchedule(), codec.codec, 0, 0, r, sized, c, baseline_s));
        if (r.steps >= 2) {
            std::int64_t k = uniform_slots(r, sized);
            // With sampling the bound can overstate the peak by a snapshot or two: try a few smaller K for
            // real.
            while (k > 1 && r.budget_bytes != 0 && sized.sampling_interval > 1 &&
                   predict(UniformSchedule(k - 1).plan(r.steps), r.steps, sized).peak_bytes[0] <=
                       r.budget_bytes)
                --k;
            rows.push_back(make_row(UniformSchedule(k), codec.codec, k, 0, r, sized, c, baseline_s));
        }
        rows.push_back(make_row(RevolveSchedule(slots), codec.codec, slots, 0, r, sized, c, baseline_s));
        if (std::optional<PlanRow> adaptive = adaptive_row(codec, r, c, baseline_s))
            rows.push_back(std::move(*adaptive));
        rows.push_back(
            make_row(OnlineAsOfflineSchedule(slots), codec.codec, slots, 0, r, sized, c, baseline_s));
        if (r.disk_tier) {
            const std::int64_t disk_slots =
                r.disk_budget_bytes == 0
                    ? r.steps
                    : std::min(r.steps, slots_for_budget(r.disk_budget_bytes, sized.state_bytes,
                                                         sized.compression_ratio));
            if (disk_slots >= 1)
                rows.push_back(make_row(MultiLevelSchedule(slots, disk_slots, sized), codec.codec, slots,
                                        disk_slots, r, sized, c, baseline_s));
        }
    }
    return rows;
}

PlanRow choose_auto(const PlanRequest& r) {
    return choose_auto(r, plan_table(r));
}

PlanRow choose_auto(const PlanRequest& r, const std::vector<PlanRow>& rows) {
    if (rows.empty()) throw ConfigError("plan table: no rows to choose from");
    const PlanRow* best = nullptr;
    for (const PlanRow& row : rows)
        if (row.fits_budget && (!best || row.predicted_s < best->predicted_s)) best = &row;
    if (best) return *best;
    const auto least = std::min_element(rows.begin(), rows.end(), [](const PlanRow& a, const PlanRow& b) {
        return a.prediction.peak_total_bytes < b.prediction.peak_total_bytes;
    });
    const std::string budget = std::to_string(r.budget_bytes) + " bytes";
    const std::string limit =
        r.budget_is_machine ? "this machine's memory (no budget given: " + budget + " may hold checkpoints)"
                            : "the memory budget of " + budget;
    throw ResourceError("no checkpoint schedule fits " + limit + " for " + std::to_string(r.steps) +
                        " steps of " + std::to_string(r.costs.state_bytes) +
                        "-byte states: the least any needs is " +
                        std::to_string(least->prediction.peak_total_bytes) + " bytes (" + least->schedule +
                        " with codec " + least->codec + ")");
}

} // namespace fwi
