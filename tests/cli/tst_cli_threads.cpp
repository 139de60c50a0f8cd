// The CLI's OpenMP defaults: passive waiting after a brief spin unless the user set a policy (checked through
// libgomp's own report of its settings, OMP_DISPLAY_ENV), and --threads.
#include "cli_runner.hpp"
#include "fwi/threading.hpp"

#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

/// fwi with exactly the OpenMP variables given (the test environment's own OMP_* removed first).
Run run_fwi(const QStringList& args, const QMap<QString, QString>& omp_env) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& k : env.keys())
        if (k.startsWith("OMP_") || k.startsWith("GOMP_") || k.startsWith("FWI_PASSIVE")) env.remove(k);
    for (auto it = omp_env.begin(); it != omp_env.end(); ++it)
        env.insert(it.key(), it.value());
    p.setProcessEnvironment(env);
    p.start(FWI_CLI_EXE, args);
    p.waitForFinished(120000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

/// Every GOMP_SPINCOUNT libgomp reported, in order (one report per start of the runtime).
QStringList spin_counts(const QByteArray& err) {
    QStringList counts;
    static const QRegularExpression re("GOMP_SPINCOUNT = '(\\d+)'");
    for (auto it = re.globalMatch(QString::fromUtf8(err)); it.hasNext();)
        counts << it.next().captured(1);
    return counts;
}

} // namespace

class TestCliThreads : public QObject {
    Q_OBJECT
  private slots:
    void waiting_is_passive_by_default() {
        const Run r = run_fwi({"--help"}, {{"OMP_DISPLAY_ENV", "verbose"}});
        QCOMPARE(r.code, 0);
        const QStringList counts = spin_counts(r.err);
        QVERIFY2(!counts.isEmpty(), r.err.constData());
        QCOMPARE(counts.last(), QString(fwi::default_spin_count)); // a brief spin, then passive waiting
        QVERIFY(r.err.contains("OMP_WAIT_POLICY = 'PASSIVE'"));
    }

    /// Re-executed through /proc/self/exe, the process was named "exe" in ps, top and pkill.
    void the_re_executed_process_keeps_its_name() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString& k : env.keys())
            if (k.startsWith("OMP_") || k.startsWith("GOMP_") || k.startsWith("FWI_PASSIVE")) env.remove(k);
        p.setProcessEnvironment(env);
        p.start(FWI_CLI_EXE, {"bench", "--nz", "300", "--nx", "300", "--steps", "100000", "--orders", "2"});
        QVERIFY(p.waitForStarted());
        const QString proc = QString("/proc/%1/").arg(p.processId());
        const auto read = [&](const char* file) {
            QFile f(proc + file);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        // The new image's environment carries the re-execution's guard.
        QTRY_VERIFY_WITH_TIMEOUT(read("environ").contains("FWI_PASSIVE_WAIT_REEXEC=1"), 10000);
        // The new image renames itself first thing in main; its start-up before main (long under the
        // sanitizers) still runs as "exe", so the name is waited for, not read once.
        const QByteArray expected = QFileInfo(FWI_CLI_EXE).fileName().left(15).toUtf8();
        QTRY_COMPARE_WITH_TIMEOUT(read("comm").trimmed(), expected, 10000);
        p.kill();
        p.waitForFinished();
    }

    void the_users_own_policy_wins() {
        const Run active =
            run_fwi({"--help"}, {{"OMP_DISPLAY_ENV", "verbose"}, {"OMP_WAIT_POLICY", "active"}});
        QCOMPARE(active.code, 0);
        const QStringList counts = spin_counts(active.err);
        QCOMPARE(counts.size(), 1); // not re-executed
        QVERIFY(counts.last().toLongLong() > 0);
        const Run spin = run_fwi({"--help"}, {{"OMP_DISPLAY_ENV", "verbose"}, {"GOMP_SPINCOUNT", "12345"}});
        QCOMPARE(spin_counts(spin.err), QStringList({"12345"}));
    }

    void threads_option_sets_the_engine_threads() {
        const Run one = run_fwi({"--json", "--threads", "1", "bench", "--nz", "32", "--nx", "32", "--steps",
                                 "2", "--orders", "2"},
                                {});
        QCOMPARE(one.code, 0);
        QCOMPARE(fwi::test::json_of({one.code, one.out, one.err})["threads"].toInt(), 1);
        const Run three = run_fwi({"--json", "--threads", "3", "bench", "--nz", "32", "--nx", "32", "--steps",
                                   "2", "--orders", "2"},
                                  {});
        QCOMPARE(fwi::test::json_of({three.code, three.out, three.err})["threads"].toInt(), 3);
        QVERIFY(run_fwi({"--threads", "0", "bench"}, {}).code == 2);
    }
};

QTEST_GUILESS_MAIN(TestCliThreads)
#include "tst_cli_threads.moc"
