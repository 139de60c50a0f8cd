// CheckpointStore: round trips per codec, tier and thread count; exact byte accounting against a model of the
// expected compressed sizes over random put/free/get sequences (budget never exceeded, refusals predicted
// exactly and harmless); the store's allocations against the heap; bad requests. The disk tier's file life
// cycle and its failures: tst_checkpoint_store_disk.cpp.
#include "fwi/checkpoint_store.hpp"
#include "fwi/error.hpp"
#include "store_items.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <malloc.h>
#include <map>
#include <mutex>
#include <new>
#include <omp.h>

using namespace fwi;
using namespace fwi::test;

// Every operator new of this process is counted (usable bytes), so the store's own report of what it holds
// can be checked against the heap.
namespace {
std::atomic<std::int64_t> heap_bytes{0};
}
void* operator new(std::size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    heap_bytes += std::int64_t(malloc_usable_size(p));
    return p;
}
void operator delete(void* p) noexcept {
    if (!p) return;
    heap_bytes -= std::int64_t(malloc_usable_size(p));
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    operator delete(p);
}

namespace {

/// Records the OpenMP thread count each compress and decompress call would get, then defers to lz4.
class ThreadRecordingCodec final : public Codec {
  public:
    std::string name() const override { return inner_->name(); }
    bool lossless() const override { return true; }
    std::size_t max_compressed_bytes(std::int64_t rows, std::int64_t cols) const override {
        return inner_->max_compressed_bytes(rows, cols);
    }
    std::size_t compress(ConstFieldView field, std::vector<std::byte>& out) const override {
        record(compress_threads);
        return inner_->compress(field, out);
    }
    void decompress(const std::byte* in, std::size_t bytes, FieldView field) const override {
        record(decompress_threads);
        inner_->decompress(in, bytes, field);
    }
    mutable std::vector<int> compress_threads, decompress_threads; // read once the store is gone

  private:
    void record(std::vector<int>& calls) const {
        const int n = omp_get_max_threads();
        std::lock_guard lock(mutex_); // two workers compress at once
        calls.push_back(n);
    }
    mutable std::mutex mutex_;
    std::unique_ptr<Codec> inner_ = make_codec("lz4");
};

} // namespace

