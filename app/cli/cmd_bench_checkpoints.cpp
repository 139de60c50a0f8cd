// fwi bench-checkpoints: runs the gradient of one shot of a project under several (schedule, codec) choices
// in one process and tabulates time relative to store-all, peak memory, gradient error against store-all,
// compression ratio, predicted against measured time, and each codec's cost per state on a real mid-run
// wavefield.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/text_file.hpp"
#include "interrupt.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <sstream>

namespace fwi::cli {
namespace {

struct Config {
    std::string schedule, codec;
};

std::vector<Config> parse_configs(const std::string& text) {
    std::vector<Config> out;
    std::stringstream s(text);
    for (std::string item; std::getline(s, item, ';');) {
        if (item.empty()) continue;
        const auto slash = item.find('/');
        if (slash == std::string::npos)
            throw ConfigError("--configs item '" + item + "' is not SCHEDULE/CODEC");
        out.push_back({item.substr(0, slash), item.substr(slash + 1)});
    }
    if (out.empty() || out.front().schedule != "all" || out.front().codec != "none")
        throw ConfigError("--configs must start with all/none (the reference)");
    return out;
}

double relative_error(const std::vector<float>& a, const std::vector<float>& ref) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        num += (double(a[i]) - ref[i]) * (double(a[i]) - ref[i]);
        den += double(ref[i]) * ref[i];
    }
    return den > 0 ? std::sqrt(num / den) : 0;
}

/// Compress + decompress seconds of one whole propagator state, and its ratio, on the state at mid-run.
std::pair<double, double> state_codec_cost(Simulation& sim, int shot, const std::string& spec) {
    Propagator& p = sim.propagator();
    auto state = p.new_state();
    p.forward(*state, sim.time().inner_nt / 2, sim.geometry(std::size_t(shot)), sim.inner_source(), nullptr,
              0);
    state->to_host();
    const auto codec = make_codec(spec);
    double seconds = 0;
    std::uint64_t raw = 0, stored = 0;
    for (const FieldView& f : state->fields()) {
        const CodecTiming t = measure_codec(*codec, f, 3);
        seconds += t.compress_seconds + t.decompress_seconds;
        raw += t.raw_bytes;
        stored += t.compressed_bytes;
    }
    return {seconds, double(raw) / double(std::max<std::uint64_t>(stored, 1))};
}

} // namespace

