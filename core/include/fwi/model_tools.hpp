#pragma once
// Building and reshaping velocity models: resampling and the built-in teaching models, 2D and 3D.
// All models follow grid.hpp ((z, x) or (z, y, x), x fast, metres) and hold velocities in m/s.
#include "fwi/model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

/// Resampling onto spacing (dz_m, dx_m) over the same physical extent: the new node count per axis is
/// round(extent / spacing) + 1, so the extent is kept to within half a new cell; nodes past the old extent
/// take the edge value. Along an axis that gets finer the model is interpolated linearly; along one that gets
/// coarser it is averaged (anti-aliased) with a tent of half-width the new spacing over the old model's
/// linear interpolant (a point sample would alias layers thinner than the new spacing). Both reproduce linear
/// models exactly; the same spacing gives the same values bit for bit. Throws ConfigError for non-positive or
/// non-finite spacing, or a result of more than 2e8 cells. This overload is for 2D models (ConfigError for a
/// 3D one, which needs a y spacing too).
Model resample_model(const Model& model, double dz_m, double dx_m);
/// The same along z, y and x for a 3D model (separable: x, then y, then z); a 2D model ignores dy_m. On a
/// model that does not vary along y, with dy_m its own dy, each y slice equals the 2D result bit for bit.
Model resample_model(const Model& model, double dz_m, double dy_m, double dx_m);

/// Horizontal layers: `velocities_mps[k]` fills depths in [interface_depths_m[k-1], interface_depths_m[k]).
/// Needs velocities.size() == interfaces.size() + 1 and strictly increasing interfaces (ConfigError
/// otherwise).
Model layered_model(std::int64_t nz, std::int64_t nx, double dz_m, double dx_m,
                    const std::vector<double>& velocities_mps, const std::vector<double>& interface_depths_m);

/// A circular anomaly in a constant background. With smooth_edge_m > 0 the edge is a raised-cosine ramp of
/// that width centred on the radius (keeps the teaching gradient free of staircase artefacts); 0 gives a
/// sharp edge.
Model circle_anomaly_model(std::int64_t nz, std::int64_t nx, double dz_m, double dx_m, double background_mps,
                           double anomaly_mps, double centre_x_m, double centre_z_m, double radius_m,
                           double smooth_edge_m = 0.0);

/// Velocity growing linearly with depth from v_top (row 0) to v_bottom (row nz-1).
Model gradient_model(std::int64_t nz, std::int64_t nx, double dz_m, double dx_m, double v_top_mps,
                     double v_bottom_mps);

/// 3D layers (z, y, x): as layered_model, with every interface a plane through interface_depths_m[k] at the
/// centre of the (x, y) extent, dipping dip_x_deg along x and dip_y_deg along y (positive: deeper towards
/// larger x or y; within +-60 degrees). The planes are parallel, so layers never cross. ConfigError for bad
/// sizes (more than 2e8 cells), velocities, interfaces or dips.
Model layered_model_3d(std::int64_t nz, std::int64_t ny, std::int64_t nx, double dz_m, double dy_m,
                       double dx_m, const std::vector<double>& velocities_mps,
                       const std::vector<double>& interface_depths_m, double dip_x_deg = 0,
                       double dip_y_deg = 0);

/// A salt-like body in a background growing linearly with depth from v_top (row 0) to v_bottom (row nz-1):
/// an irregular body (an ellipsoid about the centre of the volume at 55% of its depth, semi-axes 28% of the
/// width and breadth and 25% of the depth, wider above its centre than below and with three lobes around the
/// vertical) of salt_mps, its edge a raised-cosine ramp of smooth_edge_m (0 = sharp). The shape scales with
/// the volume. ConfigError for bad sizes (more than 2e8 cells), velocities or edge.
Model salt_model_3d(std::int64_t nz, std::int64_t ny, std::int64_t nx, double dz_m, double dy_m, double dx_m,
                    double v_top_mps, double v_bottom_mps, double salt_mps, double smooth_edge_m = 0.0);

/// ny copies of a 2D model along y at spacing dy_m: the 3D model (nz, ny, nx) of a 2.5D earth. ConfigError
/// for an invalid or 3D model, ny < 1, a bad dy_m or more than 2e8 cells.
Model extrude_model_y(const Model& model, std::int64_t ny, double dy_m);

/// Marmousi-II (`which` as load_marmousi2) resampled to spacing_m along z and x (resample_model) and extruded
/// over ny inlines at dy = spacing_m.
Model marmousi2_3d(std::int64_t ny, double spacing_m, const std::string& which = "true");

/// Built-in models by name (see builtin_model_names()): the synthetic teaching models ("homogeneous",
/// "layered", "circle", "gradient"; 101 x 201 cells at 10 m), the shipped benchmark models ("marmousi2",
/// "marmousi2-smooth", "marmousi2-start1d", "marmousi"; these read resources, see resources.hpp) and the 3D
/// models (nz x ny x nx): "layered3d" (61 x 81 x 81 at 10 m; layers of 1500, 2000, 2500, 3000 m/s below
/// interfaces at 150, 300, 450 m at the centre, dipping 8 degrees along x and 4 along y), "salt3d" (61 x 81 x
/// 81 at 10 m; 1800-3200 m/s background, 4500 m/s salt, 40 m edge) and "marmousi2-3d" (Marmousi-II at 40 m
/// extruded over 48 inlines: 88 x 48 x 251 cells, 3.5 x 1.9 x 10 km). Throws ConfigError for an unknown name.
Model builtin_model(const std::string& name);
std::vector<std::string> builtin_model_names();

} // namespace fwi
