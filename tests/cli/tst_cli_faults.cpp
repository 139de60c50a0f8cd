// Faults from the outside, end to end: a full disk while saving a project (a file size limit set with
// prlimit, and a real ENOSPC on a small tmpfs where a mount namespace can be made), a read-only or unreadable
// project, and SIGINT/SIGTERM in the middle of every long command. Each must give its documented exit code (3
// resources, 130 interrupted) and a clear message, leave the previous project byte for byte as it was, and
// leave no temporary file or scratch directory behind.
//
// The tests run as root in CI, whom the kernel lets read and write anything: the permission rule they check
// is FWI Studio's own (a mode with no w bit is read-only and no r bit unreadable for everyone), so they mean
// the same for any user.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <csignal>

#include "cli_runner.hpp"

using fwi::test::file_bytes;
using fwi::test::fwi_cli;
using Run = fwi::test::CliRun;

namespace {

const QStringList small_project_args{
    "--model", "builtin:layered", "--resample", "25",  "--shots", "2", "--receivers", "20", "--freq", "6",
    "--dt",    "0.004",           "--duration", "0.8", "--order", "4", "--pml",       "10"};

/// `args` with "@P" replaced by `project`.
QStringList with_project(QStringList args, const QString& project) {
    for (QString& a : args)
        if (a == "@P") a = project;
    return args;
}

/// The commands that save a project, with "@P" for it; each writes more than the small project holds.
void add_saving_commands() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("new") << (QStringList{"-q", "new", "--force", "@P"} + small_project_args);
    QTest::newRow("gradient --store") << QStringList{"-q", "gradient", "@P", "--store"};
    QTest::newRow("forward --store-observed") << QStringList{"-q", "forward", "@P", "--store-observed"};
    QTest::newRow("invert") << QStringList{"-q", "invert", "@P", "--iterations", "1"};
}

/// Every entry of `dir` but `keep` (temporary files, scratch directories).
QStringList leftovers(const QString& dir, const QString& keep) {
    QStringList names = QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    names.removeAll(keep);
    return names;
}

QProcessEnvironment one_thread() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMP_NUM_THREADS", "1");
    return env;
}

} // namespace

