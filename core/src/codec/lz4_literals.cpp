#include "codec/lz4_literals.hpp"

#include <lz4.h>

#include <cstring>

namespace fwi::detail {

std::size_t lz4_literal_block_bytes(std::size_t n) noexcept {
    return 1 + (n >= 15 ? (n - 15) / 255 + 1 : 0) + n;
}

std::size_t write_lz4_literal_block(const std::byte* src, std::size_t n, std::byte* dst,
                                    std::size_t capacity) noexcept {
    const std::size_t bytes = lz4_literal_block_bytes(n);
    if (capacity < bytes) return 0;
    std::byte* out = dst;
    if (n < 15) {
        *out++ = std::byte(n << 4);
    } else {
        *out++ = std::byte(0xF0);
        std::size_t rest = n - 15;
        const std::size_t full = rest / 255;
        std::memset(out, 0xFF, full);
        out += full;
        *out++ = std::byte(rest - full * 255);
    }
    std::memcpy(out, src, n);
    return bytes;
}

bool lz4_sampled_incompressible(const std::byte* src, std::size_t n) {
    constexpr std::size_t sample = 4096, samples = 8, judged_from = 16 * sample;
    if (n < judged_from) return false;
    // Room for a sample's worst case (LZ4_COMPRESSBOUND(4096) = 4128 bytes) on the stack.
    char out[LZ4_COMPRESSBOUND(sample)];
    const std::size_t gap = (n - sample) / (samples - 1);
    std::size_t compressed = 0;
    for (std::size_t k = 0; k < samples; ++k) {
        const int c = LZ4_compress_default(reinterpret_cast<const char*>(src + k * gap), out, int(sample),
                                           int(sizeof out));
        if (c <= 0) return false; // cannot judge: compress the whole range
        compressed += std::size_t(c);
    }
    return compressed * 16 > samples * sample * 15;
}

} // namespace fwi::detail
