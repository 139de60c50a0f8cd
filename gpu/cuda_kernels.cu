// __global__ wrappers around the per-cell functions of cuda_kernels.cuh, and their launchers. Every launch is
// checked (cuda_check.hpp); execution errors surface, as fwi::Error, at the next synchronising call.
#include "cuda_check.hpp"
#include "cuda_kernels.cuh"
#include "radius_dispatch.hpp"

#include "fwi/error.hpp"

#include <cuda_runtime.h>

#include <string>

namespace fwi::gpu {
namespace {

// ---------------------------------------------------------------- kernels
template <int R>
__global__ void __launch_bounds__(kTileX* kBlockY) forward_interior_kernel(GridArgs g, ForwardPtrs f) {
    __shared__ float tile[Tile<R>::cells];
    const int tid = int(threadIdx.y) * kTileX + int(threadIdx.x);
    for (int idx = tid; idx < Tile<R>::cells; idx += kTileX * kBlockY)
        load_tile_cell<R>(g, f.u, int(blockIdx.x), int(blockIdx.y), tile, idx);
    __syncthreads();
    for_tile_thread_cells<R>(g, int(blockIdx.x), int(blockIdx.y), int(threadIdx.x), int(threadIdx.y),
                             [&](int t, int iz, int ix) { forward_interior_cell<R>(g, f, tile, t, iz, ix); });
}

template <int R>
__global__ void __launch_bounds__(kTileX* kBlockY) adjoint_interior_kernel(GridArgs g, AdjointPtrs f) {
    __shared__ float tile[Tile<R>::cells];
    const int tid = int(threadIdx.y) * kTileX + int(threadIdx.x);
    for (int idx = tid; idx < Tile<R>::cells; idx += kTileX * kBlockY)
        load_tile_cell<R>(g, f.mu, int(blockIdx.x), int(blockIdx.y), tile, idx);
    __syncthreads();
    for_tile_thread_cells<R>(g, int(blockIdx.x), int(blockIdx.y), int(threadIdx.x), int(threadIdx.y),
                             [&](int t, int iz, int ix) { adjoint_interior_cell<R>(g, f, tile, t, iz, ix); });
}

__device__ __forceinline__ std::int64_t strip_thread() {
    return std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
}

template <int R>
__global__ void __launch_bounds__(kStripThreads)
    forward_psi_kernel(GridArgs g, ForwardPtrs f, StripLaunch l) {
    int iz, ix, kind;
    if (strip_cell(l, strip_thread(), iz, ix, kind)) forward_psi_cell<R>(g, f, kind, iz, ix);
}

template <int R>
__global__ void __launch_bounds__(kStripThreads)
    forward_pml_kernel(GridArgs g, ForwardPtrs f, StripLaunch l) {
    int iz, ix, kind;
    if (strip_cell(l, strip_thread(), iz, ix, kind)) forward_pml_cell<R>(g, f, iz, ix);
}

__global__ void __launch_bounds__(kStripThreads) adjoint_s_kernel(GridArgs g, AdjointPtrs f, StripLaunch l) {
    int iz, ix, kind;
    if (strip_cell(l, strip_thread(), iz, ix, kind)) adjoint_s_cell(g, f, kind, iz, ix);
}

template <int R>
__global__ void __launch_bounds__(kStripThreads) adjoint_r_kernel(GridArgs g, AdjointPtrs f, StripLaunch l) {
    int iz, ix, kind;
    if (strip_cell(l, strip_thread(), iz, ix, kind)) adjoint_r_cell<R>(g, f, kind, iz, ix);
}

template <int R>
__global__ void __launch_bounds__(kStripThreads)
    adjoint_pml_kernel(GridArgs g, AdjointPtrs f, StripLaunch l) {
    int iz, ix, kind;
    if (strip_cell(l, strip_thread(), iz, ix, kind)) adjoint_pml_cell<R>(g, f, iz, ix);
}

__global__ void __launch_bounds__(kScatterThreads) scatter_kernel(ScatterArgs a) {
    const int q = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (q < a.cells) scatter_cell(a, q);
}

__global__ void __launch_bounds__(kScatterThreads) gather_kernel(GatherArgs a) {
    const int r = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (r < a.count) gather_receiver(a, r);
}

/// Plane k = blockIdx.y of the mirror, cells along x: a warp writes consecutive floats of one plane.
__global__ void __launch_bounds__(kScatterThreads) mirror_kernel(MirrorArgs a) {
    const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < a.plane) mirror_cell(a, int(blockIdx.y), i);
}

// ---------------------------------------------------------------- launch helpers
dim3 tile_grid(const GridArgs& g) {
    return dim3(unsigned((g.x1 - g.x0 + kTileX - 1) / kTileX), unsigned((g.z1 - g.z0 + kTileZ - 1) / kTileZ));
}
unsigned blocks_for(std::int64_t threads, int per_block) {
    const std::int64_t blocks = (threads + per_block - 1) / per_block;
    if (blocks > 0x7fffffff)
        throw ResourceError("CUDA launch of " + std::to_string(threads) + " threads is too large");
    return unsigned(blocks);
}
bool empty_tile(const GridArgs& g) {
    return g.x1 <= g.x0 || g.z1 <= g.z0;
}

} // namespace

