#pragma once
// 3D CUDA kernels: the twin of core/src/propagator/cpu_kernels_3d.hpp (the constant-density acoustic wave
// equation in 3D, its exact discrete adjoint, and the gradient), float32, templated on the stencil radius R
// = 1..4.
//
// EQUATION:  d2u/dt2 = v^2 lap(u) + v^2 f,   c := v^2 dt^2 (per padded cell).
// SCHEME: leapfrog in time, order 2R in space, C-PML memory variables per axis ax in {x, y, z}:
//     psi_ax^n   = a psi_ax^(n-1)  + b D1ax u^n
//     zeta_ax^n  = a zeta_ax^(n-1) + b (D2ax u^n + D1ax psi_ax^n)
//     u^(n+1)    = 2u^n - u^(n-1) + c * B^n,      B^n = sum_ax (D2ax u^n + D1ax psi_ax^n + zeta_ax^n) + S f^n
// ADJOINT (mu := c lambda_u, r_ax := lambda_psi_ax, s_ax := lambda_zeta_ax, mu = mu^(n+1), mu_prev =
// mu^(n+2)):
//     s_ax  <- a (mu + s_ax)                        t_ax := (b/a) s_ax
//     r_ax  <- a (r_ax - D1ax(mu + t_ax))           w_ax := (b/a) r_ax
//     mu^n   = 2 mu - mu_prev + c [ (D2x + D2y + D2z) mu + sum_ax (D2ax t_ax - D1ax w_ax) ]  +  c R^T
//     residual^n
// GRADIENT: dJ/dc += weight * mu^(n+1) B^n / c.   BORN: the scattered step adds dc * B^n (`secondary`) to
// u^(n+1). BOUNDARIES: C-PML on all six faces; a, b from pml_profile.hpp per axis (a = 1, b = 0 outside the
// layers). The memory variables are stored PACKED, only their layer cells, in exactly the layout of
// CpuPropagator3D's fields() (kernel_args_3d.hpp), and read as exact zeros elsewhere. A halo of R zero cells
// is never written (D2^T = D2, D1^T = -D1). FREE SURFACE (optional): the top face is pressure-free instead of
// a C-PML; the launches start at the plane below the surface (z0) and the mirror pass (E) writes the surface
// and the R planes above it (core/src/propagator/free_surface.hpp; cuda_kernels.cuh, mirror_cell).
//
// PASSES (the CPU's, as separate launches on one stream; each launch reads only what earlier launches wrote):
//   forward: (1) psi_x, psi_y, psi_z in their layers; (2) per cell: the interior update, then the PML terms
//   for x,
//            y, z in that order (zeta updated in the layers, D1 psi on the R-cell fringes too), then the Born
//            term; (3) source injection [scatter]. Receivers record u^n before (1) [gather].
//   adjoint: (A) s_x, s_y, s_z in their layers; (B) r_x, r_y, r_z (they read s of neighbouring cells); (C)
//   per
//            cell: the gradient term, the interior update, then the PML terms for x, y, z; (D) receiver
//            injection [scatter]. (E) after (3) and (D): the free surface's mirror [mirror], when there is
//            one.
// The CPU computes psi_x (and s_x, r_x) inside its row pass (2) / (C) because they are row-local; they depend
// on u (mu, s_x) only, so computing them one launch earlier, with psi_y and psi_z, gives the same values. The
// CPU splits the Laplacian into an x + y part and a z part; so does this code, with the same float
// expression:
//     lap = (D2x u / dx^2 + D2y u / dy^2) + D2z u / dz^2,   each D2 summed unscaled (stencils.hpp), centre
//     first.
// Every other expression is written in the CPU's order of operations as well, so the two differ only by
// floating-point contraction (FMA).
// MAPPING (kernel_args_3d.hpp): the update passes (2) and (C) are cell launches over the computed box (blocks
// of 32 x 8 threads, x on threadIdx.x, one z plane per blockIdx.z; every stencil point read from global
// memory, L1 and L2 serving the reuse). The layer passes (1), (A), (B) are layer launches: the same blocks,
// but only those that meet a PML layer; threads on cells outside every layer return at once. These kernels
// are bound by the instructions they issue, not by DRAM (docs/gpu.md), hence 32-bit stencil offsets and one
// reach test for interior cells; a z march with a shared-memory tile and a register queue was slower.
//
// INVARIANTS: every cell (and every memory variable of a cell) is written by exactly one thread per launch
// with the same arithmetic whatever the launch shape; no atomics, no reductions across threads (repeated
// cells of sources and receivers are summed in a fixed order by one thread, geometry_tables.hpp), so a
// restored state continues bit for bit and every checkpoint schedule gives the same gradient bit for bit.
//
// The per-cell functions are FWI_HD: cuda_kernels_3d.cu wraps them in __global__ kernels and
// host_kernels_3d.cpp runs the very same functions block by block on the CPU (the host twin).
#include "cuda_kernels.cuh" // StreamHandle
#include "kernel_args_3d.hpp"

