#include "fwi/misfit.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <sstream>

namespace fwi {

MisfitKind parse_misfit_kind(const std::string& name) {
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (n == "l2") return MisfitKind::L2;
    if (n == "normalized" || n == "trace-normalized" || n == "nc") return MisfitKind::TraceNormalized;
    throw ConfigError("misfit '" + name + "' is unknown (use l2 or normalized)");
}

const char* to_string(MisfitKind kind) {
    switch (kind) {
    case MisfitKind::L2:
        return "l2";
    case MisfitKind::TraceNormalized:
        return "normalized";
    }
    return "unknown";
}

double trace_normalized_misfit(const Gather& modelled, const Gather& observed,
                               std::vector<float>& adjoint_source) {
    const std::size_t n = std::size_t(modelled.samples);
    const std::size_t traces = n ? modelled.traces.size() / n : 0;
    adjoint_source.assign(modelled.traces.size(), 0.0f);
    double j = 0;
    for (std::size_t r = 0; r < traces; ++r) {
        const float* d = modelled.traces.data() + r * n;
        const float* o = observed.traces.data() + r * n;
        double dd = 0, oo = 0;
        for (std::size_t t = 0; t < n; ++t) {
            dd += double(d[t]) * d[t];
            oo += double(o[t]) * o[t];
        }
        if (dd == 0 || oo == 0) continue;
        const double nd = std::sqrt(dd), no = std::sqrt(oo);
        double uv = 0;
        for (std::size_t t = 0; t < n; ++t)
            uv += (d[t] / nd) * (o[t] / no);
        // |u - v|^2 = 2 - 2 u.v for unit vectors.
        j += 1.0 - uv;
        float* a = adjoint_source.data() + r * n;
        for (std::size_t t = 0; t < n; ++t)
            a[t] = float(((d[t] / nd) * uv - o[t] / no) / nd);
    }
    return j;
}

void validate_window(const DataWindow& w) {
    const std::pair<const char*, double> fields[] = {{"start_s", w.start_s},
                                                     {"end_s", w.end_s},
                                                     {"start_taper_s", w.start_taper_s},
                                                     {"end_taper_s", w.end_taper_s},
                                                     {"min_offset_m", w.min_offset_m},
                                                     {"max_offset_m", w.max_offset_m}};
    for (const auto& [name, v] : fields)
        if (!(v >= 0) || !std::isfinite(v))
            throw ConfigError(std::string("data window: ") + name + " = " + std::to_string(v) +
                              " must be >= 0");
    if (w.end_s > 0 && !(w.end_s > w.start_s))
        throw ConfigError("data window: end_s " + std::to_string(w.end_s) + " s is not after start_s " +
                          std::to_string(w.start_s) + " s");
    if (w.max_offset_m > 0 && w.max_offset_m < w.min_offset_m)
        throw ConfigError("data window: max_offset_m " + std::to_string(w.max_offset_m) +
                          " is below min_offset_m " + std::to_string(w.min_offset_m));
}

std::vector<float> time_weights(const DataWindow& w, std::int64_t samples, double dt_s) {
    validate_window(w);
    const double trace_end = double(samples - 1) * dt_s;
    const double end = w.end_s > 0 ? std::min(w.end_s, trace_end) : trace_end;
    if (!(end > w.start_s))
        throw ConfigError("data window: it keeps nothing of a " + std::to_string(trace_end) +
                          " s trace (start_s " + std::to_string(w.start_s) + " s)");
    std::vector<float> out(static_cast<std::size_t>(samples));
    for (std::int64_t i = 0; i < samples; ++i) {
        const double t = double(i) * dt_s;
        double v = (t >= w.start_s && t <= end) ? 1.0 : 0.0;
        if (v > 0 && w.start_taper_s > 0 && t < w.start_s + w.start_taper_s)
            v *= 0.5 - 0.5 * std::cos(std::numbers::pi * (t - w.start_s) / w.start_taper_s);
        if (v > 0 && w.end_taper_s > 0 && t > end - w.end_taper_s)
            v *= 0.5 - 0.5 * std::cos(std::numbers::pi * (end - t) / w.end_taper_s);
        out[std::size_t(i)] = float(v);
    }
    return out;
}

std::vector<float> offset_weights(const DataWindow& w, const Gather& g) {
    validate_window(w);
    std::vector<float> out(g.receivers.size());
    for (std::size_t r = 0; r < g.receivers.size(); ++r) {
        // y is 0 for every point of a 2D survey, so one formula serves both ranks.
        const Point& p = g.receivers[r];
        const double off = std::hypot(p.x_m - g.source.x_m, p.y_m - g.source.y_m, p.z_m - g.source.z_m);
        const bool inside = off >= w.min_offset_m && (w.max_offset_m <= 0 || off <= w.max_offset_m);
        out[r] = inside ? 1.0f : 0.0f;
    }
    return out;
}

void check_window_keeps_data(const DataWindow& w, const std::vector<const Gather*>& gathers) {
    if (w.is_identity() || gathers.empty()) return;
    const Gather& first = *gathers.front();
    time_weights(w, first.samples, first.dt_s); // refuses a time window that keeps nothing
    const double trace_end = double(first.samples - 1) * first.dt_s;
    const double kept = (w.end_s > 0 ? std::min(w.end_s, trace_end) : trace_end) - w.start_s;
    if (w.start_taper_s + w.end_taper_s > kept) {
        std::ostringstream m;
        m << "data window: the tapers (" << w.start_taper_s << " s + " << w.end_taper_s
          << " s) are longer than the " << kept << " s the window keeps";
        throw ConfigError(m.str());
    }
    for (const Gather* g : gathers)
        for (float v : offset_weights(w, *g))
            if (v > 0) return;
    std::ostringstream m;
    m << "data window: no receiver of any shot is at an offset in [" << w.min_offset_m << ", ";
    if (w.max_offset_m > 0)
        m << w.max_offset_m << "] m";
    else
        m << "inf) m";
    throw ConfigError(m.str());
}

MisfitFunction make_misfit(const MisfitOptions& options) {
    validate_window(options.window); // fail before any propagation
    const auto base =
        options.kind == MisfitKind::L2 ? MisfitFunction(l2_misfit) : MisfitFunction(trace_normalized_misfit);
    if (options.window.is_identity()) return base;
    const DataWindow window = options.window;
    return
        [base, window](const Gather& modelled, const Gather& observed, std::vector<float>& adjoint_source) {
            const auto wt = time_weights(window, modelled.samples, modelled.dt_s);
            const auto wr = offset_weights(window, modelled);
            Gather wd = modelled, wo = observed;
            const std::size_t n = std::size_t(modelled.samples);
            for (std::size_t r = 0; r < wr.size(); ++r)
                for (std::size_t t = 0; t < n; ++t) {
                    const float w = wr[r] * wt[t];
                    wd.traces[r * n + t] *= w;
                    wo.traces[r * n + t] *= w;
                }
            const double j = base(wd, wo, adjoint_source);
            for (std::size_t r = 0; r < wr.size(); ++r)
                for (std::size_t t = 0; t < n; ++t)
                    adjoint_source[r * n + t] *= wr[r] * wt[t];
            return j;
        };
}

} // namespace fwi
