#pragma once
// The set-up checks that do not depend on the grid's rank (order, PML width, time step, PML velocity), shared
// by the 2D and 3D set-up validation so that both refuse the same settings with the same messages.
namespace fwi {

/// Throws ConfigError naming the first bad value.
void validate_scheme_settings(int order, int pml_width, double dt_s, double pml_velocity_mps);

} // namespace fwi
