#pragma once
// The 3D computational grid and set-up (internal until the 2D and 3D types are unified, issue 11).
// Arrays are (z, y, x) row-major, x fastest (grid.hpp): padded cell (pz, py, px) is at (pz * ny + py) * nx +
// px. The model is padded by `pml` C-PML cells on all six faces and a `halo` of order/2 cells that stay zero;
// padded index (pz, py, px) holds model cell (pz - origin, py - origin, px - origin) inside the model region.
// Positions are in metres from the model's first cell centre; units are SI throughout.
#include "fwi/grid.hpp"
#include "fwi/propagator.hpp" // PointStencil

#include <cstdint>
#include <string>

namespace fwi {

/// Shape {nz, ny, nx}, spacing {dz, dy, dx} in metres.
using Grid3D = Grid<3>;

inline Grid3D make_grid_3d(std::int64_t nz, std::int64_t ny, std::int64_t nx, double dz_m, double dy_m,
                           double dx_m) {
    return Grid3D{{nz, ny, nx}, {dz_m, dy_m, dx_m}};
}

struct PaddedGrid3D {
    Grid3D model;
    int order = 8;
    int pml = 20;
    int halo = 4;
    std::int64_t pad() const { return 2 * (pml + halo); }
    std::int64_t nz() const { return model.shape[0] + pad(); }
    std::int64_t ny() const { return model.shape[1] + pad(); }
    std::int64_t nx() const { return model.shape[2] + pad(); }
    std::int64_t origin() const { return pml + halo; }
    std::int64_t cells() const { return nz() * ny() * nx(); }
    /// Cells the kernels compute per step (everything but the halo): model + PML.
    std::int64_t computed_cells() const { return (nz() - 2 * halo) * (ny() - 2 * halo) * (nx() - 2 * halo); }
    std::int64_t index(std::int64_t pz, std::int64_t py, std::int64_t px) const {
        return (pz * ny() + py) * nx() + px;
    }
};

struct PropagatorSetup3D {
    Grid3D grid;
    int order = 8;
    int pml_width = 20;
    double dt_s = 0;              ///< the INNER time step
    double pml_velocity_mps = 0;  ///< reference velocity for the PML profile (kept fixed for exact gradients)
    double freq_hz = 5;           ///< dominant frequency for the CFS alpha of the PML
    double pml_reflection = 1e-3; ///< target normal-incidence reflection coefficient
};

/// Throws ConfigError naming what is wrong (order, PML width, time step, grid, reference velocity, a model
/// smaller than the stencil along some axis, a time step above the CFL limit of the reference velocity).
void validate_propagator_setup_3d(const PropagatorSetup3D& setup);

/// Largest stable leapfrog step: cfl_number / (v_max sqrt(1/dx^2 + 1/dy^2 + 1/dz^2)). A user step above it
/// runs ceil(dt / stable_dt_3d) inner steps per sample, with whole-trace resampling (time_axis.hpp's
/// resample_rows), exactly as in 2D.
double stable_dt_3d(const Grid3D& grid, double max_velocity_mps, double cfl_number = 0.6);

/// Hicks (2002) interpolation of a point at (x_m, y_m, z_m) onto the padded grid: the tensor product of the
/// three normalised 1D Kaiser-windowed sinc axes (8 points each, so up to 512 cells; one cell on a node).
/// Throws ConfigError if the point lies outside the model.
PointStencil hicks_stencil_3d(const PaddedGrid3D& grid, double x_m, double y_m, double z_m,
                              const std::string& what);

} // namespace fwi