void add_bench_checkpoints_command(CommandRegistry& r) {
    struct Options {
        std::string project, markdown, scratch, backend = "auto", budget;
        int shot = -1, sampling_interval = 1;
        std::string configs =
            "all/none;uniform:10/none;uniform:40/none;revolve:10/none;revolve:40/none;revolve:160/"
            "none;online:40/none;"
            "multilevel:10,200/none;revolve:40/zstd;revolve:40/lz4;revolve:40/blosc;revolve:40/"
            "zfp-reversible;"
            "revolve:40/zfp-accuracy:1e-6;revolve:40/zfp-accuracy:1e-5;revolve:40/zfp-accuracy:1e-4;"
            "revolve:40/zfp-rate:8;all/zfp-accuracy:1e-5";
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = r.app.add_subcommand(
        "bench-checkpoints", "time, memory and gradient error of checkpoint schedules and codecs");
    cmd->add_option("project", o->project, "project file (.fwi) with observed data")->required();
    cmd->add_option("--configs", o->configs, "SCHEDULE/CODEC items separated by ';', starting with all/none");
    cmd->add_option("--shot", o->shot, "shot to run (default: the middle one)");
    cmd->add_option("--scratch", o->scratch, "directory for the disk tier of multilevel rows")
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--markdown", o->markdown, "also write the table as Markdown to this file");
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->add_option(
        "--budget", o->budget,
        "memory budget RAM[,DISK] of the auto and adaptive rows (the others run unbudgeted, so that "
        "all/none is the store-all reference)");
    cmd->add_option("--sampling-interval", o->sampling_interval, "gradient sampling interval of every row")
        ->check(CLI::Range(1, 1000000));
    cmd->callback([o, cmd, &r] {
        *r.selected = [o, cmd, &r]() -> nlohmann::json {
            const std::vector<Config> configs = parse_configs(o->configs);
            const auto rows_with = [&](std::initializer_list<const char*> schedules) {
                return std::any_of(configs.begin(), configs.end(), [&](const Config& c) {
                    return std::any_of(schedules.begin(), schedules.end(),
                                       [&](const char* name) { return c.schedule.rfind(name, 0) == 0; });
                });
            };
            // Options no row reads would be ignored without a word.
            if (!o->budget.empty() && !rows_with({"auto", "adaptive"}))
                throw ConfigError("--budget is for the auto and adaptive rows; --configs has none");
            if (!o->scratch.empty() && !rows_with({"multilevel", "auto"}))
                throw ConfigError("--scratch is for the multilevel and auto rows; --configs has none");
            check_output_file(o->markdown, "--markdown"); // now, not after every row has run
            Project p = load_project(o->project, ProjectParts{.results = false});
            const Model model = working_model(p.experiment);
            const auto observed = observed_gathers(p);
            auto sim = make_simulation(p.experiment, o->backend);
            sim->set_model(model);
            const int nshots = int(p.experiment.acquisition.shots.size());
            const int shot = cmd->count("--shot") > 0 ? o->shot : nshots / 2;
            if (shot < 0 || shot >= nshots)
                throw ConfigError("--shot " + std::to_string(o->shot) + ": the project has shots 0.." +
                                  std::to_string(nshots - 1));
            const StepCosts costs = measure_step_costs(*sim);

            std::ostringstream md;
            md << "| schedule | codec | time / store-all | recomputed steps | peak RAM | peak disk | "
                  "gradient rel. "
                  "error | ratio | predicted / measured | codec s per state / forward step |\n"
               << "|---|---|---|---|---|---|---|---|---|---|\n";
            nlohmann::json rows = nlohmann::json::array();
            GradientResult reference;
            { // warm-up (first-touch page faults, thread pools, codec libraries): not reported
                GradientOptions warm;
                warm.settings.sampling_interval = o->sampling_interval;
                warm.shots = {shot};
                warm.keep_modelled = false;
                warm.cancel = &interrupt_token();
                compute_gradient(*sim, model, observed, warm);
            }
            for (const Config& c : configs) {
                GradientOptions opt;
                opt.settings.schedule = c.schedule;
                opt.settings.compression = c.codec;
                opt.settings.scratch_dir = o->scratch;
                opt.settings.sampling_interval = o->sampling_interval;
                if (!o->budget.empty() && (c.schedule == "auto" || c.schedule.rfind("adaptive", 0) == 0))
                    apply_budget(opt.settings, o->budget);
                opt.shots = {shot};
                opt.keep_modelled = false;
                opt.cancel = &interrupt_token();
                const GradientResult g = compute_gradient(*sim, model, observed, opt);
                if (rows.empty()) reference = g;
                const double rel_time = g.seconds / reference.seconds;
                const double error = relative_error(g.gradient, reference.gradient);
                const auto tier = [&](std::size_t t) {
                    return t < g.peak_bytes_per_tier.size() ? g.peak_bytes_per_tier[t] : std::uint64_t(0);
                };
                double codec_ratio_to_step = 0;
                if (c.codec != "none")
                    codec_ratio_to_step = state_codec_cost(*sim, shot, c.codec).first / costs.forward_step_s;
                char line[512];
                std::snprintf(
                    line, sizeof line, "| %s | %s | %.2f | %lld | %s | %s | %.1e | %.1f | %.2f | %s |\n",
                    (c.schedule == "auto" ? "auto: " + g.schedule : g.schedule).c_str(), c.codec.c_str(),
                    rel_time, (long long)g.recompute_steps, format_bytes(double(tier(0))).c_str(),
                    tier(1) ? format_bytes(double(tier(1))).c_str() : "-", error, g.compression_ratio,
                    g.predicted_seconds / (g.seconds - g.planning_seconds),
                    c.codec == "none" ? "-" : std::to_string(codec_ratio_to_step).substr(0, 5).c_str());
                md << line;
                if (!r.quiet) std::fprintf(stderr, "%s", line);
                rows.push_back({{"schedule", g.schedule},
                                {"codec", c.codec},
                                {"seconds", g.seconds},
                                {"predicted_seconds", g.predicted_seconds},
                                {"planning_seconds", g.planning_seconds},
                                {"time_vs_store_all", rel_time},
                                {"recompute_steps", g.recompute_steps},
                                {"peak_bytes_per_tier", g.peak_bytes_per_tier},
                                {"gradient_relative_error", error},
                                {"compression_ratio", g.compression_ratio},
                                {"codec_seconds_per_state_over_forward_step", codec_ratio_to_step}});
            }
            if (!o->markdown.empty()) write_text_file(o->markdown, md.str());
            return {{"shot", shot},
                    {"steps", sim->time().inner_nt},
                    {"cells", sim->propagator().padded().cells()},
                    {"forward_step_seconds", costs.forward_step_s},
                    {"adjoint_step_seconds", costs.adjoint_step_s},
                    {"rows", rows}};
        };
    });
}

} // namespace fwi::cli
