#pragma once
// Faulting fresh anonymous memory in before it is used: the kernel's MADV_POPULATE_WRITE allocates and zeroes
// every page in one call per chunk, instead of one page fault per page on first touch, and the chunks go to
// the OpenMP team. On this product's 2-core VM both matter: 4.4 GB populated from one thread took 4.1-6.5 s
// with the other core idle (1.8 s with it busy), against 0.88-1.2 s from two threads (once 3.1 s), and
// touching each page instead of the madvise call made every page fault separately.
#include <cstddef>

namespace fwi {

/// The system's page size (sysconf; 4 KiB if it cannot tell): mappings are lengths of whole pages, and a
/// first touch writes once per page.
std::size_t system_page_bytes() noexcept;

/// Faults in every page that [p, p + bytes) overlaps, writable and zeroed, from the kernel where it can
/// (Linux 5.14 and later), in chunks on the OpenMP team (one thread inside a parallel region); otherwise by a
/// write of zero to each page, which the memory must allow (fresh anonymous memory: zero already). p need not
/// be page-aligned: the call covers the pages around it, so the memory on either side of the range, up to the
/// next page boundary, must belong to the same mapping. Returns true when the kernel populated every chunk,
/// false when the per-page writes did.
bool populate_pages(void* p, std::size_t bytes) noexcept;

} // namespace fwi
