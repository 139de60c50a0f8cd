#include "mpi_communicator.hpp"

#include "fwi/error.hpp"

#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

namespace fwi::mpi {
namespace {

void check(int rc, const char* what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(rc, text, &length);
    throw ResourceError(std::string(what) + " failed: " + std::string(text, std::size_t(length)));
}

// MPI counts are int: larger messages go as MPI_BYTE in chunks would be needed; refuse them clearly instead.
int count_of(std::size_t bytes) {
    if (bytes > std::size_t(std::numeric_limits<int>::max()))
        throw ResourceError("an MPI message of " + std::to_string(bytes) + " bytes exceeds 2 GiB");
    return int(bytes);
}

} // namespace

bool launched_by_mpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(name)) return true;
    return false;
}

MpiCommunicator::MpiCommunicator(int& argc, char**& argv) {
    check(MPI_Init(&argc, &argv), "MPI_Init");
    // Errors come back as return codes (turned into exceptions), not as MPI's default abort.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiCommunicator::~MpiCommunicator() {
    MPI_Finalize();
}

std::vector<std::vector<std::byte>> MpiCommunicator::gather(std::span<const std::byte> mine) {
    const int count = count_of(mine.size());
    std::vector<int> counts(rank_ == 0 ? std::size_t(size_) : 0);
    check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
    std::vector<int> offsets(counts.size());
    std::size_t total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        offsets[r] = count_of(total);
        total += std::size_t(counts[r]);
    }
    std::vector<std::byte> all(total);
    check(MPI_Gatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
                      MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<std::vector<std::byte>> out;
    for (std::size_t r = 0; r < counts.size(); ++r)
        out.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
    return out;
}

void MpiCommunicator::broadcast(std::vector<std::byte>& bytes) {
    std::uint64_t n = bytes.size();
    check(MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
    bytes.resize(std::size_t(n));
    check(MPI_Bcast(bytes.data(), count_of(bytes.size()), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
}

void MpiCommunicator::barrier() {
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

bool MpiCommunicator::any(bool flag) {
    int mine = flag ? 1 : 0, result = 0;
    check(MPI_Allreduce(&mine, &result, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
    return result != 0;
}

void MpiCommunicator::abort(int exit_code) {
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code); // MPI_Abort does not return; this keeps [[noreturn]] true
}

} // namespace fwi::mpi
