// Fuzz target: HDF5 velocity models (read_model_hdf5 through load_model).
#include "fuzz_isolated.hpp"
#include "fwi/model_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fwi::fuzz::run_isolated_reader(data, size, ".h5",
                                          [](const std::string& path) { (void)fwi::load_model(path); });
}
