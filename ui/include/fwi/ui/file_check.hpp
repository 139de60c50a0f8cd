#pragma once
// Opening an untrusted project without risking the user's work. The readers validate what they read (a
// damaged file is a FormatError), but libhdf5 itself can still crash on some malformed files. So the GUI
// reads a project once in a child process first (the application run with --check-project PATH); a crash
// there is reported as a damaged file and the GUI, with its unsaved edits, lives on.
#include <QString>
#include <QStringList>

namespace fwi::ui {

/// The program (and leading arguments) that checks a project; default: this application with --check-project.
/// Tests point it elsewhere (e.g. `fwi -q info`), since their executable is not the application.
void set_project_checker(const QString& program, const QStringList& arguments_before_path);

/// Reads `path` in a child process. Empty when it reads cleanly; otherwise the text to show: the reader's own
/// error, or that reading the file crashed or hung (naming the file).
QString check_project_in_child(const QString& path, int timeout_ms = 120000);

/// Handles `--check-project PATH` as the first arguments (call first thing in main, before QApplication: it
/// needs no display). Returns the exit code when it did (0 readable, 2 damaged, 3 unreadable), else -1.
int run_project_check(int argc, char** argv);

} // namespace fwi::ui
