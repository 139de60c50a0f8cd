#pragma once
// An allocator for propagator arrays that start at zero. A large array is a fresh anonymous mapping (2 MiB
// aligned and advised for transparent huge pages when `Huge`: the 3D arrays, which every step streams
// through; on 4 KiB pages they pay TLB misses) that the kernel populates with zeroed pages in one call, and
// `resize` leaves the values as the mapping has them instead of writing zeros over them again: a new state
// costs one pass (the kernel's), not two (the kernel's zeroing on first touch, then std::vector's). Small
// arrays come from aligned_alloc, zeroed. Every array starts on a cache line. Only `resize` of an empty
// vector is zero-filling here; assign() and insert() write their values as with std::allocator.
//
// With `Populate` false a large array is mapped but not populated: its pages fault in, zeroed, where they are
// first touched, and a page only read maps the kernel's shared zero page (no memory). For arrays the
// kernels write only in small parts (the 3D y- and z-layer memory variables): the owner populates those parts
// (populate_part) and the rest never costs memory or a zeroing pass.
//
// A mapped array starts a different number of cache lines into its first page (page_stagger): arrays that
// all start on a page boundary have u[i], u_next[i], c[i] and the snapshot's B[i] at the same address modulo
// 4 KiB, and the core's store-to-load check, which compares only those 12 bits, then makes the next
// iteration's loads wait on this one's stores ("4K aliasing"). Measured on the 2-core Xeon VM, the 2D
// order-8 interior loop alone at 1048^2: 1470-1490 M cell-updates/s page-aligned, 1690-1720 staggered.
#include <sys/mman.h>

#include "runtime/cache_line.hpp"
#include "runtime/page_population.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

namespace fwi {

template <class T, bool Huge = false, bool Populate = true> struct ZeroedAllocator {
    using value_type = T;
    template <class U> struct rebind { using other = ZeroedAllocator<U, Huge, Populate>; };
    static constexpr std::size_t mapped_bytes = std::size_t(1) << 20; ///< from here on, a mapping of its own
    static constexpr std::size_t huge_page = std::size_t(2) << 20;
    static constexpr std::size_t page = 4096;

    ZeroedAllocator() = default;
    template <class U> ZeroedAllocator(const ZeroedAllocator<U, Huge, Populate>&) noexcept {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < mapped_bytes) {
            // On a cache line, like the mappings below: the kernels align their loops to one array and rely
            // on the others being congruent to it (cpu_row_terms.hpp, cache_line_split).
            const std::size_t rounded = whole_cache_lines(bytes == 0 ? 1 : bytes);
            void* p = std::aligned_alloc(cache_line_bytes, rounded);
            if (!p) throw std::bad_alloc();
            std::memset(p, 0, rounded);
            return static_cast<T*>(p);
        }
        const bool huge = Huge && bytes >= huge_page;
        const std::size_t length = bytes + page;        // room to start at the stagger
        const std::size_t slack = huge ? huge_page : 0; // room to align the start to a huge page
        void* mapped =
            ::mmap(nullptr, length + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) throw std::bad_alloc();
        char* p = static_cast<char*>(mapped);
        if (huge) {
            const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(mapped);
            const std::size_t head = (huge_page - start % huge_page) % huge_page;
            // Keep [head, head + length) in whole pages; munmap needs a page-aligned start (an unaligned
            // one failed and left the tail mapped for the life of the process).
            const std::size_t kept_end = (head + length + page - 1) / page * page;
            if (head > 0) ::munmap(mapped, head);
            if (kept_end < length + slack) ::munmap(p + kept_end, length + slack - kept_end);
            p += head;
#ifdef MADV_HUGEPAGE
            ::madvise(p, length, MADV_HUGEPAGE); // advice only: 4 KiB pages still work
#endif
        }
        char* array = p + page_stagger();
        if constexpr (Populate) populate(array, bytes);
        return reinterpret_cast<T*>(array);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) >= mapped_bytes) {
            char* array = reinterpret_cast<char*>(p);
            // The mapping starts on the page the array starts in: the stagger is under a page.
            ::munmap(array - reinterpret_cast<std::uintptr_t>(array) % page, n * sizeof(T) + page);
        } else {
            std::free(p);
        }
    }
    /// Default-initialises (no write for numbers): the memory is zero already.
    template <class U> void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    /// Faults in elements [from, from + count) of an array of n elements from this allocator (made with
    /// Populate false): a mapped array's pages there; nothing for a small one, which is zeroed and resident
    /// already and whose page rounding would reach the heap around it.
    static void populate_part(T* array, std::size_t n, std::size_t from, std::size_t count) noexcept {
        if (count > 0 && n * sizeof(T) >= mapped_bytes)
            populate(reinterpret_cast<char*>(array + from), count * sizeof(T));
    }
    template <class U> bool operator==(const ZeroedAllocator<U, Huge, Populate>&) const noexcept {
        return true;
    }

  private:
    /// Where the next mapped array starts in its first page: 17 cache lines on from the last one, modulo a
    /// page (17 is odd, so 64 arrays in a row all start on different lines; consecutive ones, which are
    /// often a state's u and u_prev, sit 1088 bytes apart).
    static std::size_t page_stagger() noexcept {
        static std::atomic<std::size_t> arrays{0};
        constexpr std::size_t lines_per_page = page / cache_line_bytes;
        return (arrays.fetch_add(1, std::memory_order_relaxed) * 17 % lines_per_page) * cache_line_bytes;
    }
    /// Faults every page in, written and zeroed, in one kernel call per chunk on the team
    /// (page_population.hpp): measured on the 2-core VM, a 2D state's 26 MB took 11 ms in one call against 18
    /// ms zeroed by std::vector and 65-80 ms left to the kernels' first touch (each page faulted twice: read
    /// as the zero page, then written). The pages around the array are the mapping's own (length + a page).
    static void populate(char* p, std::size_t bytes) noexcept {
        populate_pages(p, bytes);
    }
};

/// A float array whose resize() from empty gives zeros without writing them.
using ZeroedVector = std::vector<float, ZeroedAllocator<float>>;
/// The same on huge pages where it is large enough (the 3D states).
using ZeroedHugeVector = std::vector<float, ZeroedAllocator<float, true>>;
/// A ZeroedHugeVector whose pages are left to the first touch (large arrays; small ones are zeroed anyway):
/// its owner populates the parts it writes.
using UnpopulatedHugeVector = std::vector<float, ZeroedAllocator<float, true, false>>;
/// The same on 4 KiB pages: for arrays written in many small parts (the 3D y-layer rows of every plane).
using UnpopulatedVector = std::vector<float, ZeroedAllocator<float, false, false>>;

} // namespace fwi
