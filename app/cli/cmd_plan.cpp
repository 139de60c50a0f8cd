// fwi plan: the performance model's table of checkpoint schedules x codecs for a project, calibrated on this
// machine (a few propagator steps, each codec on a synthetic wavefield), and the choice "auto" would make.
#include "cli_common.hpp"
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/run_plan.hpp"
#include "job.hpp"
#include "plan_sweep_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace fwi::cli {
namespace {

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream s(text);
    for (std::string part; std::getline(s, part, ';');)
        if (!part.empty()) parts.push_back(part);
    return parts;
}

std::string peak_text(const PlanRow& row, std::size_t tier) {
    return tier < row.peak_bytes.size() && row.peak_bytes[tier] > 0
               ? format_bytes(double(row.peak_bytes[tier]))
               : "-";
}

void print_table(const std::vector<PlanRow>& rows, const StepCosts& costs, std::int64_t steps, int shots) {
    std::printf("%lld inner steps per shot, %d shots; forward %.3g ms/step (%.3g recomputed), adjoint %.3g "
                "ms/step, shot set-up %.3g ms; state %s, snapshot %s\n",
                (long long)steps, shots, costs.forward_step_s * 1e3, costs.recompute_price() * 1e3,
                costs.adjoint_step_s * 1e3, costs.shot_setup_s * 1e3,
                format_bytes(double(costs.state_bytes)).c_str(),
                format_bytes(double(costs.snapshot_bytes)).c_str());
    std::printf("%-22s %-20s %6s %6s %11s %9s %11s %11s %5s\n", "schedule", "codec", "ram", "disk",
                "time/shot", "vs all", "peak RAM", "peak disk", "fits");
    bool probed = false;
    for (const PlanRow& r : rows) {
        const bool only_if = r.fits_only_at_probed_ratio;
        probed = probed || only_if;
        std::printf("%-22s %-20s %6lld %6lld %10.3gs %8.2fx %11s %11s %5s\n", r.schedule.c_str(),
                    r.codec.c_str(), (long long)r.ram_slots, (long long)r.disk_slots, r.predicted_s,
                    r.speedup_vs_store_all, peak_text(r, 0).c_str(), peak_text(r, 1).c_str(),
                    only_if         ? "yes*"
                    : r.fits_budget ? "yes"
                                    : "no");
    }
    if (probed)
        std::printf("* fits if the run's data compress as the probe's did; the run stores what they really "
                    "compress to and stops when that exceeds the budget (--schedule auto sizes such codecs' "
                    "slots uncompressed, so its choice surely fits)\n");
}

nlohmann::json sweep(Simulation& sim, const Project& p, const StepCosts& costs, std::string specs,
                     const GradientSettings& current, const std::string& budgets,
                     const std::string& plot_path, const std::string& project_path, bool print) {
    if (specs.empty()) specs = "zstd;lz4;zfp-accuracy:1e-4;zfp-rate:16";
    std::vector<std::string> names = split_list(specs);
    int current_curve = -1; // the project's own codec always has its curve
    if (current.compression != "none") {
        auto it = std::find(names.begin(), names.end(), current.compression);
        if (it == names.end()) it = names.insert(names.end(), current.compression);
        current_curve = int(it - names.begin());
    }
    SweepRequest request;
    request.uncompressed = calibrated_codec(sim, "none");
    request.codecs = calibrated_codecs(sim, names, costs); // one propagation of the run's fields for all
    if (request.codecs.empty()) throw ConfigError("--codecs names no codec");
    const PlanRequest plan = make_plan_request(sim, current, costs, {request.uncompressed});
    request.steps = plan.steps;
    request.costs = plan.costs;
    nlohmann::json j =
        plan_sweep_report(request, {project_path, budgets, plot_path, current, current_curve, print});
    j["shots"] = p.experiment.acquisition.shots.size();
    return j;
}

/// The project's settings (its budget and codec are the sweep's marked point), with --budget and
/// --sampling-interval applied when given.
GradientSettings current_settings(const Project& p, const std::string& budget, const CLI::Option* interval,
                                  int sampling_interval) {
    GradientSettings g = p.experiment.gradient;
    if (!budget.empty()) apply_budget(g, budget);
    if (interval->count() > 0) g.sampling_interval = sampling_interval;
    if (g.compression.empty()) g.compression = "none";
    return g;
}

} // namespace

