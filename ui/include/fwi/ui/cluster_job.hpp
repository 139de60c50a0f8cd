#pragma once
// File > Export cluster job...: the project plus a run.sh (the mpirun line) and an example Slurm script, in
// one directory to copy to a cluster (docs/cluster.md). The results come back by opening the project.
#include "fwi/project.hpp"

#include <QString>
#include <QStringList>

class QWidget;

namespace fwi::ui {

struct ClusterJob {
    QString directory;          ///< created if missing
    QString name = "job";       ///< the project is written as NAME.fwi
    int ranks = 2;              ///< MPI ranks (one per node in the Slurm example)
    int threads = 0;            ///< OpenMP threads per rank; 0 = the node's cores
    QString command = "invert"; ///< fwi subcommand and options, e.g. "invert --iterations 20"
};

/// Writes the project (atomically, like Save), run.sh (executable) and slurm.sh; returns their paths.
/// Throws fwi::Error (ConfigError for bad ranks or name, ResourceError for an unwritable directory).
QStringList write_cluster_job(const ClusterJob& job, const Project& project);

/// Asks for the directory and the number of ranks, writes the job and says where it is.
void export_cluster_job(QWidget* parent, const Project& project, const QString& suggested_name);

} // namespace fwi::ui
