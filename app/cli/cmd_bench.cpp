// fwi bench: propagator throughput (cell-updates per second) for forward and adjoint steps at each order, or,
// with --codecs, each codec's cost per propagator state against one forward step; --dims 3 measures a 3D
// propagator (--backend) against the host's DRAM roofline.
#include "commands.hpp"
#include "fwi/benchmark.hpp"
#include "fwi/benchmark_3d.hpp"
#include "fwi/codec_benchmark.hpp"
#include "fwi/error.hpp"
#include "fwi/propagator.hpp"
#include "fwi/text_file.hpp"
#include "interrupt.hpp"

#include <cstdio>
#include <memory>
#include <sstream>

namespace fwi::cli {
namespace {

struct Options {
    std::int64_t nz = 1000, nx = 1000, steps = 200;
    std::vector<int> orders{2, 4, 6, 8};
    int shots = 1, pml = 20;
    std::string backend = "auto";
    std::vector<std::string> codecs;
    std::vector<int> codec_threads{1, 2};
    std::int64_t wavefield_steps = 600, pulse_spacing = 0;
    int repeats = 3;
    std::string markdown;
    int dims = 2;
    std::int64_t ny = 0; ///< 3D only
    bool nz_given = false, ny_given = false, nx_given = false, steps_given = false;
};

nlohmann::json throughput(const Options& o, bool quiet) {
    nlohmann::json rows = nlohmann::json::array();
    nlohmann::json summary;
    if (!quiet)
        std::fprintf(stderr, "%-6s %-14s %16s %16s %16s\n", "order", "grid", "forward", "fwd+snapshot",
                     "adjoint");
    for (int order : o.orders) {
        BenchCase b{o.nz, o.nx, order, o.pml, o.steps, o.shots, o.backend, &interrupt_token()};
        const BenchResult res = run_benchmark(b);
        if (!quiet)
            std::fprintf(stderr, "%-6d %5lldx%-8lld %12.1f M/s %12.1f M/s %12.1f M/s\n", order,
                         (long long)o.nz, (long long)o.nx, res.forward_cell_updates_per_s / 1e6,
                         res.forward_snapshot_cell_updates_per_s / 1e6, res.adjoint_cell_updates_per_s / 1e6);
        rows.push_back({{"order", order},
                        {"forward_cell_updates_per_s", res.forward_cell_updates_per_s},
                        {"forward_snapshot_cell_updates_per_s", res.forward_snapshot_cell_updates_per_s},
                        {"adjoint_cell_updates_per_s", res.adjoint_cell_updates_per_s},
                        {"cells_per_step", res.cells_per_step}});
        summary["device"] = res.device;
        // The headline figures are those of the last (highest) order measured.
        summary["forward_cell_updates_per_s"] = res.forward_cell_updates_per_s;
        summary["adjoint_cell_updates_per_s"] = res.adjoint_cell_updates_per_s;
    }
    summary["nz"] = o.nz;
    summary["nx"] = o.nx;
    summary["steps"] = o.steps;
    summary["shots"] = o.shots;
    summary["orders"] = rows;
    return summary;
}

/// --dims 3: a cube of 256 cells per axis and 20 steps unless --nz/--ny/--nx/--steps say otherwise.
nlohmann::json throughput_3d(const Options& o, bool quiet) {
    Bench3DCase b;
    if (o.nz_given) b.nz = o.nz;
    if (o.nx_given) b.nx = o.nx;
    b.ny = o.ny_given ? o.ny : b.nx;
    b.pml_width = o.pml;
    b.steps = o.steps_given ? o.steps : 20;
    b.repeats = o.repeats;
    b.cancel = &interrupt_token();
    // The roofline is the host's DRAM: a CUDA row's percentage is of the CPU's roofline, for scale only.
    b.backend = o.backend;
    const double bandwidth = measure_triad_bandwidth();
    const double roofline = bandwidth / 16.0;
    if (!quiet)
        std::fprintf(stderr, "backend %s: %s\n", b.backend.c_str(), backend_device_name(b.backend).c_str());
    if (!quiet)
        std::fprintf(stderr,
                     "triad bandwidth %.1f GB/s -> DRAM roofline %.0f M cell-updates/s at 16 bytes per cell\n"
                     "%-6s %-16s %14s %8s %18s %8s\n",
                     bandwidth / 1e9, roofline / 1e6, "order", "grid", "forward", "roof", "adjoint+gradient",
                     "roof");
    nlohmann::json rows = nlohmann::json::array();
    for (int order : o.orders) {
        b.order = order;
        const Bench3DResult r = run_benchmark_3d(b);
        if (!quiet)
            std::fprintf(stderr, "%-6d %4lldx%4lldx%-6lld %10.1f M/s %7.0f%% %14.1f M/s %7.0f%%\n", order,
                         (long long)b.nz, (long long)b.ny, (long long)b.nx,
                         r.forward_cell_updates_per_s / 1e6, 100 * r.forward_cell_updates_per_s / roofline,
                         r.adjoint_cell_updates_per_s / 1e6, 100 * r.adjoint_cell_updates_per_s / roofline);
        rows.push_back({{"order", order},
                        {"forward_cell_updates_per_s", r.forward_cell_updates_per_s},
                        {"adjoint_cell_updates_per_s", r.adjoint_cell_updates_per_s},
                        {"forward_fraction_of_roofline", r.forward_cell_updates_per_s / roofline},
                        {"adjoint_fraction_of_roofline", r.adjoint_cell_updates_per_s / roofline},
                        {"cells_per_step", r.cells_per_step}});
    }
    return {{"dims", 3},
            {"backend", b.backend},
            {"device", backend_device_name(b.backend)},
            {"nz", b.nz},
            {"ny", b.ny},
            {"nx", b.nx},
            {"pml", b.pml_width},
            {"steps", b.steps},
            {"repeats", b.repeats},
            {"triad_bytes_per_s", bandwidth},
            {"roofline_cell_updates_per_s", roofline},
            {"orders", rows}};
}

std::string codec_table_markdown(const CodecBenchResult& res) {
    std::ostringstream md;
    char line[512];
    md << "| codec | threads | compress | decompress | ratio | compress GB/s | decompress GB/s | "
          "(compress + decompress) / forward step | max error |\n|---|---|---|---|---|---|---|---|---|\n";
    const double gb = double(res.state_bytes) / 1e9;
    for (const auto& row : res.rows) {
        std::snprintf(line, sizeof line,
                      "| %s | %d | %.1f ms | %.1f ms | %.2f | %.2f | %.2f | %.2f | %.1e |\n",
                      row.codec.c_str(), row.threads, row.compress_s * 1e3, row.decompress_s * 1e3, row.ratio,
                      gb / row.compress_s, gb / row.decompress_s, row.cost_in_steps, row.max_abs_error);
        md << line;
    }
    return md.str();
}

nlohmann::json codec_costs(const Options& o, bool quiet) {
    CodecBenchCase b;
    b.nz = o.nz;
    b.nx = o.nx;
    b.order = o.orders.empty() ? 8 : o.orders.back();
    b.pml_width = o.pml;
    b.steps = o.wavefield_steps;
    b.pulse_spacing = o.pulse_spacing;
    b.codecs = o.codecs;
    b.threads = o.codec_threads;
    b.repeats = o.repeats;
    b.backend = o.backend == "auto" ? "cpu" : o.backend; // codecs run on the host
    b.cancel = &interrupt_token();
    const CodecBenchResult res = run_codec_benchmark(b);
    const double mb = double(res.state_bytes) / 1e6;
    if (!quiet) {
        std::fprintf(
            stderr,
            "state: %d fields, %.1f MB raw (%lldx%lld model, order %d, %lld cells per step); wavefield "
            "after %lld steps, %.0f%% quiet cells (|u| < 1e-6 of the peak)\n",
            res.fields, mb, (long long)o.nz, (long long)o.nx, b.order, (long long)res.cells_per_step,
            (long long)b.steps, 100 * res.quiet_fraction);
        for (std::size_t k = 0; k < res.step_threads.size(); ++k)
            std::fprintf(stderr, "forward step, %d thread%s: %.2f ms (%.1f GB/s at 16 bytes per cell)\n",
                         res.step_threads[k], res.step_threads[k] == 1 ? "" : "s", res.step_s[k] * 1e3,
                         16.0 * double(res.cells_per_step) / res.step_s[k] / 1e9);
        std::fprintf(stderr, "%-20s %7s %11s %11s %7s %10s %10s %12s %9s\n", "codec", "threads", "compress",
                     "decompress", "ratio", "comp GB/s", "dec GB/s", "cost (steps)", "max error");
        for (const auto& row : res.rows)
            std::fprintf(stderr, "%-20s %7d %8.1f ms %8.1f ms %7.2f %10.2f %10.2f %12.2f %9.1e\n",
                         row.codec.c_str(), row.threads, row.compress_s * 1e3, row.decompress_s * 1e3,
                         row.ratio, mb / 1e3 / row.compress_s, mb / 1e3 / row.decompress_s, row.cost_in_steps,
                         row.max_abs_error);
    }
    if (!o.markdown.empty()) write_text_file(o.markdown, codec_table_markdown(res));
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : res.rows)
        rows.push_back({{"codec", row.codec},
                        {"threads", row.threads},
                        {"compress_seconds", row.compress_s},
                        {"decompress_seconds", row.decompress_s},
                        {"ratio", row.ratio},
                        {"max_abs_error", row.max_abs_error},
                        {"cost_in_forward_steps", row.cost_in_steps}});
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t k = 0; k < res.step_threads.size(); ++k)
        steps.push_back({{"threads", res.step_threads[k]}, {"seconds", res.step_s[k]}});
    return {{"device", res.device},
            {"nz", o.nz},
            {"nx", o.nx},
            {"order", b.order},
            {"state_bytes", res.state_bytes},
            {"fields", res.fields},
            {"wavefield_steps", b.steps},
            {"quiet_fraction", res.quiet_fraction},
            {"forward_step", steps},
            {"codecs", rows}};
}

} // namespace

