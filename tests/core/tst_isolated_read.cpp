// Reading in a fork()ed child first (fwi/isolated_read.hpp): a child that crashes, exits non-zero or hangs is
// a FormatError naming the file; a child that finished (whatever it threw) lets the real read run here.
#include "fwi/error.hpp"
#include "fwi/isolated_read.hpp"

#include <QElapsedTimer>
#include <QtTest>
#include <csignal>
#include <new>
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

    void readIsolatedReturnsTheParentsOwnRead() {
        const pid_t parent = ::getpid();
        int reads_here = 0;
        auto read = [&] {
            if (::getpid() == parent) ++reads_here;
            return 42;
        };
        QCOMPARE(read_isolated("x.h5", read), 42); // off by default: read once, here
        QCOMPARE(reads_here, 1);
        IsolatedReadSettings settings;
        settings.enabled = true;
        set_isolated_reads(settings);
        QCOMPARE(read_isolated("x.h5", read), 42); // the child's read is invisible here
        QCOMPARE(reads_here, 2);
        QVERIFY_THROWS_EXCEPTION(FormatError, read_isolated("x.h5", [] {
                                     std::raise(SIGBUS);
                                     return 0;
                                 }));
    }
};

QTEST_GUILESS_MAIN(TestIsolatedRead)
#include "tst_isolated_read.moc"
