// ZeroedAllocator: arrays start zeroed and on a cache line; mapped ones start at staggered offsets within
// their first page (no two of 64 consecutive arrays at the same offset modulo 4 KiB, which would make the
// kernels' loads and stores alias in the core's 4 KiB check); giving an array back unmaps all of it,
// huge-page mappings of sizes that are no multiple of a page included. populate_pages, which faults them in,
// takes a start inside a page (where those arrays start) to the kernel's call and leaves every page resident.
// An unpopulated array holds memory only where a part of it was populated.
#include "runtime/cache_line.hpp"
#include "runtime/page_population.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <sys/mman.h>

#include <QtTest>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

using namespace fwi;

namespace {

/// The process's virtual size in kB (/proc/self/status VmSize).
long virtual_kb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmSize:", 0) == 0) return std::stol(line.substr(7));
    return -1;
}

template <class Vector> void check_zeroed_and_aligned(std::size_t n) {
    Vector v;
    v.resize(n);
    QVERIFY(reinterpret_cast<std::uintptr_t>(v.data()) % cache_line_bytes == 0);
    QVERIFY(std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f; }));
    std::fill(v.begin(), v.end(), 1.0f); // every float is writable, the last one too
    QCOMPARE(v.back(), 1.0f);
}

template <class Vector> void check_unmapped_when_given_back() {
    const std::size_t n = (std::size_t(3) << 20) + 123; // 12 MB and 492 bytes: not whole pages
    {
        Vector warm(n); // the first one may grow the process for good (allocator bookkeeping)
    }
    const long before = virtual_kb();
    QVERIFY(before > 0);
    for (int i = 0; i < 40; ++i) {
        Vector v;
        v.resize(n);
        v[n - 1] = 1.0f;
    }
    // A leaked tail would be up to 2 MiB per array (80 MB here).
    QVERIFY2(virtual_kb() - before < 4096,
             qPrintable(QString("VmSize grew by %1 kB").arg(virtual_kb() - before)));
}

/// How many of the pages that [p, p + bytes) overlaps are resident (mincore).
std::size_t resident_pages(const void* p, std::size_t bytes, std::size_t& pages) {
    const auto page = system_page_bytes();
    const auto first = reinterpret_cast<std::uintptr_t>(p) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes + page - 1) / page * page;
    pages = (end - first) / page;
    std::vector<unsigned char> in_core(pages);
    if (mincore(reinterpret_cast<void*>(first), end - first, in_core.data()) != 0) return 0;
    return std::size_t(std::count_if(in_core.begin(), in_core.end(), [](unsigned char c) { return c & 1; }));
}

/// An unpopulated array of 24 MiB with 4 MiB of it populated: those pages resident, beyond them at most the
/// rest of the huge pages the part's two ends fall in, and zeros everywhere.
template <class Vector> void check_populated_only_in_part() {
    const auto page = system_page_bytes();
    const std::size_t n = std::size_t(6) << 20;
    Vector v;
    v.resize(n);
    std::size_t pages = 0;
    QCOMPARE(resident_pages(v.data(), n * sizeof(float), pages), std::size_t(0));
    float* const part = v.data() + n / 3;
    const std::size_t part_bytes = (std::size_t(4) << 20) + 100 * sizeof(float), huge_page = std::size_t(2)
                                                                                             << 20;
    Vector::allocator_type::populate_part(v.data(), n, n / 3, part_bytes / sizeof(float));
    std::size_t part_pages = 0;
    QCOMPARE(resident_pages(part, part_bytes, part_pages), part_pages);
    const std::size_t resident = resident_pages(v.data(), n * sizeof(float), pages);
    QVERIFY2(resident <= part_pages + 2 * huge_page / page,
             qPrintable(QString("%1 pages resident for a part of %2").arg(resident).arg(part_pages)));
    QVERIFY(std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f; }));
}

