// fwi taylor: Taylor test of the gradient on a project (slope 1 for the misfit change, slope 2 once the
// gradient's first-order term is removed). Exits 1 when the slopes are off.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/taylor_test.hpp"
#include "interrupt.hpp"
#include "job.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

namespace fwi::cli {

void add_taylor_command(CommandRegistry& r) {
    struct Options {
        std::string project, backend = "auto";
        std::vector<int> shots;
        int levels = 6;
        double h0 = 0.5, change_mps = 100;
        GradientSettings settings;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd =
        r.app.add_subcommand("taylor", "Taylor test of the gradient on a project (slopes 1 and 2)");
    cmd->add_option("project", o->project, "project file (.fwi) with observed data")->required();
    cmd->add_option("--shots", o->shots, "shots to use (default: all)")->delimiter(',');
    cmd->add_option("--levels", o->levels, "number of step sizes h0, h0/2, ...")->check(CLI::Range(2, 30));
    cmd->add_option("--h0", o->h0, "largest step size (at most 1)")->check(CLI::PositiveNumber);
    cmd->add_option("--change", o->change_mps,
                    "largest velocity change of the direction at h = 1 (m/s; at most the span from half the "
                    "slowest velocity to the reference velocity)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--schedule", o->settings.schedule, "checkpoint schedule for the gradient");
    cmd->add_option("--compress", o->settings.compression, "codec for the gradient's checkpoints");
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->callback([o, &r] {
        *r.selected = [o, &r]() -> nlohmann::json {
            if (!(o->change_mps > 0) || !std::isfinite(o->change_mps))
                throw ConfigError("--change " + std::to_string(o->change_mps) +
                                  " m/s: give a positive velocity change");
            // The direction keeps every velocity between half the slowest and the CFL reference at h = 1 (and
            // so at every h in (0, 1]); a larger step left that range (1e300 made -inf velocities).
            if (!(o->h0 <= 1)) {
                std::ostringstream msg;
                msg << "--h0 " << o->h0
                    << ": at most 1 (the direction's velocities stay in the model's range up to h = 1)";
                throw ConfigError(msg.str());
            }
            Project p = load_project(o->project, ProjectParts{.results = false});
            const Model m = working_model(p.experiment);
            const auto observed = observed_gathers(p);
            auto sim = make_simulation(p.experiment, o->backend);
            const double vmin = 0.5 * double(m.min_velocity()),
                         vmax = sim->propagator().setup().pml_velocity_mps;
            // A change beyond the range the direction may take clips it at the range's ends almost
            // everywhere: the test then probes a far-from-linear step of another direction and fails (1e9
            // did).
            if (o->change_mps > vmax - vmin) {
                std::ostringstream msg;
                msg << "--change " << o->change_mps << " m/s: at most " << vmax - vmin
                    << " m/s, the range the direction's velocities stay in (from half the slowest velocity, "
                    << vmin << " m/s, to the reference velocity of the time step, " << vmax << " m/s)";
                throw ConfigError(msg.str());
            }
            GradientOptions opt;
            opt.settings = o->settings;
            opt.shots = o->shots;
            opt.keep_modelled = false;
            opt.communicator = &job();
            opt.cancel = &interrupt_token();
            // The direction: the gradient itself (the first-order term is then as large as it can be), kept
            // inside the CFL reference velocity.
            const GradientResult g = compute_gradient(*sim, m, observed, opt);
            const auto dm = taylor_direction(g.gradient, m, o->change_mps, vmin, vmax);
            std::vector<double> hs;
            for (int i = 0; i < o->levels; ++i)
                hs.push_back(o->h0 / std::pow(2.0, i));
            const TaylorResult t = taylor_test(*sim, m, observed, dm, hs, opt);
            const bool passed = std::abs(t.slope1 - 1) < 0.15 && std::abs(t.slope2 - 2) < 0.25;
            if (!r.quiet) {
                std::fprintf(stderr, "%12s %16s %20s\n", "h", "|dJ|", "|dJ - h <g,dm>|");
                for (std::size_t i = 0; i < t.h.size(); ++i)
                    std::fprintf(stderr, "%12.4e %16.6e %20.6e\n", t.h[i], t.first_order[i],
                                 t.second_order[i]);
                std::fprintf(stderr, "slopes: %.3f (expect 1), %.3f (expect 2): %s\n", t.slope1, t.slope2,
                             passed ? "passed" : "FAILED");
            }
            nlohmann::json j{{"misfit", t.misfit},
                             {"directional_derivative", t.directional_derivative},
                             {"h", t.h},
                             {"first_order", t.first_order},
                             {"second_order", t.second_order},
                             {"slope1", t.slope1},
                             {"slope2", t.slope2},
                             {"passed", passed}};
            if (!passed) {
                if (r.json) std::printf("%s\n", j.dump().c_str());
                throw Error("Taylor test failed: slopes " + std::to_string(t.slope1) + " and " +
                            std::to_string(t.slope2) + " (expected 1 and 2)");
            }
            return j;
        };
    });
}

} // namespace fwi::cli
