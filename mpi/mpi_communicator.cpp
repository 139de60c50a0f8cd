#include "mpi_communicator.hpp"

#include "fwi/error.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <limits>
#include <string>
#include <vector>

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

// Progress messages: one int64 each, on a communicator of their own so that they never match a collective's
// traffic. A rank's messages arrive in the order sent (MPI's non-overtaking rule), so its "done" message is
// its last.
constexpr int progress_tag = 1, progress_done_tag = 2;

} // namespace

struct MpiCommunicator::Progress {
    MPI_Comm comm = MPI_COMM_NULL;
    std::int64_t own = 0;            ///< this rank's latest count, posted or not
    std::deque<std::int64_t> values; ///< send buffers of posts in flight (a deque never moves its elements)
    std::deque<MPI_Request> requests;
    std::vector<std::int64_t> latest; ///< rank 0: each rank's latest post
    std::vector<bool> closed;         ///< rank 0: the rank's done message has arrived

    /// Drops the sends that have completed (from the front: they complete in order).
    void reap() {
        while (!requests.empty()) {
            int done = 0;
            MPI_Test(&requests.front(), &done, MPI_STATUS_IGNORE);
            if (!done) return;
            requests.pop_front();
            values.pop_front();
        }
    }
    /// Takes one message from `status`'s source into latest/closed.
    void receive(const MPI_Status& status) {
        std::int64_t value = 0;
        MPI_Recv(&value, 1, MPI_INT64_T, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE);
        latest[std::size_t(status.MPI_SOURCE)] = value;
        if (status.MPI_TAG == progress_done_tag) closed[std::size_t(status.MPI_SOURCE)] = true;
    }
};

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
    MPI_Comm local = MPI_COMM_NULL;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local),
          "MPI_Comm_split_type");
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
    progress_ = std::make_unique<Progress>();
    check(MPI_Comm_dup(MPI_COMM_WORLD, &progress_->comm), "MPI_Comm_dup");
    progress_->latest.assign(std::size_t(size_), 0);
    progress_->closed.assign(std::size_t(size_), false);
}

MpiCommunicator::~MpiCommunicator() {
    MPI_Comm_free(&progress_->comm);
    MPI_Finalize();
}

void MpiCommunicator::post_progress(std::int64_t steps_done) {
    if (rank_ == 0) return;
    Progress& p = *progress_;
    p.own = steps_done;
    p.reap();
    if (p.requests.size() >= 64) return; // rank 0 is not reading (busy in a long step): skip this post
    p.values.push_back(steps_done);
    p.requests.emplace_back();
    check(MPI_Isend(&p.values.back(), 1, MPI_INT64_T, 0, progress_tag, p.comm, &p.requests.back()),
          "MPI_Isend");
}

std::int64_t MpiCommunicator::others_progress() {
    Progress& p = *progress_;
    if (rank_ != 0) return 0;
    for (;;) {
        int waiting = 0;
        MPI_Status status;
        check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, p.comm, &waiting, &status), "MPI_Iprobe");
        if (!waiting) break;
        p.receive(status);
    }
    std::int64_t sum = 0;
    for (std::size_t r = 1; r < p.latest.size(); ++r)
        sum += p.latest[r];
    return sum;
}

void MpiCommunicator::finish_progress() {
    Progress& p = *progress_;
    if (rank_ != 0) {
        // The final count goes as the done message; then every send of this rank has completed.
        std::int64_t done = p.own;
        check(MPI_Send(&done, 1, MPI_INT64_T, 0, progress_done_tag, p.comm), "MPI_Send");
        std::vector<MPI_Request> pending(p.requests.begin(), p.requests.end());
        check(MPI_Waitall(int(pending.size()), pending.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
        p.requests.clear();
        p.values.clear();
    } else {
        for (int r = 1; r < size_; ++r)
            while (!p.closed[std::size_t(r)]) {
                MPI_Status status;
                check(MPI_Probe(r, MPI_ANY_TAG, p.comm, &status), "MPI_Probe");
                p.receive(status);
            }
    }
    std::fill(p.closed.begin(), p.closed.end(), false);
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
