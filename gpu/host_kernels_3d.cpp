// Host execution of the 3D CUDA launches (host twin): the same grids, blocks and thread indices as
// cuda_kernels_3d.cu, run in sequence. Running a launch's threads one after the other is a valid CUDA
// schedule because no thread of a launch reads what another thread of the same launch writes
// (cuda_kernels_3d.cuh).
#include "host_device.hpp"
#include "radius_dispatch.hpp"

namespace fwi::gpu::host {

void forward_psi_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        for_each_layer_thread(
            g, [&](int iz, int iy, int ix) { forward_psi_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

void forward_update_3d(int radius, const GridArgs3D& g, const ForwardPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        for_each_cell_thread(
            g, [&](int iz, int iy, int ix) { forward_update_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

void adjoint_s_3d(const GridArgs3D& g, const AdjointPtrs3D& f) {
    for_each_layer_thread(g, [&](int iz, int iy, int ix) { adjoint_s_cell_3d(g, f, iz, iy, ix); });
}

void adjoint_r_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        for_each_layer_thread(
            g, [&](int iz, int iy, int ix) { adjoint_r_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

void adjoint_update_3d(int radius, const GridArgs3D& g, const AdjointPtrs3D& f) {
    with_radius(radius, [&](auto r) {
        for_each_cell_thread(
            g, [&](int iz, int iy, int ix) { adjoint_update_cell_3d<decltype(r)::value>(g, f, iz, iy, ix); });
    });
}

} // namespace fwi::gpu::host
