#include "fwi/propagator.hpp"

namespace fwi {

// The old state goes before a new one is made: a run never holds two at once.
void renew_state(const Propagator& p, std::unique_ptr<WaveState>& state) {
    if (state && state->clear()) return;
    state.reset();
    state = p.new_state();
}

void renew_state(const Propagator& p, std::unique_ptr<AdjointState>& adj) {
    if (adj && adj->clear()) return;
    adj.reset();
    adj = p.new_adjoint_state();
}

} // namespace fwi
