#pragma once
// What the codec tests share: the codec specs they run over, and a field compressed into a fresh buffer and
// decompressed back (compress() must report what it appended).
#include "fwi/codec.hpp"
#include "wavefields.hpp"

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace fwi::test {

inline const char* const lossless_specs[] = {"none", "zstd",  "zstd:1",  "zstd:-5", "zstd:19",
                                             "lz4",  "blosc", "blosc:0", "blosc:9", "zfp-reversible"};
inline const char* const all_specs[] = {
    "none", "zstd", "lz4", "blosc", "zfp-reversible", "zfp-accuracy:1e-3", "zfp-precision:16", "zfp-rate:8"};

inline std::vector<std::byte> compress(const Codec& codec, const Field2D& f) {
    std::vector<std::byte> bytes;
    const std::size_t n = codec.compress(f.cview(), bytes);
    if (n != bytes.size()) throw std::logic_error("compress() did not report what it appended");
    return bytes;
}

inline Field2D round_trip(const Codec& codec, const Field2D& f, std::size_t* stored = nullptr) {
    const auto bytes = compress(codec, f);
    if (stored) *stored = bytes.size();
    Field2D out(f.rows, f.cols, 12345.0f);
    codec.decompress(bytes.data(), bytes.size(), out.view());
    return out;
}

} // namespace fwi::test
