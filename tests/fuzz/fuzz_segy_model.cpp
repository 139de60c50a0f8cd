// Fuzz target: SEG-Y velocity models (read_model_segy through load_model: spacing from the textual header,
// binary and trace headers or the fallback, IBM/IEEE samples, 3D inline/crossline geometry, unit detection,
// validation).
#include "fuzz_input.hpp"
#include "fwi/model_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fwi::fuzz::run_reader(data, size, ".segy", [](const std::string& path) {
        fwi::RawLayout fallback;
        fallback.dz_m = fallback.dx_m = fallback.dy_m = 10.0;
        (void)fwi::load_model(path, fallback);
    });
}
