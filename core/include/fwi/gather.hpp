#pragma once
// Recorded data of one shot (a shot gather) and its file formats (SEG-Y with geometry, .npy traces only).
#include "fwi/acquisition.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

struct Gather {
    Point source;
    std::vector<Point> receivers;
    std::int64_t samples = 0; ///< samples per trace
    double dt_s = 0;          ///< sample interval
    std::vector<float>
        traces; ///< receivers.size() x samples, sample fast: trace r sample t at r * samples + t
    bool operator==(const Gather&) const = default;
};

/// Throws ConfigError when traces.size() != receivers.size() * samples, or samples/dt are not positive.
/// `what` names the gather in the message (e.g. "shot 3").
void validate_gather(const Gather& gather, const std::string& what = "gather");
/// Throws ConfigError naming `what`, the receiver and the sample of the first NaN or infinite value: data a
/// misfit is computed from must be finite (a NaN misfit stops an inversion without saying why).
void check_finite_samples(const Gather& gather, const std::string& what);

/// SEG-Y rev 1, big-endian IEEE float32 samples, one trace per receiver, shots one after another.
/// Trace headers: FieldRecord (9) = shot number (1-based), TraceNumber (13) and trace-in-ensemble (25) =
/// receiver number (1-based), SourceX (73) / GroupX (81) = x, SourceDepth (49) = source z (depth, positive
/// down), ReceiverGroupElevation (41) = -receiver z (an elevation, positive up), Offset (37) = GroupX -
/// SourceX; coordinates are integers scaled by SourceGroupScalar (71) / ElevationScalar (69) = -10000 (0.1
/// mm) unless positions are too large for that. The binary and trace headers carry dt in whole microseconds;
/// the textual header also records the exact dt, which read_gathers_segy prefers when it is present. All
/// gathers need the same samples and dt (ConfigError). Traces round-trip bit for bit; positions to the
/// coordinate scalar's resolution.
void write_gathers_segy(const std::string& path, const std::vector<Gather>& gathers);
/// Reads SEG-Y written by write_gathers_segy or by other tools (IBM or IEEE float samples): a new gather
/// starts whenever FieldRecord changes. Throws FormatError naming the file for anything malformed or
/// truncated.
std::vector<Gather> read_gathers_segy(const std::string& path);

/// .npy (float32, C order): one gather as (receivers, samples); several as (shots, receivers, samples), which
/// needs equal receiver counts and samples (ConfigError otherwise). Geometry and dt are not stored in .npy.
void write_gathers_npy(const std::string& path, const std::vector<Gather>& gathers);

/// Adds white Gaussian noise so that 10 log10(mean signal power / noise power) = snr_db over all samples of
/// all gathers (reproducible for a seed). ConfigError for an SNR outside [-200, 200] dB (or not finite) or
/// all-zero data.
void add_noise(std::vector<Gather>& gathers, double snr_db, std::uint64_t seed);

/// HDF5 (docs/data-formats.md): /gathers/shot_NNNN (receivers, samples) with dt_s and source_xz_m, and
/// /gathers/shot_NNNN_receivers_xz_m (receivers, 2), written atomically. Every gather keeps its own geometry
/// and sampling. ResourceError for I/O failures.
void write_gathers_hdf5(const std::string& path, const std::vector<Gather>& gathers);
/// Reads write_gathers_hdf5's layout (and that of earlier builds, with the receivers' positions as
/// attributes); FormatError (naming the file) for anything else or inconsistent shapes.
std::vector<Gather> read_gathers_hdf5(const std::string& path);
/// Reads a 2D (one shot) or 3D (shots, receivers, samples) .npy and attaches the geometry of `acquisition`
/// and dt_s. Throws FormatError when the shape does not match the acquisition (shot or receiver counts).
std::vector<Gather> read_gathers_npy(const std::string& path, const Acquisition& acquisition, double dt_s);

} // namespace fwi
