#include "fwi/ui/run_predictor.hpp"

#include "fwi/error.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/time_axis.hpp"
#include "codec_spec.hpp"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace fwi::ui {

// INTERIM ESTIMATE (replace with fwi::predict(make_schedule(spec)->plan(l), l, costs) when sched is merged):
//  - steps l per shot from the real CFL time axis; a step costs padded_cells / rate seconds (forward or adjoint);
//  - a checkpoint state is 2 wavefields plus PML strips (~2.2 padded grids), a gradient snapshot one padded grid,
//    both divided by the codec's assumed ratio; snapshots are kept every sampling_interval steps;
//  - all: l snapshots, no recomputation; uniform:K: K states + one segment's snapshots, recompute ~ l;
//    revolve:S / online:S: S states, recompute from Griewank's bound t(l, S) - l; multilevel: as revolve on its RAM
//    slots; auto: as all when it fits the budget, else revolve with the slots that fit.
//  - codec ratios: lossless ~1.25 (the seed's measurements on wavefields), zfp-rate:B exact 32/B,
//    zfp-precision:P ~ 32/P, zfp-accuracy ~ 8 (tolerance-dependent), zfp-reversible ~ 1.6.
namespace {

double assumed_ratio(const std::string& codec) {
    if (const std::string error = codec_spec_error(codec); !error.empty()) throw ConfigError(error);
    auto number_after = [&](char sep) {
        const auto p = codec.find(sep);
        return p == std::string::npos ? 0.0 : std::atof(codec.c_str() + p + 1);
    };
    if (codec == "none") return 1.0;
    if (codec.rfind("zfp-rate", 0) == 0) return 32.0 / std::max(number_after(':'), 1.0);
    if (codec.rfind("zfp-precision", 0) == 0) return std::max(32.0 / std::max(number_after(':'), 1.0), 1.0);
    if (codec.rfind("zfp-accuracy", 0) == 0) {
        // Looser tolerances compress more: ~8x at 1e-5 of a unit-amplitude field, +2x per decade.
        const double tol = std::max(number_after(':'), 1e-12);
        return std::clamp(8.0 * std::pow(2.0, std::log10(tol / 1e-5)), 1.5, 100.0);
    }
    if (codec == "zfp-reversible") return 1.6;
    return 1.25;
}

std::int64_t binomial_recompute(std::int64_t l, std::int64_t s) {
    if (s >= l - 1) return 0;
    if (s < 1) s = 1;
    // r = min{r : C(s + r, s) >= l}; t = r l - C(s + r, s + 1). Doubles are fine for an estimate.
    double r = 0, c = 1;
    while (c < double(l)) {
        ++r;
        c = c * (double(s) + r) / r;
    }
    const double c_next = c * r / (double(s) + 1);
    return std::max<std::int64_t>(0, std::int64_t(r * double(l) - c_next) - l);
}

std::int64_t spec_number(const std::string& spec) {
    const auto p = spec.find(':');
    return p == std::string::npos ? 0 : std::max<std::int64_t>(1, std::atoll(spec.c_str() + p + 1));
}

} // namespace

void RunPredictor::set_cell_updates_per_second(double rate) {
    if (rate > 0 && std::isfinite(rate)) rate_ = rate;
}

