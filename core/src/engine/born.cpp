#include "fwi/born.hpp"

namespace fwi {

std::vector<float> born_forward(Simulation& sim, int shot, std::span<const float> dv_mps) {
    // Background u and scattered du step in lockstep; the scattered field's source is dc * B^n
    // (cpu_kernels.hpp).
    Propagator& p = sim.propagator();
    const ShotGeometry& g = sim.geometry(std::size_t(shot));
    const std::int64_t nt = sim.time().inner_nt;
    const auto nrec = std::int64_t(g.receivers.size());
    const std::vector<float> dc = p.padded_velocity_perturbation(dv_mps);
    std::vector<float> snapshot(dc.size()), secondary(dc.size());
    std::vector<float> traces(std::size_t(nrec * nt), 0.0f);
    auto background = p.new_state();
    auto scattered = p.new_state();
    for (std::int64_t n = 0; n < nt; ++n) {
        p.record(*scattered, g, traces.data(), nt);
        p.forward_with_snapshot(*background, g, sim.inner_source(), nullptr, nt, snapshot.data());
        for (std::size_t i = 0; i < dc.size(); ++i)
            secondary[i] = dc[i] * snapshot[i];
        p.forward_scattered(*scattered, secondary.data());
    }
    return sim.to_user_rate(traces, nrec);
}

} // namespace fwi
