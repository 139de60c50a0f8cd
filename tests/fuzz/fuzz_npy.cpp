// Fuzz target: NumPy .npy files (read_npy), and 2D and 3D ones as models through load_model (unit detection,
// validation).
#include "fuzz_input.hpp"
#include "fwi/model_io.hpp"
#include "fwi/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fwi::fuzz::run_reader(data, size, ".npy", [](const std::string& path) {
        const fwi::NpyArray array = fwi::read_npy(path);
        if (array.shape.size() == 2 || array.shape.size() == 3) {
            fwi::RawLayout layout;
            layout.dz_m = layout.dx_m = layout.dy_m = 10.0;
            (void)fwi::load_model(path, layout);
        }
    });
}