RunPrediction RunPredictor::predict(const Experiment& e) const {
    RunPrediction p;
    try {
        const Model& model = working_model(e);
        const TimeAxis axis = make_time_axis(model.grid, reference_velocity(e), e.propagation);
        const std::int64_t l = axis.inner_nt;
        const auto shots = std::int64_t(std::max<std::size_t>(e.acquisition.shots.size(), 1));
        const int pad = e.propagation.pml_width + e.propagation.order / 2;
        const double padded = double(model.grid.nz() + 2 * pad) * double(model.grid.nx() + 2 * pad);
        const double step_s = padded / rate_;
        const double ratio = assumed_ratio(e.gradient.compression);
        const double snapshot_bytes = padded * 4.0 / ratio;
        const double state_bytes = 2.2 * padded * 4.0 / ratio;
        const auto interval = std::max(e.gradient.sampling_interval, 1);
        const double snapshots_all = std::ceil(double(l) / interval);

        std::string schedule = e.gradient.schedule;
        double held = 0;
        std::int64_t recompute = 0;
        const std::uint64_t budget = e.gradient.budget_bytes;
        if (schedule == "auto") {
            const std::int64_t fit = budget ? std::int64_t(double(budget) / state_bytes) : l;
            schedule = (budget == 0 || snapshots_all * snapshot_bytes <= double(budget))
                           ? "all"
                           : "revolve:" + std::to_string(std::max<std::int64_t>(fit, 1));
        }
        if (schedule == "all") {
            held = snapshots_all * snapshot_bytes;
        } else if (schedule.rfind("uniform:", 0) == 0) {
            const std::int64_t k = spec_number(schedule);
            held = double(k) * state_bytes + std::ceil(double(l) / double(k + 1) / interval) * snapshot_bytes;
            recompute = l - l / (k + 1);
        } else if (schedule.rfind("revolve:", 0) == 0 || schedule.rfind("online:", 0) == 0 ||
                   schedule.rfind("multilevel:", 0) == 0) {
            const std::int64_t s = spec_number(schedule);
            held = double(std::min(s, l)) * state_bytes;
            recompute = binomial_recompute(l, s) + l;  // + the forward step inside each reverse
        } else {
            throw ConfigError("unknown schedule '" + schedule + "' (all | uniform:K | revolve:S | multilevel:R,D | "
                              "online:S | auto)");
        }
        p.ok = true;
        p.inner_steps = l;
        p.step_ratio = axis.step_ratio;
        p.schedule = QString::fromStdString(schedule);
        p.compression_ratio = ratio;
        p.forward_seconds = double(shots) * double(l) * step_s;
        // Adjoint steps with gradient accumulation cost about twice a forward step (REFERENCES.md peers: 529 vs 991).
        p.gradient_seconds = double(shots) * (double(l) + double(recompute) + 2.0 * double(l)) * step_s;
        p.peak_bytes = std::uint64_t(held);
        if (budget && p.peak_bytes > budget) {
            p.ok = false;
            p.error = QObject::tr("needs %1, over the %2 budget").arg(format_bytes(p.peak_bytes), format_bytes(budget));
        }
    } catch (const Error& err) {
        p.ok = false;
        p.error = QString::fromUtf8(err.what());
    }
    return p;
}

QString RunPrediction::summary() const {
    if (!ok && inner_steps == 0) return QObject::tr("No prediction: %1").arg(error);
    QString s = QObject::tr("Forward ≈ %1 · gradient (%2) ≈ %3, peak memory ≈ %4 · %5 steps/shot")
                    .arg(format_seconds(forward_seconds), schedule, format_seconds(gradient_seconds),
                         format_bytes(peak_bytes))
                    .arg(inner_steps);
    if (step_ratio > 1) s += QObject::tr(" (%1 inner steps per sample)").arg(step_ratio);
    if (!ok) s += " — " + error;
    return s;
}

QString format_bytes(std::uint64_t bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1000 && u < 4) v /= 1000, ++u;
    return QString::number(v, 'f', u == 0 ? 0 : (v < 10 ? 2 : 1)) + " " + units[u];
}

QString format_seconds(double s) {
    if (!std::isfinite(s)) return "?";
    if (s < 1) return QString::number(s * 1000, 'f', 0) + " ms";
    if (s < 120) return QString::number(s, 'f', s < 10 ? 1 : 0) + " s";
    if (s < 7200) return QString::number(std::floor(s / 60)) + " min " + QString::number(std::fmod(s, 60), 'f', 0) + " s";
    return QString::number(std::floor(s / 3600)) + " h " + QString::number(std::fmod(s, 3600) / 60, 'f', 0) + " min";
}

} // namespace fwi::ui
