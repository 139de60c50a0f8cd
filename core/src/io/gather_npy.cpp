// Shot gathers as .npy arrays: (receivers, samples) for one shot, (shots, receivers, samples) for several.
#include "fwi/error.hpp"
#include "fwi/gather.hpp"
#include "fwi/npy.hpp"

#include <sstream>

namespace fwi {

void write_gathers_npy(const std::string& path, const std::vector<Gather>& gathers) {
    if (gathers.empty()) throw ConfigError(".npy '" + path + "': no gathers to write");
    for (std::size_t s = 0; s < gathers.size(); ++s) {
        validate_gather(gathers[s], "shot " + std::to_string(s));
        if (gathers[s].receivers.size() != gathers[0].receivers.size() ||
            gathers[s].samples != gathers[0].samples) {
            std::ostringstream msg;
            msg << ".npy '" << path << "': shot " << s << " has " << gathers[s].receivers.size()
                << " receivers x " << gathers[s].samples << " samples but shot 0 has "
                << gathers[0].receivers.size() << " x " << gathers[0].samples
                << " (one array needs equal shapes; use SEG-Y for varying geometry)";
            throw ConfigError(msg.str());
        }
    }
    NpyArray array;
    const auto receivers = std::int64_t(gathers[0].receivers.size());
    if (gathers.size() == 1) {
        array.shape = {receivers, gathers[0].samples};
        array.data = gathers[0].traces;
    } else {
        array.shape = {std::int64_t(gathers.size()), receivers, gathers[0].samples};
        array.data.reserve(gathers.size() * gathers[0].traces.size());
        for (const Gather& g : gathers)
            array.data.insert(array.data.end(), g.traces.begin(), g.traces.end());
    }
    write_npy(path, array);
}

std::vector<Gather> read_gathers_npy(const std::string& path, const Acquisition& acquisition, double dt_s) {
    NpyArray array = read_npy(path);
    if (array.shape.size() != 2 && array.shape.size() != 3) {
        throw FormatError(".npy '" + path +
                          "': gathers need 2 dimensions (receivers, samples) or 3 (shots, receivers, "
                          "samples), the file has " +
                          std::to_string(array.shape.size()));
    }
    const bool one_shot = array.shape.size() == 2;
    const std::int64_t shots = one_shot ? 1 : array.shape[0];
    const std::int64_t receivers = array.shape[one_shot ? 0 : 1];
    const std::int64_t samples = array.shape[one_shot ? 1 : 2];
    if (std::size_t(shots) != acquisition.shots.size()) {
        std::ostringstream msg;
        msg << ".npy '" << path << "': the file holds " << shots << " shot(s) but the acquisition has "
            << acquisition.shots.size();
        throw FormatError(msg.str());
    }
    std::vector<Gather> gathers(static_cast<std::size_t>(shots));
    for (std::int64_t s = 0; s < shots; ++s) {
        const Shot& shot = acquisition.shots[std::size_t(s)];
        if (std::int64_t(shot.receivers.size()) != receivers) {
            std::ostringstream msg;
            msg << ".npy '" << path << "': the file has " << receivers << " receivers per shot but shot " << s
                << " of the acquisition has " << shot.receivers.size();
            throw FormatError(msg.str());
        }
        Gather& g = gathers[std::size_t(s)];
        g.source = shot.source;
        g.receivers = shot.receivers;
        g.samples = samples;
        g.dt_s = dt_s;
        const auto begin = array.data.begin() + std::ptrdiff_t(s * receivers * samples);
        g.traces.assign(begin, begin + std::ptrdiff_t(receivers * samples));
        validate_gather(g, "shot " + std::to_string(s) + " of '" + path + "'");
    }
    return gathers;
}

} // namespace fwi
