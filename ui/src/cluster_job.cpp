#include "fwi/ui/cluster_job.hpp"

#include "fwi/error.hpp"
#include "fwi/ui/messages.hpp"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QRegularExpression>
#include <QTextStream>

namespace fwi::ui {
namespace {

void write_script(const QString& path, const QString& text) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text) || f.write(text.toUtf8()) < 0)
        throw ResourceError("cannot write " + path.toStdString() + ": " + f.errorString().toStdString());
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther);
}

QString threads_line(int threads) {
    return threads > 0 ? QString("export OMP_NUM_THREADS=%1\n").arg(threads)
                       : QString("# OMP_NUM_THREADS: every core of the node by default\n");
}

} // namespace

QStringList write_cluster_job(const ClusterJob& job, const Project& project) {
    if (job.ranks < 1)
        throw ConfigError("a cluster job needs at least 1 rank, not " + std::to_string(job.ranks));
    if (!QRegularExpression("^[A-Za-z0-9._-]+$").match(job.name).hasMatch())
        throw ConfigError("job name '" + job.name.toStdString() + "': use letters, digits, '.', '_' and '-'");
    if (!QDir().mkpath(job.directory))
        throw ResourceError("cannot create the directory " + job.directory.toStdString());
    const QDir dir(job.directory);
    const QString project_file = job.name + ".fwi";
    save_project(dir.filePath(project_file).toStdString(), project);
    const QString fwi_line = QString("fwi %1 %2").arg(job.command, project_file);

    const QString run =
        QString("#!/bin/sh\n"
                "# Runs the job on %1 MPI ranks (docs/cluster.md). Open the project afterwards to "
                "see the results.\n"
                "cd \"$(dirname \"$0\")\"\n%2"
                "exec mpirun -n %1 %3\n")
            .arg(job.ranks)
            .arg(threads_line(job.threads), fwi_line);
    const QString slurm = QString("#!/bin/bash\n"
                                  "#SBATCH --job-name=%1\n"
                                  "#SBATCH --nodes=%2\n"
                                  "#SBATCH --ntasks-per-node=1\n"
                                  "#SBATCH --cpus-per-task=%3\n"
                                  "#SBATCH --time=04:00:00\n"
                                  "# An example: adapt the partition, account and time to your cluster.\n"
                                  "cd \"$SLURM_SUBMIT_DIR\"\n"
                                  "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}\n"
                                  "srun %4\n")
                              .arg(job.name)
                              .arg(job.ranks)
                              .arg(job.threads > 0 ? job.threads : 32)
                              .arg(fwi_line);
    write_script(dir.filePath("run.sh"), run);
    write_script(dir.filePath("slurm.sh"), slurm);
    return {dir.filePath(project_file), dir.filePath("run.sh"), dir.filePath("slurm.sh")};
}

void export_cluster_job(QWidget* parent, const Project& project, const QString& suggested_name) {
    const QString title = QObject::tr("Export cluster job");
    const QString directory = QFileDialog::getExistingDirectory(parent, title);
    if (directory.isEmpty()) return;
    bool ok = false;
    const int ranks =
        QInputDialog::getInt(parent, title, QObject::tr("MPI ranks (one per node)"), 4, 1, 100000, 1, &ok);
    if (!ok) return;
    ClusterJob job;
    job.directory = directory;
    job.name = suggested_name.isEmpty() ? QString("job") : suggested_name;
    job.ranks = ranks;
    try {
        const QStringList files = write_cluster_job(job, project);
        show_info(
            parent, title,
            QObject::tr("Wrote %1.\nCopy the directory to the cluster and run run.sh (or sbatch slurm.sh); "
                        "open %2 afterwards to see the results.")
                .arg(files.join(", "), files.front()));
    } catch (const Error& e) {
        show_error(parent, title, QString::fromUtf8(e.what()));
    }
}

} // namespace fwi::ui
