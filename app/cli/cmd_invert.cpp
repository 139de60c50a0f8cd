// Placeholder until the inversion workflow lands.
#include "commands.hpp"
#include "fwi/error.hpp"

#include <memory>

namespace fwi::cli {

void add_invert_command(CommandRegistry& r) {
    auto path = std::make_shared<std::string>();
    CLI::App* cmd = r.app.add_subcommand("invert", "run a full-waveform inversion");
    cmd->add_option("project", *path, "project file (.fwi)")->required();
    cmd->callback([path, &r] {
        *r.selected = [path]() -> nlohmann::json { throw Error("fwi invert: not built yet"); };
    });
}

} // namespace fwi::cli
