#pragma once
// Plain arguments of the 3D CUDA kernels (cuda_kernels_3d.cuh), shared by the device code, the host twin and
// the host-side planning (kernel_plan_3d.cpp); the 3D counterpart of kernel_args.hpp, no CUDA header.
//
// LAYOUT (grid.hpp): padded arrays (z, y, x) row-major, x fastest: cell (iz, iy, ix) at (iz * ny + iy) * nx +
// ix. PML memory variables are PACKED, exactly as CpuPropagator3D's state exposes them in fields()
// (cpu_propagator_3d.cpp), so a checkpoint of a CUDA state and of a CPU state hold the same numbers in the
// same places:
//   x strips: per variable nz * ny rows of wx        at (iz * ny + iy) * wx + x_slot(ix)
//   y strips: per variable nz * wy rows of nx        at (iz * wy + y_slot(iy)) * nx + ix
//   z slabs:  per variable wz * ny rows of nx        at (z_slot(iz) * ny + iy) * nx + ix
// where a slot numbers the low layer's cells first, then the high layer's. Outside its layers a memory
// variable is exactly zero (the CPU never writes it there), and the *_at() accessors below return that zero.
#include "kernel_args.hpp" // FWI_HD, FWI_UNROLL, StencilCoeffs, AxisPml

#include <cstdint>