void add_bench_command(CommandRegistry& r) {
    auto o = std::make_shared<Options>();
    CLI::App* cmd = r.app.add_subcommand(
        "bench", "measure forward and adjoint cell-updates per second, or (--codecs) codec cost per state");
    cmd->add_option("--nz", o->nz, "grid cells in z")->check(CLI::Range(8, 100000));
    cmd->add_option("--nx", o->nx, "grid cells in x")->check(CLI::Range(8, 100000));
    cmd->add_option("--steps", o->steps, "time steps per measurement")->check(CLI::Range(1, 1000000));
    cmd->add_option("--orders", o->orders, "spatial orders to measure (--codecs: the last one)")
        ->delimiter(',');
    cmd->add_option("--shots", o->shots, "shots per measurement")->check(CLI::Range(1, 1000));
    cmd->add_option("--pml", o->pml, "PML width in cells")->check(CLI::Range(0, 1000));
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->add_option(
           "--codecs", o->codecs,
           "instead: compress and decompress one propagator state with these codecs (comma-separated "
           "specs) and compare with one forward step")
        ->delimiter(',');
    cmd->add_option("--codec-threads", o->codec_threads,
                    "--codecs: OpenMP thread counts to measure (default 1,2)")
        ->delimiter(',')
        ->check(CLI::Range(1, 4096));
    cmd->add_option("--wavefield-steps", o->wavefield_steps,
                    "--codecs: steps that make the wavefield (default 600)")
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--pulse-spacing", o->pulse_spacing,
                    "--codecs: cells between the wavefield's initial pulses (default: wavefield steps / 2)")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--repeats", o->repeats,
                    "--codecs: round trips per codec, field and thread count (median)")
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--markdown", o->markdown, "--codecs: also write the table as Markdown to this file");
    cmd->add_option("--dims", o->dims,
                    "2 (default) or 3: the 3D propagator of --backend against the host's DRAM roofline "
                    "(256 cells per axis and 20 steps unless --nz/--ny/--nx/--steps are given; --repeats "
                    "rounds, the fastest counts)")
        ->check(CLI::IsMember({2, 3}));
    cmd->add_option("--ny", o->ny, "--dims 3: grid cells in y (default: as x)")->check(CLI::Range(8, 100000));
    // Options of one mode mean nothing in another: refused rather than ignored.
    for (const char* option : {"--codec-threads", "--wavefield-steps", "--pulse-spacing", "--markdown"})
        cmd->get_option(option)->needs(cmd->get_option("--codecs"));
    cmd->get_option("--ny")->needs(cmd->get_option("--dims"));
    cmd->callback([o, &r, cmd] {
        o->nz_given = cmd->count("--nz") > 0;
        o->ny_given = cmd->count("--ny") > 0;
        o->nx_given = cmd->count("--nx") > 0;
        o->steps_given = cmd->count("--steps") > 0;
        *r.selected = [o, &r]() -> nlohmann::json {
            if (o->dims == 3 && !o->codecs.empty())
                throw ConfigError("--codecs measures 2D states; drop --dims 3");
            if (o->dims == 3) return throughput_3d(*o, r.quiet);
            return o->codecs.empty() ? throughput(*o, r.quiet) : codec_costs(*o, r.quiet);
        };
    });
}

} // namespace fwi::cli
