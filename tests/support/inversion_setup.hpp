#pragma once
// A small synthetic inversion shared by the inversion tests: a circular anomaly (smooth edge) in a constant
// background, 40 x 60 cells at 10 m, 4 sources along the top and receivers along the top and the bottom
// (transmission through the anomaly makes the problem converge in a few iterations). Observed data are
// modelled from the true model (inverse crime: the tests check the optimisation, not the physics).
#include "fwi/inversion.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/simulation.hpp"

namespace fwi::test {

struct SmallInversion {
    Model truth, start;
    Acquisition acquisition;
    PropagationSettings propagation;
    std::vector<Gather> observed;
};

inline SmallInversion small_inversion(int shots = 4) {
    SmallInversion s;
    s.truth = circle_anomaly_model(40, 60, 10, 10, 2000, 2300, 300, 200, 90, 40);
    s.start = circle_anomaly_model(40, 60, 10, 10, 2000, 2000, 300, 200, 90, 0); // the background alone
    std::vector<Point> receivers = line_of_points(24, 20, 570, 20);
    for (const auto& p : line_of_points(24, 20, 570, 370))
        receivers.push_back(p);
    for (const auto& src : line_of_points(shots, 60, 540, 30))
        s.acquisition.shots.push_back({src, receivers});
    s.propagation.order = 4;
    s.propagation.pml_width = 12;
    s.propagation.freq_hz = 15;
    s.propagation.dt_s = 0.002;
    s.propagation.nt = 250;
    Simulation sim(s.truth.grid, s.acquisition, s.propagation, 2600, "cpu");
    sim.set_model(s.truth);
    s.observed = sim.forward();
    return s;
}

inline InversionSetup small_setup(const SmallInversion& s, int iterations) {
    InversionSetup setup;
    setup.initial_model = s.start;
    setup.true_model = s.truth;
    setup.acquisition = s.acquisition;
    setup.propagation = s.propagation;
    setup.observed = s.observed;
    setup.stages = make_stages({}, iterations);
    setup.optimizer.lower_bound = 1500;
    setup.optimizer.upper_bound = 2600;
    setup.optimizer.max_evaluations_per_search = 6;
    setup.reference_velocity_mps = 2600;
    setup.backend = "cpu";
    return setup;
}

} // namespace fwi::test
