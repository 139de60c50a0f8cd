#pragma once
// The host twin of CudaDevice: the same members, with host memory, and kernel launches executed block by
// block and thread by thread on the CPU through the very per-cell and thread-mapping functions of
// cuda_kernels.cuh. It lets the whole CUDA backend logic (plan, packed state, pass order, thread mapping,
// source/receiver tables, staging) run and be tested on machines without a GPU. It is a test instrument,
// sequential and slow, not a product backend.
#include "cuda_kernels.cuh"
#include "cuda_kernels_3d.cuh"

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>

namespace fwi::gpu {

/// Zero-initialised owning host array with the DeviceBuffer interface.
template <class T> class HostArray {
  public:
    HostArray() = default;
    HostArray(std::size_t count, const char*)
        : data_(count ? std::make_unique<T[]>(count) : nullptr), size_(count) {}
    T* data() const { return data_.get(); }
    std::size_t size() const { return size_; }
    std::size_t bytes() const { return size_ * sizeof(T); }

  private:
    std::unique_ptr<T[]> data_;
    std::size_t size_ = 0;
};

namespace host {
void forward_psi(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l);
void forward_interior(int radius, const GridArgs& g, const ForwardPtrs& f);
void forward_pml(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l);
void adjoint_s(const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l);
void adjoint_r(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l);
void adjoint_interior(int radius, const GridArgs& g, const AdjointPtrs& f);
void adjoint_pml(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l);
void scatter(const ScatterArgs& a);
void gather(const GatherArgs& a);
void mirror(const MirrorArgs& a);
// 3D (host_kernels_3d.cpp)
void forward_psi_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f);
void forward_update_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f);
void adjoint_s_3d(const GridArgs3D& g, const AdjointPtrs3D& f);
void adjoint_r_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f);
void adjoint_update_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f);
} // namespace host

class HostDevice {
  public:
    template <class T> using Buffer = HostArray<T>;
    template <class T> using HostBuffer = HostArray<T>;
    struct Fence {
        bool pending = false;
    };

    void activate() const {}
    template <class T> Buffer<T> alloc(std::size_t count, const char* what) { return Buffer<T>(count, what); }
    template <class T> HostBuffer<T> alloc_host(std::size_t count, const char* what) {
        return HostBuffer<T>(count, what);
    }
    void zero(void* dst, std::size_t bytes) { copy(dst, nullptr, bytes); }
    void upload(void* dst, const void* src, std::size_t bytes) { copy(dst, src, bytes); }
    void upload_small(void* dst, const void* src, std::size_t bytes) { copy(dst, src, bytes); }
    void download(void* dst, const void* src, std::size_t bytes) { copy(dst, src, bytes); }
    void download_rows(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                       std::size_t width, std::size_t rows) {
        for (std::size_t r = 0; r < rows; ++r)
            copy(static_cast<char*>(dst) + r * dst_pitch, static_cast<const char*>(src) + r * src_pitch,
                 width);
    }
    void copy_on_device(void* dst, const void* src, std::size_t bytes) { copy(dst, src, bytes); }
    void synchronize() {}
    /// The twin's "device" is the host: room for any test's snapshots.
    struct Memory {
        std::size_t free = std::size_t(1) << 50, total = 0;
    };
    Memory memory_info() const { return {}; }
    void download_state(std::span<const Transfer> transfers);
    void upload_state(std::span<const Transfer> transfers, Fence& fence);
    void wait(Fence& fence) { fence.pending = false; }

    void forward_psi(int r, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l) {
        host::forward_psi(r, g, f, l);
    }
    void forward_interior(int r, const GridArgs& g, const ForwardPtrs& f) { host::forward_interior(r, g, f); }
    void forward_pml(int r, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l) {
        host::forward_pml(r, g, f, l);
    }
    void adjoint_s(const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
        host::adjoint_s(g, f, l);
    }
    void adjoint_r(int r, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
        host::adjoint_r(r, g, f, l);
    }
    void adjoint_interior(int r, const GridArgs& g, const AdjointPtrs& f) { host::adjoint_interior(r, g, f); }
    void adjoint_pml(int r, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
        host::adjoint_pml(r, g, f, l);
    }
    void scatter(const ScatterArgs& a) { host::scatter(a); }
    void gather(const GatherArgs& a) { host::gather(a); }
    void mirror(const MirrorArgs& a) { host::mirror(a); }
    void forward_psi_3d(int r, const GridArgs3D& g, const ForwardPtrs3D& f) { host::forward_psi_3d(r, g, f); }
    void forward_update_3d(int r, const GridArgs3D& g, const ForwardPtrs3D& f) {
        host::forward_update_3d(r, g, f);
    }
    void adjoint_s_3d(const GridArgs3D& g, const AdjointPtrs3D& f) { host::adjoint_s_3d(g, f); }
    void adjoint_r_3d(int r, const GridArgs3D& g, const AdjointPtrs3D& f) { host::adjoint_r_3d(r, g, f); }
    void adjoint_update_3d(int r, const GridArgs3D& g, const AdjointPtrs3D& f) {
        host::adjoint_update_3d(r, g, f);
    }

  private:
    static void copy(void* dst, const void* src, std::size_t bytes) {
        if (!bytes) return;
        if (src)
            std::memmove(dst, src, bytes);
        else
            std::memset(dst, 0, bytes);
    }
};

} // namespace fwi::gpu