void add_plan_command(CommandRegistry& r) {
    struct Options {
        std::string project, budget, backend = "auto";
        std::string codecs = "none;zstd;lz4;blosc;zfp-accuracy:1e-5;zfp-rate:8";
        GradientSettings settings;
        bool sweep = false;
        std::string sweep_budgets, plot;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd =
        r.app.add_subcommand("plan", "predict time and memory of checkpoint schedules and codecs");
    cmd->add_option("project", o->project, "project file (.fwi)")->required();
    cmd->add_option("--budget", o->budget,
                    "memory budget BYTES[,DISK_BYTES] (e.g. 2G or 512M,20G); a disk budget "
                    "adds multilevel rows");
    cmd->add_option("--scratch", o->settings.scratch_dir,
                    "directory for the disk tier (adds multilevel rows)")
        ->check(CLI::ExistingDirectory);
    CLI::Option* codecs_option = cmd->add_option(
        "--codecs", o->codecs,
        "codecs to compare, separated by ';' (--sweep default: zstd;lz4;zfp-accuracy:1e-4;zfp-rate:16)");
    CLI::Option* interval_option = cmd->add_option("--sampling-interval", o->settings.sampling_interval,
                                                   "gradient sampling interval (inner steps)")
                                       ->check(CLI::Range(1, 1000000));
    cmd->add_flag("--sweep", o->sweep,
                  "predicted speed-up of Revolve + each codec over Revolve alone across memory budgets "
                  "(Kukreja et al., Fig. 15), the project's budget and codec marked");
    cmd->add_option(
        "--sweep-budgets", o->sweep_budgets,
        "--sweep: budgets BYTES separated by ',' (default 16, log-spaced, from two checkpoints to "
        "every state stored)");
    cmd->add_option("--plot", o->plot, "--sweep: draw the speed-up curves in FILE (.png or .svg)");
    cmd->add_option("--backend", o->backend, "cpu | cuda | auto");
    cmd->callback([o, &r, codecs_option, interval_option] {
        *r.selected = [o, &r, codecs_option, interval_option]() -> nlohmann::json {
            if ((!o->plot.empty() || !o->sweep_budgets.empty()) && !o->sweep)
                throw ConfigError("--plot and --sweep-budgets go with --sweep");
            check_picture_name(o->plot, "--plot"); // now, not after the sweep
            Project p = load_project(
                o->project, ProjectParts{.observed = false, .results = false}); // planning reads no traces
            GradientSettings settings = o->settings;
            if (!o->budget.empty()) apply_budget(settings, o->budget);
            auto sim = make_simulation(p.experiment, o->backend);
            sim->set_model(working_model(p.experiment));
            const StepCosts costs = measure_step_costs(*sim);
            if (o->sweep)
                return sweep(*sim, p, costs, codecs_option->count() > 0 ? o->codecs : std::string(),
                             current_settings(p, o->budget, interval_option, o->settings.sampling_interval),
                             o->sweep_budgets, writes_outputs() ? o->plot : std::string(), o->project,
                             !r.json && writes_outputs());
            const std::vector<CodecEstimate> codecs = calibrated_codecs(*sim, split_list(o->codecs), costs);
            if (codecs.empty()) throw ConfigError("--codecs names no codec");
            const PlanRequest request = make_plan_request(*sim, settings, costs, codecs);
            const std::vector<PlanRow> rows = plan_table(request);
            const int shots = int(p.experiment.acquisition.shots.size());

            // What --schedule auto would run: slots sized for data-independent ratios only (see
            // run_plan.hpp).
            nlohmann::json auto_choice;
            try {
                settings.schedule = "auto";
                settings.compression = codecs.front().codec;
                const ResolvedPlan chosen = resolve_plan(*sim, settings);
                auto_choice = {{"schedule", chosen.schedule},
                               {"codec", settings.compression},
                               {"predicted_seconds_per_shot", chosen.prediction.total_s}};
            } catch (const ResourceError& e) {
                auto_choice = {{"error", e.what()}};
            }
            // The disk tier's costs as measured in the scratch directory (make_plan_request).
            nlohmann::json disk_tier;
            if (request.disk_tier) {
                const TierCosts d = request.costs.tier(1);
                disk_tier = {
                    {"write_seconds_per_item", d.write_s_per_item},
                    {"read_seconds_per_item", d.read_s_per_item},
                    {"write_bytes_per_second", d.write_s_per_byte > 0 ? 1 / d.write_s_per_byte : 0.0},
                    {"read_bytes_per_second", d.read_s_per_byte > 0 ? 1 / d.read_s_per_byte : 0.0}};
            }
            if (!r.json && writes_outputs()) { // rank 0 alone reports under mpirun
                print_table(rows, costs, request.steps, shots);
                if (request.budget_is_machine)
                    std::printf("no --budget: 'fits' is against what a run may keep on this machine, %s "
                                "(three quarters of its memory)\n",
                                format_bytes(double(request.budget_bytes)).c_str());
                if (request.disk_tier)
                    std::printf(
                        "disk tier measured in %s: write %s/s + %.3g ms per file, read %s/s + %.3g ms "
                        "per file\n",
                        settings.scratch_dir.empty() ? "the temp directory" : settings.scratch_dir.c_str(),
                        format_bytes(disk_tier["write_bytes_per_second"].get<double>()).c_str(),
                        disk_tier["write_seconds_per_item"].get<double>() * 1e3,
                        format_bytes(disk_tier["read_bytes_per_second"].get<double>()).c_str(),
                        disk_tier["read_seconds_per_item"].get<double>() * 1e3);
                for (const CodecEstimate& c : codecs)
                    if (c.codec != "none")
                        std::printf("%s: ratio %.3g, priced on %s\n", c.codec.c_str(), c.ratio,
                                    c.source == "wavefields" ? "four of the run's own snapshots and states"
                                    : c.source == "learnt"
                                        ? "what the last run of this grid and codec measured"
                                    : c.source == "synthetic" ? "synthetic wavefields (the run's own too "
                                                                "slow to propagate, or not available)"
                                                              : "an unstated source");
                if (auto_choice.contains("error"))
                    std::printf("auto (codec %s): %s\n", codecs.front().codec.c_str(),
                                auto_choice["error"].get<std::string>().c_str());
                else
                    std::printf("auto (codec %s) runs %s\n", codecs.front().codec.c_str(),
                                auto_choice["schedule"].get<std::string>().c_str());
            }
            nlohmann::json table = nlohmann::json::array();
            for (const PlanRow& row : rows)
                table.push_back(
                    {{"schedule", row.schedule},
                     {"codec", row.codec},
                     {"ram_slots", row.ram_slots},
                     {"disk_slots", row.disk_slots},
                     {"predicted_seconds_per_shot", row.predicted_s},
                     {"speedup_vs_store_all", row.speedup_vs_store_all},
                     {"peak_bytes_per_tier", row.peak_bytes},
                     {"recompute_steps", row.prediction.counts.advance_steps +
                                             row.prediction.counts.reverse_forward_steps - request.steps},
                     {"fits_budget", row.fits_budget},
                     {"fits_only_if_data_compress", row.fits_only_at_probed_ratio}});
            nlohmann::json codec_json = nlohmann::json::array();
            for (const CodecEstimate& c : codecs)
                codec_json.push_back({{"codec", c.codec},
                                      {"ratio", c.ratio},
                                      {"compress_seconds", c.compress_s},
                                      {"decompress_seconds", c.decompress_s},
                                      {"state_compress_seconds", c.state_compress_s},
                                      {"state_decompress_seconds", c.state_decompress_s},
                                      {"priced_on", c.source}});
            return {{"steps", request.steps},
                    {"shots", shots},
                    {"forward_step_seconds", costs.forward_step_s},
                    {"adjoint_step_seconds", costs.adjoint_step_s},
                    {"recompute_step_seconds", costs.recompute_price()},
                    {"snapshot_write_seconds", costs.snapshot_write_s},
                    {"snapshot_transfer_seconds", costs.snapshot_transfer_s},
                    {"state_transfer_seconds", costs.state_transfer_s},
                    {"shot_setup_seconds", costs.shot_setup_s},
                    {"state_bytes", costs.state_bytes},
                    {"snapshot_bytes", costs.snapshot_bytes},
                    {"budget_bytes", settings.budget_bytes},
                    {"machine_checkpoint_bytes", request.budget_is_machine ? request.budget_bytes : 0},
                    {"disk_budget_bytes", settings.disk_budget_bytes},
                    {"codecs", codec_json},
                    {"disk_tier", disk_tier},
                    {"rows", table},
                    {"auto", auto_choice}};
        };
    });
}

} // namespace fwi::cli
