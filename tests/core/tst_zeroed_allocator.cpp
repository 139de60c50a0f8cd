// ZeroedAllocator: arrays start zeroed and on a cache line; mapped ones start at staggered offsets within
// their first page (no two of 64 consecutive arrays at the same offset modulo 4 KiB, which would make the
// kernels' loads and stores alias in the core's 4 KiB check); giving an array back unmaps all of it,
// huge-page mappings of sizes that are no multiple of a page included.
#include "runtime/cache_line.hpp"
#include "runtime/zeroed_allocator.hpp"

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

} // namespace

class TestZeroedAllocator : public QObject {
    Q_OBJECT
  private slots:
    void small_and_mapped_arrays_are_zeroed_and_on_a_line() {
        check_zeroed_and_aligned<ZeroedVector>(100);
        check_zeroed_and_aligned<ZeroedVector>(1000 * 1000 + 7);
        check_zeroed_and_aligned<ZeroedHugeVector>(100);
        check_zeroed_and_aligned<ZeroedHugeVector>(1000 * 1000 + 7);
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

    void given_back_arrays_leave_no_mapping() {
        check_unmapped_when_given_back<ZeroedVector>();
        check_unmapped_when_given_back<ZeroedHugeVector>();
    }
};

QTEST_APPLESS_MAIN(TestZeroedAllocator)
#include "tst_zeroed_allocator.moc"
