#pragma once
// The machine's physical memory, for refusing early what cannot fit (0 when the system does not say).
#include <cstdint>
#include <unistd.h>

namespace fwi::detail {

inline std::uint64_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

} // namespace fwi::detail
