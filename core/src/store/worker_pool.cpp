#include "store/worker_pool.hpp"

#include "fwi/error.hpp"

#include <omp.h>
#include <system_error>

namespace fwi::detail {

WorkerPool::WorkerPool(int threads) {
    try {
        for (int i = 0; i < threads; ++i)
            threads_.emplace_back([this] { run(); });
    } catch (const std::system_error& e) {
        stop_and_join();
        throw ResourceError(std::string("checkpoint store: cannot start a worker thread: ") + e.what());
    }
}

WorkerPool::~WorkerPool() {
    stop_and_join();
}

void WorkerPool::stop_and_join() noexcept {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
}

void WorkerPool::submit(std::function<void()> task) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(task));
    }
    wake_.notify_one();
}

void WorkerPool::run() {
    // A codec splits a field over the calling thread's OpenMP team (codec/chunk_loop.hpp). A worker is a
    // plain thread whose team would be every core, and workers run beside the propagator's team, which
    // already uses them all: 2 workers x N threads + N would oversubscribe the cores. So a worker encodes
    // its item on itself alone (this sets only this thread's OpenMP thread count); the store's parallelism
    // is its workers. Codec calls on the caller's thread (synchronous puts, gets) use the caller's team.
    omp_set_num_threads(1);
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            task = std::move(queue_.front());
            queue_.pop_front();
        }
        task();
    }
}

} // namespace fwi::detail
