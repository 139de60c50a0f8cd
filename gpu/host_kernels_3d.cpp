// Host execution of the 3D CUDA launches (host twin): the same cell grid, blocks and thread indices as
// cuda_kernels_3d.cu, run in sequence. Running a launch's threads one after the other is a valid CUDA
// schedule because no thread of a launch reads what another thread of the same launch writes
// (cuda_kernels_3d.cuh).
#include "host_device.hpp"
#include "radius_dispatch.hpp"

#include "fwi/error.hpp"

#include <string>
#include <type_traits>

namespace fwi::gpu {
namespace {

/// Every thread of every block of a cell launch, idle threads included.
template <class Op> void run_cells(const GridArgs3D& g, Op&& op) {
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

} // namespace

namespace host {

void forward_psi_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        run_cells(g,
                  [&](int iz, int iy, int ix) { forward_psi_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

void forward_update_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        run_cells(
            g, [&](int iz, int iy, int ix) { forward_update_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

void adjoint_s_3d(const GridArgs3D& g, const AdjointPtrs3D& f) {
    run_cells(g, [&](int iz, int iy, int ix) { adjoint_s_cell_3d(g, f, iz, iy, ix); });
}

void adjoint_r_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        run_cells(g,
                  [&](int iz, int iy, int ix) { adjoint_r_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

void adjoint_update_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        run_cells(
            g, [&](int iz, int iy, int ix) { adjoint_update_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

} // namespace host
} // namespace fwi::gpu
