// fwi bench: propagator throughput (cell-updates per second) for forward and adjoint steps at each order.
#include "commands.hpp"
#include "fwi/benchmark.hpp"
#include "fwi/error.hpp"
#include "interrupt.hpp"

#include <cstdio>
#include <memory>

namespace fwi::cli {

void add_bench_command(CommandRegistry& r) {
    struct Options {
        std::int64_t nz = 1000, nx = 1000, steps = 200;
        std::vector<int> orders{2, 4, 6, 8};
        int shots = 1, pml = 20;
        std::string backend = "auto";
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = r.app.add_subcommand("bench", "measure forward and adjoint cell-updates per second");
    cmd->add_option("--nz", o->nz, "grid cells in z")->check(CLI::Range(8, 100000));
    cmd->add_option("--nx", o->nx, "grid cells in x")->check(CLI::Range(8, 100000));
    cmd->add_option("--steps", o->steps, "time steps per measurement")->check(CLI::Range(1, 1000000));
    cmd->add_option("--orders", o->orders, "spatial orders to measure")->delimiter(',');
    cmd->add_option("--shots", o->shots, "shots per measurement")->check(CLI::Range(1, 1000));
    cmd->add_option("--pml", o->pml, "PML width in cells")->check(CLI::Range(0, 1000));
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->callback([o, &r] {
        *r.selected = [o, &r]() -> nlohmann::json {
            nlohmann::json rows = nlohmann::json::array();
            nlohmann::json summary;
            if (!r.quiet)
                std::fprintf(stderr, "%-6s %-14s %16s %16s %16s\n", "order", "grid", "forward",
                             "fwd+snapshot", "adjoint");
            for (int order : o->orders) {
                BenchCase b{o->nz, o->nx, order, o->pml, o->steps, o->shots, o->backend, &interrupt_token()};
                const BenchResult res = run_benchmark(b);
                if (!r.quiet)
                    std::fprintf(stderr, "%-6d %5lldx%-8lld %12.1f M/s %12.1f M/s %12.1f M/s\n", order,
                                 (long long)o->nz, (long long)o->nx, res.forward_cell_updates_per_s / 1e6,
                                 res.forward_snapshot_cell_updates_per_s / 1e6,
                                 res.adjoint_cell_updates_per_s / 1e6);
                rows.push_back(
                    {{"order", order},
                     {"forward_cell_updates_per_s", res.forward_cell_updates_per_s},
                     {"forward_snapshot_cell_updates_per_s", res.forward_snapshot_cell_updates_per_s},
                     {"adjoint_cell_updates_per_s", res.adjoint_cell_updates_per_s},
                     {"cells_per_step", res.cells_per_step}});
                summary["device"] = res.device;
                // The headline figures are those of the last (highest) order measured.
                summary["forward_cell_updates_per_s"] = res.forward_cell_updates_per_s;
                summary["adjoint_cell_updates_per_s"] = res.adjoint_cell_updates_per_s;
            }
            summary["nz"] = o->nz;
            summary["nx"] = o->nx;
            summary["steps"] = o->steps;
            summary["shots"] = o->shots;
            summary["orders"] = rows;
            return summary;
        };
    });
}

} // namespace fwi::cli
