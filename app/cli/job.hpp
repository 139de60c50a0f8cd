#pragma once
// The processes running this command: this process alone, or the ranks of an MPI job (mpirun / srun). Every
// rank runs the same command; the gradients are split over the ranks inside the engine, and rank 0 alone
// writes the project, the output files and the event log and shows progress.
#include "fwi/communicator.hpp"

namespace fwi::cli {

/// The job's communicator: a SerialCommunicator unless main() set an MPI one.
Communicator& job();
void set_job(Communicator& comm);
/// Rank 0: the one that writes and reports.
inline bool writes_outputs() {
    return job().rank() == 0;
}

} // namespace fwi::cli
