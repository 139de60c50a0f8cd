#include "fwi/performance_model.hpp"

#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "runtime/cache_line.hpp"
#include "schedule/plan_replay.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace fwi {

namespace {

std::uint64_t stored_bytes(std::uint64_t raw, double ratio) {
    return static_cast<std::uint64_t>(
        std::ceil(static_cast<long double>(raw) / static_cast<long double>(ratio)));
}

void require_time(double v, const char* field) {
    if (!(v >= 0) || !std::isfinite(v))
        throw ConfigError(std::string("step costs: ") + field + " must be a finite time >= 0, got " +
                          std::to_string(v));
}

} // namespace

std::uint64_t StepCosts::stored_state_bytes() const {
    return stored_bytes(state_bytes, compression_ratio);
}
std::uint64_t StepCosts::stored_snapshot_bytes() const {
    if (snapshots_in_place) { // the raw field in an arena slot: no codec frame header, whole cache lines
        const std::uint64_t raw = snapshot_bytes > codec_frame_header_bytes
                                      ? snapshot_bytes - codec_frame_header_bytes
                                      : snapshot_bytes;
        return std::max<std::uint64_t>(1, whole_cache_lines(raw)); // a host arena slot's stride
    }
    return stored_bytes(snapshot_bytes, compression_ratio);
}

TierCosts StepCosts::tier(int t) const {
    return t >= 0 && static_cast<std::size_t>(t) < tiers.size() ? tiers[static_cast<std::size_t>(t)]
                                                                : TierCosts{};
}

double StepCosts::write_s(int t, std::uint64_t bytes) const {
    const TierCosts c = tier(t);
    return c.write_s_per_item + c.write_s_per_byte * static_cast<double>(bytes) + state_compress_s;
}

double StepCosts::read_s(int t, std::uint64_t bytes) const {
    const TierCosts c = tier(t);
    return c.read_s_per_item + c.read_s_per_byte * static_cast<double>(bytes) + state_decompress_s;
}

void StepCosts::validate() const {
    require_time(forward_step_s, "forward_step_s");
    require_time(adjoint_step_s, "adjoint_step_s");
    if (!std::isfinite(recompute_step_s)) require_time(recompute_step_s, "recompute_step_s"); // < 0: unset
    require_time(snapshot_write_s, "snapshot_write_s");
    require_time(snapshot_transfer_s, "snapshot_transfer_s");
    require_time(state_transfer_s, "state_transfer_s");
    require_time(backend_state_copy_s, "backend_state_copy_s");
    require_time(shot_setup_s, "shot_setup_s");
    require_time(first_touch_s_per_byte, "first_touch_s_per_byte");
    require_time(compress_s, "compress_s");
    require_time(decompress_s, "decompress_s");
    require_time(state_compress_s, "state_compress_s");
    require_time(state_decompress_s, "state_decompress_s");
    if (!(compression_ratio >= 1) || !std::isfinite(compression_ratio))
        throw ConfigError("step costs: compression_ratio must be >= 1, got " +
                          std::to_string(compression_ratio));
    if (state_bytes == 0) throw ConfigError("step costs: state_bytes must be > 0");
    if (snapshot_bytes == 0) throw ConfigError("step costs: snapshot_bytes must be > 0");
    if (sampling_interval < 1)
        throw ConfigError("step costs: sampling_interval must be >= 1, got " +
                          std::to_string(sampling_interval));
    if (snapshot_tier < 0 || snapshot_tier >= 8)
        throw ConfigError("step costs: snapshot_tier must be in 0..7, got " + std::to_string(snapshot_tier));
    for (const TierCosts& t : tiers) {
        require_time(t.write_s_per_item, "tiers[].write_s_per_item");
        require_time(t.read_s_per_item, "tiers[].read_s_per_item");
        require_time(t.write_s_per_byte, "tiers[].write_s_per_byte");
        require_time(t.read_s_per_byte, "tiers[].read_s_per_byte");
    }
}

