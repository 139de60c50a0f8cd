#pragma once
// Born data through a propagator's own calls, for both ranks: the scattered field driven by dc * B^n, with
// the background's snapshots, recorded at the start of each step (as fwi's born modelling does).
#include "fwi/propagator.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace fwi::test {

/// Born traces (receivers x nt) of dv (model cells) around p's model.
inline std::vector<float> born_traces(Propagator& p, const ShotGeometry& geometry,
                                      std::span<const float> source, std::int64_t nt,
                                      const std::vector<float>& dv) {
    const std::vector<float> dc = p.padded_velocity_perturbation(dv);
    std::vector<float> snapshot(dc.size()), secondary(dc.size());
    std::vector<float> traces(geometry.receivers.size() * std::size_t(nt), 0.0f);
    auto background = p.new_state(), scattered = p.new_state();
    for (std::int64_t n = 0; n < nt; ++n) {
        p.record(*scattered, geometry, traces.data(), nt);
        p.forward_with_snapshot(*background, geometry, source, nullptr, nt, snapshot.data());
        for (std::size_t i = 0; i < dc.size(); ++i)
            secondary[i] = dc[i] * snapshot[i];
        p.forward_scattered(*scattered, secondary.data());
    }
    return traces;
}

} // namespace fwi::test
