#pragma once
// Where FWI Studio keeps what it learns about this machine between runs (the performance model's
// calibration, the files read safely before), and which build of the program learnt it.
#include <filesystem>
#include <string>

namespace fwi::detail {

/// $XDG_CACHE_HOME/fwi-studio, else $HOME/.cache/fwi-studio; empty when neither is set.
std::filesystem::path user_cache_directory();

/// The running program's size and modification time ("?" where unknown): a rebuilt or upgraded program does
/// not trust what another build measured or checked.
const std::string& program_identity();

} // namespace fwi::detail