void launch_forward_psi(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l,
                        StreamHandle s) {
    if (l.total == 0) return;
    with_radius(radius, [&](auto r) {
        forward_psi_kernel<decltype(r)::value>
            <<<blocks_for(l.total, kStripThreads), kStripThreads, 0, s>>>(g, f, l);
    });
    check_launch("forward psi");
}

void launch_forward_interior(int radius, const GridArgs& g, const ForwardPtrs& f, StreamHandle s) {
    if (empty_tile(g)) return;
    with_radius(radius, [&](auto r) {
        forward_interior_kernel<decltype(r)::value><<<tile_grid(g), dim3(kTileX, kBlockY), 0, s>>>(g, f);
    });
    check_launch("forward interior");
}

void launch_forward_pml(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l,
                        StreamHandle s) {
    if (l.total == 0) return;
    with_radius(radius, [&](auto r) {
        forward_pml_kernel<decltype(r)::value>
            <<<blocks_for(l.total, kStripThreads), kStripThreads, 0, s>>>(g, f, l);
    });
    check_launch("forward PML");
}

void launch_adjoint_s(const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l, StreamHandle s) {
    if (l.total == 0) return;
    adjoint_s_kernel<<<blocks_for(l.total, kStripThreads), kStripThreads, 0, s>>>(g, f, l);
    check_launch("adjoint s");
}

void launch_adjoint_r(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l,
                      StreamHandle s) {
    if (l.total == 0) return;
    with_radius(radius, [&](auto r) {
        adjoint_r_kernel<decltype(r)::value>
            <<<blocks_for(l.total, kStripThreads), kStripThreads, 0, s>>>(g, f, l);
    });
    check_launch("adjoint r");
}

void launch_adjoint_interior(int radius, const GridArgs& g, const AdjointPtrs& f, StreamHandle s) {
    if (empty_tile(g)) return;
    with_radius(radius, [&](auto r) {
        adjoint_interior_kernel<decltype(r)::value><<<tile_grid(g), dim3(kTileX, kBlockY), 0, s>>>(g, f);
    });
    check_launch("adjoint interior");
}

void launch_adjoint_pml(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l,
                        StreamHandle s) {
    if (l.total == 0) return;
    with_radius(radius, [&](auto r) {
        adjoint_pml_kernel<decltype(r)::value>
            <<<blocks_for(l.total, kStripThreads), kStripThreads, 0, s>>>(g, f, l);
    });
    check_launch("adjoint PML");
}

void launch_scatter(const ScatterArgs& a, StreamHandle s) {
    if (a.cells == 0) return;
    scatter_kernel<<<blocks_for(a.cells, kScatterThreads), kScatterThreads, 0, s>>>(a);
    check_launch("source/receiver injection");
}

void launch_gather(const GatherArgs& a, StreamHandle s) {
    if (a.count == 0) return;
    gather_kernel<<<blocks_for(a.count, kScatterThreads), kScatterThreads, 0, s>>>(a);
    check_launch("receiver recording");
}

void launch_mirror(const MirrorArgs& a, StreamHandle s) {
    if (a.radius < 0 || a.plane == 0) return;
    mirror_kernel<<<dim3(blocks_for(a.plane, kScatterThreads), unsigned(a.radius + 1)), kScatterThreads, 0,
                    s>>>(a);
    check_launch("free-surface mirror");
}

} // namespace fwi::gpu
