#include "process_memory.hpp"

#include <fstream>
#include <string>

namespace fwi::ui {

ProcessMemory process_memory() {
    ProcessMemory m;
    std::ifstream status("/proc/self/status");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (status >> key) {
        if (key == "VmRSS:" && status >> kib >> unit)
            m.resident_bytes = kib * 1024;
        else if (key == "VmHWM:" && status >> kib >> unit)
            m.peak_resident_bytes = kib * 1024;
    }
    return m;
}

} // namespace fwi::ui
