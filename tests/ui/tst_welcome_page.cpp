// The welcome page: shown at start-up until the user unticks it (QSettings), and each demo button opens that
// demo project in the main window.
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/welcome_page.hpp"
#include "ui_test_main.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QPushButton>
#include <QSettings>
#include <QTimer>

using namespace fwi;
using namespace fwi::ui;

namespace {
/// Clicks `button` on the welcome page once it is up (it runs modally).
void click_on_welcome(const QString& button) {
    QTimer::singleShot(0, [button] {
        auto* page = qobject_cast<WelcomePage*>(QApplication::activeModalWidget());
        if (!page) return click_on_welcome(button); // not shown yet: try again
        if (auto* b = page->findChild<QPushButton*>(button)) b->click();
    });
}
} // namespace

class TestWelcomePage : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        set_message_boxes(false);
        QSettings().remove("welcome/show");
    }
    void cleanupTestCase() { QSettings().remove("welcome/show"); }
    void shown_until_unticked();
    void demo_buttons_open_the_demos();
};

void TestWelcomePage::shown_until_unticked() {
    QVERIFY(WelcomePage::show_at_startup()); // first run
    WelcomePage page;
    for (const QString& name : demo_names())
        QVERIFY2(page.findChild<QPushButton*>("welcome_" + name), qPrintable(name));
    auto* again = page.findChild<QCheckBox*>("welcome_again");
    QVERIFY(again && again->isChecked());
    again->setChecked(false);
    QVERIFY(!WelcomePage::show_at_startup());
    again->setChecked(true);
    QVERIFY(WelcomePage::show_at_startup());
}

void TestWelcomePage::demo_buttons_open_the_demos() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("toy"));
    for (const QString& name :
         {QString("marmousi2"), QString("checkpointing"), QString("marmousi2-3d"), QString("toy")}) {
        click_on_welcome("welcome_" + name);
        w.show_welcome();
        const Project expected = make_demo_project(name);
        const Project& p = w.document()->project();
        QVERIFY2(p.experiment.true_model.grid == expected.experiment.true_model.grid, qPrintable(name));
        QCOMPARE(p.experiment.acquisition.shots.size(), expected.experiment.acquisition.shots.size());
        QCOMPARE(p.experiment.gradient.schedule, expected.experiment.gradient.schedule);
    }
}

FWI_UI_TEST_MAIN(TestWelcomePage)
#include "tst_welcome_page.moc"
