#include "fwi/acquisition.hpp"

#include "fwi/error.hpp"

#include <cmath>
#include <numbers>
#include <sstream>

namespace fwi {

std::size_t Acquisition::receiver_count() const {
    std::size_t n = 0;
    for (const Shot& shot : shots)
        n += shot.receivers.size();
    return n;
}

std::vector<Point> line_of_points(int count, double x0_m, double x1_m, double z_m) {
    if (count < 1) {
        std::ostringstream msg;
        msg << "line of points: count = " << count << " (need at least 1)";
        throw ConfigError(msg.str());
    }
    std::vector<Point> points(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        // The last point is x1 exactly, so a line spanning the model never ends a rounding error outside it.
        const double x =
            i == count - 1 && count > 1 ? x1_m : x0_m + (x1_m - x0_m) * double(i) / double(count - 1);
        points[std::size_t(i)] = {count == 1 ? x0_m : x, z_m};
    }
    return points;
}

Acquisition surface_survey(int shots, double sx0_m, double sx1_m, double source_z_m, int receivers,
                           double rx0_m, double rx1_m, double receiver_z_m) {
    const auto sources = line_of_points(shots, sx0_m, sx1_m, source_z_m);
    const auto receiver_line = line_of_points(receivers, rx0_m, rx1_m, receiver_z_m);
    Acquisition acq;
    acq.shots.reserve(sources.size());
    for (const Point& s : sources)
        acq.shots.push_back({s, receiver_line});
    return acq;
}

std::vector<float> ricker(double freq_hz, double dt_s, std::int64_t nt, double delay_s) {
    if (!(freq_hz > 0) || !std::isfinite(freq_hz) || !(dt_s > 0) || !std::isfinite(dt_s) || nt < 0 ||
        !std::isfinite(delay_s)) {
        std::ostringstream msg;
        msg << "ricker: frequency " << freq_hz << " Hz, dt " << dt_s << " s, nt " << nt << ", delay "
            << delay_s << " s (need positive frequency and dt, nt >= 0, finite delay)";
        throw ConfigError(msg.str());
    }
    if (delay_s < 0) delay_s = 1.5 / freq_hz;
    std::vector<float> w(static_cast<std::size_t>(nt));
    const double pi2f2 = std::numbers::pi * std::numbers::pi * freq_hz * freq_hz;
    for (std::int64_t i = 0; i < nt; ++i) {
        const double tau = double(i) * dt_s - delay_s;
        const double a = pi2f2 * tau * tau;
        w[std::size_t(i)] = float((1.0 - 2.0 * a) * std::exp(-a));
    }
    return w;
}

} // namespace fwi
