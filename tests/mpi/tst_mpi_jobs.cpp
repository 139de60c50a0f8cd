// fwi under mpirun: the same binary, 2 and 3 ranks (oversubscribed on small machines), gives the single
// process's forward gathers, gradient and 3-iteration inversion byte for byte; a failing rank stops the job
// with its error and exit code and leaves the project as it was; SIGTERM to one rank stops every rank (exit
// 130) and the project keeps the iterations completed; more ranks than shots works.
#include "cli_runner.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace fwi::test;

namespace {

// Open MPI refuses root unless told (CI runs as root); one OpenMP thread per rank.
QProcessEnvironment mpi_environment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMP_NUM_THREADS", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
    return env;
}

CliRun mpirun(const QStringList& args) {
    QProcess p;
    p.setProcessEnvironment(mpi_environment());
    p.start(FWI_MPIEXEC, args);
    if (!p.waitForFinished(300000)) p.kill();
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

CliRun fwi_ranks(int ranks, const QStringList& args) {
    return mpirun(QStringList{"--oversubscribe", "-n", QString::number(ranks), FWI_CLI_EXE} + args);
}

/// The processes whose parent is `parent` (mpirun starts the local ranks itself).
QList<pid_t> children_of(qint64 parent) {
    QList<pid_t> pids;
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool number = false;
        const pid_t pid = pid_t(entry.toLongLong(&number));
        if (!number) continue;
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly)) continue;
        // pid (comm) state ppid ...: the command may hold spaces, so read after its closing parenthesis.
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == parent) pids << pid;
    }
    return pids;
}

} // namespace

