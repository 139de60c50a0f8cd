#include "fwi/schedules.hpp"

#include "fwi/error.hpp"

#include <charconv>
#include <string>
#include <string_view>

namespace fwi {

namespace {

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
    throw ConfigError("schedule spec '" + spec + "': " + why +
                      " (expected all | uniform:K | revolve:S | multilevel:R,D | online:S | adaptive[:S])");
}

std::int64_t parse_count(const std::string& spec, std::string_view text, const char* what) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        bad_spec(spec, std::string(what) + " '" + std::string(text) + "' is not an integer");
    if (value < 0) bad_spec(spec, std::string(what) + " must not be negative");
    return value;
}

} // namespace

std::unique_ptr<Schedule> make_schedule(const std::string& spec, const StepCosts& costs) {
    const auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    const std::string_view args =
        colon == std::string::npos ? std::string_view() : std::string_view(spec).substr(colon + 1);
    const bool has_args = colon != std::string::npos;
    try {
        if (kind == "all") {
            if (has_args) bad_spec(spec, "'all' takes no parameter");
            return std::make_unique<StoreAllSchedule>();
        }
        if (kind == "auto")
            bad_spec(spec,
                     has_args
                         ? "'auto' takes no parameter (it chooses the schedule and its slots)"
                         : "'auto' is resolved into a schedule by the run (resolve_plan), not made here");
        if (kind == "adaptive") return make_adaptive_schedule(spec, costs, 0);
        const bool known = kind == "uniform" || kind == "revolve" || kind == "online" || kind == "multilevel";
        if (!known) bad_spec(spec, "unknown schedule '" + kind + "' (names are lower case)");
        if (!has_args) bad_spec(spec, "'" + kind + "' needs a parameter");
        if (kind == "uniform") return std::make_unique<UniformSchedule>(parse_count(spec, args, "K"));
        if (kind == "revolve") return std::make_unique<RevolveSchedule>(parse_count(spec, args, "S"));
        if (kind == "online") return std::make_unique<OnlineAsOfflineSchedule>(parse_count(spec, args, "S"));
        if (kind == "multilevel") {
            const auto comma = args.find(',');
            if (comma == std::string_view::npos) bad_spec(spec, "multilevel needs R,D");
            return std::make_unique<MultiLevelSchedule>(parse_count(spec, args.substr(0, comma), "R"),
                                                        parse_count(spec, args.substr(comma + 1), "D"),
                                                        costs);
        }
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        if (what.rfind("schedule spec '", 0) == 0) throw;
        bad_spec(spec, what);
    }
    bad_spec(spec, "unknown schedule '" + kind + "'");
}

bool is_adaptive_spec(const std::string& spec) {
    return spec == "adaptive" || spec.rfind("adaptive:", 0) == 0;
}

AdaptivePrices adaptive_prices(const StepCosts& costs) {
    const double step = costs.recompute_price();
    if (!(step > 0)) return {}; // unpriced steps: minimise recomputation alone
    const std::uint64_t stored = costs.stored_state_bytes();
    return {step, costs.write_s(0, stored) + costs.state_transfer_s,
            costs.read_s(0, stored) + costs.state_transfer_s};
}

std::unique_ptr<AdaptiveRevolveSchedule>
make_adaptive_schedule(const std::string& spec, const StepCosts& costs, std::uint64_t budget_bytes) {
    if (!is_adaptive_spec(spec)) bad_spec(spec, "expected adaptive or adaptive:S");
    const std::uint64_t state_bytes = costs.stored_state_bytes();
    const AdaptivePrices prices = adaptive_prices(costs);
    if (spec == "adaptive") {
        if (budget_bytes == 0) bad_spec(spec, "'adaptive' needs a memory budget (or give adaptive:S)");
        if (budget_bytes < state_bytes)
            bad_spec(spec, "the memory budget of " + std::to_string(budget_bytes) +
                               " bytes does not hold one state of " + std::to_string(state_bytes) + " bytes");
        return std::make_unique<AdaptiveRevolveSchedule>(budget_bytes, state_bytes, 0, prices);
    }
    const std::int64_t slots = parse_count(spec, std::string_view(spec).substr(9), "S");
    if (slots < 1) bad_spec(spec, "adaptive:S needs S >= 1");
    return std::make_unique<AdaptiveRevolveSchedule>(std::uint64_t(slots) * state_bytes, state_bytes, 0,
                                                     prices);
}

std::unique_ptr<OnlineSchedule> make_online_schedule(const std::string& spec) {
    const auto colon = spec.find(':');
    if (spec.substr(0, colon) != "online" || colon == std::string::npos)
        throw ConfigError("online schedule spec '" + spec + "': expected online:S");
    try {
        return std::make_unique<OnlineRevolveSchedule>(
            parse_count(spec, std::string_view(spec).substr(colon + 1), "S"));
    } catch (const ConfigError& e) {
        throw ConfigError("online schedule spec '" + spec + "': " + e.what());
    }
}

} // namespace fwi
