#pragma once
// A small fixed pool of threads running queued tasks in order. Tasks must not throw (the store's jobs catch
// everything and record it).
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fwi::detail {

class WorkerPool {
  public:
    explicit WorkerPool(int threads); ///< throws ResourceError if a thread cannot be started
    ~WorkerPool();                    ///< lets running tasks finish, discards queued ones, joins
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(std::function<void()> task);

  private:
    void run();
    void stop_and_join() noexcept;

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

} // namespace fwi::detail
