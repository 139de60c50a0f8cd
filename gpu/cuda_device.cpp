#include "cuda_device.hpp"

#include "fwi/error.hpp"

#include <cstring>

namespace fwi::gpu {
namespace {
constexpr std::size_t kRingSlots = 16; // steps the host may run ahead of the device on per-step uploads
// Rows narrower than this are downloaded packed into pinned memory and spread on the host: a pitched copy of
// 1000 rows of 20 bytes (the receiver samples of a 5-step call) into pageable memory took about 0.13 ms on an
// H100, more than the five steps.
constexpr std::size_t kStagedRowBytes = 1024;

int select(int ordinal) {
    check(cudaSetDevice(ordinal), "selecting the CUDA device");
    return ordinal;
}
} // namespace

struct CudaDevice::Slot {
    PinnedBuffer<unsigned char> buffer;
    Event copied{"creating a transfer event"};
    bool used = false;
};

CudaDevice::CudaDevice(int ordinal)
    : ordinal_(select(ordinal)), compute_("creating the compute stream"), copy_("creating the copy stream"),
      compute_done_("creating the compute event") {}

CudaDevice::~CudaDevice() {
    // Pending work may still read buffers owned by the propagator, which are freed after this object goes
    // (members of the propagator are destroyed in reverse order): wait, ignoring errors reported elsewhere.
    cudaStreamSynchronize(compute_.get());
    cudaStreamSynchronize(copy_.get());
}

void CudaDevice::activate() const {
    check(cudaSetDevice(ordinal_), "selecting the CUDA device");
}

void CudaDevice::zero(void* dst, std::size_t bytes) {
    if (bytes) check(cudaMemsetAsync(dst, 0, bytes, compute_.get()), "clearing device memory");
}

void CudaDevice::upload(void* dst, const void* src, std::size_t bytes) {
    if (!bytes) return;
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, compute_.get()),
          "copying host data to the GPU");
    // Pageable sources may be read after the call returns on some systems: wait so the caller may reuse them.
    compute_.synchronize("copying host data to the GPU");
}

void CudaDevice::upload_small(void* dst, const void* src, std::size_t bytes) {
    if (!bytes) return;
    if (ring_.empty())
        for (std::size_t i = 0; i < kRingSlots; ++i)
            ring_.push_back(std::make_unique<Slot>());
    Slot& slot = *ring_[next_slot_++ % kRingSlots];
    if (slot.used) slot.copied.wait_host("waiting for a transfer slot");
    if (slot.buffer.size() < bytes)
        slot.buffer = PinnedBuffer<unsigned char>(bytes, "per-step transfer slot");
    std::memcpy(slot.buffer.data(), src, bytes);
    check(cudaMemcpyAsync(dst, slot.buffer.data(), bytes, cudaMemcpyHostToDevice, compute_.get()),
          "copying per-step data to the GPU");
    slot.copied.record(compute_.get(), "recording a transfer event");
    slot.used = true;
}

void CudaDevice::download(void* dst, const void* src, std::size_t bytes) {
    if (!bytes) return;
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, compute_.get()),
          "copying GPU data to the host");
    compute_.synchronize("copying GPU data to the host");
}

void CudaDevice::download_rows(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                               std::size_t width, std::size_t rows) {
    if (!width || !rows) return;
    if (width >= kStagedRowBytes) {
        check(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, rows, cudaMemcpyDeviceToHost,
                                compute_.get()),
              "copying GPU rows to the host");
        compute_.synchronize("copying GPU rows to the host");
        return;
    }
    const std::size_t bytes = width * rows;
    if (row_staging_.size() < bytes)
        row_staging_ = PinnedBuffer<unsigned char>(bytes, "staging GPU rows for the host");
    check(cudaMemcpy2DAsync(row_staging_.data(), width, src, src_pitch, width, rows, cudaMemcpyDeviceToHost,
                            compute_.get()),
          "copying GPU rows to the host");
    compute_.synchronize("copying GPU rows to the host");
    auto* out = static_cast<unsigned char*>(dst);
    for (std::size_t r = 0; r < rows; ++r)
        std::memcpy(out + r * dst_pitch, row_staging_.data() + r * width, width);
}

void CudaDevice::copy_on_device(void* dst, const void* src, std::size_t bytes) {
    if (!bytes) return;
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, compute_.get()),
          "copying a wave state on the GPU");
}

void CudaDevice::synchronize() {
    compute_.synchronize("running the GPU kernels");
}

CudaDevice::Memory CudaDevice::memory_info() const {
    Memory m;
    check(cudaMemGetInfo(&m.free, &m.total), "querying the GPU's free memory");
    return m;
}

void CudaDevice::download_state(std::span<const Transfer> transfers) {
    // The copy stream starts after the compute work queued so far (the steps that produced this state).
    compute_done_.record(compute_.get(), "ordering a state download");
    compute_done_.wait_stream(copy_.get(), "ordering a state download");
    for (const Transfer& t : transfers)
        if (t.bytes)
            check(cudaMemcpyAsync(t.dst, t.src, t.bytes, cudaMemcpyDeviceToHost, copy_.get()),
                  "copying a wave state to the host");
    copy_.synchronize("copying a wave state to the host");
}

void CudaDevice::upload_state(std::span<const Transfer> transfers, Fence& fence) {
    // Queued steps that still use the old contents go first; steps queued later wait for the new contents.
    compute_done_.record(compute_.get(), "ordering a state upload");
    compute_done_.wait_stream(copy_.get(), "ordering a state upload");
    for (const Transfer& t : transfers)
        if (t.bytes)
            check(cudaMemcpyAsync(t.dst, t.src, t.bytes, cudaMemcpyHostToDevice, copy_.get()),
                  "copying a wave state to the GPU");
    if (!fence.event) fence.event = std::make_unique<Event>("creating a state transfer event");
    fence.event->record(copy_.get(), "recording a state upload");
    fence.event->wait_stream(compute_.get(), "ordering compute after a state upload");
    fence.pending = true;
}

void CudaDevice::wait(Fence& fence) {
    if (!fence.pending) return;
    fence.pending = false;
    fence.event->wait_host("waiting for a state upload");
}

} // namespace fwi::gpu
