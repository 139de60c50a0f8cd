#pragma once
// Recorded data of one shot (a shot gather). File formats: gather_io.hpp.
#include "fwi/acquisition.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

struct Gather {
    Point2D source;
    std::vector<Point2D> receivers;
    std::int64_t samples = 0;  ///< samples per trace
    double dt_s = 0;           ///< sample interval
    std::vector<float> traces;  ///< receivers.size() x samples, sample fast: trace r sample t at r * samples + t
    bool operator==(const Gather&) const = default;
};

/// Throws ConfigError when traces.size() != receivers.size() * samples, or samples/dt are not positive.
/// `what` names the gather in the message (e.g. "shot 3").
void validate_gather(const Gather& gather, const std::string& what = "gather");

} // namespace fwi
