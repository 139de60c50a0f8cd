#include "runtime/machine_memory.hpp"

#include "fwi/byte_text.hpp"
#include "fwi/error.hpp"

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace fwi::detail {

std::uint64_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

std::uint64_t machine_memory_bytes() {
    const char* given = std::getenv("FWI_MACHINE_MEMORY");
    if (given == nullptr || *given == '\0') return physical_memory_bytes();
    try {
        return parse_bytes(given);
    } catch (const ConfigError& e) {
        throw ConfigError(std::string("FWI_MACHINE_MEMORY: ") + e.what());
    }
}

void check_fits_machine_memory(std::uint64_t bytes, const std::string& what) {
    const std::uint64_t memory = machine_memory_bytes();
    if (memory == 0 || bytes <= memory) return;
    const auto [need, limit] = compared_bytes(bytes, memory);
    throw ResourceError(what + ": " + need + ", more than this machine's " + limit +
                        (std::getenv("FWI_MACHINE_MEMORY") ? " (FWI_MACHINE_MEMORY)" : "") +
                        "; use fewer receivers, samples or shots");
}

} // namespace fwi::detail
