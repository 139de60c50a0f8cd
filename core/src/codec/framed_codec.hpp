#pragma once
// The frame every codec writes (see codec.hpp): header checks, checksums, the raw fallback and the split into
// row bands encoded in parallel (chunk_table.hpp, chunk_loop.hpp) live here once; a concrete codec only
// encodes and decodes one band with its library, and may be called on several bands at once.
#include "codec/chunk_table.hpp"
#include "fwi/codec.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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
    // The hooks below see one band of the field (chunk_table.hpp) and are called from several threads at
    // once: they must be thread-safe.

    /// Upper bound of encode()'s output for a non-empty band of this shape.
    virtual std::size_t payload_bound(ConstFieldView band) const = 0;
    /// Encodes a non-empty band into dst[0, capacity) (capacity >= payload_bound); returns the bytes
    /// written. Throws Error when the library fails.
    virtual std::size_t encode(ConstFieldView band, std::byte* dst, std::size_t capacity) const = 0;
    /// Decodes exactly src[0, bytes) into a non-empty band; throws FormatError when the library rejects it.
    virtual void decode(const std::byte* src, std::size_t bytes, FieldView band) const = 0;
    /// True when this band must be stored raw rather than encoded (lossy ZFP on NaN/inf values); then the
    /// whole field is.
    virtual bool must_store_raw(ConstFieldView /*band*/) const { return false; }
    /// True for a codec that judges bands before encoding them (judged_incompressible); the others skip
    /// that pass.
    virtual bool judges_bands() const { return false; }
    /// True when encode() is expected to gain next to nothing on this band (lz4: sampled). Such a band is
    /// encoded by encode_plain() instead, and a field whose every band is so judged is stored raw at once,
    /// without encoding anything. Called only where judges_bands().
    virtual bool judged_incompressible(ConstFieldView /*band*/) const { return false; }
    /// A decodable payload of a band judged incompressible, made at about copy speed (lz4: one literal
    /// block); the same contract as encode().
    virtual std::size_t encode_plain(ConstFieldView band, std::byte* dst, std::size_t capacity) const {
        return encode(band, dst, capacity);
    }

  private:
    /// Appends an encoded frame of the field to `out` (which holds `old` bytes before it): the header,
    /// the chunk table and each band's bytes as they are encoded, in band order. False, with `out` back at
    /// `old` bytes, when the field is to be stored raw instead (a band asked for it, every band was judged
    /// incompressible, or the encoded payload would not be smaller than the raw bytes).
    bool append_encoded(ConstFieldView field, const ChunkLayout& layout, std::vector<std::byte>& out,
                        std::size_t old) const;
    /// A raw payload's checksum: the checksum of its bands' checksums (computed in parallel).
    std::uint64_t raw_checksum(ConstFieldView field, const ChunkLayout& layout) const;
    void copy_raw_chunks(const std::byte* payload, const ChunkLayout& layout, std::uint64_t checksum,
                         FieldView field, const std::string& who) const;
    void decode_chunks(const std::byte* payload, std::size_t payload_bytes, const ChunkLayout& layout,
                       std::uint64_t checksum, FieldView field, const std::string& who) const;

    CodecId id_;
    std::uint64_t param_;
    std::string name_;
    bool lossless_;
};

/// An uncompressed frame without a checksum, for items that never leave this process's memory (the
/// checkpoint store's memory tier with the codec "none"): the "none" codec's header and size, flagged
/// unchecked. A checksum guards bytes that leave memory (a disk tier's file) or pass a decoder, not a copy
/// within memory, where it cost more than the copy itself (16% of an uncompressed revolve:40 Marmousi
/// gradient, perf). Codec::decompress refuses such a frame, so bytes from a file never skip the check.
void append_unchecked_frame(ConstFieldView field, std::vector<std::byte>& out);
/// Copies an unchecked frame's values into `field` after checking its header against the field; throws
/// FormatError for any other frame or shape.
void read_unchecked_frame(const std::byte* in, std::size_t bytes, FieldView field);

/// True when every value is finite (no NaN, no inf).
bool all_finite(ConstFieldView field);

/// Size in bytes of a field's values; throws ConfigError for a negative shape.
std::size_t field_bytes(std::int64_t rows, std::int64_t cols);

} // namespace fwi::detail
