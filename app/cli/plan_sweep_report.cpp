#include "plan_sweep_report.hpp"

#include "cli_common.hpp"
#include "fwi/error.hpp"
#include "fwi/line_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace fwi::cli {
namespace {

std::vector<std::uint64_t> parse_budgets(const std::string& text) {
    std::vector<std::uint64_t> budgets;
    std::stringstream s(text);
    for (std::string part; std::getline(s, part, ',');)
        if (!part.empty()) budgets.push_back(parse_bytes(part));
    if (budgets.empty()) throw ConfigError("--sweep-budgets names no budget");
    return budgets;
}

nlohmann::json plan_json(const SweepPlan& p) {
    return {{"schedule", p.schedule},
            {"ram_slots", p.ram_slots},
            {"predicted_seconds_per_shot", p.predicted_s},
            {"recompute_steps", p.recompute_steps},
            {"peak_bytes", p.peak_bytes},
            {"fits_budget", p.fits_budget},
            {"fits_only_if_data_compress", p.fits_only_at_probed_ratio}};
}

/// Where the project stands: its budget (unlimited = the sweep's largest) and its codec's curve (none =
/// Revolve alone, speed-up 1).
struct Current {
    std::size_t budget_index = 0;
    int curve = -1; ///< -1: Revolve alone
    double speedup = 1;
};

Current locate(const PlanSweep& s, const SweepReportOptions& o) {
    Current c;
    const std::uint64_t budget =
        o.current.budget_bytes == 0 ? s.budgets_bytes.back() : o.current.budget_bytes;
    c.budget_index = std::size_t(std::lower_bound(s.budgets_bytes.begin(), s.budgets_bytes.end(), budget) -
                                 s.budgets_bytes.begin());
    c.budget_index = std::min(c.budget_index, s.budgets_bytes.size() - 1);
    if (o.current_curve >= 0 && std::size_t(o.current_curve) < s.curves.size()) {
        c.curve = o.current_curve;
        c.speedup = s.curves[std::size_t(c.curve)].points[c.budget_index].speedup;
    }
    return c;
}

void print_table(const PlanSweep& s, const SweepRequest& r, const Current& now) {
    std::printf("Revolve + compression vs Revolve alone, %lld inner steps per shot; state %s, forward %.3g "
                "ms/step, adjoint %.3g ms/step\n",
                (long long)s.steps, format_bytes(double(r.costs.state_bytes)).c_str(),
                r.costs.forward_step_s * 1e3, r.costs.adjoint_step_s * 1e3);
    std::printf("%-12s %18s", "budget", "revolve alone");
    for (const SweepCurve& c : s.curves) {
        char head[64];
        std::snprintf(head, sizeof head, "%s (x%.2g)", c.codec.codec.c_str(), c.codec.ratio);
        std::printf(" | %-28s", head);
    }
    std::printf("\n");
    for (std::size_t i = 0; i < s.budgets_bytes.size(); ++i) {
        const SweepPlan& alone = s.revolve_alone[i];
        std::printf("%c%-11s %6lld %10.3gs", i == now.budget_index ? '*' : ' ',
                    format_bytes(double(s.budgets_bytes[i])).c_str(), (long long)alone.ram_slots,
                    alone.predicted_s);
        for (const SweepCurve& c : s.curves) {
            const SweepCodecPoint& p = c.points[i];
            std::printf(" | %6lld %9.3gs %5.2fx %5.2fx%c", (long long)p.revolve.ram_slots,
                        p.revolve.predicted_s, p.speedup, p.best_speedup,
                        p.best.fits_only_at_probed_ratio ? '*' : ' ');
        }
        std::printf("\n");
    }
    std::printf(
        "columns per codec: Revolve slots and time with the codec, its speed-up over Revolve alone, and "
        "the speed-up of the codec's fastest fitting plan (* after it: fits only if the run's data compress "
        "as "
        "the probe's did); * before a budget marks the project's\n");
}

std::string unit_for(std::uint64_t largest, double& scale) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    scale = 1;
    while (double(largest) / scale >= 1024 * 4 && u < 4) {
        scale *= 1024;
        ++u;
    }
    return units[u];
}

