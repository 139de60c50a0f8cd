#pragma once
// Performance model: predicts the time and peak memory of a checkpoint plan by replaying it (the same replay
// as simulate_plan) with per-step, per-item and per-byte costs. Kukreja et al. (Euro-Par 2019) in plan form:
//   T = forward + recompute + adjoint + store + load + codec + setup (once per shot),
// where storage is charged per Store/Restore (states) and per buffered snapshot, each through the codec.
// Everything is serial: overlap of compression with computation is not modelled (an upper bound for async
// codecs). Bytes are stored bytes: ceil(raw / compression_ratio). The executor's working state is not
// counted.
#include "fwi/schedule.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

/// Cost of moving one item into or out of a tier, in seconds: per item (latency, open/close) plus per stored
/// byte.
struct TierCosts {
    double write_s_per_item = 0;
    double read_s_per_item = 0;
    double write_s_per_byte = 0; ///< 1 / write bandwidth (B/s)
    double read_s_per_byte = 0;  ///< 1 / read bandwidth (B/s)
    bool operator==(const TierCosts&) const = default;
};

/// What one step and one stored item cost. Defaults: unit steps, one-byte items, free storage (then predicted
/// seconds count steps, as in Revolve's own cost model).
struct StepCosts {
    double forward_step_s = 1;
    double adjoint_step_s = 1; ///< one Reverse's adjoint work (its internal forward step is extra)
    /// A forward step computed again (recomputation records no receiver samples: on a GPU one launch and
    /// the downloads fewer than a first step); negative: forward_step_s.
    double recompute_step_s = -1;
    double snapshot_write_s = 0; ///< extra time of a forward step that also writes its gradient snapshot
    /// Extra time of a snapshot written and read through the host where the backend computes elsewhere (a
    /// GPU: down after its forward step, up for its adjoint step); 0 on the CPU. Charged per snapshot that
    /// goes through a tier, not per snapshot kept in place (the backend's own memory) or computed in a
    /// Reverse.
    double snapshot_transfer_s = 0;
    /// Extra time of a state stored or restored where the backend computes elsewhere (a GPU: its to_host or
    /// from_host over PCIe); about 0 on the CPU. Charged per Store and per Restore.
    double state_transfer_s = 0;
    /// The backend lends its own memory (a GPU's: Propagator::snapshot_memory and state_slots). Uncompressed
    /// runs (snapshots_in_place) then keep their snapshots and their tier-0 states there: the host touches
    /// none of that memory, and a tier-0 Store or Restore costs backend_state_copy_s alone (no tier copy,
    /// codec or transfer).
    bool backend_memory = false;
    double backend_state_copy_s = 0; ///< a state copied into or out of a slot in the backend's memory
    /// A shot's work outside its steps, charged once per shot: its forward and adjoint states renewed
    /// (renew_state: cleared for the next shot, or made again where a backend cannot clear them), its traces
    /// taken to the user's rate and its adjoint source back, the gradient fetched from the backend. Small
    /// beside a CPU's steps; on a GPU a small 2D shot's steps take tenths of a second and this is a part of
    /// the run to price.
    double shot_setup_s = 0;
    /// Cost of touching memory the process has never used (page faults, zeroing), per byte. Charged once for
    /// the plan's peak bytes: freed items' memory is reused by later ones, so only the peak is ever new.
    double first_touch_s_per_byte = 0;
    /// Touched memory the process already holds for in-place snapshots (kept from its previous run): the
    /// first touch is charged only on the snapshot bytes beyond it.
    std::uint64_t retained_touched_bytes = 0;
    std::uint64_t state_bytes = 1;    ///< one checkpoint (all wavefields + PML auxiliaries), uncompressed
    std::uint64_t snapshot_bytes = 1; ///< one gradient snapshot, uncompressed
    double compression_ratio = 1;     ///< raw / stored, >= 1, for states and snapshots alike
    double compress_s = 0;            ///< per snapshot stored
    double decompress_s = 0;          ///< per snapshot loaded
    /// Per state stored and loaded: all its fields (u, u^(n-1) and the C-PML strips), which code unlike a
    /// snapshot (a 3D state with PML 20 is four snapshots' worth of floats but compressed 1.6x slower).
    double state_compress_s = 0;
    double state_decompress_s = 0;
    std::vector<TierCosts> tiers; ///< index = tier; a missing tier costs nothing
    int sampling_interval = 1;    ///< only snapshots of steps n with n % k == 0 are kept (and cost)
    int snapshot_tier = 0;        ///< where the snapshot buffer lives
    /// Uncompressed snapshots in memory are written by the kernel into their final place and read there
    /// (the executor's SnapshotArena, used with the codec "none"): no tier copy and no codec pass per
    /// snapshot, only snapshot_write_s, and stored as the raw field (snapshot_bytes less its codec frame
    /// header).
    bool snapshots_in_place = false;
    /// Every item is coded on the caller's thread as it is stored, straight from its fields (an adaptive
    /// schedule's store, which plans on exact sizes: make_item_storage): no staging copy for store workers.
    bool coded_on_caller = false;

