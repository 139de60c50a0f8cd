#include "job.hpp"

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
}

} // namespace fwi::cli
