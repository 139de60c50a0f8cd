#pragma once
// The first-run welcome page: what FWI Studio does in three lines, one button per demo project (the projects
// shipped in resources/projects, built by demo_projects.cpp), "Open a project…" and "Empty project". Shown at
// start-up while the QSettings flag "welcome/show" is true (the default; the page's check box clears it) and
// whenever fwi-studio starts without a project; Help › Welcome brings it back.
#include <QDialog>

class QCheckBox;

namespace fwi::ui {

class WelcomePage : public QDialog {
    Q_OBJECT
  public:
    explicit WelcomePage(QWidget* parent = nullptr);
    /// What the user picked: a demo name (demo_names()), "open" (a file), "empty", or "" (closed).
    QString choice() const;
    /// Whether start-up shows the page (QSettings "welcome/show", true until the user unticks it).
    static bool show_at_startup();

  private:
    void pick(const QString& choice);
    QString choice_;
    QCheckBox* again_ = nullptr;
};

} // namespace fwi::ui
