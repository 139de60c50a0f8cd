#pragma once
// Runs the fwi executable for the CLI tests and collects its exit code and output.
#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

namespace fwi::test {

struct CliRun {
    int code = -1;
    QByteArray out, err;
};

/// One OpenMP thread: the test grids are tiny, and barriers would cost more than they save.
inline CliRun fwi_cli(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMP_NUM_THREADS", "1");
    p.setProcessEnvironment(env);
    p.start(FWI_CLI_EXE, args);
    p.waitForFinished(300000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

/// The small layered project most CLI tests start from (builtin:layered resampled to 25 m, 6 Hz, dt 4 ms,
/// order 4): `fwi -q new PATH` with these counts.
struct LayeredProject {
    int shots = 2;
    int receivers = 12;
    double duration_s = 0.5;
    int pml = 8;
};

inline CliRun new_layered_project(const QString& path, const LayeredProject& p = {}) {
    return fwi_cli({"-q",
                    "new",
                    path,
                    "--model",
                    "builtin:layered",
                    "--resample",
                    "25",
                    "--shots",
                    QString::number(p.shots),
                    "--receivers",
                    QString::number(p.receivers),
                    "--freq",
                    "6",
                    "--dt",
                    "0.004",
                    "--duration",
                    QString::number(p.duration_s),
                    "--order",
                    "4",
                    "--pml",
                    QString::number(p.pml)});
}

/// new_layered_project, then its modelled gathers stored as the observed data (what a gradient needs): the
/// first run that failed, else the forward's.
inline CliRun new_layered_project_with_observed(const QString& path, const LayeredProject& p = {}) {
    const CliRun made = new_layered_project(path, p);
    if (made.code != 0) return made;
    return fwi_cli({"-q", "forward", path, "--store-observed"});
}

inline QJsonObject json_of(const CliRun& r) {
    return QJsonDocument::fromJson(r.out).object();
}

inline QByteArray file_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace fwi::test