class TestMpiJobs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;

    QString path(const QString& name) const { return dir_.filePath(name); }
    QString copy_of_project(const QString& name) const {
        QFile::remove(path(name));
        return QFile::copy(project_, path(name)) ? path(name) : QString();
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = path("layered.fwi");
        CliRun r = new_layered_project(project_, {.shots = 5, .receivers = 20, .duration_s = 0.8, .pml = 10});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", project_, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void gradient_is_the_single_process_one_bit_for_bit() {
        CliRun r = fwi_cli({"-q", "--json", "gradient", project_, "--out", path("g1.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray alone = file_bytes(path("g1.npy"));
        QVERIFY(alone.size() > 5 * 1000);
        // Rank 0 counts the whole job's propagation steps (its own and the other ranks' posts): the same
        // count as one process's.
        const QJsonObject json_of_alone = json_of(r);
        const double steps_alone = json_of_alone["propagation_steps"].toDouble();
        QVERIFY(steps_alone > 0);
        for (int ranks : {2, 3}) {
            const QString out = path(QString("g%1.npy").arg(ranks));
            r = fwi_ranks(ranks, {"-q", "--json", "gradient", project_, "--out", out});
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(file_bytes(out) == alone, qPrintable(QString("%1 ranks").arg(ranks)));
            const QJsonObject j = json_of(r);
            QCOMPARE(j["ranks"].toInt(), ranks);
            QCOMPARE(j["propagation_steps"].toDouble(), steps_alone);
            // The summary's counts are the job's, not rank 0's share.
            for (const char* count : {"forward_steps", "adjoint_steps", "checkpoint_writes"})
                QCOMPARE(j[count].toDouble(), json_of_alone[count].toDouble());
        }
    }

    /// Ranks on one machine share its memory: without a budget each plans against its share (the machine's
    /// three quarters over the ranks here), and only rank 0 prints (rank 1's table followed rank 0's JSON).
    void ranks_on_one_machine_plan_against_a_share_of_it() {
        CliRun r = fwi_cli({"--json", "plan", project_});
        QVERIFY2(r.code == 0, r.err.constData());
        const double alone = json_of(r)["machine_checkpoint_bytes"].toDouble();
        QVERIFY(alone > 0);
        r = fwi_ranks(3, {"--json", "plan", project_});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(!r.out.contains("schedule "), r.out.constData()); // no human table on stdout
        const QJsonObject j = json_of(r);                          // one JSON document
        QCOMPARE(j["ranks"].toInt(), 3);
        QCOMPARE(j["machine_checkpoint_bytes"].toDouble(), double(std::uint64_t(alone) / 3));
    }

    void gradient_3d_is_the_single_process_one_bit_for_bit() {
        // A 3D project (3 shots on salt3d at 30 m): the ranks split the shots and sum (nz, ny, nx) gradients
        // exactly as they do 2D ones.
        const QString p3 = path("salt3d.fwi");
        const QStringList survey =
            QString("--model builtin:salt3d --resample 30 --shots-x 3 --shots-y 1 "
                    "--receivers-x 6 --receivers-y 5 --freq 5 --duration 0.4 --order 4 "
                    "--pml 8")
                .split(' ');
        CliRun r = fwi_cli(QStringList{"-q", "new", p3} + survey);
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", p3, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "gradient", p3, "--out", path("g3d1.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray alone = file_bytes(path("g3d1.npy"));
        QVERIFY(alone.size() > 1000 * 4);
        r = fwi_ranks(2, {"-q", "gradient", p3, "--out", path("g3d2.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(file_bytes(path("g3d2.npy")) == alone);
    }

    void forward_gathers_are_the_single_process_ones_bit_for_bit() {
        // Each rank models its block of the 5 shots; rank 0 writes all of them in shot order.
        CliRun r = fwi_cli({"-q", "forward", project_, "--out", path("d1.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray alone = file_bytes(path("d1.npy"));
        QVERIFY(alone.size() > 5 * 20 * 100 * 4);
        for (int ranks : {2, 3, 7}) {
            const QString out = path(QString("d%1.npy").arg(ranks));
            r = fwi_ranks(ranks, {"-q", "forward", project_, "--out", out});
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(file_bytes(out) == alone, qPrintable(QString("%1 ranks").arg(ranks)));
        }
    }

    void inversion_is_the_single_process_one_bit_for_bit() {
        // Batches of 2 of the 5 shots: each batch is split over the ranks on its own.
        const QStringList invert{"-q", "--json", "invert", "--iterations", "3", "--batch", "2"};
        QByteArray model_alone, misfits_alone;
        for (int ranks : {1, 2, 3}) {
            const QString project = copy_of_project(QString("inv%1.fwi").arg(ranks));
            QVERIFY(!project.isEmpty());
            QStringList args = invert;
            args.insert(3, project);
            CliRun r = ranks == 1 ? fwi_cli(args) : fwi_ranks(ranks, args);
            QVERIFY2(r.code == 0, r.err.constData());
            const QJsonObject j = json_of(r); // rank 0 alone prints it
            QCOMPARE(j["iterations"].toInt(), 3);
            const QByteArray misfits = QJsonDocument(j["misfit_history"].toArray()).toJson();
            const QString model = path(QString("m%1.vti").arg(ranks));
            r = fwi_cli({"-q", "export", project, "model", "--model", "current", "-o", model});
            QVERIFY2(r.code == 0, r.err.constData());
            if (ranks == 1) {
                model_alone = file_bytes(model);
                misfits_alone = misfits;
                QVERIFY(model_alone.size() > 1000);
                continue;
            }
            QCOMPARE(misfits, misfits_alone);
            QVERIFY2(file_bytes(model) == model_alone, qPrintable(QString("%1 ranks").arg(ranks)));
        }
    }

    void stages_batches_and_resume_on_other_rank_counts() {
        // Two frequency stages in batches of 3, resumed with another number of ranks: the single process's
        // bits.
        const QStringList invert{"-q", "invert", "--stages", "3,5", "--iterations", "2", "--batch", "3"};
        const QString alone = copy_of_project("resume1.fwi"), spread = copy_of_project("resume2.fwi");
        CliRun r = fwi_cli(invert + QStringList{alone});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli(invert + QStringList{"--resume", "--iterations", "4", alone});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_ranks(2, invert + QStringList{spread});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_ranks(3, invert + QStringList{"--resume", "--iterations", "4", spread});
        QVERIFY2(r.code == 0, r.err.constData());
        for (const QString& p : {alone, spread}) {
            r = fwi_cli({"-q", "export", p, "model", "--model", "current", "-o", p + ".vti"});
            QVERIFY2(r.code == 0, r.err.constData());
        }
        QVERIFY(file_bytes(alone + ".vti").size() > 1000);
        QCOMPARE(file_bytes(spread + ".vti"), file_bytes(alone + ".vti"));
    }

    void more_ranks_than_shots() {
        const QString project = copy_of_project("few.fwi");
        CliRun r = fwi_cli({"-q", "gradient", project, "--out", path("few1.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_ranks(7, {"-q", "gradient", project, "--out", path("few7.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(file_bytes(path("few7.npy")), file_bytes(path("few1.npy")));
    }

    void sigterm_to_one_rank_stops_the_job_and_keeps_the_project() {
        // A long inversion; once rank 0 reports its first iteration, SIGTERM goes to one rank only (as a
        // scheduler's kill of one node would): every rank stops, the job exits 130 and the project holds the
        // iterations completed so far.
        const QString project = copy_of_project("cancel.fwi");
        QProcess job;
        job.setProcessEnvironment(mpi_environment());
        job.start(FWI_MPIEXEC,
                  {"--oversubscribe", "-n", "2", FWI_CLI_EXE, "invert", project, "--iterations", "500"});
        QVERIFY(job.waitForStarted());
        QByteArray err;
        QElapsedTimer waited;
        waited.start();
        while (!err.contains("iteration   1") && waited.elapsed() < 240000 &&
               job.state() == QProcess::Running) {
            job.waitForReadyRead(1000);
            err += job.readAllStandardError();
        }
        QVERIFY2(err.contains("iteration   1"), err.constData());
        const QList<pid_t> ranks = children_of(job.processId());
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(::kill(ranks.back(), SIGTERM), 0);
        QVERIFY(job.waitForFinished(240000));
        err += job.readAllStandardError();
        QCOMPARE(job.exitCode(), 130);
        QVERIFY2(err.contains("cancelled"), err.constData());
        const CliRun info = fwi_cli({"--json", "info", project});
        QVERIFY2(info.code == 0, info.err.constData());
        QVERIFY2(json_of(info)["iterations"].toInt() >= 1, info.out.constData());
    }

    void a_failing_rank_stops_the_job_and_leaves_the_project() {
        // Rank 1's scratch directory does not exist (a node without the node-local disk): MPMD launch.
        const QString project = copy_of_project("fail.fwi");
        const QByteArray before = file_bytes(project);
        QDir().mkpath(path("scratch"));
        const QStringList common{"-q",      "gradient", project, "--schedule", "multilevel:2,8",
                                 "--store", "--scratch"};
        const CliRun r = mpirun(QStringList{"-n", "1", FWI_CLI_EXE} + common +
                                QStringList{path("scratch"), ":", "-n", "1", FWI_CLI_EXE} + common +
                                QStringList{path("missing/dir")});
        QCOMPARE(r.code, 2); // the failing rank refuses its missing --scratch directory (bad input)
        QVERIFY2(r.err.contains("rank 1: error:") && r.err.contains("scratch"), r.err.constData());
        QCOMPARE(file_bytes(project), before);
        // The same command with a good directory everywhere stores the gradient.
        const CliRun ok = fwi_ranks(2, common + QStringList{path("scratch")});
        QVERIFY2(ok.code == 0, ok.err.constData());
        QVERIFY(file_bytes(project) != before);
    }
};

QTEST_GUILESS_MAIN(TestMpiJobs)
#include "tst_mpi_jobs.moc"
