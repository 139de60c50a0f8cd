// Fuzz target: HDF5 shot gathers (read_gathers_hdf5); every gather returned must be self-consistent.
#include "fuzz_isolated.hpp"
#include "fwi/gather.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fwi::fuzz::run_isolated_reader(data, size, ".h5", [](const std::string& path) {
        for (const fwi::Gather& g : fwi::read_gathers_hdf5(path))
            fwi::validate_gather(g);
    });
}
