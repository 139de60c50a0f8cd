// __global__ wrappers around the 3D per-cell functions of cuda_kernels_3d.cuh, and their launchers. Every
// launch is checked (cuda_check.hpp); execution errors surface, as fwi::Error, at the next synchronising
// call.
#include "cuda_check.hpp"
#include "cuda_kernels_3d.cuh"
#include "radius_dispatch.hpp"

#include "fwi/error.hpp"

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

namespace fwi::gpu {
namespace {

/// The cell of this thread in a cell launch (kernel_args_3d.hpp), false for idle threads.
__device__ __forceinline__ bool this_cell(const GridArgs3D& g, int& iz, int& iy, int& ix) {
    return cell_of_thread(g, int(blockIdx.x), int(blockIdx.y), int(blockIdx.z), int(threadIdx.x),
                          int(threadIdx.y), iz, iy, ix);
}

/// The cell of this thread in a layer launch (kernel_args_3d.hpp), false for idle threads. One thread maps
/// the block (integer divisions, some 80 instructions) and shares it; every thread of the block must call
/// this.
__device__ __forceinline__ bool this_layer_cell(const GridArgs3D& g, const LayerLaunch3D& l, int& iz, int& iy,
                                                int& ix) {
    __shared__ int block[3]; // block_x, block_y, iz
    if (threadIdx.x == 0 && threadIdx.y == 0)
        layer_block(g, l, int(blockIdx.x), block[0], block[1], block[2]);
    __syncthreads();
    iz = block[2];
    return block_cell(g, block[0], block[1], int(threadIdx.x), int(threadIdx.y), iy, ix);
}

template <int R>
__global__ void __launch_bounds__(kCellX* kCellY)
    forward_psi_3d_kernel(GridArgs3D g, LayerLaunch3D l, ForwardPtrs3D f) {
    int iz, iy, ix;
    if (this_layer_cell(g, l, iz, iy, ix)) forward_psi_cell_3d<R>(g, f, iz, iy, ix);
}

template <int R>
__global__ void __launch_bounds__(kCellX* kCellY) forward_update_3d_kernel(GridArgs3D g, ForwardPtrs3D f) {
    int iz, iy, ix;
    if (this_cell(g, iz, iy, ix)) forward_update_cell_3d<R>(g, f, iz, iy, ix);
}

__global__ void __launch_bounds__(kCellX* kCellY)
    adjoint_s_3d_kernel(GridArgs3D g, LayerLaunch3D l, AdjointPtrs3D f) {
    int iz, iy, ix;
    if (this_layer_cell(g, l, iz, iy, ix)) adjoint_s_cell_3d(g, f, iz, iy, ix);
}

template <int R>
__global__ void __launch_bounds__(kCellX* kCellY)
    adjoint_r_3d_kernel(GridArgs3D g, LayerLaunch3D l, AdjointPtrs3D f) {
    int iz, iy, ix;
    if (this_layer_cell(g, l, iz, iy, ix)) adjoint_r_cell_3d<R>(g, f, iz, iy, ix);
}

template <int R>
__global__ void __launch_bounds__(kCellX* kCellY) adjoint_update_3d_kernel(GridArgs3D g, AdjointPtrs3D f) {
    int iz, iy, ix;
    if (this_cell(g, iz, iy, ix)) adjoint_update_cell_3d<R>(g, f, iz, iy, ix);
}

/// Grid of a layer launch; false when no block meets a layer (no PML). make_kernel_plan_3d keeps the block
/// count within gridDim.x's limit.
bool layer_grid(const GridArgs3D& g, LayerLaunch3D& l, dim3& grid) {
    l = layer_launch(g);
    if (l.blocks == 0) return false;
    grid = dim3(unsigned(l.blocks));
    return true;
}

/// Grid of a cell launch; false when the computed box is empty. The plan keeps z within gridDim.z's limit.
bool cell_grid(const GridArgs3D& g, dim3& grid) {
    const CellLaunch3D l = cell_launch(g);
    if (l.blocks_x == 0) return false;
    grid = dim3(unsigned(l.blocks_x), unsigned(l.blocks_y), unsigned(l.blocks_z));
    return true;
}

const dim3 kCellBlock(kCellX, kCellY);

} // namespace

void launch_forward_psi_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f, StreamHandle s) {
    dim3 grid;
    LayerLaunch3D l;
    if (!layer_grid(g, l, grid)) return;
    with_radius(radius, [&](auto r) {
        forward_psi_3d_kernel<decltype(r)::value><<<grid, kCellBlock, 0, s>>>(g, l, f);
    });
    check_launch("3D forward psi");
}

void launch_forward_update_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f, StreamHandle s) {
    dim3 grid;
    if (!cell_grid(g, grid)) return;
    with_radius(radius, [&](auto r) {
        forward_update_3d_kernel<decltype(r)::value><<<grid, kCellBlock, 0, s>>>(g, f);
    });
    check_launch("3D forward update");
}

void launch_adjoint_s_3d(const GridArgs3D& g, const AdjointPtrs3D& f, StreamHandle s) {
    dim3 grid;
    LayerLaunch3D l;
    if (!layer_grid(g, l, grid)) return;
    adjoint_s_3d_kernel<<<grid, kCellBlock, 0, s>>>(g, l, f);
    check_launch("3D adjoint s");
}

void launch_adjoint_r_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f, StreamHandle s) {
    dim3 grid;
    LayerLaunch3D l;
    if (!layer_grid(g, l, grid)) return;
    with_radius(radius, [&](auto r) {
        adjoint_r_3d_kernel<decltype(r)::value><<<grid, kCellBlock, 0, s>>>(g, l, f);
    });
    check_launch("3D adjoint r");
}

void launch_adjoint_update_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f, StreamHandle s) {
    dim3 grid;
    if (!cell_grid(g, grid)) return;
    with_radius(radius, [&](auto r) {
        adjoint_update_3d_kernel<decltype(r)::value><<<grid, kCellBlock, 0, s>>>(g, f);
    });
    check_launch("3D adjoint update");
}

} // namespace fwi::gpu
