// Reading in a fork()ed child first (fwi/isolated_read.hpp): a child that crashes, exits non-zero or hangs is
// a FormatError naming the file; a child that finished (whatever it threw) lets the real read run here.
#include "fwi/error.hpp"
#include "fwi/isolated_read.hpp"
#include "runtime/checked_files.hpp"
#include "runtime/read_hand_over.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <new>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace fwi;

namespace {

bool g_hook_ran = false;
void mark_hook() {
    g_hook_ran = true;
}

/// The FormatError message of read_in_child(path, read), or "" when it returned normally.
QString refusal(const std::function<void()>& read, const std::string& path = "x.fwi") {
    try {
        read_in_child(path, read);
    } catch (const FormatError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

/// A small file that exists (a hand-over needs the file: it compares its version before and after).
struct TempFile {
    std::string path;
    TempFile() {
        char name[] = "/tmp/fwi-isolated-XXXXXX";
        const int fd = ::mkstemp(name);
        if (fd < 0) return;
        if (::write(fd, "abc", 3) == 3) path = name;
        ::close(fd);
    }
    ~TempFile() {
        if (!path.empty()) ::unlink(path.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
};

/// Isolation on, remembering files read safely in `record` (files of any age).
void remember_in(const std::string& record, double min_age_s = 0) {
    IsolatedReadSettings settings;
    settings.enabled = true;
    settings.checked_files = record;
    settings.checked_files_min_age_s = min_age_s;
    set_isolated_reads(settings);
}

/// A read that crashes when it runs in a child: it returns only where no child ran first.
int crashes_in_a_child(pid_t parent) {
    if (::getpid() != parent) std::raise(SIGSEGV);
    return 7;
}

std::size_t lines_in(const std::string& path) {
    std::ifstream in(path);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);)
        ++n;
    return n;
}

} // namespace

class TestIsolatedRead : public QObject {
    Q_OBJECT

  private slots:
    void init() { set_isolated_reads({}); }
    void cleanupTestCase() { set_isolated_reads({}); }

    void aCrashInTheChildIsAFormatErrorNamingTheFile() {
        const QString message = refusal([] { std::raise(SIGSEGV); }, "damaged.fwi");
        QVERIFY2(
            message.startsWith("'damaged.fwi' is damaged: the HDF5 library crashed reading it (signal 11"),
            qPrintable(message));
        QVERIFY2(refusal([] { std::abort(); }).contains("signal 6"), "abort");
    }

    void aNonZeroExitIsAFormatError() {
        const QString message = refusal([] { ::_exit(3); });
        QVERIFY2(message.contains("exit status 3"), qPrintable(message));
    }

    void aHangIsKilledAtTheTimeout() {
        IsolatedReadSettings settings;
        settings.timeout_s = 0.3;
        set_isolated_reads(settings);
        QElapsedTimer timer;
        timer.start();
        const QString message = refusal([] { ::sleep(30); });
        QVERIFY2(message.contains("did not finish reading it"), qPrintable(message));
        QVERIFY2(timer.elapsed() < 5000, "the child was not killed at the timeout");
    }

    void errorsThrownInTheChildAreLeftToTheRealRead() {
        QCOMPARE(refusal([] { throw FormatError("refused"); }), QString());
        QCOMPARE(refusal([] { throw std::bad_alloc(); }), QString());
        QCOMPARE(refusal([] {}), QString());
    }

    void theHookRunsInTheChildBeforeTheRead() {
        IsolatedReadSettings settings;
        settings.child_hook = mark_hook;
        set_isolated_reads(settings);
        QCOMPARE(refusal([] {
                     if (!g_hook_ran) ::_exit(5);
                 }),
                 QString());
        QVERIFY(!g_hook_ran); // only the child's copy was set
    }

    void theChildsRecordsAreTakenOnceInOrder() {
        const float first[3] = {1.5f, -2.0f, 3.25f}, second[3] = {7.0f, 8.0f, 9.0f};
        const TempFile file;
        QVERIFY(!file.path.empty());
        const ReadHandOver decoded = read_in_child(file.path, [&] {
            detail::hand_over("x.h5\n/a", first, sizeof first);
            detail::hand_over("x.h5\n/a", second, sizeof second);
            detail::hand_over("x.h5\n/b", second, sizeof second);
        });
        QCOMPARE(decoded.bytes(), std::uint64_t(3 * sizeof first));
        float got[3] = {};
        QVERIFY(!detail::take_over("x.h5\n/a", got, sizeof got)); // no replay on this thread yet
        const ReadHandOver::Replay replay(decoded);
        QVERIFY(!detail::take_over("x.h5\n/c", got, sizeof got)); // never recorded: the caller reads the file
        QVERIFY(!detail::take_over("x.h5\n/b", got, 2 * sizeof(float))); // another size: read the file
        QVERIFY(detail::take_over("x.h5\n/a", got, sizeof got));
        QVERIFY(std::memcmp(got, first, sizeof got) == 0);
        QVERIFY(detail::take_over("x.h5\n/a", got, sizeof got));
        QVERIFY(std::memcmp(got, second, sizeof got) == 0);
        QVERIFY(!detail::take_over("x.h5\n/a", got, sizeof got)); // each record once
        QVERIFY(detail::take_over("x.h5\n/b", got, sizeof got));
    }

    /// Variable-length strings (read from a file's global heap, where libhdf5 overflowed on a forged file)
    /// come over whole, whatever their length, once each and in order.
    void stringsAreTakenWhateverTheirLength() {
        const std::string empty, word = "m/s", long_text(5000, 'x');
        const TempFile file;
        QVERIFY(!file.path.empty());
        const ReadHandOver decoded = read_in_child(file.path, [&] {
            detail::hand_over("x.h5\n/s", word.data(), word.size());
            detail::hand_over("x.h5\n/s", long_text.data(), long_text.size());
            detail::hand_over("x.h5\n/e", empty.data(), empty.size());
        });
        QVERIFY(!detail::take_over_any("x.h5\n/s")); // no replay on this thread yet
        const ReadHandOver::Replay replay(decoded);
        QCOMPARE(detail::take_over_any("x.h5\n/s"), std::optional<std::string>(word));
        QCOMPARE(detail::take_over_any("x.h5\n/s"), std::optional<std::string>(long_text));
        QVERIFY(!detail::take_over_any("x.h5\n/s"));
        QCOMPARE(detail::take_over_any("x.h5\n/e"), std::optional<std::string>(empty));
        QVERIFY(!detail::take_over_any("x.h5\n/never"));
    }

    void nothingIsHandedOverOutsideAChild() {
        const float values[2] = {1, 2};
        detail::hand_over("x.h5\n/a", values, sizeof values); // no sink here: nothing happens
        const TempFile file;
        const ReadHandOver decoded = read_in_child(file.path, [] {});
        QCOMPARE(decoded.bytes(), std::uint64_t(0));
        const ReadHandOver missing = read_in_child(
            "/nonexistent/x.h5", [&] { detail::hand_over("/nonexistent/x.h5\n/a", values, sizeof values); });
        QCOMPARE(missing.bytes(), std::uint64_t(0)); // no file, no version to compare
    }

    void aFileChangedDuringTheChildsReadIsNotHandedOver() {
        const TempFile file;
        const char* path = file.path.c_str();
        const float values[2] = {1, 2};
        const ReadHandOver unchanged = read_in_child(
            path, [&] { detail::hand_over(std::string(path) + "\n/a", values, sizeof values); });
        QCOMPARE(unchanged.bytes(), std::uint64_t(sizeof values));
        const ReadHandOver changed = read_in_child(path, [&] {
            detail::hand_over(std::string(path) + "\n/a", values, sizeof values);
            FILE* f = std::fopen(path, "a"); // another writer replaces the data meanwhile
            std::fputs("more", f);
            std::fclose(f);
        });
        QCOMPARE(changed.bytes(), std::uint64_t(0));
    }

    void anIncompleteLastRecordIsDropped() {
        // What a child whose write failed (a full memory) leaves: whole records, then part of one.
        const int fd = ::memfd_create("test", MFD_CLOEXEC);
        QVERIFY(fd >= 0);
        const auto record = [&](const std::string& key, std::uint64_t bytes, std::size_t written) {
            struct {
                char magic[4] = {'F', 'W', 'H', 'O'};
                std::uint32_t key_bytes;
                std::uint64_t data_bytes;
            } header;
            header.key_bytes = std::uint32_t(key.size());
            header.data_bytes = bytes;
            std::string out(reinterpret_cast<const char*>(&header), sizeof header);
            out += key;
            out += std::string(written, 'v');
            QVERIFY(::write(fd, out.data(), out.size()) == ssize_t(out.size()));
        };
        record("f\n/a", 8, 8);
        record("f\n/b", 4096, 100); // cut short
        const ReadHandOver decoded = ReadHandOver::index(fd);
        QCOMPARE(decoded.bytes(), std::uint64_t(8));
        const ReadHandOver::Replay replay(decoded);
        char got[4096];
        QVERIFY(detail::take_over("f\n/a", got, 8));
        QVERIFY(!detail::take_over("f\n/b", got, 4096));
    }

    void readIsolatedReturnsTheParentsOwnRead() {
        const pid_t parent = ::getpid();
        int reads_here = 0;
        auto read = [&] {
            if (::getpid() == parent) ++reads_here;
            return 42;
        };
        QCOMPARE(read_isolated("x.h5", "r", read), 42); // off by default: read once, here
        QCOMPARE(reads_here, 1);
        IsolatedReadSettings settings;
        settings.enabled = true;
        set_isolated_reads(settings);
        QCOMPARE(read_isolated("x.h5", "r", read), 42); // the child's read is invisible here
        QCOMPARE(reads_here, 2);
        QVERIFY_THROWS_EXCEPTION(FormatError, read_isolated("x.h5", "r", [] {
                                     std::raise(SIGBUS);
                                     return 0;
                                 }));
    }

    void aFileReadSafelyIsReadDirectlyUntilItChanges() {
        const QTemporaryDir dir;
        const std::string record = dir.filePath("checked-files").toStdString();
        const TempFile file;
        const pid_t parent = ::getpid();
        remember_in(record);
        QCOMPARE(read_isolated(file.path, "r", [] { return 1; }), 1); // a child reads it: remembered
        QCOMPARE(lines_in(record), std::size_t(1));
        QVERIFY(read_safely_before(file.path, "r"));
        QCOMPARE(read_isolated(file.path, "r", [&] { return crashes_in_a_child(parent); }), 7); // no child
        // Another reader reads other objects of the file: checked again.
        QVERIFY(!read_safely_before(file.path, "other"));
        QVERIFY_THROWS_EXCEPTION(
            FormatError, read_isolated(file.path, "other", [&] { return crashes_in_a_child(parent); }));
        // The same bytes rewritten with the old modification time put back: the change time still moved.
        struct stat before {};
        QVERIFY(::stat(file.path.c_str(), &before) == 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(20)); // a clock tick later
        const int fd = ::open(file.path.c_str(), O_WRONLY);
        QVERIFY(fd >= 0);
        QVERIFY(::pwrite(fd, "xyz", 3, 0) == 3);
        const timespec times[2] = {before.st_atim, before.st_mtim};
        QVERIFY(::futimens(fd, times) == 0);
        ::close(fd);
        QVERIFY(!read_safely_before(file.path, "r"));
        QVERIFY_THROWS_EXCEPTION(FormatError,
                                 read_isolated(file.path, "r", [&] { return crashes_in_a_child(parent); }));
        // Off: never trusted, whatever the record says.
        set_isolated_reads({});
        QVERIFY(!read_safely_before(file.path, "r"));
    }

    void freshFilesAndReadsIntoOtherFilesAreNotRemembered() {
        const QTemporaryDir dir;
        const std::string record = dir.filePath("checked-files").toStdString();
        const TempFile file;
        remember_in(record, 3600); // the file changed a moment ago
        QCOMPARE(read_isolated(file.path, "r", [] { return 1; }), 1);
        QVERIFY(!read_safely_before(file.path, "r"));
        remember_in(record);
        QCOMPARE(read_isolated(file.path, "r",
                               [] {
                                   detail::note_other_file_read(); // an external link, a virtual dataset
                                   return 1;
                               }),
                 1);
        QVERIFY(!read_safely_before(file.path, "r"));
        QCOMPARE(lines_in(record), std::size_t(0));
        QCOMPARE(read_isolated(file.path, "r", [] { return 1; }), 1);
        QVERIFY(read_safely_before(file.path, "r")); // the flag was the child's only
    }

    void theRecordKeepsTheNewestFiles() {
        const QTemporaryDir dir;
        const std::string record = dir.filePath("sub/checked-files").toStdString(); // made when missing
        FileVersion v;
        v.size = 10;
        v.modified_ns = v.changed_ns = 1; // 1970: old enough
        for (std::size_t i = 0; i < detail::max_checked_files + 10; ++i) {
            v.inode = ino_t(i + 1);
            detail::remember_read_safely(record, v, "r", 2);
            detail::remember_read_safely(record, v, "r", 2); // once only
        }
        QCOMPARE(lines_in(record), detail::max_checked_files);
        QVERIFY(detail::was_read_safely(record, v, "r"));
        v.inode = 1;
        QVERIFY(!detail::was_read_safely(record, v, "r")); // the oldest went
        v.inode = 11;
        QVERIFY(detail::was_read_safely(record, v, "r"));
        QVERIFY(!detail::was_read_safely({}, v, "r"));
        { // a damaged record is an empty one
            std::ofstream out(record);
            out << std::string(5000, '\0') << "\n\xff\xfe garbage\n";
        }
        QVERIFY(!detail::was_read_safely(record, v, "r"));
        detail::remember_read_safely(record, v, "r", 2);
        QVERIFY(detail::was_read_safely(record, v, "r"));
    }
};

QTEST_GUILESS_MAIN(TestIsolatedRead)
#include "tst_isolated_read.moc"