class TestCheckpointStore : public QObject {
    Q_OBJECT
  private slots:
    void round_trip_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("on_disk");
        QTest::addColumn<int>("threads");
        for (const char* spec : {"none", "zstd", "blosc", "zfp-reversible", "zfp-accuracy:1e-4"})
            for (const bool disk : {false, true})
                for (const int threads : {0, 2})
                    QTest::newRow(
                        qPrintable(QString("%1 %2 %3 threads").arg(spec, disk ? "disk" : "ram").arg(threads)))
                        << QString(spec) << disk << threads;
    }
    void round_trip() {
        QFETCH(QString, spec);
        QFETCH(bool, on_disk);
        QFETCH(int, threads);
        QTemporaryDir tmp;
        std::shared_ptr<const Codec> codec = make_codec(spec.toStdString());
        CheckpointStore store({memory_tier(0), on_disk ? disk_tier(0, tmp.path()) : memory_tier(0, "ram2")},
                              codec, threads);
        std::mt19937 rng(42);
        std::vector<Item> items;
        std::uint64_t raw = 0, stored = 0;
        for (int i = 0; i < 6; ++i) {
            items.push_back(make_item(rng));
            store.put({ItemKind::State, 1, i}, items.back().views());
            raw += raw_bytes(items.back().views());
            stored += stored_size(*codec, items.back());
        }
        for (int i = 0; i < 6; ++i) {
            Item out = empty_like(items[std::size_t(i)]);
            store.get({ItemKind::State, 1, i}, views(out));
            QVERIFY(matches(*codec, items[std::size_t(i)], out, 1e-4));
        }
        const TierStats s = store.stats(1);
        QCOMPARE(s.bytes_in_use, stored);
        QCOMPARE(s.stored_bytes_written, stored);
        QCOMPARE(s.raw_bytes_written, raw);
        QCOMPARE(s.writes, std::int64_t(6));
        QCOMPARE(s.reads, std::int64_t(6));
        QCOMPARE(s.items, std::int64_t(6));
        QCOMPARE(store.stats(0).bytes_in_use, std::uint64_t(0));
        QCOMPARE(store.compression_ratio(), double(raw) / double(stored));
        QVERIFY(s.compress_seconds > 0 && s.decompress_seconds > 0);
        QCOMPARE(s.io_seconds > 0, on_disk);
    }

    void random_sequences_respect_budget_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("on_disk");
        QTest::addColumn<int>("threads");
        for (const char* spec : {"zstd", "zfp-accuracy:1e-3", "none"})
            for (const bool disk : {false, true})
                for (const int threads : {0, 1, 3})
                    QTest::newRow(
                        qPrintable(QString("%1 %2 %3 threads").arg(spec, disk ? "disk" : "ram").arg(threads)))
                        << QString(spec) << disk << threads;
    }
    void random_sequences_respect_budget() {
        // A model of the expected stored sizes predicts every refusal exactly, in both sync and threaded
        // modes.
        QFETCH(QString, spec);
        QFETCH(bool, on_disk);
        QFETCH(int, threads);
        QTemporaryDir tmp;
        std::shared_ptr<const Codec> codec = make_codec(spec.toStdString());
        std::mt19937 rng(7);
        // About three typical items fit: refusals are frequent, and so are acceptances.
        std::uint64_t typical = 0;
        for (int i = 0; i < 12; ++i)
            typical += stored_size(*codec, make_item(rng));
        const std::uint64_t budget = 3 * typical / 12 + 1234;
        const TierConfig tier = on_disk ? disk_tier(budget, tmp.path()) : memory_tier(budget);
        CheckpointStore store({memory_tier(0), tier}, codec, threads);

        std::map<std::int64_t, std::pair<Item, std::uint64_t>> model; // slot -> (content, stored size)
        std::uint64_t model_bytes = 0;
        int refused = 0, accepted = 0;
        const auto check_exact = [&] {
            store.flush();
            const TierStats s = store.stats(1);
            QCOMPARE(s.bytes_in_use, model_bytes);
            QCOMPARE(s.items, std::int64_t(model.size()));
            const std::uint64_t allocated = store.allocated_bytes(1);
            QCOMPARE(allocated, model_bytes); // exact-size frames or files: no slack at all
        };
        for (int op = 0; op < 240; ++op) {
            const std::int64_t slot = std::int64_t(rng() % 8);
            const StoreKey key{slot % 2 ? ItemKind::Snapshot : ItemKind::State, 1, slot};
            const auto found = model.find(slot);
            const unsigned action = rng() % 10;
            if (action < 6) {
                Item item = make_item(rng);
                const std::uint64_t size = stored_size(*codec, item);
                const std::uint64_t old = found != model.end() ? found->second.second : 0;
                const bool fits = model_bytes - old + size <= budget;
                try {
                    store.put(key, item.views());
                    QVERIFY2(fits, "put accepted beyond the budget");
                    model_bytes += size - old;
                    model[slot] = {std::move(item), size};
                    ++accepted;
                } catch (const BudgetExceeded& e) {
                    QVERIFY2(!fits, e.what());
                    QVERIFY(QString(e.what()).contains("tier '" + QString::fromStdString(tier.name) + "'"));
                    QCOMPARE(store.contains(key), found != model.end());
                    ++refused;
                }
            } else if (action < 8) {
                store.free(key);
                if (found != model.end()) {
                    model_bytes -= found->second.second;
                    model.erase(found);
                }
                QVERIFY(!store.contains(key));
            } else if (found != model.end()) {
                Item out = empty_like(found->second.first);
                store.get(key, views(out));
                QVERIFY(matches(*codec, found->second.first, out, 1e-3));
            } else {
                QVERIFY_THROWS_EXCEPTION(Error, store.get(key, {}));
            }
            const TierStats s = store.stats(1);
            QVERIFY(s.bytes_in_use <= budget);
            QVERIFY(s.peak_bytes <= budget);
            if (op % 40 == 39) check_exact();
        }
        check_exact();
        qInfo("%d refused, %d accepted", refused, accepted);
        QVERIFY2(refused > 10 && accepted > 40,
                 qPrintable(QString("%1 refused, %2 accepted").arg(refused).arg(accepted)));
        QCOMPARE(store.stats(1).writes, std::int64_t(accepted));
        if (on_disk) QCOMPARE(files_in(store.scratch_directory(1)).size(), model.size());
        // Everything freed: nothing left, in memory or on disk.
        for (std::int64_t slot = 0; slot < 8; ++slot)
            store.free({slot % 2 ? ItemKind::Snapshot : ItemKind::State, 1, slot});
        QCOMPARE(store.stats(1).bytes_in_use, std::uint64_t(0));
        QCOMPARE(store.allocated_bytes(1), std::uint64_t(0));
        if (on_disk) QVERIFY(files_in(store.scratch_directory(1)).empty());
    }

    void refused_put_leaves_store_unchanged_data() {
        QTest::addColumn<int>("threads");
        QTest::newRow("sync") << 0;
        QTest::newRow("threaded") << 2;
    }
    void refused_put_leaves_store_unchanged() {
        QFETCH(int, threads);
        std::shared_ptr<const Codec> codec = make_codec("zstd");
        std::mt19937 rng(3);
        Item small;
        small.fields.push_back(Field2D(64, 64)); // zeros: tiny when compressed
        Item big;
        big.fields.push_back(random_field(64, 64, 5));
        const std::uint64_t budget = stored_size(*codec, small) + stored_size(*codec, big) / 2;
        CheckpointStore store({memory_tier(budget)}, codec, threads);
        store.put({ItemKind::State, 0, 1}, small.views());
        store.flush();
        const TierStats before = store.stats(0);
        // A new key that does not fit, and a replacement of the stored item by one that does not fit.
        QVERIFY_THROWS_EXCEPTION(BudgetExceeded, store.put({ItemKind::State, 0, 2}, big.views()));
        QVERIFY_THROWS_EXCEPTION(BudgetExceeded, store.put({ItemKind::State, 0, 1}, big.views()));
        store.flush();
        const TierStats after = store.stats(0);
        QCOMPARE(after.bytes_in_use, before.bytes_in_use);
        QCOMPARE(after.items, before.items);
        QCOMPARE(after.writes, before.writes);
        QVERIFY(after.peak_bytes <= budget);
        QVERIFY(!store.contains({ItemKind::State, 0, 2}));
        Item out = empty_like(small);
        store.get({ItemKind::State, 0, 1}, views(out));
        QVERIFY(bit_equal(out.fields[0].values, small.fields[0].values));
        // A BudgetExceeded is a ResourceError.
        try {
            store.put({ItemKind::State, 0, 2}, big.views());
            QFAIL("no exception");
        } catch (const ResourceError& e) {
            QVERIFY(QString(e.what()).contains("state 2"));
        }
    }

    void threaded_put_reserves_worst_case_then_corrects() {
        // While pending, an item counts its worst case; once compressed, its exact size.
        std::shared_ptr<const Codec> codec = make_codec("zstd:12");
        const Field2D f = ricker_ring(256, 256);
        Item item;
        item.fields.push_back(f);
        const std::uint64_t worst = reservation(*codec, item), exact = stored_size(*codec, item);
        QVERIFY(exact < worst);
        CheckpointStore store({memory_tier(10 * worst)}, codec, 1);
        store.put({ItemKind::Snapshot, 0, 5}, item.views());
        const std::uint64_t in_use = store.stats(0).bytes_in_use;
        QVERIFY(in_use == worst || in_use == exact);
        store.flush();
        const TierStats s = store.stats(0);
        QCOMPARE(s.bytes_in_use, exact);
        QCOMPARE(s.snapshot_bytes_in_use, exact);
        QCOMPARE(s.peak_bytes, worst); // the reservation was counted at put
        QCOMPARE(s.peak_snapshot_bytes, worst);
        // Replacing an item that is still pending waits for it; the last put wins.
        Item other;
        other.fields.push_back(ricker_ring(256, 256, 3.0));
        store.put({ItemKind::Snapshot, 0, 5}, other.views());
        store.put({ItemKind::Snapshot, 0, 5}, item.views());
        store.put({ItemKind::Snapshot, 0, 5}, other.views());
        Item out = empty_like(other);
        store.get({ItemKind::Snapshot, 0, 5}, views(out));
        QVERIFY(bit_equal(out.fields[0].values, other.fields[0].values));
        QCOMPARE(store.stats(0).items, std::int64_t(1));
        QCOMPARE(store.stats(0).bytes_in_use, stored_size(*codec, other));
    }

    void allocated_bytes_match_the_heap_data() {
        QTest::addColumn<int>("threads");
        QTest::newRow("sync") << 0;
        QTest::newRow("threaded") << 2;
    }
    void allocated_bytes_match_the_heap() {
        QFETCH(int, threads);
        std::shared_ptr<const Codec> codec = make_codec("zfp-accuracy:1e-3");
        std::mt19937 rng(11);
        std::vector<Item> items;
        for (int i = 0; i < 20; ++i)
            items.push_back(make_item(rng, 64, 64));
        {
            // Warm-up: one-time allocations (thread-local state) are not counted below.
            CheckpointStore warm({memory_tier(0)}, codec, threads);
            warm.put({ItemKind::State, 0, 99}, items[0].views());
            warm.flush();
        }
        const std::int64_t baseline = heap_bytes.load();
        {
            CheckpointStore store({memory_tier(0)}, codec, threads);
            const std::int64_t heap_before = heap_bytes.load();
            for (int i = 0; i < 20; ++i)
                store.put({ItemKind::State, 0, i}, items[std::size_t(i)].views());
            store.flush();
            const std::int64_t held = heap_bytes.load() - heap_before;
            const TierStats s = store.stats(0);
            const std::uint64_t allocated = store.allocated_bytes(0);
            const auto retained = std::int64_t(store.retained_bytes());
            QVERIFY(s.bytes_in_use <= allocated);
            QCOMPARE(allocated, s.bytes_in_use);
            // The heap holds the reported buffers, the ones kept for reuse and bookkeeping (bounded per
            // item), nothing else (no staging left). (A worker's task object, tens of bytes, may outlive
            // flush() by microseconds: hence the 256.)
            QVERIFY2(
                held + 256 >= std::int64_t(allocated) + retained &&
                    held <= std::int64_t(allocated) + retained + 20 * 1024 + 16 * 1024,
                qPrintable(
                    QString("heap %1, allocated %2, retained %3").arg(held).arg(allocated).arg(retained)));
            // Kept buffers never take the store beyond its own peak.
            QVERIFY2(std::uint64_t(retained) <= s.peak_bytes - s.bytes_in_use,
                     qPrintable(QString::number(retained)));
            for (int i = 0; i < 20; ++i)
                store.free({ItemKind::State, 0, i});
            // Freed frames are kept for reuse, up to the peak (and the pool's list of them).
            const std::int64_t left = heap_bytes.load() - heap_before - std::int64_t(store.retained_bytes());
            QVERIFY2(left >= -256 && left <= 4096, qPrintable(QString("%1 bytes left after free").arg(left)));
            QVERIFY(store.retained_bytes() > 0);
            QVERIFY(store.retained_bytes() <= store.stats(0).peak_bytes);
            QCOMPARE(store.allocated_bytes(0), std::uint64_t(0));
        }
        // And the store gives everything back.
        const std::int64_t leaked = heap_bytes.load() - baseline;
        QVERIFY2(std::abs(leaked) <= 256, qPrintable(QString("%1 bytes left after the store").arg(leaked)));
    }

    void reused_buffers_stay_within_the_budget() {
        // "none" frames are the raw floats plus a header: a freed state's frames are exactly the next one's.
        std::shared_ptr<const Codec> codec = make_codec("none");
        std::mt19937 rng(5);
        Item item = make_item(rng, 96, 80);
        const std::uint64_t size = stored_size(*codec, item);
        for (const std::uint64_t budget : {std::uint64_t(0), 3 * size, 3 * size + size / 2}) {
            CheckpointStore store({memory_tier(budget)}, codec, 0);
            for (int round = 0; round < 4; ++round) {
                for (int slot = 0; slot < 3; ++slot)
                    store.put({ItemKind::State, 0, slot}, item.views());
                QCOMPARE(store.stats(0).bytes_in_use, 3 * size);
                if (budget != 0) QVERIFY(store.stats(0).bytes_in_use + store.retained_bytes() <= budget);
                for (int slot = 0; slot < 3; ++slot)
                    store.free({ItemKind::State, 0, slot});
                QCOMPARE(store.retained_bytes(), 3 * size); // all three, for the next round
                QVERIFY(store.retained_bytes() <= store.stats(0).peak_bytes);
                if (budget != 0) QVERIFY(store.retained_bytes() <= budget);
            }
            // Replacing a slot in place reuses its frames: nothing more is kept than before.
            store.put({ItemKind::State, 0, 0}, item.views());
            const std::uint64_t kept = store.retained_bytes();
            for (int i = 0; i < 5; ++i)
                store.put({ItemKind::State, 0, 0}, item.views());
            QCOMPARE(store.retained_bytes(), kept);
            Item out = empty_like(item);
            store.get({ItemKind::State, 0, 0}, views(out));
            QVERIFY(bit_equal(out.fields[0].values, item.fields[0].values));
        }
    }

    void bad_requests_throw() {
        QTemporaryDir tmp;
        std::shared_ptr<const Codec> codec = make_codec("zfp-reversible");
        CheckpointStore store({memory_tier(0), disk_tier(0, tmp.path())}, codec, 0);
        std::mt19937 rng(9);
        Item item = make_item(rng);
        store.put({ItemKind::State, 0, 0}, item.views());
        store.put({ItemKind::State, 1, 0}, item.views());
        Item out = empty_like(item);
        QVERIFY_THROWS_EXCEPTION(Error, store.get({ItemKind::State, 0, 1}, views(out)));    // absent
        QVERIFY_THROWS_EXCEPTION(Error, store.get({ItemKind::Snapshot, 0, 0}, views(out))); // other kind
        QVERIFY_THROWS_EXCEPTION(ConfigError, store.put({ItemKind::State, 2, 0}, item.views()));
        QVERIFY_THROWS_EXCEPTION(ConfigError, store.get({ItemKind::State, -1, 0}, views(out)));
        QVERIFY_THROWS_EXCEPTION(ConfigError, store.free({ItemKind::State, 5, 0}));
        QVERIFY_THROWS_EXCEPTION(ConfigError, store.stats(2));
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 store.put({ItemKind::State, 0, 3}, {ConstFieldView(nullptr, 4, 4)}));
        auto fewer = views(out);
        fewer.pop_back();
        QVERIFY_THROWS_EXCEPTION(FormatError, store.get({ItemKind::State, 0, 0}, fewer));
        Item transposed;
        for (const auto& f : item.fields)
            transposed.fields.emplace_back(f.cols, f.rows);
        QVERIFY_THROWS_EXCEPTION(FormatError, store.get({ItemKind::State, 1, 0}, views(transposed)));
        // A damaged scratch file: one flipped byte, then a truncation.
        const auto file = files_in(store.scratch_directory(1)).at(0);
        {
            std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
            io.seekg(200);
            const char c = char(io.get());
            io.seekp(200);
            io.put(char(c ^ 0x10));
        }
        QVERIFY_THROWS_EXCEPTION(FormatError, store.get({ItemKind::State, 1, 0}, views(out)));
        fs::resize_file(file, fs::file_size(file) - 3);
        QVERIFY_THROWS_EXCEPTION(FormatError, store.get({ItemKind::State, 1, 0}, views(out)));
        fs::remove(file);
        QVERIFY_THROWS_EXCEPTION(ResourceError, store.get({ItemKind::State, 1, 0}, views(out)));
        // The memory tier is unaffected.
        store.get({ItemKind::State, 0, 0}, views(out));
        QVERIFY(matches(*codec, item, out, 0));
    }

    void workers_compress_on_one_thread_and_gets_use_the_callers_team() {
        // Workers run beside the propagator's team: a codec team per worker would oversubscribe the cores
        // (store/worker_pool.cpp). A synchronous put and a get run on the caller's thread and team.
        const int saved = omp_get_max_threads();
        omp_set_num_threads(3);
        auto codec = std::make_shared<ThreadRecordingCodec>();
        std::mt19937 rng(5);
        const Item item = make_item(rng);
        {
            CheckpointStore threaded({memory_tier(0)}, codec, 2);
            for (int i = 0; i < 4; ++i)
                threaded.put({ItemKind::State, 0, i}, item.views());
            threaded.flush();
            Item out = empty_like(item);
            threaded.get({ItemKind::State, 0, 1}, views(out));
        }
        QVERIFY(!codec->compress_threads.empty());
        for (const int n : codec->compress_threads)
            QCOMPARE(n, 1);
        QVERIFY(!codec->decompress_threads.empty());
        for (const int n : codec->decompress_threads)
            QCOMPARE(n, 3);
        codec->compress_threads.clear();
        {
            CheckpointStore sync({memory_tier(0)}, codec, 0);
            sync.put({ItemKind::State, 0, 0}, item.views());
        }
        QVERIFY(!codec->compress_threads.empty());
        for (const int n : codec->compress_threads)
            QCOMPARE(n, 3);
        omp_set_num_threads(saved);
    }

    void constructor_validates() {
        std::shared_ptr<const Codec> codec = make_codec("none");
        QVERIFY_THROWS_EXCEPTION(ConfigError, CheckpointStore({}, codec));
        QVERIFY_THROWS_EXCEPTION(ConfigError, CheckpointStore({memory_tier(0)}, nullptr));
        QVERIFY_THROWS_EXCEPTION(ConfigError, CheckpointStore({memory_tier(0)}, codec, -1));
        CheckpointStore store({memory_tier(100), memory_tier(0, "second")}, codec, 3);
        QCOMPARE(store.tier_count(), 2);
        QCOMPARE(store.tier(1).name, std::string("second"));
        QCOMPARE(store.threads(), 3);
        QCOMPARE(store.codec().name(), std::string("none"));
        QCOMPARE(store.compression_ratio(), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestCheckpointStore)
#include "tst_checkpoint_store.moc"