class TestCliFaults : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString small_; ///< 2 shots of 0.8 s on a 25 m grid, with observed data (about 60 kB)
    QString slow_;  ///< 16 shots of 3 s on a 10 m grid, with observed data: a gradient takes seconds
    QString fine_;  ///< 16 shots of 3 s on a 5 m grid, no data: a forward run takes seconds

    /// A new project in directory `name`: 2 shots of 4000 receivers and 6 samples (375 KiB of traces, 1.04
    /// MiB of stencils); empty when `fwi new` failed.
    QString many_receivers_project(const QString& name) {
        QDir(dir_.path()).mkdir(name);
        const QString project = dir_.filePath(name + "/p.fwi");
        const Run r = fwi_cli({"-q", "new", project, "--model", "builtin:layered", "--resample", "25",
                               "--shots", "2", "--receivers", "4000", "--freq", "6", "--duration", "0.02",
                               "--order", "4", "--pml", "10"});
        if (r.code != 0) qWarning("fwi new: %s", r.err.constData());
        return r.code == 0 ? project : QString();
    }

    /// A fresh copy of `source` alone in a new directory `name`.
    QString copy_alone(const QString& source, const QString& name) {
        QDir(dir_.path()).mkdir(name);
        const QString copy = dir_.filePath(name + "/p.fwi");
        QFile::remove(copy);
        return QFile::copy(source, copy) ? copy : QString();
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        small_ = dir_.filePath("small.fwi");
        Run r = fwi_cli(QStringList{"-q", "new", small_} + small_project_args);
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", small_, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
        slow_ = dir_.filePath("slow.fwi");
        r = fwi_cli({"-q", "new", slow_, "--model", "builtin:layered", "--resample", "10", "--shots", "16",
                     "--receivers", "20", "--freq", "6", "--duration", "3", "--order", "4", "--pml", "10"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", slow_, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
        fine_ = dir_.filePath("fine.fwi");
        r = fwi_cli({"-q", "new", fine_, "--model", "builtin:layered", "--resample", "5", "--shots", "16",
                     "--receivers", "20", "--freq", "6", "--duration", "3", "--order", "4", "--pml", "10"});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    /// Traces a run must hold that exceed the machine (here FWI_MACHINE_MEMORY: the small project's 2 shots
    /// hold 63 KiB in a forward run, 94 KiB in a gradient) are refused at once, exit 3: 10 shots of 10^6
    /// receivers ran 8 minutes before the out-of-memory killer ended `fwi forward` without a word.
    void traces_that_cannot_fit_the_machine_are_refused_at_once() {
        const QString project = copy_alone(small_, "traces");
        const QByteArray before = file_bytes(project);
        qputenv("FWI_MACHINE_MEMORY", "80K");
        const auto restore = qScopeGuard([] { qunsetenv("FWI_MACHINE_MEMORY"); });
        Run r = fwi_cli({"-q", "forward", project});
        QVERIFY2(r.code == 0, r.err.constData()); // 63 KiB fit
        r = fwi_cli({"-q", "gradient", project, "--schedule", "auto", "--budget", "20M", "--store"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("a gradient of 2 shots holds their traces") &&
                     r.err.contains("more than this machine's 80 KiB (FWI_MACHINE_MEMORY)"),
                 r.err.constData());
        qputenv("FWI_MACHINE_MEMORY", "40K");
        r = fwi_cli({"-q", "forward", project, "--store-observed"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("modelling 2 shots holds their traces") && r.err.contains("fewer receivers"),
                 r.err.constData());
        QCOMPARE(file_bytes(project), before);
    }

    /// The source and receiver stencils every shot's simulation holds count too: 2 shots of 4000 receivers
    /// and 6 samples hold 375 KiB of traces and 1.04 MiB of stencils (6 KiB a point in 3D before they became
    /// boxes of axis weights, and counted nowhere).
    void stencils_count_against_the_machine() {
        const QString project = many_receivers_project("stencils");
        QVERIFY(!project.isEmpty());
        qputenv("FWI_MACHINE_MEMORY", "1M"); // the traces alone fit
        const auto restore = qScopeGuard([] { qunsetenv("FWI_MACHINE_MEMORY"); });
        Run r = fwi_cli({"-q", "forward", project});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("modelling 2 shots holds their traces") &&
                     r.err.contains("and their stencils (1.0"),
                 r.err.constData());
        qputenv("FWI_MACHINE_MEMORY", "2M");
        r = fwi_cli({"-q", "forward", project});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    // `fwi plan` probes a shot's set-up as a gradient does it (its traces at both rates): where a gradient's
    // traces cannot fit, it says so before probing (4 shots of 10^6 receivers took it to 8.3 GB).
    void plan_refuses_what_a_gradient_cannot_hold() {
        const QString project = many_receivers_project("plan_traces");
        QVERIFY(!project.isEmpty());
        // Modelling needs 1.40 MiB, a gradient 1.77 MiB (its shot's traces and adjoint source at both rates).
        qputenv("FWI_MACHINE_MEMORY", "1600000");
        const auto restore = qScopeGuard([] { qunsetenv("FWI_MACHINE_MEMORY"); });
        Run r = fwi_cli({"-q", "forward", project});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "plan", project});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("a gradient of 2 shots holds their traces") &&
                     r.err.contains("for one shot's modelled traces and adjoint source"),
                 r.err.constData());
        qputenv("FWI_MACHINE_MEMORY", "2M");
        r = fwi_cli({"-q", "plan", project});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    // A file size limit: every write past it fails with EFBIG (fwi ignores SIGXFSZ, which would kill it).
    void saving_past_a_file_size_limit_keeps_the_project_data() { add_saving_commands(); }
    void saving_past_a_file_size_limit_keeps_the_project() {
        QFETCH(QStringList, args);
        const QString prlimit = QStandardPaths::findExecutable("prlimit");
        if (prlimit.isEmpty()) QSKIP("prlimit (util-linux) is not installed");
        const QString project = copy_alone(small_, "fsize");
        QVERIFY(!project.isEmpty());
        const QByteArray before = file_bytes(project);
        const qint64 limit =
            before.size() / 2; // the old file is there already; the new one cannot be written
        QProcess p;
        p.setProcessEnvironment(one_thread());
        p.start(prlimit,
                QStringList{QString("--fsize=%1").arg(limit), FWI_CLI_EXE} + with_project(args, project));
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // not killed by SIGXFSZ or SIGSEGV
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains("cannot write '" + project.toUtf8() + "'") && err.contains("File too large"),
                 err.constData());
        QCOMPARE(file_bytes(project), before);
        QCOMPARE(leftovers(QFileInfo(project).path(), "p.fwi"), QStringList());
    }

    // Data files are replaced atomically too: a write that fails part-way (here past a file size limit)
    // leaves the previous file as it was and no temporary file (a .npy or .segy used to be left truncated).
    void writing_gathers_past_a_file_size_limit_keeps_the_old_file_data() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"g.npy", "g.segy", "g.h5"})
            QTest::newRow(name) << QString(name);
    }
    void writing_gathers_past_a_file_size_limit_keeps_the_old_file() {
        QFETCH(QString, name);
        const QString prlimit = QStandardPaths::findExecutable("prlimit");
        if (prlimit.isEmpty()) QSKIP("prlimit (util-linux) is not installed");
        QDir(dir_.path()).mkdir("gathers-" + name);
        const QString out = dir_.filePath("gathers-" + name + "/" + name);
        Run r = fwi_cli({"-q", "forward", small_, "--out", out, "--snr", "20"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray before = file_bytes(out);
        QProcess p;
        p.setProcessEnvironment(one_thread());
        p.start(prlimit, QStringList{QString("--fsize=%1").arg(before.size() / 2), FWI_CLI_EXE, "-q",
                                     "forward", small_, "--out", out}); // noise-free: other bytes than before
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains(out.toUtf8()) && err.contains("File too large"), err.constData());
        QCOMPARE(file_bytes(out), before);
        QCOMPARE(leftovers(QFileInfo(out).path(), name), QStringList());
    }

    // Text outputs (Markdown tables, demo summaries) go through the same atomic replacement.
    void writing_a_markdown_table_past_a_file_size_limit_keeps_the_old_file() {
        const QString prlimit = QStandardPaths::findExecutable("prlimit");
        if (prlimit.isEmpty()) QSKIP("prlimit (util-linux) is not installed");
        QDir(dir_.path()).mkdir("markdown");
        const QString out = dir_.filePath("markdown/codecs.md");
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("an earlier table\n");
        f.close();
        QProcess p;
        p.setProcessEnvironment(one_thread());
        p.start(prlimit, QStringList{"--fsize=40", FWI_CLI_EXE, "-q", "bench", "--codecs", "lz4", "--nz",
                                     "64", "--nx", "64", "--wavefield-steps", "20", "--codec-threads", "1",
                                     "--repeats", "1", "--markdown", out});
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains(out.toUtf8()) && err.contains("File too large"), err.constData());
        QCOMPARE(file_bytes(out), QByteArray("an earlier table\n"));
        QCOMPARE(leftovers(QFileInfo(out).path(), "codecs.md"), QStringList());
    }

    // A real full file system: a tmpfs just larger than the project, mounted in a private mount namespace
    // (unshare -rm needs unprivileged user namespaces; skipped where they are off).
    void saving_onto_a_full_file_system_keeps_the_project_data() { add_saving_commands(); }
    void saving_onto_a_full_file_system_keeps_the_project() {
        QFETCH(QStringList, args);
        const QString unshare = QStandardPaths::findExecutable("unshare");
        if (unshare.isEmpty()) QSKIP("unshare (util-linux) is not installed");
        const QString mount_point = dir_.filePath("tmpfs");
        QDir().mkpath(mount_point);
        const QByteArray before = file_bytes(small_);
        const qint64 size_kib = before.size() / 1024 + 8; // room for the project and no second copy
        // The file system vanishes with the namespace, so the checks that need it run inside: $1 mount point,
        // $2 the project, $3 the file for fwi's stderr, then the command.
        const QString body = QString(R"(set -u
mnt=$1; src=$2; err=$3; shift 3
mount -t tmpfs -o size=%1k tmpfs "$mnt" || exit 77
cp "$src" "$mnt/p.fwi" || exit 78
OMP_NUM_THREADS=1 "$@" 2>"$err"; echo "code=$?"
cmp -s "$src" "$mnt/p.fwi" && echo "unchanged"
ls -A "$mnt")")
                                 .arg(size_kib);
        const QString err_file = dir_.filePath("tmpfs.err");
        QProcess p;
        p.start(unshare, QStringList{"--map-root-user", "--mount", "sh", "-c", body, "sh", mount_point,
                                     small_, err_file, FWI_CLI_EXE} +
                             with_project(args, mount_point + "/p.fwi"));
        QVERIFY(p.waitForFinished(120000));
        if (p.exitCode() == 77 || (p.exitCode() != 0 && p.exitCode() != 78))
            QSKIP(qPrintable("no private tmpfs here: " + p.readAllStandardError()));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray out = p.readAllStandardOutput();
        const QByteArray err = file_bytes(err_file);
        QVERIFY2(out.contains("code=3\n"), (out + err).constData());
        QVERIFY2(err.contains("No space left on device"), err.constData());
        QVERIFY2(out.contains("unchanged\n"), out.constData());
        QVERIFY2(out.endsWith("p.fwi\n") && out.count('\n') == 3, out.constData()); // nothing else there
    }

    // Mode 0444 in a writable directory: refused before any work, never replaced, mode kept.
    void a_read_only_project_is_never_replaced_data() { add_saving_commands(); }
    void a_read_only_project_is_never_replaced() {
        QFETCH(QStringList, args);
        const QString project = copy_alone(small_, "readonly");
        QVERIFY(!project.isEmpty());
        const QByteArray before = file_bytes(project);
        const auto read_only = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther;
        QVERIFY(QFile::setPermissions(project, read_only));
        const Run r = fwi_cli(with_project(args, project));
        QVERIFY(QFile::setPermissions(project, read_only | QFile::WriteOwner)); // QTemporaryDir can clean up
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("read-only") && r.err.contains(project.toUtf8()), r.err.constData());
        QCOMPARE(file_bytes(project), before);
        QCOMPARE(leftovers(QFileInfo(project).path(), "p.fwi"), QStringList());
    }

    // Mode 0000: a resource problem (exit 3), as docs/cli.md says, for root too.
    void an_unreadable_project_is_a_resource_error() {
        const QString project = copy_alone(small_, "unreadable");
        QVERIFY(!project.isEmpty());
        QVERIFY(QFile::setPermissions(project, {}));
        const Run info = fwi_cli({"info", project});
        const Run gradient = fwi_cli({"gradient", project, "--store"});
        QVERIFY(QFile::setPermissions(project, QFile::ReadOwner | QFile::WriteOwner));
        for (const Run& r : {info, gradient}) {
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains("permission denied") && r.err.contains(project.toUtf8()),
                     r.err.constData());
        }
        QCOMPARE(file_bytes(project), file_bytes(small_));
    }

    // The signal comes once the command is under way: for the gradient when its disk tier's scratch directory
    // exists, for the others after a fixed delay (each would run for several seconds uninterrupted).
    void an_interrupt_stops_every_long_command_cleanly_data() {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("signal");
        QTest::addColumn<bool>("saves");
        const QStringList gradient{"gradient",       "@P",        "--store", "--schedule",
                                   "multilevel:2,8", "--scratch", "@S"};
        QTest::newRow("gradient SIGINT") << "slow" << gradient << SIGINT << false;
        QTest::newRow("gradient SIGTERM") << "slow" << gradient << SIGTERM << false;
        QTest::newRow("forward SIGINT")
            << "fine" << QStringList{"forward", "@P", "--store-observed"} << SIGINT << false;
        QTest::newRow("taylor SIGTERM") << "slow" << QStringList{"taylor", "@P"} << SIGTERM << false;
        QTest::newRow("invert SIGTERM")
            << "slow" << QStringList{"invert", "@P", "--iterations", "20"} << SIGTERM << true;
        QTest::newRow("bench SIGINT")
            << "" << QStringList{"bench", "--nz", "2000", "--nx", "2000", "--steps", "400", "--orders", "8"}
            << SIGINT << false;
    }
    void an_interrupt_stops_every_long_command_cleanly() {
        QFETCH(QString, which);
        QFETCH(QStringList, args);
        QFETCH(int, signal);
        QFETCH(bool, saves);
        const QString name = QString("signal-%1").arg(QTest::currentDataTag()).replace(' ', '_');
        const QString project =
            which.isEmpty() ? QString() : copy_alone(which == "slow" ? slow_ : fine_, name);
        const QString scratch = dir_.filePath(name + "-scratch");
        QDir().mkpath(scratch);
        const QByteArray before = project.isEmpty() ? QByteArray() : file_bytes(project);
        for (QString& a : args)
            if (a == "@S") a = scratch;

        QProcess p;
        p.setProcessEnvironment(one_thread());
        p.start(FWI_CLI_EXE, QStringList{"-q"} + with_project(args, project));
        QVERIFY(p.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        const bool waits_for_scratch = args.contains(scratch);
        while (waits_for_scratch && QDir(scratch).isEmpty() && clock.elapsed() < 20000 &&
               p.state() == QProcess::Running)
            QThread::msleep(5);
        if (!waits_for_scratch) QThread::msleep(700);
        QVERIFY2(p.state() == QProcess::Running, "finished before the signal: make its work longer");
        if (waits_for_scratch) QVERIFY(!QDir(scratch).isEmpty());
        ::kill(pid_t(p.processId()), signal);
        QElapsedTimer stopping;
        stopping.start();
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // not killed by the signal
        QVERIFY2(p.exitCode() == 130, err.constData());
        QVERIFY2(err.contains("cancelled"), err.constData());
        qInfo("stopped %.2f s after the signal", double(stopping.elapsed()) / 1000);
        QCOMPARE(leftovers(scratch, ""), QStringList()); // the disk tier's scratch directory is gone
        if (project.isEmpty()) return;
        QCOMPARE(leftovers(QFileInfo(project).path(), "p.fwi"), QStringList());
        if (saves) // invert saves what it has on the way out; the file must still be a project
            QCOMPARE(fwi_cli({"info", project}).code, 0);
        else
            QCOMPARE(file_bytes(project), before);
    }
};

QTEST_GUILESS_MAIN(TestCliFaults)
#include "tst_cli_faults.moc"
