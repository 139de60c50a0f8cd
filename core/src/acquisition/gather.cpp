#include "fwi/gather.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fwi {

void validate_gather(const Gather& gather, const std::string& what) {
    if (gather.samples <= 0 || !(gather.dt_s > 0) || !std::isfinite(gather.dt_s) ||
        gather.traces.size() != gather.receivers.size() * std::size_t(gather.samples)) {
        std::ostringstream msg;
        msg << what << ": " << gather.traces.size() << " trace values for " << gather.receivers.size()
            << " receivers x " << gather.samples << " samples at dt " << gather.dt_s
            << " s (need positive samples and dt, values = receivers x samples)";
        throw ConfigError(msg.str());
    }
}

void check_finite_samples(const Gather& gather, const std::string& what) {
    const auto bad =
        std::find_if(gather.traces.begin(), gather.traces.end(), [](float v) { return !std::isfinite(v); });
    if (bad == gather.traces.end()) return;
    const auto i = std::size_t(bad - gather.traces.begin());
    const auto samples = std::size_t(std::max<std::int64_t>(gather.samples, 1));
    std::ostringstream msg;
    msg << what << ": receiver " << i / samples << ", sample " << i % samples << " is " << *bad
        << "; data must be finite numbers";
    throw ConfigError(msg.str());
}

} // namespace fwi
