#pragma once
// The checked layer over the CUDA runtime: every call goes through check(), which turns an error code into
// fwi::ResourceError (out of memory, no device or driver) or fwi::Error (anything else), never a crash. RAII
// owners for device memory, pinned host memory, streams and events; their destructors never throw.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

namespace fwi::gpu {

/// Throws for any code but cudaSuccess; `what` names the operation ("allocating the wave state").
void check(cudaError_t code, const char* what);
/// After a kernel launch: reports launch-configuration errors (cudaGetLastError).
void check_launch(const char* what);
/// Human text for a code, e.g. "out of memory (cudaErrorMemoryAllocation)".
std::string describe(cudaError_t code);

/// cudaMalloc that throws ResourceError "GPU memory exhausted: needed X bytes, Y free (what)".
void* device_malloc(std::size_t bytes, const char* what);
/// cudaMallocHost (page-locked), throwing ResourceError when the host cannot pin that much.
void* pinned_malloc(std::size_t bytes, const char* what);

/// Owning device array of T (uninitialised until written).
template <class T> class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t count, const char* what)
        : data_(count ? static_cast<T*>(device_malloc(count * sizeof(T), what)) : nullptr), size_(count) {}
    DeviceBuffer(DeviceBuffer&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            data_ = std::exchange(o.data_, nullptr);
            size_ = std::exchange(o.size_, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() { release(); }
    T* data() const { return data_; }
    std::size_t size() const { return size_; }
    std::size_t bytes() const { return size_ * sizeof(T); }

  private:
    void release() noexcept {
        if (data_) cudaFree(data_); // errors here belong to earlier work and were reported there
        data_ = nullptr;
    }
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

/// Owning page-locked host array of T, so that cudaMemcpyAsync really is asynchronous.
template <class T> class PinnedBuffer {
  public:
    PinnedBuffer() = default;
    PinnedBuffer(std::size_t count, const char* what)
        : data_(count ? static_cast<T*>(pinned_malloc(count * sizeof(T), what)) : nullptr), size_(count) {}
    PinnedBuffer(PinnedBuffer&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
        if (this != &o) {
            release();
            data_ = std::exchange(o.data_, nullptr);
            size_ = std::exchange(o.size_, 0);
        }
        return *this;
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    ~PinnedBuffer() { release(); }
    T* data() const { return data_; }
    std::size_t size() const { return size_; }

  private:
    void release() noexcept {
        if (data_) cudaFreeHost(data_);
        data_ = nullptr;
    }
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

/// A non-blocking stream (no implicit ordering with the legacy default stream).
class Stream {
  public:
    explicit Stream(const char* what);
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream();
    cudaStream_t get() const { return stream_; }
    void synchronize(const char* what) const;

  private:
    cudaStream_t stream_ = nullptr;
};

/// An event without timing, for ordering streams and the host.
class Event {
  public:
    explicit Event(const char* what);
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event();
    void record(cudaStream_t stream, const char* what);
    void wait_host(const char* what) const; ///< blocks the host until the event completes
    void wait_stream(cudaStream_t stream,
                     const char* what) const; ///< later work on stream waits for the event

  private:
    cudaEvent_t event_ = nullptr;
};

} // namespace fwi::gpu
