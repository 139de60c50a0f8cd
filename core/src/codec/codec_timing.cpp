#include "fwi/codec_timing.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <chrono>

namespace fwi {
namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

} // namespace

CodecTiming measure_codec(const Codec& codec, ConstFieldView field, int repeats) {
    if (repeats < 1) throw ConfigError("measure_codec: repeats must be >= 1, got " + std::to_string(repeats));
    using clock = std::chrono::steady_clock;
    std::vector<std::byte> bytes;
    bytes.reserve(codec.max_compressed_bytes(field.rows, field.cols));
    std::vector<float> restored(std::size_t(field.size()));
    const FieldView out{restored.data(), field.rows, field.cols, field.plane_rows};
    std::vector<double> compress_s, decompress_s;
    for (int r = 0; r < repeats; ++r) {
        bytes.clear();
        const auto t0 = clock::now();
        codec.compress(field, bytes);
        const auto t1 = clock::now();
        codec.decompress(bytes.data(), bytes.size(), out);
        const auto t2 = clock::now();
        compress_s.push_back(std::chrono::duration<double>(t1 - t0).count());
        decompress_s.push_back(std::chrono::duration<double>(t2 - t1).count());
    }
    CodecTiming t;
    t.compress_seconds = median(compress_s);
    t.decompress_seconds = median(decompress_s);
    t.raw_bytes = std::uint64_t(field.size()) * sizeof(float);
    t.compressed_bytes = bytes.size();
    t.ratio = t.raw_bytes == 0 ? 1.0 : double(t.raw_bytes) / double(bytes.size());
    return t;
}

} // namespace fwi
