#pragma once
// Measured cost of a codec on one field, for the performance model's calibration (t_c, t_d and F of the
// compression-checkpointing model in REFERENCES.md).
#include "fwi/codec.hpp"
#include "fwi/field.hpp"

#include <cstdint>

namespace fwi {

struct CodecTiming {
    double compress_seconds = 0;   ///< median over the repeats, one field
    double decompress_seconds = 0; ///< median over the repeats, one field
    double ratio = 1;              ///< raw bytes / compressed bytes (frame header included)
    std::uint64_t raw_bytes = 0;
    std::uint64_t compressed_bytes = 0;
};

/// Compresses and decompresses `field` `repeats` times (>= 1, else ConfigError) on the calling thread.
CodecTiming measure_codec(const Codec& codec, ConstFieldView field, int repeats);

} // namespace fwi
