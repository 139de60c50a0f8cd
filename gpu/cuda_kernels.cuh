#pragma once
// CUDA kernels: the twin of core/src/propagator/cpu_kernels.hpp (2D constant-density acoustic wave equation,
// its exact discrete adjoint, and the gradient), float32, templated on the stencil radius R = 1..4.
//
// EQUATION:  d2u/dt2 = v^2 lap(u) + v^2 f,   c := v^2 dt^2 (per padded cell).
// SCHEME: leapfrog in time, order 2R in space, C-PML memory variables per axis ax in {x, z}:
//     psi_ax^n   = a psi_ax^(n-1)  + b D1ax u^n
//     zeta_ax^n  = a zeta_ax^(n-1) + b (D2ax u^n + D1ax psi_ax^n)
//     u^(n+1)    = 2u^n - u^(n-1) + c * B^n,      B^n = sum_ax (D2ax u^n + D1ax psi_ax^n + zeta_ax^n) + S f^n
// ADJOINT (mu := c lambda_u, r_ax := lambda_psi_ax, s_ax := lambda_zeta_ax, mu = mu^(n+1), mu_prev =
// mu^(n+2)):
//     s_ax  <- a (mu + s_ax)                        t_ax := (b/a) s_ax
//     r_ax  <- a (r_ax - D1ax(mu + t_ax))           w_ax := (b/a) r_ax
//     mu^n   = 2 mu - mu_prev + c [ (D2x + D2z) mu + sum_ax (D2ax t_ax - D1ax w_ax) ]  +  c R^T residual^n
// GRADIENT: dJ/dc += weight * mu^(n+1) B^n / c.   BORN: the scattered step adds dc * B^n (`secondary`) to
// u^(n+1). BOUNDARIES: a, b from pml_profile.hpp (a = 1, b = 0 outside the layers). PML variables are stored
// PACKED: only the layer cells (kernel_args.hpp: x_slot / z_slot), read as exact zeros elsewhere, so a state
// is 2 full fields plus strips and a checkpoint copy is contiguous. A halo of R zero cells is never written
// (D2^T = D2, D1^T = -D1). FREE SURFACE (optional): the top is pressure-free instead of a C-PML; the launches
// start at the row below the surface (z0), and after the injection (4)/(A4) the mirror [mirror] sets the
// surface row to 0 and the R rows above it (into the halo where the PML is thinner than R) to the negated
// rows below (core/src/propagator/free_surface.hpp: D2z with the mirror is symmetric, so the adjoint takes
// the same mirror).
//
// PASSES (the CPU's, as separate launches on one stream; each reads only what earlier launches wrote):
//   forward: (1) psi in the layers [strip launch]; (2) interior update of every computed cell from a
//   shared-memory tile
//            [tile launch]; (3) PML terms on the cells whose stencil touches a layer, x then z, then the Born
//            term [strip launch over the zones only]; (4) source injection [scatter]. Receivers record u^n
//            before (1).
//   adjoint: (A1) s in the layers; (A2) r in the layers [strip launches]; (A3) interior update + gradient
//   [tile];
//            (A3') PML terms on the zones [strip]; (A4) receiver injection [scatter].
// MAPPING: x (the fast axis) is threadIdx.x, so a warp reads 32 consecutive floats. The tile launch gives
// each 32 x 8 block a 32 x 32 patch; the block stages u (or mu) with an R halo in shared memory once and each
// thread computes 4 rows. Strip launches enumerate only PML cells (two rectangles, each a union of two
// segments per axis). MEMORY TRAFFIC per interior cell and forward step: read u (once, via the tile),
// u^(n-1), c; write u^(n+1): 16 bytes (+4 with a snapshot, +4 with a Born source). The PML passes add their
// strips only.
//
// INVARIANTS: every cell is computed by exactly one thread per launch with the same arithmetic whatever the
// launch shape; there are no atomics and no reductions across threads (repeated cells of sources and
// receivers are summed in a fixed order by one thread), so a restored state continues bit for bit and every
// checkpoint schedule gives the same gradient bit for bit. Results differ from the CPU's only by
// floating-point contraction (FMA): ~1e-7 relative per step, ~1e-6 on gathers and gradients (measured with
// the host twin).
//
// The per-cell functions below are FWI_HD: cuda_kernels.cu wraps them in __global__ kernels, and
// host_kernels.cpp runs the very same functions block by block on the CPU (the "host twin") so that they are
// tested without a GPU.
#include "kernel_args.hpp"