namespace fwi::gpu {

// ---------------------------------------------------------------- stencils along one axis
/// D2 along one axis, unscaled, from at(k) = the field k cells along the axis from the cell (stencil::d2's
/// order: centre first).
template <int R, class At> FWI_HD float d2_sum(const StencilCoeffs& c, At at) {
    float s = c.d2[0] * at(0) + c.d2[1] * (at(1) + at(-1));
    FWI_UNROLL
    for (int k = 2; k <= R; ++k)
        s += c.d2[k] * (at(k) + at(-k));
    return s;
}

/// The unscaled second differences of a field at one cell along x, y and z.
struct D2s {
    float x = 0, y = 0, z = 0;
};

/// The 3D Laplacian from its second differences, in the CPU's order: (x + y part) + z part.
FWI_HD float laplacian_of(const GridArgs3D& g, const D2s& d) {
    const float lap_xy = d.x * g.inv_dx2 + d.y * g.inv_dy2;
    return lap_xy + d.z * g.inv_dz2;
}

/// D1 of a full padded field along Axis at linear index i, unscaled (stencil::d1's order).
template <int R, int Axis> FWI_HD float d1_axis(const GridArgs3D& g, const float* p, std::int64_t i) {
    const std::int64_t st = axis_stride<Axis>(g);
    float s = g.coef.d1[1] * (p[i + st] - p[i - st]);
    FWI_UNROLL
    for (int k = 2; k <= R; ++k)
        s += g.coef.d1[k] * (p[i + k * st] - p[i - k * st]);
    return s;
}

/// D1 of a packed variable of Axis at (iz, iy, ix), unscaled.
template <int R, int Axis>
FWI_HD float d1_packed(const GridArgs3D& g, const float* p, int iz, int iy, int ix) {
    float s = g.coef.d1[1] * (packed_at<Axis>(p, g, iz, iy, ix, 1) - packed_at<Axis>(p, g, iz, iy, ix, -1));
    FWI_UNROLL
    for (int k = 2; k <= R; ++k)
        s += g.coef.d1[k] * (packed_at<Axis>(p, g, iz, iy, ix, k) - packed_at<Axis>(p, g, iz, iy, ix, -k));
    return s;
}

/// D1 of w * p (w indexed along Axis from j, p a packed variable of Axis), unscaled (stencil::d1_weighted's
/// order).
template <int R, int Axis>
FWI_HD float d1_weighted_packed(const GridArgs3D& g, const float* w, int j, const float* p, int iz, int iy,
                                int ix) {
    float s = g.coef.d1[1] * (w[j + 1] * packed_at<Axis>(p, g, iz, iy, ix, 1) -
                              w[j - 1] * packed_at<Axis>(p, g, iz, iy, ix, -1));
    FWI_UNROLL
    for (int k = 2; k <= R; ++k)
        s += g.coef.d1[k] * (w[j + k] * packed_at<Axis>(p, g, iz, iy, ix, k) -
                             w[j - k] * packed_at<Axis>(p, g, iz, iy, ix, -k));
    return s;
}

/// D2 of w * p (as d1_weighted_packed), unscaled (stencil::d2_weighted's order).
template <int R, int Axis>
FWI_HD float d2_weighted_packed(const GridArgs3D& g, const float* w, int j, const float* p, int iz, int iy,
                                int ix) {
    float s = g.coef.d2[0] * w[j] * packed_at<Axis>(p, g, iz, iy, ix, 0) +
              g.coef.d2[1] * (w[j + 1] * packed_at<Axis>(p, g, iz, iy, ix, 1) +
                              w[j - 1] * packed_at<Axis>(p, g, iz, iy, ix, -1));
    FWI_UNROLL
    for (int k = 2; k <= R; ++k)
        s += g.coef.d2[k] * (w[j + k] * packed_at<Axis>(p, g, iz, iy, ix, k) +
                             w[j - k] * packed_at<Axis>(p, g, iz, iy, ix, -k));
    return s;
}

/// D2x, D2y, D2z of a full padded field at linear index i. Offsets from the cell are 32-bit
/// (make_kernel_plan_3d keeps R planes within int): the kernels are bound by the instructions they issue, and
/// 64-bit offsets cost two per neighbour off the x axis.
template <int R> FWI_HD D2s d2s_at(const GridArgs3D& g, const float* p, std::int64_t i) {
    const float* q = p + i;
    const int sy = g.nx, sz = g.ny * g.nx;
    D2s d;
    d.x = d2_sum<R>(g.coef, [&](int k) { return q[k]; });
    d.y = d2_sum<R>(g.coef, [&](int k) { return q[k * sy]; });
    d.z = d2_sum<R>(g.coef, [&](int k) { return q[k * sz]; });
    return d;
}

/// The cell's stencil of radius R reaches no PML layer along any axis (outside in_reach for all three), so
/// its PML terms add nothing and are skipped: one test instead of three.
template <int R> FWI_HD bool clear_of_pml(const GridArgs3D& g, int iz, int iy, int ix) {
    auto clear = [](const AxisPml& p, int j) { return j >= p.lo_end + R && j < p.hi_begin - R; };
    return clear(g.px, ix) && clear(g.py, iy) && clear(g.pz, iz);
}

FWI_HD std::int64_t cell_index(const GridArgs3D& g, int iz, int iy, int ix) {
    return (std::int64_t(iz) * g.ny + iy) * g.nx + ix;
}

// ---------------------------------------------------------------- forward
/// psi = a psi + b D1 u / h along Axis, if the cell lies in one of Axis's layers.
template <int R, int Axis>
FWI_HD void forward_psi_axis(const GridArgs3D& g, const float* u, float* psi, int iz, int iy, int ix,
                             std::int64_t i) {
    const int j = axis_coord<Axis>(iz, iy, ix);
    const int slot = packed_slot<Axis>(g, j);
    if (slot < 0) return;
    const AxisPml& p = axis_pml<Axis>(g);
    float& v = psi[packed_index<Axis>(g, iz, iy, ix, slot)];
    v = p.a[j] * v + p.b[j] * (d1_axis<R, Axis>(g, u, i) * axis_inv_h<Axis>(g));
}

/// Pass (1) at one cell: psi^n from u^n for each axis whose layer holds the cell.
template <int R>
FWI_HD void forward_psi_cell_3d(const GridArgs3D& g, const ForwardPtrs3D& f, int iz, int iy, int ix) {
    const std::int64_t i = cell_index(g, iz, iy, ix);
    forward_psi_axis<R, kAxis3X>(g, f.u, f.psi_x, iz, iy, ix, i);
    forward_psi_axis<R, kAxis3Y>(g, f.u, f.psi_y, iz, iy, ix, i);
    forward_psi_axis<R, kAxis3Z>(g, f.u, f.psi_z, iz, iy, ix, i);
}

/// The PML term of Axis at a cell in its reach: D1 psi (+ zeta, updated, in the layer), added to v with
/// weight c and to the snapshot value (cpu_kernels_3d.hpp: the x-layer/fringe loops and pml_row_terms). d2u:
/// the cell's unscaled D2 of u along Axis.
template <int R, int Axis>
FWI_HD void forward_pml_axis(const GridArgs3D& g, float d2u, const float* psi, float* zeta, int iz, int iy,
                             int ix, float cc, float& v, float& snap) {
    const int j = axis_coord<Axis>(iz, iy, ix);
    const AxisPml& p = axis_pml<Axis>(g);
    if (!in_reach(p, j, R)) return;
    float term = d1_packed<R, Axis>(g, psi, iz, iy, ix) * axis_inv_h<Axis>(g);
    const int slot = packed_slot<Axis>(g, j);
    if (slot >= 0) {
        float& z = zeta[packed_index<Axis>(g, iz, iy, ix, slot)];
        z = p.a[j] * z + p.b[j] * (d2u * axis_inv_h2<Axis>(g) + term);
        term += z;
    }
    v += cc * term;
    snap += term;
}

/// Pass (2) at one cell: u^(n+1) = 2u^n - u^(n-1) + c lap u^n, the PML terms for x, y, z (zeta takes its
/// D2 u from the Laplacian's), the Born term; B^n into the snapshot.
template <int R>
FWI_HD void forward_update_cell_3d(const GridArgs3D& g, const ForwardPtrs3D& f, int iz, int iy, int ix) {
    const std::int64_t i = cell_index(g, iz, iy, ix);
    const D2s d2 = d2s_at<R>(g, f.u, i);
    const float lap = laplacian_of(g, d2);
    const float cc = g.c[i];
    float v = 2.0f * f.u[i] - f.u_next[i] + cc * lap;
    float snap = lap;
    if (!clear_of_pml<R>(g, iz, iy, ix)) {
        forward_pml_axis<R, kAxis3X>(g, d2.x, f.psi_x, f.zeta_x, iz, iy, ix, cc, v, snap);
        forward_pml_axis<R, kAxis3Y>(g, d2.y, f.psi_y, f.zeta_y, iz, iy, ix, cc, v, snap);
        forward_pml_axis<R, kAxis3Z>(g, d2.z, f.psi_z, f.zeta_z, iz, iy, ix, cc, v, snap);
    }
    if (f.secondary) v += f.secondary[i];
    f.u_next[i] = v;
    if (f.snapshot) f.snapshot[i] = snap;
}

// ---------------------------------------------------------------- adjoint
template <int Axis>
FWI_HD void adjoint_s_axis(const GridArgs3D& g, const float* mu, float* s, int iz, int iy, int ix,
                           std::int64_t i) {
    const int j = axis_coord<Axis>(iz, iy, ix);
    const int slot = packed_slot<Axis>(g, j);
    if (slot < 0) return;
    float& v = s[packed_index<Axis>(g, iz, iy, ix, slot)];
    v = axis_pml<Axis>(g).a[j] * (mu[i] + v);
}

/// Pass (A) at one cell: s <- a (mu + s) for each axis whose layer holds the cell.
FWI_HD void adjoint_s_cell_3d(const GridArgs3D& g, const AdjointPtrs3D& f, int iz, int iy, int ix) {
    const std::int64_t i = cell_index(g, iz, iy, ix);
    adjoint_s_axis<kAxis3X>(g, f.mu, f.s_x, iz, iy, ix, i);
    adjoint_s_axis<kAxis3Y>(g, f.mu, f.s_y, iz, iy, ix, i);
    adjoint_s_axis<kAxis3Z>(g, f.mu, f.s_z, iz, iy, ix, i);
}

template <int R, int Axis>
FWI_HD void adjoint_r_axis(const GridArgs3D& g, const float* mu, const float* s, float* r, int iz, int iy,
                           int ix, std::int64_t i) {
    const int j = axis_coord<Axis>(iz, iy, ix);
    const int slot = packed_slot<Axis>(g, j);
    if (slot < 0) return;
    const AxisPml& p = axis_pml<Axis>(g);
    float& v = r[packed_index<Axis>(g, iz, iy, ix, slot)];
    v = p.a[j] *
        (v - (d1_axis<R, Axis>(g, mu, i) + d1_weighted_packed<R, Axis>(g, p.b_over_a, j, s, iz, iy, ix)) *
                 axis_inv_h<Axis>(g));
}

/// Pass (B) at one cell: r <- a (r - (D1 mu + D1 ((b/a) s)) / h) for each axis whose layer holds the cell.
template <int R>
FWI_HD void adjoint_r_cell_3d(const GridArgs3D& g, const AdjointPtrs3D& f, int iz, int iy, int ix) {
    const std::int64_t i = cell_index(g, iz, iy, ix);
    adjoint_r_axis<R, kAxis3X>(g, f.mu, f.s_x, f.r_x, iz, iy, ix, i);
    adjoint_r_axis<R, kAxis3Y>(g, f.mu, f.s_y, f.r_y, iz, iy, ix, i);
    adjoint_r_axis<R, kAxis3Z>(g, f.mu, f.s_z, f.r_z, iz, iy, ix, i);
}

/// c (D2 t / h^2 - D1 w / h) of Axis (t = (b/a) s, w = (b/a) r) added to v at a cell in Axis's reach.
template <int R, int Axis>
FWI_HD void adjoint_pml_axis(const GridArgs3D& g, const float* s, const float* r, int iz, int iy, int ix,
                             float cc, float& v) {
    const int j = axis_coord<Axis>(iz, iy, ix);
    const AxisPml& p = axis_pml<Axis>(g);
    if (!in_reach(p, j, R)) return;
    v += cc * (d2_weighted_packed<R, Axis>(g, p.b_over_a, j, s, iz, iy, ix) * axis_inv_h2<Axis>(g) -
               d1_weighted_packed<R, Axis>(g, p.b_over_a, j, r, iz, iy, ix) * axis_inv_h<Axis>(g));
}

/// Pass (C) at one cell: the gradient with mu^(n+1), mu^n = 2 mu - mu_prev + c lap mu, the PML terms for x,
/// y, z.
template <int R>
FWI_HD void adjoint_update_cell_3d(const GridArgs3D& g, const AdjointPtrs3D& f, int iz, int iy, int ix) {
    const std::int64_t i = cell_index(g, iz, iy, ix);
    // 1 / c as the host rounded it: the CPU divides 1.0f / c[i] in the loop, the same correctly rounded
    // float.
    if (f.snapshot) f.grad_c[i] += f.weight * (f.mu[i] * f.snapshot[i] * g.inv_c[i]);
    const float cc = g.c[i];
    float v = 2.0f * f.mu[i] - f.mu_next[i] + cc * laplacian_of(g, d2s_at<R>(g, f.mu, i));
    if (!clear_of_pml<R>(g, iz, iy, ix)) {
        adjoint_pml_axis<R, kAxis3X>(g, f.s_x, f.r_x, iz, iy, ix, cc, v);
        adjoint_pml_axis<R, kAxis3Y>(g, f.s_y, f.r_y, iz, iy, ix, cc, v);
        adjoint_pml_axis<R, kAxis3Z>(g, f.s_z, f.r_z, iz, iy, ix, cc, v);
    }
    f.mu_next[i] = v;
}

// ---------------------------------------------------------------- launchers (cuda_kernels_3d.cu; host twin
// in host_kernels_3d.cpp). `radius` selects the template instance; every launch covers the computed box.
void launch_forward_psi_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f, StreamHandle s);
void launch_forward_update_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f, StreamHandle s);
void launch_adjoint_s_3d(const GridArgs3D& g, const AdjointPtrs3D& f, StreamHandle s);
void launch_adjoint_r_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f, StreamHandle s);
void launch_adjoint_update_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f, StreamHandle s);

} // namespace fwi::gpu
