#pragma once
// The disk tier's costs measured where the run will write: a CheckpointStore with one disk tier in the run's
// scratch directory stores and reads back items through the same code path the run uses (one file per item,
// codec "none", the caller's thread), so the performance model prices the multilevel schedules with this
// machine's file system instead of an assumed 1 GB/s. Two probes separate the per-file cost (many 4 KiB
// items) from the bandwidth (items of the run's state size kept within 1-16 MiB, up to 64 MiB in all). Reads
// follow the writes, so they come from the page cache whenever the run's own files would: a run whose disk
// tier outgrows free memory reads slower than predicted.
#include "fwi/performance_model.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace fwi {

/// Measured costs of a disk tier in `directory` (empty: the system temp directory) for items of
/// `item_bytes`, kept per (directory, item size) for the process. std::nullopt when the probe cannot write
/// there (the run itself then reports the error).
std::optional<TierCosts> measured_disk_tier(const std::string& directory, std::uint64_t item_bytes);

} // namespace fwi