namespace fwi::gpu {

/// Tile of the interior launch: blocks of kTileX x kBlockY threads, each thread computing kRowsPerThread
/// rows.
inline constexpr int kTileX = 32;
inline constexpr int kBlockY = 8;
inline constexpr int kRowsPerThread = 4;
inline constexpr int kTileZ = kBlockY * kRowsPerThread;
inline constexpr int kStripThreads = 256;
inline constexpr int kScatterThreads = 128;

template <int R> struct Tile {
    static constexpr int width = kTileX + 2 * R;
    static constexpr int height = kTileZ + 2 * R;
    static constexpr int cells = width * height;
};

/// Stages tile element idx of block (bx, bz): padded cell (z0 + bz*kTileZ - R + row, x0 + bx*kTileX - R +
/// col), zero outside the array (only the last blocks reach past it; cells that are computed never read those
/// zeros).
template <int R>
FWI_HD void load_tile_cell(const GridArgs& g, const float* field, int bx, int bz, float* tile, int idx) {
    const int row = idx / Tile<R>::width, col = idx % Tile<R>::width;
    const int iz = g.z0 + bz * kTileZ - R + row, ix = g.x0 + bx * kTileX - R + col;
    tile[idx] = (iz >= 0 && iz < g.nz && ix >= 0 && ix < g.nx) ? field[std::int64_t(iz) * g.nx + ix] : 0.0f;
}

/// Calls op(tile_index, iz, ix) for the kRowsPerThread cells of thread (tx, ty) in tile block (bx, bz) that
/// lie in the computed region; the tile must hold the block's staged field.
template <int R, class Op>
FWI_HD void for_tile_thread_cells(const GridArgs& g, int bx, int bz, int tx, int ty, Op&& op) {
    const int ix = g.x0 + bx * kTileX + tx;
    FWI_UNROLL
    for (int j = 0; j < kRowsPerThread; ++j) {
        const int lz = ty + j * kBlockY;
        const int iz = g.z0 + bz * kTileZ + lz;
        if (iz < g.z1 && ix < g.x1) op((lz + R) * Tile<R>::width + tx + R, iz, ix);
    }
}

/// D2x / dx^2 + D2z / dz^2 of the tiled field at tile index t, in the CPU kernel's order of operations: each
/// axis summed unscaled, then scaled (stencils.hpp says why).
template <int R> FWI_HD float tile_laplacian(const GridArgs& g, const float* tile, int t) {
    constexpr int w = Tile<R>::width;
    float lap_x = g.coef.d2[0] * tile[t], lap_z = g.coef.d2[0] * tile[t];
    FWI_UNROLL
    for (int k = 1; k <= R; ++k) {
        lap_x += g.coef.d2[k] * (tile[t + k] + tile[t - k]);
        lap_z += g.coef.d2[k] * (tile[t + k * w] + tile[t - k * w]);
    }
    return lap_x * g.inv_dx2 + lap_z * g.inv_dz2;
}

// ---------------------------------------------------------------- forward
/// (1) psi^n = a psi^(n-1) + b D1 u^n at a layer cell.
template <int R>
FWI_HD void forward_psi_cell(const GridArgs& g, const ForwardPtrs& f, int kind, int iz, int ix) {
    const std::int64_t i = std::int64_t(iz) * g.nx + ix;
    float d1 = 0;
    if (kind == kAxisX) {
        FWI_UNROLL
        for (int k = 1; k <= R; ++k)
            d1 += g.coef.d1[k] * (f.u[i + k] - f.u[i - k]);
        float& psi = f.x_strips[std::int64_t(iz) * g.wx + x_slot(g, ix)];
        psi = g.px.a[ix] * psi + g.px.b[ix] * (d1 * g.inv_dx);
    } else {
        FWI_UNROLL
        for (int k = 1; k <= R; ++k)
            d1 += g.coef.d1[k] * (f.u[i + k * g.nx] - f.u[i - k * g.nx]);
        float& psi = f.z_strips[std::int64_t(z_slot(g, iz)) * g.nx + ix];
        psi = g.pz.a[iz] * psi + g.pz.b[iz] * (d1 * g.inv_dz);
    }
}

/// (2) u^(n+1) = 2u^n - u^(n-1) + c lap u^n; B^n = lap u^n. Cells outside the PML zones also take the Born
/// term here (zone cells take it in (3), after their PML terms, as the CPU orders it).
template <int R>
FWI_HD void forward_interior_cell(const GridArgs& g, const ForwardPtrs& f, const float* tile, int t, int iz,
                                  int ix) {
    const std::int64_t i = std::int64_t(iz) * g.nx + ix;
    const float lap = tile_laplacian<R>(g, tile, t);
    float v = 2.0f * tile[t] - f.u_next[i] + g.c[i] * lap;
    if (f.snapshot) f.snapshot[i] = lap;
    if (f.secondary && !in_x_zone(g, ix) && !in_z_zone(g, iz)) v += f.secondary[i];
    f.u_next[i] = v;
}

/// (3) PML terms c (D1 psi + zeta) for the x then the z axis, zeta updated in the layers, then the Born term.
template <int R> FWI_HD void forward_pml_cell(const GridArgs& g, const ForwardPtrs& f, int iz, int ix) {
    const std::int64_t i = std::int64_t(iz) * g.nx + ix;
    const float cc = g.c[i];
    float v = f.u_next[i];
    float snap = f.snapshot ? f.snapshot[i] : 0.0f;
    if (in_x_zone(g, ix)) {
        float d1 = 0;
        FWI_UNROLL
        for (int k = 1; k <= R; ++k)
            d1 += g.coef.d1[k] *
                  (x_strip_at(f.x_strips, g, iz, ix + k) - x_strip_at(f.x_strips, g, iz, ix - k));
        float term = d1 * g.inv_dx;
        const int s = x_slot(g, ix);
        if (s >= 0) {
            float d2 = g.coef.d2[0] * f.u[i];
            FWI_UNROLL
            for (int k = 1; k <= R; ++k)
                d2 += g.coef.d2[k] * (f.u[i + k] + f.u[i - k]);
            float& zeta = f.x_strips[std::int64_t(g.nz) * g.wx + std::int64_t(iz) * g.wx + s];
            zeta = g.px.a[ix] * zeta + g.px.b[ix] * (d2 * g.inv_dx2 + term);
            term += zeta;
        }
        v += cc * term;
        snap += term;
    }
    if (in_z_zone(g, iz)) {
        float d1 = 0;
        FWI_UNROLL
        for (int k = 1; k <= R; ++k)
            d1 += g.coef.d1[k] *
                  (z_strip_at(f.z_strips, g, iz + k, ix) - z_strip_at(f.z_strips, g, iz - k, ix));
        float term = d1 * g.inv_dz;
        const int s = z_slot(g, iz);
        if (s >= 0) {
            float d2 = g.coef.d2[0] * f.u[i];
            FWI_UNROLL
            for (int k = 1; k <= R; ++k)
                d2 += g.coef.d2[k] * (f.u[i + k * g.nx] + f.u[i - k * g.nx]);
            float& zeta = f.z_strips[std::int64_t(g.wz) * g.nx + std::int64_t(s) * g.nx + ix];
            zeta = g.pz.a[iz] * zeta + g.pz.b[iz] * (d2 * g.inv_dz2 + term);
            term += zeta;
        }
        v += cc * term;
        snap += term;
    }
    if (f.secondary) v += f.secondary[i];
    f.u_next[i] = v;
    if (f.snapshot) f.snapshot[i] = snap;
}

// ---------------------------------------------------------------- adjoint
/// (A1) s <- a (mu + s) at a layer cell.
FWI_HD void adjoint_s_cell(const GridArgs& g, const AdjointPtrs& f, int kind, int iz, int ix) {
    const std::int64_t i = std::int64_t(iz) * g.nx + ix;
    if (kind == kAxisX) {
        float& s = f.x_strips[std::int64_t(g.nz) * g.wx + std::int64_t(iz) * g.wx + x_slot(g, ix)];
        s = g.px.a[ix] * (f.mu[i] + s);
    } else {
        float& s = f.z_strips[std::int64_t(g.wz) * g.nx + std::int64_t(z_slot(g, iz)) * g.nx + ix];
        s = g.pz.a[iz] * (f.mu[i] + s);
    }
}

/// (A2) r <- a (r - D1 (mu + (b/a) s)) at a layer cell.
template <int R>
FWI_HD void adjoint_r_cell(const GridArgs& g, const AdjointPtrs& f, int kind, int iz, int ix) {
    const std::int64_t i = std::int64_t(iz) * g.nx + ix;
    float d1 = 0;
    if (kind == kAxisX) {
        const float* s = f.x_strips + std::int64_t(g.nz) * g.wx;
        FWI_UNROLL
        for (int k = 1; k <= R; ++k)
            d1 += g.coef.d1[k] * ((f.mu[i + k] + g.px.b_over_a[ix + k] * x_strip_at(s, g, iz, ix + k)) -
                                  (f.mu[i - k] + g.px.b_over_a[ix - k] * x_strip_at(s, g, iz, ix - k)));
        float& r = f.x_strips[std::int64_t(iz) * g.wx + x_slot(g, ix)];
        r = g.px.a[ix] * (r - d1 * g.inv_dx);
    } else {
        const float* s = f.z_strips + std::int64_t(g.wz) * g.nx;
        FWI_UNROLL
        for (int k = 1; k <= R; ++k)
            d1 +=
                g.coef.d1[k] * ((f.mu[i + k * g.nx] + g.pz.b_over_a[iz + k] * z_strip_at(s, g, iz + k, ix)) -
                                (f.mu[i - k * g.nx] + g.pz.b_over_a[iz - k] * z_strip_at(s, g, iz - k, ix)));
        float& r = f.z_strips[std::int64_t(z_slot(g, iz)) * g.nx + ix];
        r = g.pz.a[iz] * (r - d1 * g.inv_dz);
    }
}

/// (A3) gradient with mu^(n+1), then mu^n = 2 mu - mu_prev + c lap mu.
template <int R>
FWI_HD void adjoint_interior_cell(const GridArgs& g, const AdjointPtrs& f, const float* tile, int t, int iz,
                                  int ix) {
    const std::int64_t i = std::int64_t(iz) * g.nx + ix;
    if (f.snapshot) f.grad_c[i] += f.weight * (tile[t] * f.snapshot[i] * g.inv_c[i]);
    const float lap = tile_laplacian<R>(g, tile, t);
    f.mu_next[i] = 2.0f * tile[t] - f.mu_next[i] + g.c[i] * lap;
}

/// (A3') c (D2 t - D1 w) for the x then the z axis on a zone cell (t = (b/a) s, w = (b/a) r).
template <int R> FWI_HD void adjoint_pml_cell(const GridArgs& g, const AdjointPtrs& f, int iz, int ix) {
    const std::int64_t i = std::int64_t(iz) * g.nx + ix;
    const float cc = g.c[i];
    float v = f.mu_next[i];
    if (in_x_zone(g, ix)) {
        const float* r = f.x_strips;
        const float* s = f.x_strips + std::int64_t(g.nz) * g.wx;
        const float* ba = g.px.b_over_a;
        float d2 = g.coef.d2[0] * ba[ix] * x_strip_at(s, g, iz, ix);
        float d1 = 0;
        FWI_UNROLL
        for (int k = 1; k <= R; ++k) {
            d2 += g.coef.d2[k] *
                  (ba[ix + k] * x_strip_at(s, g, iz, ix + k) + ba[ix - k] * x_strip_at(s, g, iz, ix - k));
            d1 += g.coef.d1[k] *
                  (ba[ix + k] * x_strip_at(r, g, iz, ix + k) - ba[ix - k] * x_strip_at(r, g, iz, ix - k));
        }
        v += cc * (d2 * g.inv_dx2 - d1 * g.inv_dx);
    }
    if (in_z_zone(g, iz)) {
        const float* r = f.z_strips;
        const float* s = f.z_strips + std::int64_t(g.wz) * g.nx;
        const float* ba = g.pz.b_over_a;
        float d2 = g.coef.d2[0] * ba[iz] * z_strip_at(s, g, iz, ix);
        float d1 = 0;
        FWI_UNROLL
        for (int k = 1; k <= R; ++k) {
            d2 += g.coef.d2[k] *
                  (ba[iz + k] * z_strip_at(s, g, iz + k, ix) + ba[iz - k] * z_strip_at(s, g, iz - k, ix));
            d1 += g.coef.d1[k] *
                  (ba[iz + k] * z_strip_at(r, g, iz + k, ix) - ba[iz - k] * z_strip_at(r, g, iz - k, ix));
        }
        v += cc * (d2 * g.inv_dz2 - d1 * g.inv_dz);
    }
    f.mu_next[i] = v;
}

// ---------------------------------------------------------------- sources and receivers
/// (4)/(A4) one unique cell q of a scatter table.
FWI_HD void scatter_cell(const ScatterArgs& s, int q) {
    const std::int64_t i = s.cell[q];
    const float cc = s.c[i];
    float v = s.dst[i];
    float snap = s.snapshot ? s.snapshot[i] : 0.0f;
    for (int e = s.offset[q]; e < s.offset[q + 1]; ++e) {
        const float amount = s.weight[e] * (s.values ? s.values[s.value[e]] : s.amplitude);
        v += cc * amount;
        snap += amount;
    }
    s.dst[i] = v;
    if (s.snapshot) s.snapshot[i] = snap;
}

/// Receiver r's sample: sum of weight * field over its stencil, in stencil order.
FWI_HD void gather_receiver(const GatherArgs& a, int r) {
    float sum = 0;
    for (int e = a.offset[r]; e < a.offset[r + 1]; ++e)
        sum += a.weight[e] * a.field[a.cell[e]];
    a.out[std::int64_t(r) * a.out_stride] = sum;
}

// ---------------------------------------------------------------- free surface
/// Cell i of mirror plane k (k = 0: the surface itself) of a MirrorArgs launch. Reads only planes below the
/// surface, which no thread of the launch writes: every cell is independent and exact (a copy, a negation or
/// a zero), so results do not depend on the launch shape and match the CPU's mirror bit for bit.
FWI_HD void mirror_cell(const MirrorArgs& a, int k, std::int64_t i) {
    a.field[(a.surface - k) * a.plane + i] = k == 0 ? 0.0f : -a.field[(a.surface + k) * a.plane + i];
}

// ---------------------------------------------------------------- launchers (cuda_kernels.cu; host twin in
// host_kernels.cpp). `radius` selects the template instance; the interior launch covers [z0, z1) x [x0, x1).
using StreamHandle = struct CUstream_st*; // = cudaStream_t, without the CUDA header

void launch_forward_psi(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& layers,
                        StreamHandle s);
void launch_forward_interior(int radius, const GridArgs& g, const ForwardPtrs& f, StreamHandle s);
void launch_forward_pml(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& zones,
                        StreamHandle s);
void launch_adjoint_s(const GridArgs& g, const AdjointPtrs& f, const StripLaunch& layers, StreamHandle s);
void launch_adjoint_r(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& layers,
                      StreamHandle s);
void launch_adjoint_interior(int radius, const GridArgs& g, const AdjointPtrs& f, StreamHandle s);
void launch_adjoint_pml(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& zones,
                        StreamHandle s);
void launch_scatter(const ScatterArgs& a, StreamHandle s);
void launch_gather(const GatherArgs& a, StreamHandle s);
/// The free surface's mirror after a step's injection (nothing when a.radius < 0).
void launch_mirror(const MirrorArgs& a, StreamHandle s);

} // namespace fwi::gpu
