#pragma once
// The one parallel loop of the codecs: runs a body once per chunk on the calling thread's OpenMP team.
//
// Threads. The team is the calling thread's: omp_get_max_threads() (the --threads setting on the thread
// that set it). Inside a parallel region (a caller that already splits work over the cores) the chunks run
// serially instead of nesting a team. A plain std::thread that calls a codec opens its own team sized by
// OMP_NUM_THREADS or the core count, which is why the checkpoint store's workers, which run beside the
// propagator's team, ask for one thread (store/worker_pool.cpp).
#include <atomic>
#include <cstdint>
#include <exception>
#include <omp.h>
#include <vector>

namespace fwi::detail {

/// Calls body(i) for every chunk i in [0, chunks), in parallel with schedule(dynamic) (chunk costs differ
/// from quiet to busy parts of a wavefield). Exceptions cannot leave an OpenMP loop: the first one is kept,
/// the remaining chunks are skipped, and it is rethrown here.
template <typename Body> void for_each_chunk(std::int64_t chunks, const Body& body) {
    std::exception_ptr error;
    std::atomic<bool> failed{false};
    [[maybe_unused]] const bool team = chunks > 1 && !omp_in_parallel(); // unused where OpenMP is off
#pragma omp parallel for schedule(dynamic) if (team)
    for (std::int64_t i = 0; i < chunks; ++i) {
        if (failed.load(std::memory_order_relaxed)) continue;
        try {
            body(i);
        } catch (...) {
#pragma omp critical(fwi_codec_chunk_error)
            if (!error) error = std::current_exception();
            failed.store(true, std::memory_order_relaxed);
        }
    }
    if (error) std::rethrow_exception(error);
}

} // namespace fwi::detail