Prediction predict(const std::vector<Action>& plan, std::int64_t steps, const StepCosts& costs) {
    costs.validate();
    detail::PlanReplay replay(steps, {}, costs.sampling_interval);
    const std::uint64_t state_b = costs.stored_state_bytes(), snap_b = costs.stored_snapshot_bytes();
    const int snap_tier = costs.snapshot_tier;
    // Snapshots kept in place cost neither a tier copy nor a codec pass (only the snapshot_write_s of a
    // step).
    const bool in_place = costs.snapshots_in_place && snap_tier == 0;
    const TierCosts snap_costs = in_place ? TierCosts{} : costs.tier(snap_tier);
    const bool states_in_backend = costs.backend_memory && costs.snapshots_in_place;
    const double snap_compress_s = in_place ? 0.0 : costs.compress_s;
    const double snap_decompress_s = in_place ? 0.0 : costs.decompress_s;
    // Where the store has workers (a codec, or a plan that writes a disk tier: all but the codec "none" in
    // memory alone and an adaptive schedule's store, as make_item_storage decides), it codes and writes a
    // copy of each item: the caller first copies the raw floats into staging (checkpoint_store.cpp), at tier
    // 0's copy speed whatever the item compresses to. Measured on Marmousi (revolve:40, LZ4 at ratio 4.7):
    // 0.9 ms of the caller's per 6.6 MB state, where the stored bytes' copy alone priced 0.2 ms. (Not
    // costs.tiers: measured costs always carry a disk tier's prices, used or not.)
    const bool writes_disk = std::any_of(
        plan.begin(), plan.end(), [](const Action& a) { return a.type == ActionType::Store && a.tier > 0; });
    const bool staged = !costs.coded_on_caller && (!costs.snapshots_in_place || writes_disk);
    const double staging_s_per_byte = staged ? costs.tier(0).write_s_per_byte : 0.0;
    const double state_staging_s = staging_s_per_byte * static_cast<double>(costs.state_bytes);
    const double snap_staging_s =
        in_place ? 0.0 : staging_s_per_byte * static_cast<double>(costs.snapshot_bytes);
    Prediction p;
    std::vector<std::uint64_t> peak(static_cast<std::size_t>(replay.tier_capacity()), 0);
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const Action& a = plan[i];
        replay.apply(a, i);
        switch (a.type) {
        case ActionType::Store: {
            if (a.tier == 0 && states_in_backend) {
                p.store_s += costs.backend_state_copy_s;
                break;
            }
            const TierCosts c = costs.tier(a.tier);
            p.store_s += state_staging_s + c.write_s_per_item +
                         c.write_s_per_byte * static_cast<double>(state_b) + costs.state_transfer_s;
            p.codec_s += costs.state_compress_s;
            break;
        }
        case ActionType::Restore: {
            if (a.tier == 0 && states_in_backend) {
                p.load_s += costs.backend_state_copy_s;
                break;
            }
            const TierCosts c = costs.tier(a.tier);
            p.load_s +=
                c.read_s_per_item + c.read_s_per_byte * static_cast<double>(state_b) + costs.state_transfer_s;
            p.codec_s += costs.state_decompress_s;
            break;
        }
        case ActionType::AdvanceSnapshots: {
            const auto k = static_cast<double>(replay.last_sampled_added());
            p.store_s += k * (snap_staging_s + snap_costs.write_s_per_item +
                              snap_costs.write_s_per_byte * static_cast<double>(snap_b) +
                              (in_place ? 0.0 : costs.snapshot_transfer_s));
            p.codec_s += k * snap_compress_s;
            break;
        }
        case ActionType::Reverse:
            if (replay.last_sampled_consumed() > 0) {
                p.load_s +=
                    snap_costs.read_s_per_item + snap_costs.read_s_per_byte * static_cast<double>(snap_b);
                p.codec_s += snap_decompress_s;
            }
            break;
        default:
            break;
        }
        std::uint64_t total = 0;
        for (int t = 0; t < replay.tier_capacity(); ++t) {
            std::uint64_t bytes = static_cast<std::uint64_t>(replay.occupied_slots(t)) * state_b;
            if (t == snap_tier) bytes += static_cast<std::uint64_t>(replay.held_sampled_snapshots()) * snap_b;
            peak[static_cast<std::size_t>(t)] = std::max(peak[static_cast<std::size_t>(t)], bytes);
            total += bytes;
        }
        p.peak_total_bytes = std::max(p.peak_total_bytes, total);
    }
    replay.finish(plan.size());
    p.counts = replay.final_counts();
    const double f = costs.forward_step_s;
    p.forward_s = static_cast<double>(steps) * f +
                  static_cast<double>(p.counts.snapshot_steps + p.counts.reverse_forward_steps) *
                      costs.snapshot_write_s;
    p.recompute_s = static_cast<double>(p.counts.advance_steps + p.counts.reverse_forward_steps - steps) *
                    costs.recompute_price();
    p.adjoint_s = static_cast<double>(p.counts.reverse_steps) * costs.adjoint_step_s;
    std::size_t tiers = p.counts.peak_slots.size();
    if (p.counts.snapshot_steps > 0) tiers = std::max(tiers, static_cast<std::size_t>(snap_tier) + 1);
    peak.resize(tiers);
    p.peak_bytes = std::move(peak);
    // Only memory the process never touched costs a first touch; the arena's part of the peak may come from
    // the memory kept from the previous run.
    const std::uint64_t arena_peak =
        costs.snapshots_in_place ? static_cast<std::uint64_t>(p.counts.peak_kept_snapshots) * snap_b : 0;
    // In the backend's memory (tier 0 of an uncompressed run on a GPU) nothing is touched on the host.
    const std::uint64_t reused = states_in_backend ? std::min(p.peak_total_bytes, p.peak_bytes.at(0))
                                                   : std::min(arena_peak, costs.retained_touched_bytes);
    p.first_touch_s = costs.first_touch_s_per_byte * static_cast<double>(p.peak_total_bytes - reused);
    p.store_s += p.first_touch_s;
    p.setup_s = costs.shot_setup_s;
    p.total_s = p.forward_s + p.recompute_s + p.adjoint_s + p.store_s + p.load_s + p.codec_s + p.setup_s;
    return p;
}

std::int64_t slots_for_budget(std::uint64_t budget_bytes, std::uint64_t state_bytes,
                              double pessimistic_ratio) {
    if (state_bytes == 0) throw ConfigError("slots_for_budget: state_bytes must be > 0");
    if (!(pessimistic_ratio >= 1) || !std::isfinite(pessimistic_ratio))
        throw ConfigError("slots_for_budget: compression ratio must be >= 1, got " +
                          std::to_string(pessimistic_ratio));
    const std::uint64_t per_state = stored_bytes(state_bytes, pessimistic_ratio);
    return static_cast<std::int64_t>(budget_bytes / std::max<std::uint64_t>(per_state, 1));
}

} // namespace fwi