    bool operator==(const StepCosts&) const = default;
    double recompute_price() const { return recompute_step_s >= 0 ? recompute_step_s : forward_step_s; }
    std::uint64_t stored_state_bytes() const;                   ///< ceil(state_bytes / compression_ratio)
    std::uint64_t stored_snapshot_bytes() const;                ///< ceil(snapshot_bytes / compression_ratio)
    TierCosts tier(int t) const;                                ///< tiers[t], or zero costs
    double write_s(int tier, std::uint64_t stored_bytes) const; ///< tier write + compression of one state
    double read_s(int tier, std::uint64_t stored_bytes) const;  ///< tier read + decompression of one state
    /// Throws ConfigError naming the field: negative times, ratio < 1, zero sizes, interval < 1.
    void validate() const;
};

struct Prediction {
    double total_s = 0;
    double forward_s = 0;   ///< the first computation of each of the l steps, and every snapshot write
    double recompute_s = 0; ///< every further forward step (in Advance or inside Reverse)
    double adjoint_s = 0;
    double store_s =
        0; ///< tier writes of states and snapshots (codec time excluded), first touch of the peak
    double first_touch_s = 0; ///< the part of store_s spent touching memory the process never used
    double load_s = 0;        ///< tier reads of states and snapshots (codec time excluded)
    double codec_s = 0;       ///< compression and decompression
    double setup_s = 0;       ///< the shot's work outside its steps (StepCosts::shot_setup_s)
    std::vector<std::uint64_t>
        peak_bytes; ///< per tier (as PlanCounts' vectors); the snapshot tier includes the buffer
    std::uint64_t peak_total_bytes = 0; ///< most bytes held at once over all tiers
    PlanCounts counts;
};

/// Replays `plan` (validating it like simulate_plan; throws PlanError) and prices it. Throws ConfigError for
/// bad costs.
Prediction predict(const std::vector<Action>& plan, std::int64_t steps, const StepCosts& costs);

/// How many states fit `budget_bytes` if each compresses at least `pessimistic_ratio` times: floor(budget /
/// ceil(state_bytes / ratio)) - the same stored size predict() charges. Start with a low ratio and let the
/// executor correct the count as real sizes arrive. Throws ConfigError for state_bytes == 0 or ratio < 1.
std::int64_t slots_for_budget(std::uint64_t budget_bytes, std::uint64_t state_bytes,
                              double pessimistic_ratio);

/// A codec candidate for the plan table, with its expected ratio and per-item times (StepCosts' meanings).
struct CodecEstimate {
    std::string codec = "none";
    double ratio = 1;
    double compress_s = 0;   ///< per snapshot
    double decompress_s = 0; ///< per snapshot
    double state_compress_s = 0;
    double state_decompress_s = 0;
    /// What priced it: "wavefields" (four of the run's own snapshots and states), "synthetic" (synthetic
    /// fronts of the grid's shape), "learnt" (a run's items, by learn_from_run); empty when not said.
    std::string source = {};

