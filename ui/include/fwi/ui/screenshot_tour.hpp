#pragma once
// A scripted tour of the main window that saves what the user sees as PNGs, for docs/gui.md
// (scripts/screenshots.sh runs `fwi-studio --screenshots DIR` under Xvfb). Drives the real GUI: opens the toy
// demo, runs the forward model and the gradient, edits the acquisition, and grabs the window and the views
// after each step.
#include <QString>

namespace fwi::ui {

class MainWindow;

/// Returns 0 when every picture was written (the names are listed in docs/gui.md), 1 otherwise.
int run_screenshot_tour(MainWindow& window, const QString& directory);

} // namespace fwi::ui
