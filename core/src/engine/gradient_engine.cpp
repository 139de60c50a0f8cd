#include "fwi/gradient_engine.hpp"

#include "engine/plan_executor.hpp"
#include "fwi/byte_text.hpp"
#include "fwi/error.hpp"
#include "fwi/run_plan.hpp"
#include "runtime/machine_memory.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>

namespace fwi {

double l2_misfit(const Gather& modelled, const Gather& observed, std::vector<float>& adjoint_source) {
    adjoint_source.resize(modelled.traces.size());
    double j = 0;
    for (std::size_t i = 0; i < modelled.traces.size(); ++i) {
        const double r = double(modelled.traces[i]) - double(observed.traces[i]);
        adjoint_source[i] = float(r);
        j += 0.5 * r * r;
    }
    return j;
}

namespace {

/// A distributed gradient reports the job's step and checkpoint counts (summed over the ranks) and the
/// largest rank's peak snapshot bytes (each rank keeps its budget on its own node). Collective.
void add_other_ranks_counts(Communicator& comm, GradientResult& r) {
    std::array<std::int64_t, 6> mine{r.forward_steps,    r.adjoint_steps,
                                     r.recompute_steps,  r.checkpoint_writes,
                                     r.checkpoint_reads, std::int64_t(r.peak_snapshot_bytes)};
    std::vector<std::byte> bytes(sizeof mine);
    std::memcpy(bytes.data(), mine.data(), sizeof mine);
    const auto from_ranks = comm.gather(bytes);
    if (comm.rank() == 0) {
        std::array<std::int64_t, 6> job{};
        for (const auto& b : from_ranks) {
            if (b.size() != sizeof mine) throw ResourceError("a rank's gradient counts arrived truncated");
            std::array<std::int64_t, 6> theirs;
            std::memcpy(theirs.data(), b.data(), sizeof theirs);
            for (std::size_t i = 0; i < 5; ++i)
                job[i] += theirs[i];
            job[5] = std::max(job[5], theirs[5]);
        }
        std::memcpy(bytes.data(), job.data(), sizeof job);
    }
    comm.broadcast(bytes);
    std::memcpy(mine.data(), bytes.data(), sizeof mine);
    r.forward_steps = mine[0];
    r.adjoint_steps = mine[1];
    r.recompute_steps = mine[2];
    r.checkpoint_writes = mine[3];
    r.checkpoint_reads = mine[4];
    r.peak_snapshot_bytes = std::uint64_t(mine[5]);
}

/// With a finite misfit, a gradient value that is not finite can only be an overflow of the float32 fields:
/// the gradient grows with the square of the data's amplitude (a wavelet or observed data near 1e19 and up).
/// It was handed on as NaN (`fwi gradient` wrote it, an inversion stopped as "stationary"). A misfit that is
/// not finite is left to the caller: the line search reads it as "far too large".
void check_gradient_is_finite(const GradientResult& r) {
    if (!std::isfinite(r.misfit)) return;
    if (std::all_of(r.gradient.begin(), r.gradient.end(), [](float g) { return std::isfinite(g); })) return;
    std::ostringstream msg;
    msg << "the gradient is not finite although the misfit is (" << r.misfit
        << "): the data's amplitudes overflow the single-precision wavefields (the gradient grows with their "
           "square); scale the source wavelet and the observed data down";
    throw ConfigError(msg.str());
}

} // namespace

// The observed data are already read; they are checked all the same: they are part of what the process holds.
void check_gradient_trace_memory(const Simulation& sim, bool keep_modelled) {
    const Simulation::TraceBytes bytes = sim.trace_bytes();
    // A shot's modelled traces and adjoint source, each at the inner rate and at the user's
    // (PlanExecutor::begin_reversal).
    const std::uint64_t shot = 2 * (bytes.inner + bytes.shot);
    detail::check_fits_machine_memory(
        (keep_modelled ? 2 : 1) * bytes.data + shot + sim.stencil_bytes(),
        "a gradient of " + std::to_string(sim.acquisition().shots.size()) + " shots holds their traces (" +
            bytes_text(bytes.data) + " of observed data" + (keep_modelled ? " and as much modelled" : "") +
            ", and " + bytes_text(shot) +
            " for one shot's modelled traces and adjoint source) and their stencils (" +
            bytes_text(sim.stencil_bytes()) + ")");
}

GradientResult compute_gradient(Simulation& sim, const Model& model, const std::vector<Gather>& observed,
                                const GradientOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t nshots = sim.acquisition().shots.size();
    if (observed.size() != nshots)
        throw ConfigError("observed data has " + std::to_string(observed.size()) +
                          " shots; the acquisition has " + std::to_string(nshots));
    for (std::size_t s = 0; s < nshots; ++s) {
        const auto expected = sim.acquisition().shots[s].receivers.size() * std::size_t(sim.time().nt);
        if (observed[s].traces.size() != expected)
            throw ConfigError("observed data of shot " + std::to_string(s) + " has " +
                              std::to_string(observed[s].traces.size()) + " samples; expected " +
                              std::to_string(expected) + " (receivers x nt)");
    }
    check_sampling_interval(sim, options.settings.sampling_interval);
    check_gradient_trace_memory(sim, options.keep_modelled);
    sim.set_model(model);

    std::vector<int> shots = options.shots;
    if (shots.empty())
        for (std::size_t s = 0; s < nshots; ++s)
            shots.push_back(int(s));

    for (std::size_t i = 0; i < shots.size(); ++i) {
        if (shots[i] < 0 || std::size_t(shots[i]) >= nshots)
            throw ConfigError("shot index " + std::to_string(shots[i]) + " out of range");
        if (std::find(shots.begin(), shots.begin() + std::ptrdiff_t(i), shots[i]) !=
            shots.begin() + std::ptrdiff_t(i))
            throw ConfigError("shot " + std::to_string(shots[i]) +
                              " is named twice (its misfit and gradient would count twice)");
    }

    SerialCommunicator alone;
    Communicator& comm = options.communicator ? *options.communicator : alone;
    // Every shot propagates on the same grid for the same steps: equal predicted costs (cells x steps).
    const double shot_cost = double(sim.propagator().setup().grid.cells()) * double(sim.time().inner_nt);
    const std::vector<int> owner =
        split_shots_by_cost(std::vector<double>(shots.size(), shot_cost), comm.size());

    PlanExecutor executor(sim, options, t0);
    GradientResult result;
    result.planning_seconds = executor.planning_seconds();
    const std::size_t cells = std::size_t(model.grid.cells());
    ShotSum sum{0, std::vector<float>(cells, 0.0f)};
    std::vector<ShotContribution> mine; // distributed: kept until the reduction
    for (std::size_t k = 0; k < shots.size(); ++k) {
        if (owner[k] != comm.rank()) continue;
        const int s = shots[k];
        ShotOutcome shot = executor.run_shot(s, observed[std::size_t(s)]);
        if (options.keep_modelled) result.modelled.push_back(std::move(shot.modelled));
        ShotContribution c{std::int64_t(k), shot.misfit, std::vector<float>(cells, 0.0f)};
        sim.propagator().take_velocity_gradient(c.gradient);
        if (comm.size() > 1) {
            mine.push_back(std::move(c));
            continue;
        }
        add_shot_contribution(sum, c);
        if (options.observer && options.observer->wants_field(FieldKind::Gradient, 0))
            options.observer->on_field(FieldKind::Gradient, 0,
                                       {sum.gradient.data(), model.grid.rows(), model.grid.nx()});
    }
    if (comm.size() > 1) sum = reduce_in_shot_order(comm, mine, std::move(sum));
    result.misfit = sum.misfit;
    result.gradient = std::move(sum.gradient);
    executor.fill(result);
    learn_from_run(sim, options.settings.compression, executor.measurement());
    if (comm.size() > 1) add_other_ranks_counts(comm, result);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    check_gradient_is_finite(result);
    return result;
}

} // namespace fwi
