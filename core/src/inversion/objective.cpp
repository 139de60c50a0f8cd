#include "fwi/objective.hpp"

#include "fwi/error.hpp"
#include "fwi/frequency_filter.hpp"
#include "fwi/gradient_engine.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace fwi {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

} // namespace

std::vector<int> random_shot_subset(const std::vector<int>& from, int count, std::uint64_t seed, int stage,
                                    int iteration) {
    if (count <= 0 || std::size_t(count) >= from.size()) return from;
    std::uint64_t state = seed;
    state ^= splitmix64(state) + std::uint64_t(stage) * 0x100000001b3ULL;
    state ^= splitmix64(state) + std::uint64_t(iteration) * 0xcbf29ce484222325ULL;
    std::vector<int> pool = from;
    for (std::size_t i = 0; i < std::size_t(count); ++i) {
        const std::uint64_t j = i + splitmix64(state) % (pool.size() - i);
        std::swap(pool[i], pool[std::size_t(j)]);
    }
    pool.resize(std::size_t(count));
    std::sort(pool.begin(), pool.end());
    return pool;
}

Objective::Objective(Simulation& sim, std::vector<Gather> observed, const Model& start_model,
                     ObjectiveOptions options, Observer* observer, const CancelToken* cancel)
    : sim_(sim), observed_(std::move(observed)), options_(std::move(options)), observer_(observer),
      cancel_(cancel) {
    // The experiment's wavelet, not sim.wavelet(): another objective may have left a filtered one in the
    // simulation.
    const PropagationSettings& ps = sim.settings();
    wavelet_ = ps.wavelet.empty() ? ricker(ps.freq_hz, sim.time().dt_s, sim.time().nt) : ps.wavelet;
    const auto& shots = sim.acquisition().shots;
    if (observed_.size() != shots.size())
        throw ConfigError("observed data hold " + std::to_string(observed_.size()) +
                          " shots; the acquisition has " + std::to_string(shots.size()));
    for (std::size_t s = 0; s < shots.size(); ++s) {
        const Gather& g = observed_[s];
        if (g.samples != sim.time().nt ||
            g.traces.size() != shots[s].receivers.size() * std::size_t(g.samples))
            throw ConfigError("observed data of shot " + std::to_string(s) + " are " +
                              std::to_string(g.traces.size()) + " samples in " + std::to_string(g.samples) +
                              "-sample traces; expected " + std::to_string(shots[s].receivers.size()) +
                              " receivers x nt = " + std::to_string(sim.time().nt));
        if (std::abs(g.dt_s - sim.time().dt_s) > 1e-9 * sim.time().dt_s)
            throw ConfigError("observed data of shot " + std::to_string(s) + " are sampled at " +
                              std::to_string(g.dt_s) + " s; the experiment at " +
                              std::to_string(sim.time().dt_s) + " s");
    }
    if (options_.batch_shots < 0)
        throw ConfigError("batch size " + std::to_string(options_.batch_shots) + " must be >= 0");
    if (options_.shots_per_iteration < 0)
        throw ConfigError("shots per iteration " + std::to_string(options_.shots_per_iteration) +
                          " must be >= 0");
    if (options_.illumination_interval < 0) throw ConfigError("illumination interval must be >= 0");
    if (!(start_model.grid == sim.propagator().setup().grid))
        throw ConfigError("the starting model's grid differs from the simulation's");
    usable_ = options_.shots;
    if (usable_.empty())
        for (std::size_t s = 0; s < shots.size(); ++s)
            usable_.push_back(int(s));
    for (int s : usable_)
        if (s < 0 || std::size_t(s) >= shots.size())
            throw ConfigError("shot index " + std::to_string(s) + " out of range (0.." +
                              std::to_string(shots.size() - 1) + ")");
    active_ = usable_;
    base_misfit_ = make_misfit(options_.misfit);
    std::vector<const Gather*> used;
    for (int s : usable_)
        used.push_back(&observed_[std::size_t(s)]);
    check_window_keeps_data(options_.misfit.window, used);
    if (options_.lowpass_order < 1 || options_.lowpass_order > 32)
        throw ConfigError("low-pass order " + std::to_string(options_.lowpass_order) + " not in 1..32");
    mask_ = build_mask(start_model, sim.acquisition(), options_.mask);
    GradientPreconditioner check(start_model.grid, {}, {},
                                 options_.preconditioner); // validates the options now
    set_frequency(0);
}

