#pragma once
// Data misfits for inversion, each with its exact adjoint source (dJ/d(modelled sample), user sampling,
// layout receivers x samples as in gather.hpp), and the data window (time taper, offset limits) applied
// identically to modelled and observed data. The functions returned by make_misfit plug into
// GradientOptions::misfit.
#include "fwi/gather.hpp"
#include "fwi/gradient_engine.hpp"

#include <string>
#include <vector>

namespace fwi {

enum class MisfitKind {
    L2,             ///< J = 1/2 sum (d - o)^2
    TraceNormalized ///< J = 1/2 sum_r |d_r / |d_r| - o_r / |o_r||^2: insensitive to amplitude, per trace
};
/// "l2" | "normalized" (also "trace-normalized", "nc"); ConfigError naming the text otherwise.
MisfitKind parse_misfit_kind(const std::string& name);
const char* to_string(MisfitKind kind);

/// Trace-normalised misfit. With u = d / |d| and v = o / |o|, dJ/dd = (u (u.v) - v) / |d|. Traces where the
/// modelled or the observed trace is identically zero contribute nothing (the misfit is not differentiable
/// there).
double trace_normalized_misfit(const Gather& modelled, const Gather& observed,
                               std::vector<float>& adjoint_source);

/// Which data the misfit sees. Weights w(t) * w(offset) multiply modelled and observed data alike, and the
/// adjoint source afterwards, so that the adjoint stays exact (the window is a diagonal linear operator W:
/// J(W d, W o)).
struct DataWindow {
    double start_s = 0;       ///< samples before start_s weigh 0 (a mute of early arrivals)
    double end_s = 0;         ///< samples after end_s weigh 0; 0 = to the end of the trace
    double start_taper_s = 0; ///< cosine ramp from 0 to 1 over [start_s, start_s + start_taper_s]
    double end_taper_s = 0;   ///< cosine ramp from 1 to 0 ending at end_s (or at the trace's last sample)
    double min_offset_m = 0;  ///< traces with |receiver - source| below this weigh 0
    double max_offset_m = 0;  ///< traces farther than this weigh 0; 0 = no limit
    bool operator==(const DataWindow&) const = default;
    bool is_identity() const {
        return start_s <= 0 && end_s <= 0 && start_taper_s <= 0 && end_taper_s <= 0 && min_offset_m <= 0 &&
               max_offset_m <= 0;
    }
};

/// ConfigError naming the field for negative or non-finite times/offsets, or max_offset_m < min_offset_m.
void validate_window(const DataWindow& window);
/// w(t) for `samples` samples at dt_s (1 inside the window). ConfigError for a bad window or one that keeps
/// nothing.
std::vector<float> time_weights(const DataWindow& window, std::int64_t samples, double dt_s);
/// 0 or 1 per receiver of the gather (offset = horizontal and vertical distance from the source).
std::vector<float> offset_weights(const DataWindow& window, const Gather& gather);
/// ConfigError when the window keeps none of these gathers' traces (an offset range no receiver falls in), or
/// its tapers are longer than the time it keeps: every misfit would be (nearly) 0 and an inversion would stop
/// at once as if it had converged.
void check_window_keeps_data(const DataWindow& window, const std::vector<const Gather*>& gathers);

struct MisfitOptions {
    MisfitKind kind = MisfitKind::L2;
    DataWindow window;
    bool operator==(const MisfitOptions&) const = default;
};

/// The windowed misfit as a GradientOptions::misfit. Throws ConfigError for a bad window (checked here,
/// once).
MisfitFunction make_misfit(const MisfitOptions& options);

} // namespace fwi
