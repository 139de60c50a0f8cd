// File > Export cluster job...: the project written next to run.sh (the mpirun line) and slurm.sh, the
// project reading back as the one exported, and bad input refused with a clear error.
#include "fwi/error.hpp"
#include "fwi/ui/cluster_job.hpp"
#include "fwi/ui/demo_projects.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace fwi;
using namespace fwi::ui;

namespace {
QString text_of(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
} // namespace

class TestClusterJob : public QObject {
    Q_OBJECT
  private slots:
    void writes_the_project_and_the_scripts() {
        QTemporaryDir tmp;
        const Project project = make_demo_project("toy");
        ClusterJob job;
        job.directory = tmp.filePath("cluster/job1");
        job.name = "toy";
        job.ranks = 3;
        job.threads = 8;
        const QStringList files = write_cluster_job(job, project);
        QCOMPARE(files.size(), 3);
        const Project back = load_project(files[0].toStdString());
        QCOMPARE(back.experiment.acquisition.shots.size(), project.experiment.acquisition.shots.size());
        QCOMPARE(back.experiment.initial_model.vp_mps, project.experiment.initial_model.vp_mps);
        const QString run = text_of(files[1]);
        QVERIFY2(run.contains("mpirun -n 3 fwi invert toy.fwi"), qPrintable(run));
        QVERIFY(run.contains("OMP_NUM_THREADS=8"));
        QVERIFY(QFileInfo(files[1]).isExecutable());
        const QString slurm = text_of(files[2]);
        QVERIFY(slurm.contains("#SBATCH --nodes=3"));
        QVERIFY(slurm.contains("#SBATCH --cpus-per-task=8"));
        QVERIFY(slurm.contains("srun fwi invert toy.fwi"));
    }

    void refuses_bad_input() {
        QTemporaryDir tmp;
        const Project project = make_demo_project("toy");
        ClusterJob job;
        job.directory = tmp.path();
        job.ranks = 0;
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_cluster_job(job, project));
        job.ranks = 2;
        job.name = "a b/c";
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_cluster_job(job, project));
        QFile blocker(tmp.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        job.name = "ok";
        job.directory = tmp.filePath("file/sub");
        QVERIFY_THROWS_EXCEPTION(ResourceError, write_cluster_job(job, project));
    }
};

QTEST_MAIN(TestClusterJob)
#include "tst_cluster_job.moc"