void Objective::set_frequency(double cutoff_hz) {
    if (!(cutoff_hz >= 0) || !std::isfinite(cutoff_hz))
        throw ConfigError("stage cut-off " + std::to_string(cutoff_hz) + " Hz must be >= 0 (0 = unfiltered)");
    cutoff_hz_ = cutoff_hz;
    misfit_ = base_misfit_;
    sim_.set_wavelet(wavelet_);
    if (cutoff_hz == 0) {
        stage_observed_ = observed_;
        return;
    }
    const int order = options_.lowpass_order;
    stage_observed_ = lowpass_gathers(observed_, cutoff_hz, order);
    if (options_.filter_wavelet) {
        sim_.set_wavelet(
            lowpass_rows(wavelet_, 1, std::int64_t(wavelet_.size()), sim_.time().dt_s, cutoff_hz, order));
        return;
    }
    misfit_ = [base = base_misfit_, cutoff_hz, order](const Gather& modelled, const Gather& observed,
                                                      std::vector<float>& adjoint_source) {
        Gather filtered = modelled;
        const auto rows = std::int64_t(modelled.receivers.size());
        filtered.traces =
            lowpass_rows(modelled.traces, rows, modelled.samples, modelled.dt_s, cutoff_hz, order);
        const double j = base(filtered, observed, adjoint_source);
        adjoint_source =
            lowpass_rows(adjoint_source, rows, modelled.samples, modelled.dt_s, cutoff_hz, order);
        return j;
    };
}

Objective::~Objective() {
    try {
        sim_.set_wavelet(wavelet_);
    } catch (...) { // the wavelet was valid when the simulation was made; nothing sensible to do otherwise
    }
}

void Objective::select_shots(int stage, int iteration) {
    active_ = random_shot_subset(usable_, options_.shots_per_iteration, options_.seed, stage, iteration);
}

double Objective::evaluate(const Model& model, std::vector<float>& gradient) {
    const std::size_t cells = std::size_t(model.grid.cells());
    std::vector<double> sum(cells, 0.0);
    double misfit = 0;
    const std::size_t batch = options_.batch_shots > 0 ? std::size_t(options_.batch_shots) : active_.size();
    for (std::size_t first = 0; first < active_.size(); first += batch) {
        GradientOptions opt;
        opt.settings = options_.gradient;
        opt.shots.assign(active_.begin() + std::ptrdiff_t(first),
                         active_.begin() + std::ptrdiff_t(std::min(active_.size(), first + batch)));
        opt.misfit = misfit_;
        opt.observer = observer_;
        opt.cancel = cancel_;
        opt.keep_modelled = false;
        opt.communicator = options_.communicator;
        const GradientResult r = compute_gradient(sim_, model, stage_observed_, opt);
        misfit += r.misfit;
        for (std::size_t i = 0; i < cells; ++i)
            sum[i] += double(r.gradient[i]);
        propagated_shots_ += std::int64_t(opt.shots.size());
    }
    gradient.resize(cells);
    for (std::size_t i = 0; i < cells; ++i)
        gradient[i] = float(sum[i]) * mask_[i];
    ++evaluations_;
    return misfit;
}

ObjectiveFunction Objective::function() {
    return [this](const std::vector<float>& x, std::vector<float>& g) {
        Model m;
        m.grid = sim_.propagator().setup().grid;
        m.vp_mps = x;
        return evaluate(m, g);
    };
}

std::vector<double> Objective::source_illumination(const Model& model) {
    sim_.set_model(model);
    Propagator& p = sim_.propagator();
    const std::int64_t inner_nt = sim_.time().inner_nt;
    const std::int64_t k = options_.illumination_interval > 0 ? options_.illumination_interval
                                                              : std::max<std::int64_t>(1, inner_nt / 100);
    std::vector<double> energy(std::size_t(model.grid.cells()), 0.0);
    std::vector<float> u(energy.size());
    std::unique_ptr<WaveState> state;
    for (int s : usable_) {
        renew_state(p, state);
        while (state->step < inner_nt) {
            if (cancel_) cancel_->checkpoint();
            p.forward(*state, std::min(k, inner_nt - state->step), sim_.geometry(std::size_t(s)),
                      sim_.inner_source(), nullptr, inner_nt);
            p.model_region_wavefield(*state, u);
            for (std::size_t i = 0; i < u.size(); ++i)
                energy[i] += double(u[i]) * u[i];
        }
    }
    return energy;
}

Preconditioner Objective::preconditioner() const {
    auto c = std::make_shared<GradientPreconditioner>(sim_.propagator().setup().grid, mask_, illumination_,
                                                      options_.preconditioner);
    return [c](std::vector<double>& v) { c->apply(v); };
}

} // namespace fwi
