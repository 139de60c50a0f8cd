// SnapshotArena: slots handed out per step, reused after release, never more than declared; the accounting
// the executor reports as tier 0's snapshot bytes; its memory kept by the touched-memory pool for the next
// arena of the process (trimmed to a smaller one, grown for a larger one, only new pages touched).
#include "engine/snapshot_arena.hpp"
#include "fwi/error.hpp"
#include "fwi/gradient_engine.hpp"

#include <QtTest>
#include <set>

using namespace fwi;

class TestSnapshotArena : public QObject {
    Q_OBJECT
  private slots:
    void slots_are_distinct_and_stable() {
        SnapshotArena a(3, 1000);
        float* s0 = a.acquire(10);
        float* s1 = a.acquire(11);
        float* s2 = a.acquire(12);
        QCOMPARE(std::set<float*>({s0, s1, s2}).size(), std::size_t(3));
        QCOMPARE(a.acquire(11), s1); // the same step keeps its slot
        QCOMPARE(a.find(12), s2);
        QCOMPARE(a.find(13), static_cast<const float*>(nullptr));
        // Slots do not overlap: writing one leaves the others as they were.
        std::fill(s0, s0 + 1000, 1.0f);
        std::fill(s1, s1 + 1000, 2.0f);
        std::fill(s2, s2 + 1000, 3.0f);
        QCOMPARE(s0[999], 1.0f);
        QCOMPARE(s1[0], 2.0f);
        QCOMPARE(s1[999], 2.0f);
        QCOMPARE(s2[0], 3.0f);
    }

    void slots_in_a_backends_memory_touch_nothing_on_the_host() {
        struct Lent final : SnapshotMemory { // a backend's memory, here plain host floats
            std::vector<float> floats_;
            explicit Lent(std::size_t n) : floats_(n) {}
            float* data() override { return floats_.data(); }
            std::int64_t floats() const override { return std::int64_t(floats_.size()); }
        };
        auto lent = std::make_unique<Lent>(3 * 100);
        const float* base = lent->data();
        SnapshotArena a(3, 100, std::move(lent));
        QVERIFY(a.in_backend_memory());
        std::set<const float*> held;
        for (std::int64_t step : {4, 5, 6}) {
            const float* s = a.acquire(step);
            QVERIFY(s >= base && s + 100 <= base + 300);
            held.insert(s);
        }
        QCOMPARE(held.size(), std::size_t(3));
        QCOMPARE(a.bytes_in_use(), std::uint64_t(300 * sizeof(float)));
        QCOMPARE(a.fresh_bytes(), std::uint64_t(0));
        // Memory too small for the slots declared is refused.
        QVERIFY_THROWS_EXCEPTION(ConfigError, SnapshotArena(4, 100, std::make_unique<Lent>(399)));
        QVERIFY(!SnapshotArena(1, 10).in_backend_memory());
    }

    void a_full_arena_refuses_and_released_slots_are_reused() {
        SnapshotArena a(2, 16);
        a.acquire(0);
        float* s1 = a.acquire(1);
        QVERIFY_THROWS_EXCEPTION(Error, a.acquire(2));
        a.release(1);
        QCOMPARE(a.find(1), static_cast<const float*>(nullptr));
        QCOMPARE(a.acquire(2), s1);
        a.release(7); // not held: no-op
        a.release_all();
        QCOMPARE(a.bytes_in_use(), std::uint64_t(0));
        a.acquire(5);
        a.acquire(6);
        QVERIFY_THROWS_EXCEPTION(Error, a.acquire(8));
    }

    void accounting_counts_held_slots_and_their_peak() {
        SnapshotArena a(4, 256);
        QCOMPARE(a.slot_bytes(), std::uint64_t(1024));
        QCOMPARE(a.capacity_bytes(), std::uint64_t(4096));
        QCOMPARE(a.bytes_in_use(), std::uint64_t(0));
        a.acquire(1);
        a.acquire(2);
        a.acquire(3);
        a.release(2);
        QCOMPARE(a.bytes_in_use(), std::uint64_t(2048));
        QCOMPARE(a.peak_bytes(), std::uint64_t(3072));
    }

    /// Host slots start on cache lines, as the kernels' arrays do (their loops align to one array and expect
    /// the others congruent), so a snapshot of 250 floats takes 256 floats of the mapping, and the accounting
    /// counts what the mapping holds; the copy in and out stays the snapshot's 1000 bytes.
    void host_slots_start_on_cache_lines_and_count_their_padding() {
        SnapshotArena a(4, 250);
        QCOMPARE(a.slot_bytes(), std::uint64_t(1000));
        QCOMPARE(a.slot_stride_bytes(), std::uint64_t(1024));
        QCOMPARE(a.capacity_bytes(), std::uint64_t(4096));
        for (std::int64_t step = 0; step < 4; ++step)
            QCOMPARE(reinterpret_cast<std::uintptr_t>(a.acquire(step)) % 64, std::uintptr_t(0));
        QCOMPARE(a.bytes_in_use(), std::uint64_t(4096));
        QCOMPARE(a.peak_bytes(), std::uint64_t(4096));
    }

    void the_next_arena_reuses_the_memory_of_the_last() {
        release_retained_snapshot_memory();
        const std::int64_t floats = 1 << 20; // 4 MiB slots
        const std::uint64_t slot = std::uint64_t(floats) * sizeof(float);
        float* first = nullptr;
        {
            SnapshotArena a(4, floats);
            QCOMPARE(a.fresh_bytes(), 4 * slot);
            first = a.acquire(0);
            std::fill(first, first + floats, 7.0f);
        }
        QCOMPARE(retained_touched_bytes(), std::size_t(4 * slot));
        {
            SnapshotArena smaller(2,
                                  floats); // served from the pool, trimmed: nothing fresh, nothing extra held
            QCOMPARE(smaller.fresh_bytes(), std::uint64_t(0));
            QCOMPARE(smaller.acquire(3), first); // the same memory
            QCOMPARE(retained_touched_bytes(), std::size_t(0));
        }
        QCOMPARE(retained_touched_bytes(), std::size_t(2 * slot));
        {
            SnapshotArena larger(5, floats); // grown: only the three new slots are touched
            QCOMPARE(larger.fresh_bytes(), 3 * slot);
            float* last = nullptr;
            for (int s = 0; s < 5; ++s)
                last = larger.acquire(s);         // slots in order: the last one is in the grown part
            std::fill(last, last + floats, 1.0f); // every page of the grown mapping is writable
            QCOMPARE(last[floats - 1], 1.0f);
        }
        QCOMPARE(retained_touched_bytes(), std::size_t(5 * slot));
        release_retained_snapshot_memory();
        QCOMPARE(retained_touched_bytes(), std::size_t(0));
        SnapshotArena fresh(1, floats);
        QCOMPARE(fresh.fresh_bytes(), slot);
    }

    void bad_sizes_are_config_errors() {
        QVERIFY_THROWS_EXCEPTION(ConfigError, SnapshotArena(0, 10));
        QVERIFY_THROWS_EXCEPTION(ConfigError, SnapshotArena(3, 0));
    }
};

QTEST_GUILESS_MAIN(TestSnapshotArena)
#include "tst_snapshot_arena.moc"
