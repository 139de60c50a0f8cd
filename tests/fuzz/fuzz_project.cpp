// Fuzz target: project files (load_project: models, acquisition, settings with the user wavelet, observed
// data, history, optimizer state, metadata strings).
#include "fuzz_isolated.hpp"
#include "fwi/project.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fwi::fuzz::run_isolated_reader(data, size, ".fwi",
                                          [](const std::string& path) { (void)fwi::load_project(path); });
}
