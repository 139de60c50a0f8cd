#include "fwi/gather.hpp"

#include "fwi/error.hpp"

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

} // namespace fwi
