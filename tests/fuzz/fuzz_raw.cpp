// Fuzz target: raw float32 models through load_model. The first input byte chooses the layout the user would
// have typed (nz, x-major or not, units); the rest is the file, so sizes that do and do not match are both
// tried.
#include "fuzz_input.hpp"
#include "fwi/model_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t choice = data[0];
    fwi::RawLayout layout;
    layout.nz = 1 + (choice & 0x0f);
    const std::int64_t values = std::int64_t(size - 1) / 4;
    layout.nx = values / layout.nz + ((choice & 0x10) ? 1 : 0); // sometimes one column too many
    layout.dz_m = layout.dx_m = 5.0;
    layout.x_major = (choice & 0x20) != 0;
    layout.units = (choice & 0x40) ? "auto" : (choice & 0x80) ? "km/s" : "m/s";
    return fwi::fuzz::run_reader(data + 1, size - 1, ".bin",
                                 [&](const std::string& path) { (void)fwi::load_model(path, layout); });
}
