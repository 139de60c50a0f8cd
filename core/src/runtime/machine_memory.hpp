#pragma once
// The machine's memory, for refusing early what cannot fit (0 when the system does not say).
#include <cstdint>
#include <string>

namespace fwi::detail {

/// Physical memory as the system reports it: the hard limit (what a single allocation can ever get).
std::uint64_t physical_memory_bytes();

/// The memory this process plans with: FWI_MACHINE_MEMORY (bytes, e.g. 16G) where set, for a machine shared
/// with other work, else physical_memory_bytes(). Throws ConfigError for an unreadable FWI_MACHINE_MEMORY.
std::uint64_t machine_memory_bytes();

/// Throws ResourceError "`what` need(s) B, more than this machine's M" when `bytes` exceed
/// machine_memory_bytes() (nothing when it is not known). For buffers a run holds whatever its budget: the
/// system's out-of-memory killer ended such runs minutes in, without a word.
void check_fits_machine_memory(std::uint64_t bytes, const std::string& what);

} // namespace fwi::detail
