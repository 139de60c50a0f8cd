#include "runtime/page_population.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace fwi {

namespace {

/// One chunk: the kernel's call, or one write per page where the kernel cannot (an older kernel).
bool populate_chunk(char* at, std::size_t length, std::size_t page) noexcept {
#ifdef MADV_POPULATE_WRITE
    if (::madvise(at, length, MADV_POPULATE_WRITE) == 0) return true;
#endif
    auto* bytes = reinterpret_cast<volatile char*>(at);
    for (std::size_t b = 0; b < length; b += page)
        bytes[b] = 0;
    return false;
}

} // namespace

std::size_t system_page_bytes() noexcept {
    static const std::size_t bytes = [] {
        const long b = ::sysconf(_SC_PAGESIZE);
        return b > 0 ? std::size_t(b) : std::size_t(4096);
    }();
    return bytes;
}

bool populate_pages(void* p, std::size_t bytes) noexcept {
    if (bytes == 0) return true;
    const std::size_t page = system_page_bytes();
    // madvise needs a page-aligned start: the arrays of zeroed_allocator.hpp start some cache lines into
    // their first page, and a call from there failed (EINVAL) for every array, unnoticed, so every page
    // faulted alone.
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t first = address / page * page;
    const std::uintptr_t end = (address + bytes + page - 1) / page * page;
    char* const base = reinterpret_cast<char*>(first);
    const std::size_t length = end - first;
    // Whole multiples of 2 MiB, so that chunks of a huge-page-aligned mapping stay aligned to huge pages; a
    // few per thread, so that a small array still splits across the team.
    constexpr std::size_t step = std::size_t(2) << 20, largest = std::size_t(64) << 20;
    const std::size_t chunk = std::clamp((length / 8 + step - 1) / step * step, step, largest);
    const auto chunks = std::int64_t((length + chunk - 1) / chunk);
    std::atomic<bool> all_by_kernel{true};
#pragma omp parallel for schedule(dynamic, 1) if (chunks > 1)
    for (std::int64_t i = 0; i < chunks; ++i) {
        const std::size_t from = std::size_t(i) * chunk;
        if (!populate_chunk(base + from, std::min(chunk, length - from), page))
            all_by_kernel.store(false, std::memory_order_relaxed);
    }
    return all_by_kernel.load(std::memory_order_relaxed);
}

} // namespace fwi
