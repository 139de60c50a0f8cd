// fwi plan: predicted time and memory of checkpoint choices (filled in when the performance model lands).
#include "commands.hpp"
#include "fwi/error.hpp"

#include <memory>

namespace fwi::cli {

void add_plan_command(CommandRegistry& r) {
    auto path = std::make_shared<std::string>();
    CLI::App* cmd = r.app.add_subcommand("plan", "predict time and memory of checkpoint schedules and codecs");
    cmd->add_option("project", *path, "project file (.fwi)")->required();
    cmd->callback([path, &r] {
        *r.selected = [path]() -> nlohmann::json { throw Error("fwi plan: the performance model is not built yet"); };
    });
}

} // namespace fwi::cli
