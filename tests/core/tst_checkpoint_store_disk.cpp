// CheckpointStore's disk tier: scratch files live exactly as long as their items (free, replacement,
// destruction, an exception unwinding), and an unwritable scratch directory or a full disk (RLIMIT_FSIZE) is
// a ResourceError that leaves nothing behind.
#include "fwi/checkpoint_store.hpp"
#include "fwi/error.hpp"
#include "store_items.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <stdexcept>
#include <sys/resource.h>

using namespace fwi;
using namespace fwi::test;

namespace {

/// Sets RLIMIT_FSIZE and ignores SIGXFSZ (so writes fail with EFBIG instead of killing us); restores both.
class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &old_);
        previous_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = old_;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, previous_);
    }

  private:
    rlimit old_{};
    void (*previous_)(int) = nullptr;
};

} // namespace

class TestCheckpointStoreDisk : public QObject {
    Q_OBJECT
  private slots:
    void disk_files_live_while_stored_data() {
        QTest::addColumn<int>("threads");
        QTest::newRow("sync") << 0;
        QTest::newRow("threaded") << 2;
    }
    void disk_files_live_while_stored() {
        QFETCH(int, threads);
        QTemporaryDir tmp;
        std::shared_ptr<const Codec> codec = make_codec("lz4");
        std::mt19937 rng(5);
        std::string scratch;
        {
            CheckpointStore store({memory_tier(0), disk_tier(0, tmp.path())}, codec, threads);
            scratch = store.scratch_directory(1);
            QVERIFY(store.scratch_directory(0).empty());
            QCOMPARE(fs::path(scratch).parent_path(), fs::path(tmp.path().toStdString()));
            QVERIFY(fs::is_directory(scratch));
            for (int i = 0; i < 4; ++i)
                store.put({ItemKind::Snapshot, 1, i * 10}, make_item(rng).views());
            store.flush();
            auto files = files_in(scratch);
            QCOMPARE(files.size(), std::size_t(4));
            std::uint64_t on_disk = 0;
            for (const auto& f : files)
                on_disk += fs::file_size(f);
            QCOMPARE(on_disk, store.stats(1).bytes_in_use);
            QCOMPARE(store.allocated_bytes(1), on_disk);
            store.free({ItemKind::Snapshot, 1, 10});
            QCOMPARE(files_in(scratch).size(), std::size_t(3));
            store.put({ItemKind::Snapshot, 1, 20}, make_item(rng).views()); // a replacement keeps one file
            store.flush();
            QCOMPARE(files_in(scratch).size(), std::size_t(3));
            store.put({ItemKind::Snapshot, 1, 50}, make_item(rng).views()); // left pending for the destructor
        }
        QVERIFY(!fs::exists(scratch));
        QVERIFY(QDir(tmp.path()).isEmpty());
    }

    void files_removed_when_an_exception_unwinds() {
        QTemporaryDir tmp;
        std::shared_ptr<const Codec> codec = make_codec("zstd");
        std::mt19937 rng(8);
        const Item item = make_item(rng);
        try {
            CheckpointStore store({disk_tier(0, tmp.path())}, codec, 2);
            for (int i = 0; i < 5; ++i)
                store.put({ItemKind::State, 0, i}, item.views());
            store.flush();
            QCOMPARE(files_in(store.scratch_directory(0)).size(), std::size_t(5));
            for (int i = 5; i < 9; ++i)
                store.put({ItemKind::State, 0, i}, item.views());
            throw std::runtime_error("a propagator failed mid-run");
        } catch (const std::runtime_error&) {
        }
        QVERIFY(QDir(tmp.path()).isEmpty());
        // A refused put writes nothing either.
        CheckpointStore store({disk_tier(reservation(*codec, item) - 1, tmp.path())}, codec, 0);
        Item big;
        big.fields.push_back(random_field(100, 100, 1));
        QVERIFY_THROWS_EXCEPTION(BudgetExceeded, store.put({ItemKind::State, 0, 0}, big.views()));
        QVERIFY(files_in(store.scratch_directory(0)).empty());
    }

    void unwritable_scratch_throws_resource_error_data() {
        QTest::addColumn<QString>("sub");
        QTest::addColumn<QString>("why");
        QTest::newRow("under a regular file") << "file/sub"
                                              << "Not a directory";
        QTest::newRow("a regular file") << "file"
                                        << "Not a directory";
        QTest::newRow("missing") << "missing/deeper"
                                 << "No such file or directory";
    }
    void unwritable_scratch_throws_resource_error() {
        // Tests run as root, so permissions would not stop a write: a path through a regular file does.
        QFETCH(QString, sub);
        QFETCH(QString, why);
        QTemporaryDir tmp;
        QFile file(tmp.filePath("file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const QString dir = tmp.filePath(sub);
        for (const int threads : {0, 2}) {
            try {
                CheckpointStore store({memory_tier(0), disk_tier(0, dir)}, make_codec("none"), threads);
                QFAIL("no exception");
            } catch (const ResourceError& e) {
                QVERIFY2(QString(e.what()).contains(dir) && QString(e.what()).contains(why), e.what());
            }
        }
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{"file"});
    }

    void full_disk_throws_resource_error() {
        QTemporaryDir tmp;
        std::shared_ptr<const Codec> codec = make_codec("none");
        Item item;
        item.fields.push_back(random_field(64, 64, 2)); // 16 KiB + header: over the limit below
        Item small;
        small.fields.push_back(Field2D(8, 8, 1.0f));
        {
            CheckpointStore store({disk_tier(0, tmp.path())}, codec, 0);
            const QString scratch = QString::fromStdString(store.scratch_directory(0));
            store.put({ItemKind::State, 0, 1}, small.views());
            try {
                const FileSizeLimit limit(4096);
                store.put({ItemKind::State, 0, 2}, item.views());
                QFAIL("no exception");
            } catch (const ResourceError& e) {
                QVERIFY2(QString(e.what()).contains(scratch + "/state_2_") &&
                             QString(e.what()).contains("File too large"),
                         e.what());
            }
            QVERIFY(!store.contains({ItemKind::State, 0, 2}));
            QCOMPARE(store.stats(0).bytes_in_use, stored_size(*codec, small));
            QCOMPARE(files_in(store.scratch_directory(0)).size(), std::size_t(1)); // the partial file is gone
            store.put({ItemKind::State, 0, 2}, item.views()); // the limit is lifted: works again
        }
        {
            // Threaded: the failure surfaces at flush and then sticks; free and the destructor still clean
            // up.
            CheckpointStore store({disk_tier(0, tmp.path())}, codec, 2);
            store.put({ItemKind::State, 0, 1}, small.views());
            store.flush();
            {
                const FileSizeLimit limit(4096);
                store.put({ItemKind::State, 0, 2}, item.views());
                QVERIFY_THROWS_EXCEPTION(ResourceError, store.flush());
            }
            QVERIFY(!store.contains({ItemKind::State, 0, 2}));
            QVERIFY_THROWS_EXCEPTION(ResourceError, store.put({ItemKind::State, 0, 3}, small.views()));
            Item out = empty_like(small);
            QVERIFY_THROWS_EXCEPTION(ResourceError, store.get({ItemKind::State, 0, 1}, views(out)));
            QCOMPARE(store.stats(0).bytes_in_use, stored_size(*codec, small));
            store.free({ItemKind::State, 0, 1});
            QVERIFY(files_in(store.scratch_directory(0)).empty());
        }
        QVERIFY(QDir(tmp.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCheckpointStoreDisk)
#include "tst_checkpoint_store_disk.moc"