void plot(const PlanSweep& s, const SweepReportOptions& o, const Current& now) {
    double scale = 1;
    const std::string unit = unit_for(s.budgets_bytes.back(), scale);
    LineChart chart;
    chart.title = "Predicted speed-up of Revolve + compression over Revolve alone";
    chart.x_label = "memory budget (" + unit + ")";
    chart.y_label = "speed-up over Revolve alone";
    chart.log_x = true;
    chart.has_reference_y = true;
    chart.reference_y = 1;
    for (const SweepCurve& c : s.curves) {
        ChartSeries series{c.codec.codec, {}, {}};
        for (std::size_t i = 0; i < s.budgets_bytes.size(); ++i) {
            series.x.push_back(double(s.budgets_bytes[i]) / scale);
            series.y.push_back(c.points[i].speedup);
        }
        chart.series.push_back(std::move(series));
    }
    const std::string codec = now.curve < 0 ? "no compression" : o.current.compression;
    chart.markers.push_back({"project: " + o.current.schedule + ", " + codec,
                             double(s.budgets_bytes[now.budget_index]) / scale, now.speedup});
    char caption[200];
    std::snprintf(caption, sizeof caption, "%s: %lld steps per shot; dashed line: Revolve alone",
                  std::filesystem::path(o.project).filename().string().c_str(), (long long)s.steps);
    chart.caption = caption;
    write_line_chart(o.plot, chart);
}

} // namespace

nlohmann::json plan_sweep_report(SweepRequest r, const SweepReportOptions& o) {
    if (!o.budgets.empty())
        r.budgets_bytes = parse_budgets(o.budgets);
    else
        r.budgets_bytes = sweep_budgets(r.steps, uncompressed_costs(r.costs, r.uncompressed), 16);
    if (o.current.budget_bytes != 0) r.budgets_bytes.push_back(o.current.budget_bytes);
    const PlanSweep s = plan_sweep(r);
    const Current now = locate(s, o);
    if (o.print) print_table(s, r, now);
    if (!o.plot.empty()) plot(s, o, now);

    nlohmann::json alone = nlohmann::json::array();
    for (std::size_t i = 0; i < s.budgets_bytes.size(); ++i) {
        nlohmann::json p = plan_json(s.revolve_alone[i]);
        p["budget_bytes"] = s.budgets_bytes[i];
        alone.push_back(p);
    }
    nlohmann::json curves = nlohmann::json::array();
    for (const SweepCurve& c : s.curves) {
        nlohmann::json points = nlohmann::json::array();
        for (std::size_t i = 0; i < s.budgets_bytes.size(); ++i) {
            const SweepCodecPoint& p = c.points[i];
            points.push_back({{"budget_bytes", s.budgets_bytes[i]},
                              {"revolve", plan_json(p.revolve)},
                              {"speedup", p.speedup},
                              {"best", plan_json(p.best)},
                              {"best_speedup", p.best_speedup}});
        }
        curves.push_back({{"codec", c.codec.codec},
                          {"ratio", c.codec.ratio},
                          {"compress_seconds", c.codec.compress_s},
                          {"decompress_seconds", c.codec.decompress_s},
                          {"points", points}});
    }
    nlohmann::json j{{"steps", s.steps},
                     {"state_bytes", r.costs.state_bytes},
                     {"snapshot_bytes", r.costs.snapshot_bytes},
                     {"forward_step_seconds", r.costs.forward_step_s},
                     {"adjoint_step_seconds", r.costs.adjoint_step_s},
                     {"budgets_bytes", s.budgets_bytes},
                     {"revolve_alone", alone},
                     {"curves", curves},
                     {"current",
                      {{"budget_bytes", o.current.budget_bytes},
                       {"budget_index", now.budget_index},
                       {"codec", o.current.compression},
                       {"schedule", o.current.schedule},
                       {"speedup", now.speedup}}}};
    if (!o.plot.empty()) j["plot"] = o.plot;
    return j;
}

} // namespace fwi::cli
