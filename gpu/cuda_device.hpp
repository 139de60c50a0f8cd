#pragma once
// The CUDA execution policy of PackedPropagator: device memory, the two streams, transfers and kernel
// launches. Its twin for tests without a GPU is HostDevice (host_device.hpp); both offer exactly the same
// members.
//
// Streams: `compute` runs every kernel and the small transfers in step order; `copy` carries the state
// checkpoint transfers (to_host/from_host), ordered against compute by events, so an upload returns at once
// and overlaps the host's next work; kernels queued after it wait on the device, not on the host.
#include "cuda_check.hpp"
#include "cuda_kernels.cuh"
#include "cuda_kernels_3d.cuh"

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace fwi::gpu {

class CudaDevice {
  public:
    template <class T> using Buffer = DeviceBuffer<T>;
    template <class T> using HostBuffer = PinnedBuffer<T>;
    /// Orders a copy-stream upload before later host access to its staging buffer.
    struct Fence {
        std::unique_ptr<Event> event;
        bool pending = false;
    };

    /// Selects device `ordinal` and creates the streams. Throws ResourceError if the device cannot be used.
    explicit CudaDevice(int ordinal);
    ~CudaDevice();
    CudaDevice(const CudaDevice&) = delete;
    CudaDevice& operator=(const CudaDevice&) = delete;

    /// Makes this device current for the calling thread (the CUDA runtime's current device is per thread).
    void activate() const;

    /// A zero-filled device array (the fill is ordered on the compute stream).
    template <class T> Buffer<T> alloc(std::size_t count, const char* what) {
        Buffer<T> b(count, what);
        zero(b.data(), b.bytes());
        return b;
    }
    template <class T> HostBuffer<T> alloc_host(std::size_t count, const char* what) {
        return HostBuffer<T>(count, what);
    }

    void zero(void* dst, std::size_t bytes);
    /// Host (pageable) -> device on the compute stream; returns when `src` may be reused.
    void upload(void* dst, const void* src, std::size_t bytes);
    /// Small per-step host -> device copy through a ring of pinned slots: returns at once.
    void upload_small(void* dst, const void* src, std::size_t bytes);
    /// Device -> host (pageable) after all queued compute work; returns when the data are on the host.
    void download(void* dst, const void* src, std::size_t bytes);
    /// `rows` rows of `width` bytes, device pitch src_pitch -> host pitch dst_pitch; waits like download().
    /// Narrow rows (receiver samples: a few steps per receiver) go through a pinned staging buffer.
    void download_rows(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                       std::size_t width, std::size_t rows);
    /// Device -> device on the compute stream, ordered with the kernels; returns at once.
    void copy_on_device(void* dst, const void* src, std::size_t bytes);
    /// Waits for all queued work; asynchronous kernel failures surface here as fwi::Error.
    void synchronize();
    /// The device's free and total memory in bytes (cudaMemGetInfo).
    struct Memory {
        std::size_t free = 0, total = 0;
    };
    Memory memory_info() const;

    /// Checkpoint transfers on the copy stream. download_state returns with the data on the host;
    /// upload_state returns at once, later compute work waits for it on the device, and wait(fence) must
    /// precede the next host access to the staging memory.
    void download_state(std::span<const Transfer> transfers);
    void upload_state(std::span<const Transfer> transfers, Fence& fence);
    void wait(Fence& fence);

    // Kernel passes (cuda_kernels.cuh), queued on the compute stream.
    void forward_psi(int r, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l) {
        launch_forward_psi(r, g, f, l, stream());
    }
    void forward_interior(int r, const GridArgs& g, const ForwardPtrs& f) {
        launch_forward_interior(r, g, f, stream());
    }
    void forward_pml(int r, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l) {
        launch_forward_pml(r, g, f, l, stream());
    }
    void adjoint_s(const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
        launch_adjoint_s(g, f, l, stream());
    }
    void adjoint_r(int r, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
        launch_adjoint_r(r, g, f, l, stream());
    }
    void adjoint_interior(int r, const GridArgs& g, const AdjointPtrs& f) {
        launch_adjoint_interior(r, g, f, stream());
    }
    void adjoint_pml(int r, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
        launch_adjoint_pml(r, g, f, l, stream());
    }
    void scatter(const ScatterArgs& a) { launch_scatter(a, stream()); }
    void gather(const GatherArgs& a) { launch_gather(a, stream()); }
    void mirror(const MirrorArgs& a) { launch_mirror(a, stream()); }
    // 3D passes (cuda_kernels_3d.cuh).
    void forward_psi_3d(int r, const GridArgs3D& g, const ForwardPtrs3D& f) {
        launch_forward_psi_3d(r, g, f, stream());
    }
    void forward_update_3d(int r, const GridArgs3D& g, const ForwardPtrs3D& f) {
        launch_forward_update_3d(r, g, f, stream());
    }
    void adjoint_s_3d(const GridArgs3D& g, const AdjointPtrs3D& f) { launch_adjoint_s_3d(g, f, stream()); }
    void adjoint_r_3d(int r, const GridArgs3D& g, const AdjointPtrs3D& f) {
        launch_adjoint_r_3d(r, g, f, stream());
    }
    void adjoint_update_3d(int r, const GridArgs3D& g, const AdjointPtrs3D& f) {
        launch_adjoint_update_3d(r, g, f, stream());
    }

    StreamHandle stream() const { return compute_.get(); }

  private:
    struct Slot;
    int ordinal_;
    Stream compute_;
    Stream copy_;
    Event compute_done_;
    std::vector<std::unique_ptr<Slot>> ring_;
    std::size_t next_slot_ = 0;
    PinnedBuffer<unsigned char> row_staging_; // download_rows of narrow rows, grown to the largest asked
};

} // namespace fwi::gpu
