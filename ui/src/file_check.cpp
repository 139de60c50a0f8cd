#include "fwi/ui/file_check.hpp"

#include "fwi/error.hpp"
#include "fwi/project.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>

#include <cstring>
#include <iostream>

namespace fwi::ui {
namespace {

struct Checker {
    QString program;
    QStringList before_path{"--check-project"};
};

Checker& checker() {
    static Checker c;
    return c;
}

} // namespace

void set_project_checker(const QString& program, const QStringList& arguments_before_path) {
    checker() = {program, arguments_before_path};
}

QString check_project_in_child(const QString& path, int timeout_ms) {
    const Checker& c = checker();
    const QString program = c.program.isEmpty() ? QCoreApplication::applicationFilePath() : c.program;
    QProcess child;
    child.setProgram(program);
    child.setArguments(QStringList(c.before_path) << path);
    child.start();
    if (!child.waitForStarted(30000))
        return QCoreApplication::translate("FileCheck", "Cannot start %1 to check %2 first: %3")
            .arg(program, path, child.errorString());
    if (!child.waitForFinished(timeout_ms)) {
        child.kill();
        child.waitForFinished(5000);
        return QCoreApplication::translate("FileCheck",
                                           "Reading %1 did not finish in %2 s: the file is damaged.")
            .arg(path)
            .arg(timeout_ms / 1000);
    }
    if (child.exitStatus() == QProcess::CrashExit)
        return QCoreApplication::translate(
                   "FileCheck", "%1 is damaged: reading it crashed the HDF5 library (in a separate "
                                "process, so nothing else was lost).")
            .arg(path);
    if (child.exitCode() == 0) return {};
    QString message = QString::fromUtf8(child.readAllStandardError()).trimmed();
    if (message.startsWith("fwi: error: ")) message.remove(0, 12);
    if (message.startsWith("fwi-studio: ")) message.remove(0, 12);
    return message.isEmpty() ? QCoreApplication::translate("FileCheck", "%1 cannot be read.").arg(path)
                             : message;
}

int run_project_check(int argc, char** argv) {
    if (argc != 3 || std::strcmp(argv[1], "--check-project") != 0) return -1;
    try {
        load_project(argv[2]);
        return 0;
    } catch (const ResourceError& e) {
        std::cerr << "fwi-studio: " << e.what() << "\n";
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "fwi-studio: " << e.what() << "\n";
        return 2;
    }
}

} // namespace fwi::ui
