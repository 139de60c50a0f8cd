// Fuzz target: codec frames (checkpoint store items, scratch files of a run) through Codec::decompress. The
// first input byte chooses the codec; the rest is the frame. The field takes the shape the frame's header
// announces when that is small (so the chunk tables and payloads are reached), else a fixed one (then the
// shape check must refuse the frame). Only FormatError may refuse a frame.
#include "fuzz_input.hpp"
#include "fwi/codec.hpp"

#include <cstring>
#include <iterator>
#include <vector>

namespace {

// The codecs the seeds cover (tests/fuzz/make_seeds.cpp writes one frame per entry and shape).
const char* const fuzz_codecs[] = {"none",       "zstd:1",          "lz4",
                                   "blosc",      "zfp-reversible",  "zfp-accuracy:1e-3",
                                   "zfp-rate:1", "zfp-precision:12"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const auto codec = fwi::make_codec(fuzz_codecs[data[0] % std::size(fuzz_codecs)]);
    const auto* frame = reinterpret_cast<const std::byte*>(data + 1);
    const std::size_t bytes = size - 1;
    std::int64_t rows = 3, cols = 5;
    if (bytes >= fwi::codec_frame_header_bytes) {
        std::int64_t r = 0, c = 0; // header: magic, id, flags, reserved (8 bytes), then rows and cols
        std::memcpy(&r, frame + 8, sizeof r);
        std::memcpy(&c, frame + 16, sizeof c);
        if (r >= 0 && c >= 0 && r <= (1 << 20) && c <= (1 << 20) && r * c <= (1 << 20)) {
            rows = r;
            cols = c;
        }
    }
    std::vector<float> field(std::size_t(rows * cols));
    try {
        codec->decompress(frame, bytes, {field.data(), rows, cols});
    } catch (const fwi::FormatError&) {
    }
    return 0;
}
