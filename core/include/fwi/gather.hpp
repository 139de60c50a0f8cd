#pragma once
// A shot gather: the traces one shot records, with its geometry.
#include "fwi/acquisition.hpp"

#include <cstdint>
#include <vector>

namespace fwi {

struct Gather {
    Point2D source;
    std::vector<Point2D> receivers;
    std::int64_t samples = 0;
    double dt_s = 0;
    std::vector<float> traces;  ///< receivers x samples, sample fast: traces[r * samples + t]
};

} // namespace fwi
