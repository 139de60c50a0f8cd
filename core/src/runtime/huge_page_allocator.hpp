#pragma once
// An allocator for the large arrays a propagator streams through every step: an allocation of 2 MiB or more
// is 2 MiB aligned and advised for transparent huge pages (Debian's THP setting is "madvise": without the
// advice such arrays sit on 4 KiB pages and every step pays TLB misses across them); smaller ones are 64-byte
// aligned. The values are what std::allocator would give (a vector still value-initialises them).
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace fwi {

template <class T> struct HugePageAllocator {
    using value_type = T;
    static constexpr std::size_t huge_page = std::size_t(2) << 20;

    HugePageAllocator() = default;
    template <class U> HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        const std::size_t align = bytes >= huge_page ? huge_page : 64;
        void* p = std::aligned_alloc(align, (bytes + align - 1) / align * align);
        if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        if (align == huge_page) madvise(p, bytes, MADV_HUGEPAGE); // advice only: 4 KiB pages still work
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) noexcept {
        std::free(p);
    }
    template <class U> bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

/// A float array on huge pages where it is large enough.
using HugePageVector = std::vector<float, HugePageAllocator<float>>;

} // namespace fwi
