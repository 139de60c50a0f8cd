#pragma once
// Resident memory of this process (Linux /proc/self/status), for the status bar. Zero where unknown.
#include <cstdint>

namespace fwi::ui {

struct ProcessMemory {
    std::uint64_t resident_bytes = 0;      ///< VmRSS
    std::uint64_t peak_resident_bytes = 0; ///< VmHWM
};

ProcessMemory process_memory();

} // namespace fwi::ui
