#pragma once
// The processes of one job (MPI ranks) as the engine sees them, and the ONE order in which per-shot misfits
// and gradients are summed. core never includes mpi.h: the MPI implementation lives in the mpi/ layer
// (fwi_mpi); a process alone uses SerialCommunicator.
//
// Bit-for-bit reproducibility for any number of ranks: every shot's gradient is taken into a zeroed buffer of
// its own, then the shots' contributions are added one after the other in the order of the shot list
// (add_shot_contribution), on one process: alone, as they are computed; distributed, on rank 0 after
// gathering every rank's per-shot buffers, and the sum is broadcast. Float addition is not associative, so
// this is the only way the sum can be independent of how the shots were split.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fwi {

class Communicator {
  public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    /// The job's processes on this machine, this one included: they share its memory.
    virtual int ranks_on_this_machine() const { return 1; }
    /// Rank 0 gets every rank's bytes, indexed by rank; the other ranks get an empty vector. Collective.
    virtual std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine) = 0;
    /// Rank 0's bytes (any length) replace `bytes` on every rank. Collective.
    virtual void broadcast(std::vector<std::byte>& bytes) = 0;
    virtual void barrier() = 0;
    /// True on every rank when any rank passes true (the "stop all" exchange). Collective.
    virtual bool any(bool flag) = 0;
    /// Ends every process of the job with `exit_code` (a failing or interrupted rank stops all).
    [[noreturn]] virtual void abort(int exit_code) = 0;

    /// Job-wide progress without blocking, so that rank 0 can show the whole job: every other rank posts its
    /// own count of completed steps now and then (the latest post wins), rank 0 reads the sum of the other
    /// ranks' latest posts. finish_progress() is collective and closes the exchange: when it returns, every
    /// post has arrived (rank 0 may then read the final sum) and no message is left in flight. Called by the
    /// thread that runs the command only. Alone: nothing to exchange.
    virtual void post_progress(std::int64_t /*steps_done*/) {}
    virtual std::int64_t others_progress() { return 0; }
    virtual void finish_progress() {}
};

/// This process alone: rank 0 of 1.
class SerialCommunicator final : public Communicator {
  public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine) override;
    void broadcast(std::vector<std::byte>&) override {}
    void barrier() override {}
    bool any(bool flag) override { return flag; }
    [[noreturn]] void abort(int exit_code) override;
};

/// The owner rank of each shot of a list: contiguous blocks in list order, balanced by the shots' predicted
/// costs (shot i goes to the rank whose share of the total cost holds the middle of shot i's cost). More
/// ranks than shots leaves some ranks without a shot. costs.size() is the number of shots; ranks >= 1.
std::vector<int> split_shots_by_cost(const std::vector<double>& costs, int ranks);

/// One shot's misfit and gradient, `position` = its index in the shot list being summed.
struct ShotContribution {
    std::int64_t position = 0;
    double misfit = 0;
    std::vector<float> gradient;
};

struct ShotSum {
    double misfit = 0;
    std::vector<float> gradient; ///< float, added shot after shot
};

/// The summation step, the same for one process and for many: sum += contribution.
void add_shot_contribution(ShotSum& sum, const ShotContribution& c);

/// Every rank passes its own contributions (any order); rank 0 adds all of them in position order with
/// add_shot_contribution, starting from `start`, and every rank gets the result. Collective.
ShotSum reduce_in_shot_order(Communicator& comm, const std::vector<ShotContribution>& mine, ShotSum start);

/// Bytes of a float/double vector and back (for gather and broadcast).
std::vector<std::byte> to_bytes(std::span<const float> values);
std::vector<float> floats_from_bytes(std::span<const std::byte> bytes);

} // namespace fwi
