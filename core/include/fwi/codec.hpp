#pragma once
// Snapshot/state codecs. A codec turns one 2D float field into bytes and back. Lossless codecs round-trip bit for
// bit. Lossy ZFP modes state their error bound (fixed-accuracy: max |error| <= tolerance).
#include "fwi/field.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace fwi {

class Codec {
public:
    virtual ~Codec() = default;
    virtual std::string name() const = 0;  ///< the spec it was made from, e.g. "zfp-accuracy:1e-05"
    virtual bool lossless() const = 0;
    /// Appends the compressed bytes of `field` to `out`; returns how many were appended.
    virtual std::size_t compress(ConstFieldView field, std::vector<std::byte>& out) const = 0;
    /// Decompresses exactly `in` into `field` (whose shape must be the one compressed). Throws FormatError.
    virtual void decompress(const std::byte* in, std::size_t bytes, FieldView field) const = 0;
};

/// none | zstd[:LEVEL] | lz4 | blosc[:LEVEL] | zfp-accuracy:TOL | zfp-precision:BITS | zfp-rate:BITS | zfp-reversible.
/// Throws ConfigError naming the spec.
std::unique_ptr<Codec> make_codec(const std::string& spec);

} // namespace fwi
