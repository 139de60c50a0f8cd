#include "codec/checksum.hpp"

#include <bit>
#include <cstring>

namespace fwi::detail {
namespace {

constexpr std::uint64_t prime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t prime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t prime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t prime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t prime5 = 0x27D4EB2F165667C5ULL;

std::uint64_t load64(const std::byte* p) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
std::uint32_t load32(const std::byte* p) {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
    acc += input * prime2;
    return std::rotl(acc, 31) * prime1;
}
std::uint64_t merge(std::uint64_t acc, std::uint64_t lane) {
    acc ^= round(0, lane);
    return acc * prime1 + prime4;
}

} // namespace

std::uint64_t checksum64(const std::byte* data, std::size_t bytes, std::uint64_t seed) {
    // Walks by count, not by comparing pointers past the end: an empty buffer may be (nullptr, 0), and
    // nullptr + 8 is undefined even when never dereferenced (found by fuzz_codec on an empty raw frame).
    const std::byte* p = data;
    std::size_t left = bytes;
    std::uint64_t h;
    if (left >= 32) {
        std::uint64_t v1 = seed + prime1 + prime2, v2 = seed + prime2, v3 = seed, v4 = seed - prime1;
        do {
            v1 = round(v1, load64(p));
            v2 = round(v2, load64(p + 8));
            v3 = round(v3, load64(p + 16));
            v4 = round(v4, load64(p + 24));
            p += 32;
            left -= 32;
        } while (left >= 32);
        h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
        h = merge(merge(merge(merge(h, v1), v2), v3), v4);
    } else {
        h = seed + prime5;
    }
    h += std::uint64_t(bytes);
    for (; left >= 8; p += 8, left -= 8)
        h = std::rotl(h ^ round(0, load64(p)), 27) * prime1 + prime4;
    if (left >= 4) {
        h = std::rotl(h ^ (std::uint64_t(load32(p)) * prime1), 23) * prime2 + prime3;
        p += 4;
        left -= 4;
    }
    for (; left > 0; ++p, --left)
        h = std::rotl(h ^ (std::uint64_t(std::to_integer<unsigned>(*p)) * prime5), 11) * prime1;
    h ^= h >> 33;
    h *= prime2;
    h ^= h >> 29;
    h *= prime3;
    h ^= h >> 32;
    return h;
}

} // namespace fwi::detail
