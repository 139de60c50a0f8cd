#include "cuda_check.hpp"

#include "fwi/error.hpp"

#include <sstream>

namespace fwi::gpu {
namespace {

std::string bytes_text(std::size_t bytes) {
    std::ostringstream s;
    s << bytes << " bytes";
    if (bytes >= (std::size_t(1) << 20)) s << " (" << double(bytes) / double(1 << 20) << " MiB)";
    return s.str();
}

bool is_resource_error(cudaError_t code) {
    switch (code) {
    case cudaErrorMemoryAllocation:
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInvalidDevice:
    case cudaErrorLaunchOutOfResources:
    case cudaErrorHostMemoryAlreadyRegistered:
        return true;
    default:
        return false;
    }
}

} // namespace

std::string describe(cudaError_t code) {
    return std::string(cudaGetErrorString(code)) + " (" + cudaGetErrorName(code) + ")";
}

void check(cudaError_t code, const char* what) {
    if (code == cudaSuccess) return;
    // Clear the per-thread last error so that one failure is not reported twice. Sticky errors (a faulted
    // kernel) stay in the context and make every later call fail with its own exception.
    cudaGetLastError();
    const std::string message = std::string("CUDA error while ") + what + ": " + describe(code);
    if (is_resource_error(code)) throw ResourceError(message);
    throw Error(message);
}

void check_launch(const char* what) {
    const cudaError_t code = cudaGetLastError();
    if (code != cudaSuccess) check(code, (std::string("launching the ") + what + " kernel").c_str());
}

void* device_malloc(std::size_t bytes, const char* what) {
    void* p = nullptr;
    const cudaError_t code = cudaMalloc(&p, bytes);
    if (code == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        std::size_t free_bytes = 0, total_bytes = 0;
        const bool known = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
        cudaGetLastError();
        throw ResourceError(
            "GPU memory exhausted: needed " + bytes_text(bytes) + ", " +
            (known ? bytes_text(free_bytes) + " free of " + bytes_text(total_bytes) : "free unknown") + " (" +
            what + ")");
    }
    check(code, what);
    return p;
}

void* pinned_malloc(std::size_t bytes, const char* what) {
    void* p = nullptr;
    const cudaError_t code = cudaMallocHost(&p, bytes);
    if (code == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw ResourceError("pinned host memory exhausted: needed " + bytes_text(bytes) + " (" + what + ")");
    }
    check(code, what);
    return p;
}

Stream::Stream(const char* what) {
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), what);
}
Stream::~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
}
void Stream::synchronize(const char* what) const {
    check(cudaStreamSynchronize(stream_), what);
}

Event::Event(const char* what) {
    check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), what);
}
Event::~Event() {
    if (event_) cudaEventDestroy(event_);
}
void Event::record(cudaStream_t stream, const char* what) {
    check(cudaEventRecord(event_, stream), what);
}
void Event::wait_host(const char* what) const {
    check(cudaEventSynchronize(event_), what);
}
void Event::wait_stream(cudaStream_t stream, const char* what) const {
    check(cudaStreamWaitEvent(stream, event_, 0), what);
}

} // namespace fwi::gpu
