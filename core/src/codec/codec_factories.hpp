#pragma once
// One factory per codec file; make_codec() (codec_spec.cpp) parses and validates the spec and calls these.
#include "fwi/codec.hpp"

#include <memory>
#include <string>

namespace fwi::detail {

enum class ZfpMode { Accuracy, Precision, Rate, Reversible };

std::unique_ptr<Codec> make_none_codec();
std::unique_ptr<Codec> make_zstd_codec(int level);
std::unique_ptr<Codec> make_lz4_codec();
std::unique_ptr<Codec> make_blosc_codec(int level);
/// `parameter`: tolerance (Accuracy), bits of precision (Precision), bits per value (Rate), unused
/// (Reversible).
std::unique_ptr<Codec> make_zfp_codec(ZfpMode mode, double parameter);

/// Shortest decimal text that reads back as `value` (canonical codec names).
std::string format_number(double value);

} // namespace fwi::detail