namespace fwi::gpu {

inline constexpr int kAxis3X = 0;
inline constexpr int kAxis3Y = 1;
inline constexpr int kAxis3Z = 2;

/// Everything constant for one 3D propagator: sizes, spacing, stencil, model (c = v^2 dt^2), PML, packed
/// widths.
struct GridArgs3D {
    int nz = 0, ny = 0, nx = 0;                         ///< padded
    int z0 = 0, z1 = 0, y0 = 0, y1 = 0, x0 = 0, x1 = 0; ///< computed cells (all but the halo)
    float inv_dx = 0, inv_dy = 0, inv_dz = 0, inv_dx2 = 0, inv_dy2 = 0, inv_dz2 = 0;
    StencilCoeffs coef;
    const float* c = nullptr;
    const float* inv_c = nullptr;
    AxisPml px, py, pz;
    int wx_lo = 0, wx = 0; ///< packed widths: low layer's cells, both layers' cells
    int wy_lo = 0, wy = 0;
    int wz_lo = 0, wz = 0;
};

/// Forward state pointers: u^n, u^(n-1) -> u^(n+1), the six packed memory variables, optional B^n and Born
/// source.
struct ForwardPtrs3D {
    const float* u = nullptr;
    float* u_next = nullptr;
    float* psi_x = nullptr;
    float* zeta_x = nullptr;
    float* psi_y = nullptr;
    float* zeta_y = nullptr;
    float* psi_z = nullptr;
    float* zeta_z = nullptr;
    float* snapshot = nullptr;
    const float* secondary = nullptr;
};

/// Adjoint state pointers: mu^(n+1), mu^(n+2) -> mu^n, r = lambda_psi and s = lambda_zeta per axis (packed in
/// the slots of psi and zeta), the gradient accumulator, optional B^n and its weight.
struct AdjointPtrs3D {
    const float* mu = nullptr;
    float* mu_next = nullptr;
    float* r_x = nullptr;
    float* s_x = nullptr;
    float* r_y = nullptr;
    float* s_y = nullptr;
    float* r_z = nullptr;
    float* s_z = nullptr;
    float* grad_c = nullptr;
    const float* snapshot = nullptr;
    float weight = 1;
};

// ---------------------------------------------------------------- axes
template <int Axis> FWI_HD const AxisPml& axis_pml(const GridArgs3D& g) {
    if constexpr (Axis == kAxis3X)
        return g.px;
    else if constexpr (Axis == kAxis3Y)
        return g.py;
    else
        return g.pz;
}
/// The cell's index along Axis.
template <int Axis> FWI_HD int axis_coord(int iz, int iy, int ix) {
    if constexpr (Axis == kAxis3X)
        return ix;
    else if constexpr (Axis == kAxis3Y)
        return iy;
    else
        return iz;
}
/// Linear distance between neighbours along Axis.
template <int Axis> FWI_HD std::int64_t axis_stride(const GridArgs3D& g) {
    if constexpr (Axis == kAxis3X)
        return 1;
    else if constexpr (Axis == kAxis3Y)
        return g.nx;
    else
        return std::int64_t(g.ny) * g.nx;
}
template <int Axis> FWI_HD float axis_inv_h(const GridArgs3D& g) {
    if constexpr (Axis == kAxis3X)
        return g.inv_dx;
    else if constexpr (Axis == kAxis3Y)
        return g.inv_dy;
    else
        return g.inv_dz;
}
template <int Axis> FWI_HD float axis_inv_h2(const GridArgs3D& g) {
    if constexpr (Axis == kAxis3X)
        return g.inv_dx2;
    else if constexpr (Axis == kAxis3Y)
        return g.inv_dy2;
    else
        return g.inv_dz2;
}

/// j lies in one of the axis's two layers.
FWI_HD bool in_layer(const AxisPml& p, int j) {
    return (j >= p.lo_begin && j < p.lo_end) || (j >= p.hi_begin && j < p.hi_end);
}
/// j's stencil of radius R touches a layer: the layers plus R cells on their model side (cpu::Zones::reach,
/// i.e. in_layer || in_fringe). The model has at least 2R cells per axis (validate_propagator_setup), so the
/// two reaches never overlap.
FWI_HD bool in_reach(const AxisPml& p, int j, int r) {
    return (j >= p.lo_begin && j < p.lo_end + r) || (j >= p.hi_begin - r && j < p.hi_end);
}

/// Slot of index j in the packed layers of Axis (low layer first), or -1 outside both.
template <int Axis> FWI_HD int packed_slot(const GridArgs3D& g, int j) {
    const AxisPml& p = axis_pml<Axis>(g);
    if (j >= p.lo_begin && j < p.lo_end) return j - p.lo_begin;
    if (j >= p.hi_begin && j < p.hi_end) {
        if constexpr (Axis == kAxis3X)
            return g.wx_lo + (j - p.hi_begin);
        else if constexpr (Axis == kAxis3Y)
            return g.wy_lo + (j - p.hi_begin);
        else
            return g.wz_lo + (j - p.hi_begin);
    }
    return -1;
}
/// Offset in a packed variable of Axis of the cell (iz, iy, ix) whose slot along Axis is `slot`.
template <int Axis> FWI_HD std::int64_t packed_index(const GridArgs3D& g, int iz, int iy, int ix, int slot) {
    if constexpr (Axis == kAxis3X)
        return (std::int64_t(iz) * g.ny + iy) * g.wx + slot;
    else if constexpr (Axis == kAxis3Y)
        return (std::int64_t(iz) * g.wy + slot) * g.nx + ix;
    else
        return (std::int64_t(slot) * g.ny + iy) * g.nx + ix;
}
/// Packed variable p of Axis at the cell k steps along Axis from (iz, iy, ix); exactly 0 outside the layers.
template <int Axis>
FWI_HD float packed_at(const float* p, const GridArgs3D& g, int iz, int iy, int ix, int k) {
    if constexpr (Axis == kAxis3X)
        ix += k;
    else if constexpr (Axis == kAxis3Y)
        iy += k;
    else
        iz += k;
    const int s = packed_slot<Axis>(g, axis_coord<Axis>(iz, iy, ix));
    return s < 0 ? 0.0f : p[packed_index<Axis>(g, iz, iy, ix, s)];
}

// ---------------------------------------------------------------- thread mapping
/// Cell launches cover the computed box [z0, z1) x [y0, y1) x [x0, x1) with blocks of kCellX x kCellY
/// threads: x (the fast axis) on threadIdx.x so a warp reads 32 consecutive floats, y on threadIdx.y, one z
/// plane per blockIdx.z. One thread per cell.
inline constexpr int kCellX = 32;
inline constexpr int kCellY = 8;

struct CellLaunch3D {
    int blocks_x = 0, blocks_y = 0, blocks_z = 0;
};
inline CellLaunch3D cell_launch(const GridArgs3D& g) {
    if (g.x1 <= g.x0 || g.y1 <= g.y0 || g.z1 <= g.z0) return {};
    return {(g.x1 - g.x0 + kCellX - 1) / kCellX, (g.y1 - g.y0 + kCellY - 1) / kCellY, g.z1 - g.z0};
}
/// Thread (tx, ty) of block (bx, by, bz) -> its cell; false for the idle threads past the box's x or y end.
FWI_HD bool cell_of_thread(const GridArgs3D& g, int bx, int by, int bz, int tx, int ty, int& iz, int& iy,
                           int& ix) {
    ix = g.x0 + bx * kCellX + tx;
    iy = g.y0 + by * kCellY + ty;
    iz = g.z0 + bz;
    return ix < g.x1 && iy < g.y1 && iz < g.z1;
}
/// Host only (the host twin and the tests): every thread of every block of a cell launch in turn, idle
/// threads included, calling op(iz, iy, ix) for those with a cell.
template <class Op> void for_each_cell_thread(const GridArgs3D& g, Op&& op) {
    const CellLaunch3D l = cell_launch(g);
    for (int bz = 0; bz < l.blocks_z; ++bz)
        for (int by = 0; by < l.blocks_y; ++by)
            for (int bx = 0; bx < l.blocks_x; ++bx)
                for (int ty = 0; ty < kCellY; ++ty)
                    for (int tx = 0; tx < kCellX; ++tx) {
                        int iz = 0, iy = 0, ix = 0;
                        if (cell_of_thread(g, bx, by, bz, tx, ty, iz, iy, ix)) op(iz, iy, ix);
                    }
}

// ---------------------------------------------------------------- layer launches (psi; s, r)
/// The passes that work in the PML layers only (psi; s and r) launch blocks of kCellX x kCellY threads over
/// the blocks of the cell launch that meet a layer: every block of the planes in the z layers, and of the
/// other planes the block rows that meet a y layer (at the low and the high y end) and, in the remaining
/// rows, the blocks that meet an x layer (the layers lie at the ends of the computed box, as
/// make_pml_profile places them). A 1D grid enumerates them; threads on cells outside every layer
/// return at once, as in a cell launch. The interior of a 296^3 grid with 20-cell layers is 65% of its
/// cells, whose threads a cell launch would start for nothing.
struct LayerLaunch3D {
    int blocks_x = 0, blocks_y = 0;   ///< the cell launch's (y, x) block grid
    int z_lo_begin = 0, z_lo_end = 0; ///< the planes of the low z layer within [z0, z1)
    int z_hi_begin = 0, z_hi_end = 0; ///< those of the high z layer
    int rows_lo = 0, rows_hi = 0;     ///< whole block rows at the low / high y end
    int cols_lo = 0, cols_hi = 0;     ///< blocks at the low / high x end of the other rows
    std::int64_t blocks = 0;          ///< blocks in all
    FWI_HD int layer_planes() const { return (z_lo_end - z_lo_begin) + (z_hi_end - z_hi_begin); }
    /// Blocks per plane outside the z layers.
    FWI_HD std::int64_t frame_blocks() const {
        return std::int64_t(rows_lo + rows_hi) * blocks_x +
               std::int64_t(blocks_y - rows_lo - rows_hi) * (cols_lo + cols_hi);
    }
};

namespace detail {
/// [max(lo, a), min(hi, b)), empty as (lo, lo) when they do not meet.
inline void clip_range(int a, int b, int lo, int hi, int& begin, int& end) {
    begin = a > lo ? a : lo;
    end = b < hi ? b : hi;
    if (end <= begin) begin = end = lo;
}
/// Blocks of `size` cells from `origin` that meet the low range [begin, end) (counted from the first block),
/// and those that meet the high range (counted from the last of `blocks`), the latter clipped so the two
/// never share a block.
inline void end_blocks(int origin, int size, int blocks, int lo_begin, int lo_end, int hi_begin, int hi_end,
                       int& n_lo, int& n_hi) {
    n_lo = lo_end > lo_begin ? (lo_end - 1 - origin) / size + 1 : 0;
    n_hi = hi_end > hi_begin ? blocks - (hi_begin - origin) / size : 0;
    if (n_lo > blocks) n_lo = blocks;
    if (n_hi > blocks - n_lo) n_hi = blocks - n_lo;
}
} // namespace detail

inline LayerLaunch3D layer_launch(const GridArgs3D& g) {
    LayerLaunch3D l;
    const CellLaunch3D c = cell_launch(g);
    if (c.blocks_x == 0) return l;
    l.blocks_x = c.blocks_x;
    l.blocks_y = c.blocks_y;
    detail::clip_range(g.pz.lo_begin, g.pz.lo_end, g.z0, g.z1, l.z_lo_begin, l.z_lo_end);
    detail::clip_range(g.pz.hi_begin, g.pz.hi_end, g.z0, g.z1, l.z_hi_begin, l.z_hi_end);
    int y_lo0, y_lo1, y_hi0, y_hi1, x_lo0, x_lo1, x_hi0, x_hi1;
    detail::clip_range(g.py.lo_begin, g.py.lo_end, g.y0, g.y1, y_lo0, y_lo1);
    detail::clip_range(g.py.hi_begin, g.py.hi_end, g.y0, g.y1, y_hi0, y_hi1);
    detail::clip_range(g.px.lo_begin, g.px.lo_end, g.x0, g.x1, x_lo0, x_lo1);
    detail::clip_range(g.px.hi_begin, g.px.hi_end, g.x0, g.x1, x_hi0, x_hi1);
    detail::end_blocks(g.y0, kCellY, l.blocks_y, y_lo0, y_lo1, y_hi0, y_hi1, l.rows_lo, l.rows_hi);
    detail::end_blocks(g.x0, kCellX, l.blocks_x, x_lo0, x_lo1, x_hi0, x_hi1, l.cols_lo, l.cols_hi);
    const int other_planes = (g.z1 - g.z0) - l.layer_planes();
    l.blocks = std::int64_t(l.layer_planes()) * l.blocks_x * l.blocks_y + other_planes * l.frame_blocks();
    return l;
}

/// Block b of a layer launch -> its (block_x, block_y) in the cell launch's grid and its plane iz. 32-bit
/// arithmetic (make_kernel_plan_3d keeps the block count within int): 64-bit divisions cost the GPU about as
/// much as a layer cell's work.
FWI_HD void layer_block(const GridArgs3D& g, const LayerLaunch3D& l, int b, int& block_x, int& block_y,
                        int& iz) {
    const int whole = l.blocks_x * l.blocks_y;
    const int in_layers = l.layer_planes() * whole;
    if (b < in_layers) {
        const int k = b / whole, lo = l.z_lo_end - l.z_lo_begin, r = b - k * whole;
        iz = k < lo ? l.z_lo_begin + k : l.z_hi_begin + (k - lo);
        block_y = r / l.blocks_x;
        block_x = r - block_y * l.blocks_x;
        return;
    }
    b -= in_layers;
    const int frame = int(l.frame_blocks());
    const int k = b / frame;
    // The other planes, in order: those between the two z layers.
    iz = (l.z_lo_end > l.z_lo_begin ? l.z_lo_end : g.z0) + k;
    int r = b - k * frame;
    const int lo_rows = l.rows_lo * l.blocks_x;
    const int middle = l.blocks_y - l.rows_lo - l.rows_hi, per_row = l.cols_lo + l.cols_hi;
    if (r < lo_rows) {
        block_y = r / l.blocks_x;
        block_x = r - block_y * l.blocks_x;
    } else if (r < lo_rows + middle * per_row) {
        r -= lo_rows;
        const int row = r / per_row, t = r - row * per_row;
        block_y = l.rows_lo + row;
        block_x = t < l.cols_lo ? t : l.blocks_x - l.cols_hi + (t - l.cols_lo);
    } else {
        r -= lo_rows + middle * per_row;
        const int row = r / l.blocks_x;
        block_y = l.blocks_y - l.rows_hi + row;
        block_x = r - row * l.blocks_x;
    }
}
/// Thread (tx, ty) of the cell launch's block (block_x, block_y) in a plane -> its (iy, ix); false for idle
/// threads past the box's x or y end.
FWI_HD bool block_cell(const GridArgs3D& g, int block_x, int block_y, int tx, int ty, int& iy, int& ix) {
    ix = g.x0 + block_x * kCellX + tx;
    iy = g.y0 + block_y * kCellY + ty;
    return ix < g.x1 && iy < g.y1;
}
/// Thread (tx, ty) of layer-launch block b -> its cell; false for idle threads past the box's x or y end.
FWI_HD bool layer_cell_of_thread(const GridArgs3D& g, const LayerLaunch3D& l, int b, int tx, int ty, int& iz,
                                 int& iy, int& ix) {
    int bx = 0, by = 0;
    layer_block(g, l, b, bx, by, iz);
    return block_cell(g, bx, by, tx, ty, iy, ix);
}
/// Host only: every thread of every block of a layer launch in turn, calling op(iz, iy, ix) for those with a
/// cell.
template <class Op> void for_each_layer_thread(const GridArgs3D& g, Op&& op) {
    const LayerLaunch3D l = layer_launch(g);
    for (int b = 0; b < int(l.blocks); ++b)
        for (int ty = 0; ty < kCellY; ++ty)
            for (int tx = 0; tx < kCellX; ++tx) {
                int iz = 0, iy = 0, ix = 0;
                if (layer_cell_of_thread(g, l, b, tx, ty, iz, iy, ix)) op(iz, iy, ix);
            }
}

} // namespace fwi::gpu
