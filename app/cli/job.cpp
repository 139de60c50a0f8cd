#include "job.hpp"

#include "fwi/run_plan.hpp"

namespace fwi::cli {
namespace {
SerialCommunicator alone;
Communicator* current = &alone;
} // namespace

Communicator& job() {
    return *current;
}
void set_job(Communicator& comm) {
    current = &comm;
    // Ranks on one node plan their checkpoints against a share of its memory each, not all of it.
    set_processes_sharing_machine(comm.ranks_on_this_machine());
}

} // namespace fwi::cli