/// A fresh anonymous mapping of `bytes`, unmapped at the end of the scope.
struct Mapping {
    explicit Mapping(std::size_t length) : bytes(length) {
        data = static_cast<char*>(
            mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    }
    ~Mapping() {
        if (data != MAP_FAILED) munmap(data, bytes);
    }
    std::size_t bytes;
    char* data;
};

/// Whether this kernel populates memory on request (MADV_POPULATE_WRITE, Linux 5.14).
bool kernel_populates() {
#ifdef MADV_POPULATE_WRITE
    const auto page = system_page_bytes();
    Mapping m(page);
    return m.data != MAP_FAILED && madvise(m.data, page, MADV_POPULATE_WRITE) == 0;
#else
    return false;
#endif
}

} // namespace

class TestZeroedAllocator : public QObject {
    Q_OBJECT
  private slots:
    void small_and_mapped_arrays_are_zeroed_and_on_a_line() {
        check_zeroed_and_aligned<ZeroedVector>(100);
        check_zeroed_and_aligned<ZeroedVector>(1000 * 1000 + 7);
        check_zeroed_and_aligned<ZeroedHugeVector>(100);
        check_zeroed_and_aligned<ZeroedHugeVector>(1000 * 1000 + 7);
        check_zeroed_and_aligned<UnpopulatedHugeVector>(100);
        check_zeroed_and_aligned<UnpopulatedHugeVector>(1000 * 1000 + 7);
    }

    void mapped_arrays_start_at_different_offsets_in_their_page() {
        std::vector<ZeroedVector> arrays(64);
        std::set<std::uintptr_t> offsets;
        for (auto& a : arrays) {
            a.resize(std::size_t(1) << 19); // 2 MB: mapped
            offsets.insert(reinterpret_cast<std::uintptr_t>(a.data()) % 4096);
        }
        QCOMPARE(offsets.size(), arrays.size());
        for (std::uintptr_t o : offsets)
            QCOMPARE(o % cache_line_bytes, std::uintptr_t(0));
    }

    void pages_are_populated_by_the_kernel_from_a_start_inside_a_page() {
        if (!kernel_populates())
            QSKIP("this kernel has no MADV_POPULATE_WRITE: pages are touched one by one");
        const auto page = system_page_bytes();
        // 40 MB: several chunks for the team; the range starts 17 lines into a page and ends inside one, as a
        // staggered array does (madvise refused such a start, and every page then faulted alone).
        const std::size_t bytes = (std::size_t(40) << 20) + 123;
        Mapping m(bytes + 2 * page);
        QVERIFY(m.data != MAP_FAILED);
        char* const start = m.data + 17 * cache_line_bytes;
        std::size_t pages = 0;
        QCOMPARE(resident_pages(start, bytes, pages), std::size_t(0));
        QVERIFY(populate_pages(start, bytes));
        QCOMPARE(resident_pages(start, bytes, pages), pages);
        QVERIFY(std::all_of(start, start + bytes, [](char c) { return c == 0; }));
    }

    void mapped_arrays_are_resident_when_handed_out() {
        for (const std::size_t n : {std::size_t(1) << 18, (std::size_t(5) << 20) + 7}) {
            ZeroedVector v;
            v.resize(n);
            std::size_t pages = 0;
            QCOMPARE(resident_pages(v.data(), n * sizeof(float), pages), pages);
        }
    }

    // What a 3D state does with its y- and z-axis memory variables: an array mapped but not populated holds
    // no memory until a part of it is populated (there, every page), and reads as zeros everywhere.
    void unpopulated_arrays_take_memory_only_where_populated() {
        check_populated_only_in_part<UnpopulatedHugeVector>();
        check_populated_only_in_part<UnpopulatedVector>();
    }

    void given_back_arrays_leave_no_mapping() {
        check_unmapped_when_given_back<ZeroedVector>();
        check_unmapped_when_given_back<ZeroedHugeVector>();
        check_unmapped_when_given_back<UnpopulatedHugeVector>();
        check_unmapped_when_given_back<UnpopulatedVector>();
    }
};

QTEST_APPLESS_MAIN(TestZeroedAllocator)
#include "tst_zeroed_allocator.moc"
