#pragma once
// The fwi command line: one file per subcommand (cmd_<name>.cpp), each adding itself to the CLI11 app.
// Every command prints one JSON object on stdout with --json, shows progress on stderr when it is a terminal,
// and exits 0 on success, 2 on bad input (fwi::ConfigError / FormatError), 3 on resource errors, 130 if
// cancelled.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace fwi::cli {

/// What a command runs after parsing; returns the JSON summary (printed with --json) and writes human text
/// itself.
using CommandAction = std::function<nlohmann::json()>;

struct CommandRegistry {
    CLI::App& app;
    bool& json;              ///< --json given
    bool& quiet;             ///< --quiet given
    CommandAction* selected; ///< the command's action, set in its callback
};

void add_new_command(CommandRegistry& r);
void add_info_command(CommandRegistry& r);
void add_forward_command(CommandRegistry& r);
void add_gradient_command(CommandRegistry& r);
void add_bench_command(CommandRegistry& r);
void add_import_command(CommandRegistry& r);
void add_taylor_command(CommandRegistry& r);
void add_bench_checkpoints_command(CommandRegistry& r);
void add_plan_command(CommandRegistry& r);
void add_invert_command(CommandRegistry& r);
void add_demo_command(CommandRegistry& r);
void add_export_command(CommandRegistry& r);
void add_plot_command(CommandRegistry& r);

} // namespace fwi::cli
