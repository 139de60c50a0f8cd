#pragma once
// A codec timed as a gradient run uses it, for the performance model's calibration.
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"

namespace fwi {

/// measure_codec of `field`, with the compress time as the run's store pays it: its workers compress one item
/// each on one thread, as many workers as the caller has OpenMP threads, beside the propagation; so compress
/// is timed on one thread and divided by the thread count (as learn_from_run divides what the workers
/// measured). Decompress is timed on the caller's team, as a get runs it. A codec that splits one field over
/// the team scales worse than whole items on separate workers (measured: zstd and zfp-rate 1.6-1.8x slower
/// per item).
CodecTiming measure_store_codec(const Codec& codec, ConstFieldView field, int repeats);

} // namespace fwi
