#pragma once
// Snapshot/state codecs. A codec turns one float field (row-major, cols = fast axis, see field.hpp) into
// bytes and back. A 3D field (plane_rows > 0) is cut into bands of whole groups of 4 planes, ZFP codes it in
// 4x4x4 blocks, and its frame decodes only into a view with the same plane_rows (FormatError otherwise).
// Lossless codecs round-trip bit for bit (NaN and inf payloads included). Lossy ZFP modes state their error
// bound (fixed-accuracy: max |error| <= tolerance).
//
// Every compressed field is one self-describing frame: a 48-byte header (magic, codec id, codec parameter,
// rows, cols, payload size, checksum) followed by the payload. decompress() checks all of it before a
// decoder library sees a byte, so corrupt or truncated input throws FormatError instead of crashing. A field
// whose payload would be larger than its raw bytes (incompressible data), or that a lossy ZFP mode cannot
// represent (NaN/inf), is stored raw, so max_compressed_bytes() = header + raw bytes for every codec. Frames
// are native-endian: they are scratch data of one machine, not an exchange format.
//
// Parallel within a field: a field is cut into row bands of codec_chunk_rows(cols) rows (about 512 KiB each;
// a function of the width only) that are encoded and decoded independently on the calling thread's OpenMP
// team, so a frame's bytes are the same for any thread count. An encoded payload starts with a chunk table
// (codec_chunk_table_bytes: band height, count, and each band's size and checksum); a raw payload is just the
// raw values. Inside an OpenMP parallel region the bands run serially. codec, compress and decompress may be
// called from several threads at once.
#include "fwi/field.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fwi {

class Codec {
  public:
    virtual ~Codec() = default;
    virtual std::string name() const = 0; ///< canonical spec, e.g. "zfp-accuracy:1e-05", "zstd:3"
    virtual bool lossless() const = 0;
    /// Upper bound of what compress() appends for a field of this shape (frame header + raw bytes).
    virtual std::size_t max_compressed_bytes(std::int64_t rows, std::int64_t cols) const = 0;
    /// Appends the compressed frame of `field` to `out`; returns how many bytes were appended. Throws Error
    /// when the library fails, ConfigError for a negative shape; `out` is unchanged on a throw. `out` may
    /// be given room for max_compressed_bytes() more (it is written in place while bands are encoded): a
    /// caller that keeps it should shrink it or copy the frame out.
    virtual std::size_t compress(ConstFieldView field, std::vector<std::byte>& out) const = 0;
    /// Decompresses exactly one frame `in[0, bytes)` into `field` (whose shape must be the one compressed).
    /// Throws FormatError for a wrong shape, another codec or parameter, truncated or corrupt bytes; after a
    /// FormatError for corrupt bytes the field's values are unspecified (bands are checked and decoded one by
    /// one, in parallel).
    virtual void decompress(const std::byte* in, std::size_t bytes, FieldView field) const = 0;
};

/// Size of the frame header every codec writes in front of a field's payload.
inline constexpr std::size_t codec_frame_header_bytes = 48;

/// Rows per band of a field `cols` (> 0) wide: a multiple of 4 (ZFP's block height); the last band of a field
/// may be shorter.
std::int64_t codec_chunk_rows(std::int64_t cols);
/// Size of the chunk table that leads the encoded (not raw) payload of a rows x cols field.
std::size_t codec_chunk_table_bytes(std::int64_t rows, std::int64_t cols);

/// none | zstd[:LEVEL] (default 3) | lz4 | blosc[:LEVEL] (0-9, default 5; blosclz, byte shuffle, 1 thread) |
/// zfp-accuracy:TOL (TOL > 0) | zfp-precision:BITS (1-64) | zfp-rate:BITS (0 < BITS <= 64) | zfp-reversible.
/// Throws ConfigError naming the spec.
std::unique_ptr<Codec> make_codec(const std::string& spec);

/// The compression ratio a codec guarantees whatever the data: zfp-rate:BITS stores exactly BITS per value
/// (up to block padding); every other codec 1. `auto` sizes its slots with it, so its choice surely fits; a
/// plan sized with a probed ratio fits only while the run's data compress as well (PlanRow).
double guaranteed_compression_ratio(const std::string& codec_spec);
/// True when a plan priced at `ratio` counts on more compression than the codec guarantees.
inline bool exceeds_guaranteed_ratio(const std::string& codec_spec, double ratio) {
    return ratio > guaranteed_compression_ratio(codec_spec) * (1 + 1e-9);
}
/// The ratio a plan may count on whatever the data, for a codec that compressed a probe at `probed_ratio`:
/// the smaller of the two, and never below 1 (a stored item is never larger than raw for sizing).
inline double safe_compression_ratio(const std::string& codec_spec, double probed_ratio) {
    return std::max(1.0, std::min(probed_ratio, guaranteed_compression_ratio(codec_spec)));
}

} // namespace fwi
