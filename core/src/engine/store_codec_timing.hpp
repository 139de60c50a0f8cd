#pragma once
// A codec timed as a gradient run uses it, for the performance model's calibration.
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"

namespace fwi {

/// The checkpoint store's compression workers in a run (make_item_storage): each compresses whole items on
/// one thread, beside the propagation.
inline constexpr int store_worker_threads = 2;

/// How many of those workers compress at once here: store_worker_threads, or fewer on a machine with fewer
/// OpenMP threads. A run's compression throughput is that many items at a time.
int store_codec_parallelism();

/// What a worker's item costs the run against its time alone (the probe's), where the workers time-share
/// cores with a CPU propagation whose OpenMP team already fills every core: between 1 (the cores' time is
/// only shared out: the run loses the item's CPU time over the cores, as store_codec_parallelism prices it)
/// and 2 (the team's static loop waits at each barrier for its thread that shares a core with the worker).
/// 1.5, measured on the 2-core VM: the first predictions of Revolve and store-all with codecs, 2D Marmousi
/// and 3D Marmousi-II, were 0.70-1.12 of the measured times at 1 and 0.89-1.28 at 2. Else (a GPU propagation,
/// or a free core per worker) 1. learn_from_run measures the real cost on the workers after a run.
double store_codec_core_sharing(bool cpu_propagation);

/// measure_codec of `field`, with the compress time as the run's store pays it: compress is timed on one
/// thread and divided by store_codec_parallelism() (as learn_from_run divides what the workers measured).
/// Decompress is timed on the caller's team, as a get runs it. A codec that splits one field over the team
/// scales worse than whole items on separate workers (measured: zstd and zfp-rate 1.6-1.8x slower per item).
/// Dividing by the whole team instead, as before, under-priced compression 8x on a 16-core machine.
CodecTiming measure_store_codec(const Codec& codec, ConstFieldView field, int repeats);

} // namespace fwi
