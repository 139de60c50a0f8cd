// Host execution of the CUDA launches: the same grids, blocks and thread indices as cuda_kernels.cu, run in
// sequence. Running a block's threads one after the other is a valid CUDA schedule because no thread of a
// launch reads what another thread of the same launch writes (the tile is staged completely before any thread
// computes, as after
// __syncthreads()).
#include "host_device.hpp"
#include "radius_dispatch.hpp"

#include "fwi/error.hpp"

#include <string>
#include <type_traits>
#include <vector>

namespace fwi::gpu {
namespace {

/// Every thread of a 1D strip launch of kStripThreads-thread blocks, including the idle tail of the last
/// block.
template <class Op> void run_strip(const StripLaunch& l, Op&& op) {
    const std::int64_t threads = (l.total + kStripThreads - 1) / kStripThreads * kStripThreads;
    for (std::int64_t t = 0; t < threads; ++t) {
        int iz = 0, ix = 0, kind = 0;
        if (strip_cell(l, t, iz, ix, kind)) op(kind, iz, ix);
    }
}

/// Every block of a tile launch: stage the tile, then run each thread's cells.
template <int R, class Op> void run_tiles(const GridArgs& g, const float* field, Op&& op) {
    if (g.x1 <= g.x0 || g.z1 <= g.z0) return;
    const int blocks_x = (g.x1 - g.x0 + kTileX - 1) / kTileX, blocks_z = (g.z1 - g.z0 + kTileZ - 1) / kTileZ;
    std::vector<float> tile(Tile<R>::cells);
    for (int bz = 0; bz < blocks_z; ++bz)
        for (int bx = 0; bx < blocks_x; ++bx) {
            for (int idx = 0; idx < Tile<R>::cells; ++idx)
                load_tile_cell<R>(g, field, bx, bz, tile.data(), idx);
            for (int ty = 0; ty < kBlockY; ++ty)
                for (int tx = 0; tx < kTileX; ++tx)
                    for_tile_thread_cells<R>(g, bx, bz, tx, ty,
                                             [&](int t, int iz, int ix) { op(tile.data(), t, iz, ix); });
        }
}

} // namespace

namespace host {

void forward_psi(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l) {
    with_radius(radius, [&](auto r) {
        run_strip(
            l, [&](int kind, int iz, int ix) { forward_psi_cell<decltype(r)::value>(g, f, kind, iz, ix); });
    });
}

void forward_interior(int radius, const GridArgs& g, const ForwardPtrs& f) {
    with_radius(radius, [&](auto r) {
        constexpr int R = decltype(r)::value;
        run_tiles<R>(g, f.u, [&](const float* tile, int t, int iz, int ix) {
            forward_interior_cell<R>(g, f, tile, t, iz, ix);
        });
    });
}

void forward_pml(int radius, const GridArgs& g, const ForwardPtrs& f, const StripLaunch& l) {
    with_radius(radius, [&](auto r) {
        run_strip(l, [&](int, int iz, int ix) { forward_pml_cell<decltype(r)::value>(g, f, iz, ix); });
    });
}

void adjoint_s(const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
    run_strip(l, [&](int kind, int iz, int ix) { adjoint_s_cell(g, f, kind, iz, ix); });
}

void adjoint_r(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
    with_radius(radius, [&](auto r) {
        run_strip(l,
                  [&](int kind, int iz, int ix) { adjoint_r_cell<decltype(r)::value>(g, f, kind, iz, ix); });
    });
}

void adjoint_interior(int radius, const GridArgs& g, const AdjointPtrs& f) {
    with_radius(radius, [&](auto r) {
        constexpr int R = decltype(r)::value;
        run_tiles<R>(g, f.mu, [&](const float* tile, int t, int iz, int ix) {
            adjoint_interior_cell<R>(g, f, tile, t, iz, ix);
        });
    });
}

void adjoint_pml(int radius, const GridArgs& g, const AdjointPtrs& f, const StripLaunch& l) {
    with_radius(radius, [&](auto r) {
        run_strip(l, [&](int, int iz, int ix) { adjoint_pml_cell<decltype(r)::value>(g, f, iz, ix); });
    });
}

void scatter(const ScatterArgs& a) {
    for (int q = 0; q < a.cells; ++q)
        scatter_cell(a, q);
}

void gather(const GatherArgs& a) {
    for (int r = 0; r < a.count; ++r)
        gather_receiver(a, r);
}

void mirror(const MirrorArgs& a) {
    for (int k = 0; k <= a.radius; ++k) // blockIdx.y of the CUDA launch
        for (std::int64_t i = 0; i < a.plane; ++i)
            mirror_cell(a, k, i);
}

} // namespace host

void HostDevice::download_state(std::span<const Transfer> transfers) {
    for (const Transfer& t : transfers)
        copy(t.dst, t.src, t.bytes);
}

void HostDevice::upload_state(std::span<const Transfer> transfers, Fence& fence) {
    for (const Transfer& t : transfers)
        copy(t.dst, t.src, t.bytes);
    fence.pending = true;
}

} // namespace fwi::gpu
