#pragma once
// The frame every codec writes (see codec.hpp): header checks, payload checksum and the raw fallback live
// here once; a concrete codec only encodes and decodes a payload with its library.
#include "fwi/codec.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace fwi::detail {

/// Stable ids written into frames; never renumber.
enum class CodecId : std::uint8_t {
    None = 0,
    Zstd = 1,
    Lz4 = 2,
    Blosc = 3,
    ZfpAccuracy = 4,
    ZfpPrecision = 5,
    ZfpRate = 6,
    ZfpReversible = 7,
};

class FramedCodec : public Codec {
  public:
    /// `param` is the codec's parameter as 64 bits (a level, or a double's bits); frames made with another
    /// value are rejected on decompress, since e.g. ZFP cannot decode a stream with other settings.
    FramedCodec(CodecId id, std::uint64_t param, std::string name, bool lossless);

    std::string name() const final { return name_; }
    bool lossless() const final { return lossless_; }
    std::size_t max_compressed_bytes(std::int64_t rows, std::int64_t cols) const final;
    std::size_t compress(ConstFieldView field, std::vector<std::byte>& out) const final;
    void decompress(const std::byte* in, std::size_t bytes, FieldView field) const final;

  protected:
    /// Upper bound of encode()'s output for a non-empty field of this shape.
    virtual std::size_t payload_bound(ConstFieldView field) const = 0;
    /// Encodes a non-empty field into dst[0, capacity) (capacity >= payload_bound); returns the bytes
    /// written. Throws Error when the library fails.
    virtual std::size_t encode(ConstFieldView field, std::byte* dst, std::size_t capacity) const = 0;
    /// Decodes exactly src[0, bytes) into a non-empty field; throws FormatError when the library rejects it.
    virtual void decode(const std::byte* src, std::size_t bytes, FieldView field) const = 0;
    /// True when this field must be stored raw rather than encoded (lossy ZFP on NaN/inf values).
    virtual bool must_store_raw(ConstFieldView /*field*/) const { return false; }

  private:
    CodecId id_;
    std::uint64_t param_;
    std::string name_;
    bool lossless_;
};

/// True when every value is finite (no NaN, no inf).
bool all_finite(ConstFieldView field);

/// Size in bytes of a field's values; throws ConfigError for a negative shape.
std::size_t field_bytes(std::int64_t rows, std::int64_t cols);

} // namespace fwi::detail
