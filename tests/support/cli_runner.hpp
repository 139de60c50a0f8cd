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

inline QJsonObject json_of(const CliRun& r) {
    return QJsonDocument::fromJson(r.out).object();
}

inline QByteArray file_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace fwi::test