    /// Sets the four codec times of `costs` to these.
    void price(StepCosts& costs) const {
        costs.compress_s = compress_s;
        costs.decompress_s = decompress_s;
        costs.state_compress_s = state_compress_s;
        costs.state_decompress_s = state_decompress_s;
    }
};

struct PlanRequest {
    std::int64_t steps = 0;
    StepCosts costs;                     ///< its compression fields are replaced by each codec's estimate
    std::uint64_t budget_bytes = 0;      ///< tier 0 (RAM or device); 0 = unlimited
    bool budget_is_machine = false;      ///< budget_bytes is the machine's share: the user gave no budget
    bool disk_tier = false;              ///< offer multilevel schedules with tier 1
    std::uint64_t disk_budget_bytes = 0; ///< tier 1; 0 = unlimited
    std::vector<CodecEstimate> codecs{CodecEstimate{}};
    /// Size every row's slots, and check its fit, with the ratio its codec guarantees whatever the data
    /// (guaranteed_compression_ratio, at most the probed one), while pricing time and memory at the probed
    /// ratio: what `auto` runs, so that its choice surely fits. false: rows are sized at the probed ratio and
    /// those that fit only there are marked (fits_only_at_probed_ratio).
    bool size_with_guaranteed_ratio = false;
};

struct PlanRow {
    std::string
        schedule; ///< a make_schedule() spec; multilevel rows need the same costs to rebuild the same plan
    std::string codec;
    std::int64_t ram_slots = 0;  ///< tier-0 state slots the schedule may use (not "slots": a Qt macro)
    std::int64_t disk_slots = 0; ///< tier-1 state slots
    double predicted_s = 0;
    double speedup_vs_store_all = 0; ///< uncompressed store-all's predicted time / predicted_s
    /// Per tier, at the ratio the slots were sized with (what fits_budget judges): with
    /// size_with_guaranteed_ratio, and for adaptive rows, a bound whatever the data; prediction.peak_bytes
    /// is at the probed ratio.
    std::vector<std::uint64_t> peak_bytes;
    bool fits_budget = false;
    /// Fits only at the codec's probed ratio (a budget is set, and at the ratio the codec guarantees the plan
    /// would exceed it): the run stores what its data really compress to and stops if that exceeds the
    /// budget.
    /// `auto` sizes such codecs with the guaranteed ratio, so its choice never is one of these.
    bool fits_only_at_probed_ratio = false;
    Prediction prediction;
};

/// For each codec: store-all, the best-fitting uniform:K, revolve:S and online:S with S filling the budget,
/// and multilevel:R,D when a disk tier is offered. Under a budget, a codec whose probed ratio exceeds what it
/// guarantees, or whose state costs more to code than a step, also gets adaptive:S (S slots at the
/// guaranteed ratio, more as the real sizes arrive, fewer where they do not pay; priced on the plan it makes
/// at the probed ratio; its peak and fit are those of revolve:S at the guaranteed ratio). Rows that cannot
/// fit are listed with fits_budget = false. Throws ConfigError for steps < 1, bad costs or a bad codec
/// estimate.
std::vector<PlanRow> plan_table(const PlanRequest& request);

/// The fastest predicted row of plan_table() that fits (ties go to the simpler schedule, listed first).
/// Throws ResourceError naming the budget and the least memory any schedule needs when nothing fits.
PlanRow choose_auto(const PlanRequest& request);
/// The same choice among `rows`, plan_table(request) already computed (a multilevel row's exact plan takes
/// up to a few tenths of a second to find).
PlanRow choose_auto(const PlanRequest& request, const std::vector<PlanRow>& rows);

} // namespace fwi
