#include "fwi/simulation.hpp"

#include "fwi/acquisition_check.hpp"
#include "fwi/byte_text.hpp"
#include "fwi/error.hpp"
#include "fwi/run_plan.hpp"
#include "runtime/machine_memory.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

namespace fwi {
namespace {
Event shot_event(EventType type, double wall_s, std::int64_t step, std::int64_t steps, int shot) {
    Event e;
    e.type = type;
    e.wall_s = wall_s;
    e.step = step;
    e.steps = steps;
    e.shot = shot;
    return e;
}
} // namespace

PropagatorSetup make_propagator_setup(const Grid& grid, const PropagationSettings& settings,
                                      const TimeAxis& time, double reference_velocity_mps) {
    PropagatorSetup setup;
    setup.grid = grid;
    setup.order = settings.order;
    setup.pml_width = settings.pml_width;
    setup.free_surface = settings.free_surface;
    setup.dt_s = time.inner_dt_s;
    setup.pml_velocity_mps = reference_velocity_mps;
    setup.freq_hz = settings.freq_hz;
    return setup;
}

Simulation::Simulation(const Grid& grid, const Acquisition& acquisition, const PropagationSettings& settings,
                       double reference_velocity_mps, const std::string& backend)
    : acquisition_(acquisition), settings_(settings) {
    if (acquisition.shots.empty()) throw ConfigError("the acquisition has no shots");
    if (!(settings.freq_hz > 0) || !std::isfinite(settings.freq_hz))
        throw ConfigError("source frequency " + std::to_string(settings.freq_hz) + " Hz must be positive");
    time_ = make_time_axis(grid, reference_velocity_mps, settings);
    if (settings.free_surface) validate_points_below_free_surface(acquisition, grid);
    // Every run models every shot (a forward run keeps their traces; a gradient holds as much observed data):
    // checked before the propagator and the stencils, which for 10^7 receivers took 11 s before a forward run
    // refused their traces. Runs check their own larger needs when they start.
    const TraceBytes bytes = trace_bytes();
    detail::check_fits_machine_memory(
        bytes.data + bytes.inner + stencil_bytes(),
        "modelling " + std::to_string(acquisition.shots.size()) + " shots holds their traces (" +
            bytes_text(bytes.data) + ", and " + bytes_text(bytes.inner) +
            " for one shot at the inner time step) and their stencils (" + bytes_text(stencil_bytes()) + ")");
    propagator_ =
        make_propagator(backend, make_propagator_setup(grid, settings, time_, reference_velocity_mps));
    const PaddedGrid& padded = propagator_->padded();
    for (std::size_t s = 0; s < acquisition.shots.size(); ++s) {
        const Shot& shot = acquisition.shots[s];
        if (shot.receivers.empty()) throw ConfigError("shot " + std::to_string(s) + " has no receivers");
        ShotGeometry g;
        g.source = hicks_stencil(padded, shot.source, "source of shot " + std::to_string(s));
        for (std::size_t r = 0; r < shot.receivers.size(); ++r)
            g.receivers.push_back(
                hicks_stencil(padded, shot.receivers[r],
                              "receiver " + std::to_string(r) + " of shot " + std::to_string(s)));
        geometries_.push_back(std::move(g));
    }
    if (settings.wavelet.empty())
        set_wavelet(ricker(settings.freq_hz, time_.dt_s, time_.nt));
    else
        set_wavelet(settings.wavelet);
}

void Simulation::set_wavelet(std::vector<float> wavelet) {
    if (std::int64_t(wavelet.size()) != time_.nt)
        throw ConfigError("wavelet has " + std::to_string(wavelet.size()) +
                          " samples; expected nt = " + std::to_string(time_.nt));
    for (float w : wavelet)
        if (!std::isfinite(w)) throw ConfigError("wavelet contains a non-finite sample");
    wavelet_ = std::move(wavelet);
    inner_source_ = resample_rows(wavelet_, 1, time_.nt, time_.inner_nt);
    wavefield_serial_ = next_wavefield_serial();
}

void Simulation::set_model(const Model& model) {
    // Every backend checks the model (validate_model_for_setup: values, grid, the reference velocity that
    // fixed the time step) before it takes it: one scan of each kind, not two.
    propagator_->set_model(model);
    wavefield_serial_ = next_wavefield_serial();
}

std::uint64_t Simulation::next_wavefield_serial() {
    static std::atomic<std::uint64_t> serial{0};
    return ++serial;
}

namespace {

/// A gather of `shot` without traces.
Gather gather_header(const Acquisition& acquisition, const TimeAxis& time, std::size_t shot) {
    Gather g;
    g.source = acquisition.shots.at(shot).source;
    g.receivers = acquisition.shots.at(shot).receivers;
    g.samples = time.nt;
    g.dt_s = time.dt_s;
    return g;
}

} // namespace

Gather Simulation::empty_gather(std::size_t shot) const {
    Gather g = gather_header(acquisition_, time_, shot);
    g.traces.assign(g.receivers.size() * std::size_t(time_.nt), 0.0f);
    return g;
}

Gather Simulation::gather_from_inner(std::size_t shot, const std::vector<float>& inner) const {
    Gather g = gather_header(acquisition_, time_, shot);
    g.traces = to_user_rate(inner, std::int64_t(g.receivers.size()));
    return g;
}

std::vector<float> Simulation::to_user_rate(const std::vector<float>& inner, std::int64_t receivers) const {
    return resample_rows(inner, receivers, time_.inner_nt, time_.nt);
}

void Simulation::to_inner_rate_adjoint(const std::vector<float>& user, std::int64_t receivers,
                                       std::vector<float>& inner) const {
    inner.resize(std::size_t(receivers * time_.inner_nt));
    // (downsample)^T = upsample / step_ratio with this FFT pair (see resample_rows).
    resample_rows(user, receivers, time_.nt, time_.inner_nt, inner);
    if (time_.step_ratio != 1)
        for (float& v : inner)
            v /= float(time_.step_ratio);
}

std::uint64_t Simulation::stencil_bytes() const {
    std::uint64_t points = 0;
    for (const Shot& shot : acquisition_.shots)
        points += 1 + std::uint64_t(shot.receivers.size());
    return points * sizeof(PointStencil);
}

Simulation::TraceBytes Simulation::trace_bytes(const std::vector<int>& shots) const {
    TraceBytes bytes;
    auto add = [&](std::size_t shot) {
        const auto nrec = std::uint64_t(acquisition_.shots.at(shot).receivers.size());
        bytes.data += nrec * std::uint64_t(time_.nt) * sizeof(float);
        bytes.shot = std::max(bytes.shot, nrec * std::uint64_t(time_.nt) * sizeof(float));
        bytes.inner = std::max(bytes.inner, nrec * std::uint64_t(time_.inner_nt) * sizeof(float));
    };
    if (shots.empty())
        for (std::size_t s = 0; s < acquisition_.shots.size(); ++s)
            add(s);
    for (int s : shots)
        add(std::size_t(s));
    return bytes;
}

std::vector<Gather> Simulation::forward(const std::vector<int>& shots, Observer* observer,
                                        const CancelToken* cancel) {
    std::vector<int> list = shots;
    if (list.empty())
        for (std::size_t s = 0; s < acquisition_.shots.size(); ++s)
            list.push_back(int(s));
    const auto t0 = std::chrono::steady_clock::now();
    auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    // What it holds at once (every shot's traces at the data rate, one shot's at the inner rate) is at most
    // what the constructor checked for all shots.
    std::vector<Gather> out;
    std::vector<float> view;          // the model region's wavefield, for an observer that wants it
    std::unique_ptr<WaveState> state; // one for every shot, cleared for each (renew_state)
    for (int s : list) {
        const auto& g = geometries_.at(std::size_t(s));
        const auto nrec = std::int64_t(g.receivers.size());
        const std::int64_t steps_per_call = forward_steps_per_call(time_.inner_nt, nrec);
        std::vector<float> inner(std::size_t(nrec * time_.inner_nt), 0.0f);
        renew_state(*propagator_, state);
        if (observer) observer->on_event(shot_event(EventType::ShotStart, wall(), 0, 0, s));
        while (state->step < time_.inner_nt) {
            if (cancel) cancel->checkpoint();
            const std::int64_t n = std::min(steps_per_call, time_.inner_nt - state->step);
            propagator_->forward(*state, n, g, inner_source_, inner.data(), time_.inner_nt);
            if (observer) {
                observer->on_event(shot_event(EventType::ForwardStep, wall(), state->step, n, s));
                if (observer->wants_field(FieldKind::ForwardWavefield, state->step)) {
                    view.resize(std::size_t(propagator_->padded().model.cells()));
                    propagator_->model_region_wavefield(*state, view);
                    const Grid& m = propagator_->padded().model;
                    observer->on_field(FieldKind::ForwardWavefield, state->step,
                                       {view.data(), m.rows(), m.nx()});
                }
            }
        }
        Gather gather = gather_from_inner(std::size_t(s), inner);
        // Only an overflow makes them so (a wavelet peak near 1e36; the model and time step are checked).
        // They were stored or written as NaN.
        check_finite_samples(gather, "shot " + std::to_string(s) +
                                         ": the modelled data are not finite (the wavelet's amplitudes "
                                         "overflow the single-precision wavefields; scale the wavelet down)");
        if (observer) observer->on_event(shot_event(EventType::ShotEnd, wall(), state->step, 0, s));
        out.push_back(std::move(gather));
    }
    return out;
}

} // namespace fwi
