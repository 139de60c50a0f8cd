// Fuzz target: codec frames (checkpoint store items, scratch files of a run) through Codec::decompress. The
// first input byte chooses the codec (its low 3 bits) and how the field is viewed (bits 3-4: as a 2D field,
// or as a 3D field of 4, 8 or 32 planes when that divides the rows: ZFP's 3D streams, 4-plane bands); the
// rest is the frame. The field takes the shape the frame's header announces when that is small (so the chunk
// tables and payloads are reached), else a fixed one (then the shape check must refuse the frame). Only
// FormatError may refuse a frame.
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
// Planes of a 3D view chosen by bits 3-4 of the first byte (0: a 2D field).
const std::int64_t fuzz_planes[] = {0, 4, 8, 32};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const auto codec = fwi::make_codec(fuzz_codecs[data[0] % 8]);
    const std::int64_t planes = fuzz_planes[(data[0] >> 3) % 4];
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
    const std::int64_t plane_rows = planes > 0 && rows > 0 && rows % planes == 0 ? rows / planes : 0;
    try {
        codec->decompress(frame, bytes, {field.data(), rows, cols, plane_rows});
    } catch (const fwi::FormatError&) {
    }
    return 0;
}
