#pragma once
// Private to the project code: one writer and one reader per section of the project file. Each pair lives in
// one file so that the two directions cannot drift apart. The layout is documented in docs/file-format.md.
#include "fwi/project.hpp"
#include "hdf5/h5.hpp"

#include <string>

namespace fwi::project_io {

/// "shot_00012", "iter_00003": zero-padded so that names sort in order in h5dump and HDFView.
std::string indexed_name(const std::string& prefix, std::size_t index);

/// Counts a file may declare before anything is allocated for them (far beyond any real project: a damaged or
/// hostile file is refused with a FormatError naming the object instead of exhausting memory).
inline constexpr std::int64_t max_shots = 1'000'000;
inline constexpr std::int64_t max_receivers = 100'000'000; ///< all shots together
inline constexpr std::int64_t max_samples = 100'000'000;   ///< per trace
inline constexpr std::int64_t max_history = 1'000'000;     ///< iterations kept
/// Observed data of all shots together: 2^33 values (32 GiB of floats).
inline constexpr std::int64_t max_observed_values = std::int64_t(1) << 33;

void write_settings(const h5::Group& root, const Experiment& experiment);
void read_settings(const h5::Group& root, Experiment& experiment);

/// Points are rows [z_m, x_m] in a 2D project (rank 2) and [z_m, y_m, x_m] in a 3D one (rank 3).
void write_acquisition(const h5::Group& root, const Acquisition& acquisition, int rank);
/// FormatError when the points' width does not match `rank` (the project's models').
Acquisition read_acquisition(const h5::Group& root, int rank);

void write_observed(const h5::Group& root, const std::vector<ShotRecord>& observed);
std::vector<ShotRecord> read_observed(const h5::Group& root);

/// gradient, misfit, history and optimizer state under /results.
void write_results(const h5::Group& root, const Project& project);
void read_results(const h5::Group& root, Project& project);

} // namespace fwi::project_io
