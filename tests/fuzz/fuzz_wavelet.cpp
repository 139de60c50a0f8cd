// Fuzz target: a user source wavelet (`fwi new --wavelet file.npy`): a 1D .npy whose length must equal nt.
// Seeded with 1D arrays, so the fuzzer spends its time near the shapes a wavelet has.
#include "fuzz_input.hpp"
#include "fwi/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fwi::fuzz::run_reader(data, size, ".npy", [](const std::string& path) {
        const fwi::NpyArray wavelet = fwi::read_npy(path);
        // The reader's promise: the shape's product is the number of values read.
        std::size_t cells = 1;
        for (const std::int64_t n : wavelet.shape)
            cells *= std::size_t(n);
        if (cells != wavelet.data.size()) __builtin_trap();
    });
}
