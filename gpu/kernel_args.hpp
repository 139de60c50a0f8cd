#pragma once
// Plain arguments of the CUDA kernels, shared by the device code (cuda_kernels.cu), the host twin that
// executes the same per-cell code on the CPU (host_kernels.cpp), and the host-side planning
// (kernel_plan.cpp). No CUDA header here: FWI_HD marks functions compiled for both sides, and everything is a
// trivially copyable value passed by value to a kernel. Layout convention as in grid.hpp: padded arrays (z,
// x), x fast, cell (iz, ix) at iz * nx + ix.
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define FWI_HD __host__ __device__ __forceinline__
#else
#define FWI_HD inline
#endif
#if defined(__CUDA_ARCH__) // the device pass only: host compilers warn about the pragma
#define FWI_UNROLL _Pragma("unroll")
#else
#define FWI_UNROLL
#endif

namespace fwi::gpu {

/// Finite-difference coefficients of stencils.hpp (index 0..R), copied in by the host so device code never
/// touches the host constexpr tables.
struct StencilCoeffs {
    float d2[5] = {};
    float d1[5] = {};
};

/// The union of two index ranges [a0, a1) and [b0, b1) along one axis, a before b; either may be empty. The
/// strip launches enumerate such unions so that a launch covers only PML cells.
struct Segs {
    int a0 = 0, a1 = 0, b0 = 0, b1 = 0;
    FWI_HD int size() const { return (a1 - a0) + (b1 - b0); }
    FWI_HD int at(int j) const { return j < a1 - a0 ? a0 + j : b0 + (j - (a1 - a0)); }
};

/// One rectangle of a strip launch: rows x cols (each a Segs), enumerated row-major by consecutive threads
/// starting at thread `begin`. kind tells the layer passes which axis they work on.
struct StripRect {
    Segs rows, cols;
    int kind = 0;
    std::int64_t begin = 0;
    std::int64_t cells() const { return std::int64_t(rows.size()) * cols.size(); }
};
inline constexpr int kAxisX = 0;
inline constexpr int kAxisZ = 1;

/// A 1D launch over at most two rectangles (threads [0, total)).
struct StripLaunch {
    StripRect rect[2];
    int count = 0;
    std::int64_t total = 0;
};

/// Cell of thread t in one rectangle, if the rectangle holds it.
FWI_HD bool strip_rect_cell(const StripRect& s, std::int64_t t, int& iz, int& ix, int& kind) {
    const std::int64_t local = t - s.begin;
    const int width = s.cols.size();
    if (local < 0 || local >= std::int64_t(s.rows.size()) * width) return false;
    iz = s.rows.at(int(local / width));
    ix = s.cols.at(int(local % width));
    kind = s.kind;
    return true;
}
/// Thread t of a strip launch -> padded cell (iz, ix) and its rectangle's kind; false for the tail threads.
/// (Written without a loop so that device code indexes the kernel parameter statically: no local-memory
/// copy.)
FWI_HD bool strip_cell(const StripLaunch& l, std::int64_t t, int& iz, int& ix, int& kind) {
    if (l.count > 0 && strip_rect_cell(l.rect[0], t, iz, ix, kind)) return true;
    return l.count > 1 && strip_rect_cell(l.rect[1], t, iz, ix, kind);
}

/// C-PML profile along one axis (device pointers, one value per padded index) and its two layers.
struct AxisPml {
    const float* a = nullptr;
    const float* b = nullptr;
    const float* b_over_a = nullptr;
    int lo_begin = 0, lo_end = 0, hi_begin = 0, hi_end = 0;
};

/// Everything constant for one propagator: sizes, spacing, stencil, model (c = v^2 dt^2), PML, the packed
/// layout of the PML variables, and the zones where PML terms apply.
struct GridArgs {
    int nz = 0, nx = 0;                 ///< padded
    int z0 = 0, z1 = 0, x0 = 0, x1 = 0; ///< computed cells (all but the halo)
    float inv_dx = 0, inv_dz = 0, inv_dx2 = 0, inv_dz2 = 0;
    StencilCoeffs coef;
    const float* c = nullptr;
    const float* inv_c = nullptr;
    AxisPml px, pz;
    int wx_lo = 0,
        wx = 0; ///< packed x strips: row iz holds the low layer's wx_lo cells, then the high layer's
    int wz_lo = 0, wz = 0; ///< packed z strips: wz_lo rows of the low layer, then the high layer's rows
    /// x-stencil touches an x layer iff ix < xi_lo_end || ix >= xi_hi_begin (cpu_kernels.hpp
    /// influence_lo/hi); z-stencil touches a z layer iff iz < zi_lo_end || iz >= zi_hi_begin. Without PML
    /// both are empty.
    int xi_lo_end = 0, xi_hi_begin = 0;
    int zi_lo_end = 0, zi_hi_begin = 0;
};

FWI_HD bool in_x_zone(const GridArgs& g, int ix) {
    return ix < g.xi_lo_end || ix >= g.xi_hi_begin;
}
FWI_HD bool in_z_zone(const GridArgs& g, int iz) {
    return iz < g.zi_lo_end || iz >= g.zi_hi_begin;
}

/// Column of padded x index ix in the packed x strips, or -1 outside both x layers.
FWI_HD int x_slot(const GridArgs& g, int ix) {
    if (ix >= g.px.lo_begin && ix < g.px.lo_end) return ix - g.px.lo_begin;
    if (ix >= g.px.hi_begin && ix < g.px.hi_end) return g.wx_lo + (ix - g.px.hi_begin);
    return -1;
}
/// Row of padded z index iz in the packed z strips, or -1 outside both z layers.
FWI_HD int z_slot(const GridArgs& g, int iz) {
    if (iz >= g.pz.lo_begin && iz < g.pz.lo_end) return iz - g.pz.lo_begin;
    if (iz >= g.pz.hi_begin && iz < g.pz.hi_end) return g.wz_lo + (iz - g.pz.hi_begin);
    return -1;
}
/// Packed x-strip variable at (iz, ix); memory variables are exactly zero outside their layers.
FWI_HD float x_strip_at(const float* p, const GridArgs& g, int iz, int ix) {
    const int s = x_slot(g, ix);
    return s < 0 ? 0.0f : p[std::int64_t(iz) * g.wx + s];
}
FWI_HD float z_strip_at(const float* p, const GridArgs& g, int iz, int ix) {
    const int s = z_slot(g, iz);
    return s < 0 ? 0.0f : p[std::int64_t(s) * g.nx + ix];
}

/// Forward state pointers. x_strips = [psi_x | zeta_x] (each nz * wx), z_strips = [psi_z | zeta_z] (each wz *
/// nx), the same packing as CpuWaveState::fields().
struct ForwardPtrs {
    const float* u = nullptr; ///< u^n
    float* u_next = nullptr;  ///< u^(n-1) on entry, u^(n+1) on exit
    float* x_strips = nullptr;
    float* z_strips = nullptr;
    float* snapshot = nullptr;        ///< optional B^n
    const float* secondary = nullptr; ///< optional Born source added to u^(n+1)
};

/// Adjoint state pointers. x_strips = [r_x | s_x], z_strips = [r_z | s_z] (lambda_psi, lambda_zeta), packed
/// as above.
struct AdjointPtrs {
    const float* mu = nullptr; ///< mu^(n+1)
    float* mu_next = nullptr;  ///< mu^(n+2) on entry, mu^n on exit
    float* x_strips = nullptr;
    float* z_strips = nullptr;
    float* grad_c = nullptr;
    const float* snapshot = nullptr; ///< optional B^n
    float weight = 1;
};

/// Adds sum_e c[cell] * (weight_e * value_e) to dst[cell] for each unique cell, its entries in their original
/// order (so repeated cells need no atomics and the sums match the CPU's order). value_e = values[value[e]],
/// or amplitude when values is null. If snapshot is set, also adds weight_e * value_e to it (the source term
/// of B^n).
struct ScatterArgs {
    const std::int64_t* cell = nullptr;
    const std::int32_t* offset = nullptr; ///< cells + 1 entries
    const std::int32_t* value = nullptr;
    const float* weight = nullptr;
    int cells = 0;
    const float* values = nullptr;
    float amplitude = 0;
    const float* c = nullptr;
    float* dst = nullptr;
    float* snapshot = nullptr;
};

/// out[r * out_stride] = sum_e weight_e * field[cell_e] over receiver r's entries [offset[r], offset[r+1]).
struct GatherArgs {
    const std::int32_t* offset = nullptr;
    const std::int64_t* cell = nullptr;
    const float* weight = nullptr;
    int count = 0;
    const float* field = nullptr;
    float* out = nullptr;
    std::int64_t out_stride = 1;
};

/// The free surface's mirror (core/src/propagator/free_surface.hpp) on one padded field of either rank: plane
/// `surface` (the model's z = 0) set to 0 and the `radius` planes above it to the negation of those below,
/// field[(surface - k) * plane + i] = -field[(surface + k) * plane + i], k = 1..radius. A launch covers
/// (radius + 1) x plane cells; radius < 0 means no surface (nothing to launch).
struct MirrorArgs {
    float* field = nullptr;
    std::int64_t surface = 0; ///< the surface plane's padded z index (PaddedGrid::origin())
    std::int64_t plane = 0;   ///< cells of one z plane (ny * nx; nx in 2D)
    int radius = -1;          ///< planes mirrored above the surface (the halo); -1: no free surface
};

/// One contiguous copy between host staging memory and device memory (checkpoint transfers).
struct Transfer {
    void* dst = nullptr;
    const void* src = nullptr;
    std::size_t bytes = 0;
};

} // namespace fwi::gpu
