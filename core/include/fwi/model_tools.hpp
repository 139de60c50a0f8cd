#pragma once
// Building and reshaping velocity models: resampling and the built-in teaching models.
// All models follow grid.hpp ((z, x), x fast, metres) and hold velocities in m/s.
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
/// non-finite spacing, or a result of more than 2e8 cells.
Model resample_model(const Model& model, double dz_m, double dx_m);

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

/// Built-in models by name (see builtin_model_names()): the synthetic teaching models ("homogeneous",
/// "layered", "circle", "gradient"; 101 x 201 cells at 10 m) and the shipped benchmark models ("marmousi2",
/// "marmousi2-smooth", "marmousi2-start1d", "marmousi"; these read resources, see resources.hpp). Throws
/// ConfigError for an unknown name.
Model builtin_model(const std::string& name);
std::vector<std::string> builtin_model_names();

} // namespace fwi
