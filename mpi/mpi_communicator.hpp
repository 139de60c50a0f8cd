#pragma once
// The job's ranks through MPI (MPI_COMM_WORLD), as the core's Communicator. The same fwi binary runs alone or
// under mpirun: launched_by_mpi() tells which, and MPI is initialised only then.
#include "fwi/communicator.hpp"

#include <memory>

namespace fwi::mpi {

/// True when this process was started by an MPI launcher (Open MPI's mpirun, or srun/PMI with more than one
/// task): OMPI_COMM_WORLD_SIZE or PMI_SIZE / PMIX_RANK set in the environment.
bool launched_by_mpi();

/// MPI_Init on construction, MPI_Finalize on destruction. One per process.
class MpiCommunicator final : public Communicator {
  public:
    MpiCommunicator(int& argc, char**& argv);
    ~MpiCommunicator() override;
    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    int ranks_on_this_machine() const override { return local_size_; }
    std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine) override;
    void broadcast(std::vector<std::byte>& bytes) override;
    void barrier() override;
    bool any(bool flag) override;
    [[noreturn]] void abort(int exit_code) override;
    void post_progress(std::int64_t steps_done) override;
    std::int64_t others_progress() override;
    void finish_progress() override;

  private:
    struct Progress; ///< the progress exchange's own communicator and messages in flight
    int rank_ = 0, size_ = 1;
    int local_size_ = 1; ///< ranks sharing this machine's memory (MPI_COMM_TYPE_SHARED)
    std::unique_ptr<Progress> progress_;
};

} // namespace fwi::mpi
