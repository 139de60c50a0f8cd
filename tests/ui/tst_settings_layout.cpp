// The settings dock at the main window's default size: every label shows its whole text (a new user saw
// "erations per stage" and "ixed water below" when the form squeezed its label column), and so does the
// acquisition table beside it. A peak frequency the grid cannot carry shows as an error there.
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "ui_test_main.hpp"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>

using namespace fwi;
using namespace fwi::ui;

class TestSettingsLayout : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { set_message_boxes(false); }
    void every_label_fits_at_default_size_data();
    void every_label_fits_at_default_size();
    void a_frequency_the_grid_cannot_carry_is_an_error();
    void the_free_surface_is_refused_over_a_point_on_it();
};

void TestSettingsLayout::every_label_fits_at_default_size_data() {
    QTest::addColumn<QString>("demo");
    QTest::addColumn<QSize>("size"); // empty: the window's default
    QTest::newRow("toy") << "toy" << QSize();
    QTest::newRow("checkpointing") << "checkpointing" << QSize();
    QTest::newRow("laptop screen") << "toy" << QSize(1024, 700);
}

void TestSettingsLayout::every_label_fits_at_default_size() {
    QFETCH(QString, demo);
    QFETCH(QSize, size);
    MainWindow w;
    if (size.isValid()) w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo(demo));
    auto* dock = w.findChild<QDockWidget*>("dock_settings");
    QVERIFY(dock);
    dock->raise();
    QTest::qWait(50);
    SettingsPanel* panel = w.settings_panel();
    QVERIFY(panel->isVisible());
    // Nothing scrolls sideways: a form wider than the dock scrolled its labels' left part out of sight when a
    // field took the focus (QScrollArea shows the focused widget).
    for (QScrollArea* area : panel->findChildren<QScrollArea*>()) {
        if (!area->isVisible()) continue;
        const int need = area->widget()->minimumSizeHint().width(), have = area->viewport()->width();
        QVERIFY2(need <= have, qPrintable(QString("the settings need %1 px, have %2").arg(need).arg(have)));
    }
    // Labels whose text the running prediction changes (e.g. "measuring this machine's ...") are laid out
    // again a moment later: check the settled layout, waiting up to 5 s for it (a clipped label stays
    // clipped).
    int checked = 0;
    const auto first_clipped = [&]() -> QString {
        checked = 0;
        for (QLabel* label : panel->findChildren<QLabel*>()) {
            if (!label->isVisible() || label->text().isEmpty()) continue;
            const QSize need = label->wordWrap() ? QSize(label->minimumSizeHint().width(),
                                                         label->heightForWidth(label->width()))
                                                 : label->sizeHint();
            ++checked;
            if (need.width() > label->width() || need.height() > label->height())
                return QString("'%1' needs %2x%3, has %4x%5")
                    .arg(label->text().left(60))
                    .arg(need.width())
                    .arg(need.height())
                    .arg(label->width())
                    .arg(label->height());
        }
        for (QAbstractButton* b : panel->findChildren<QAbstractButton*>()) {
            if (!b->isVisible() || b->text().isEmpty()) continue;
            ++checked;
            if (b->sizeHint().width() > b->width()) return QString("'%1' is clipped").arg(b->text());
        }
        return {};
    };
    QTRY_VERIFY2_WITH_TIMEOUT(first_clipped().isEmpty(), qPrintable(first_clipped()), 5000);
    QVERIFY2(checked >= 20, qPrintable(QString("only %1 labels checked").arg(checked)));

    // The acquisition table beside it shows all its columns (z was cut off at the default size).
    auto* acquisition = w.findChild<QDockWidget*>("dock_acquisition");
    QVERIFY(acquisition);
    acquisition->raise();
    QTest::qWait(50);
    for (QTableView* table : acquisition->findChildren<QTableView*>()) {
        if (!table->isVisible()) continue;
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        const int last = table->model()->columnCount() - 1;
        QVERIFY(table->columnViewportPosition(last) + table->columnWidth(last) <= table->viewport()->width());
        QVERIFY(table->columnWidth(last) >= table->horizontalHeader()->sectionSizeHint(last));
    }
}

/// Below 2 cells per wavelength the propagation settings show an error (in red, as a CFL error), not the
/// dispersion warning of 2-6 cells; runs refuse it too (make_simulation, tst_acquisition).
void TestSettingsLayout::a_frequency_the_grid_cannot_carry_is_an_error() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("toy")); // 10 m cells, 1500 m/s at the slowest
    SettingsPanel* panel = w.settings_panel();
    auto* freq = panel->findChild<QDoubleSpinBox*>("freq_hz");
    auto* info = panel->findChild<QLabel*>("time_info");
    QVERIFY(freq && info);
    const auto set_frequency = [&](double hz) {
        freq->setValue(hz);
        emit freq->editingFinished();
    };
    set_frequency(40); // 37.5 m: 3.75 cells, a warning
    QTRY_VERIFY2(info->text().contains("dispersion"), qPrintable(info->text()));
    QVERIFY2(!info->text().contains("cannot carry"), qPrintable(info->text()));
    set_frequency(100); // 15 m: 1.5 cells
    QTRY_VERIFY2(info->text().contains("the grid cannot carry the source"), qPrintable(info->text()));
    QVERIFY2(info->text().contains("#b00020"), qPrintable(info->text()));
}

/// The free surface box sets the project's top; with a receiver on z = 0 (where the surface holds the
/// pressure at zero) it is refused and the box returns to the project's value.
void TestSettingsLayout::the_free_surface_is_refused_over_a_point_on_it() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("toy"));
    ProjectDocument* doc = w.document();
    auto* box = w.settings_panel()->findChild<QCheckBox*>("free_surface");
    QVERIFY(box && !box->isChecked());
    box->setChecked(true);
    QVERIFY(doc->experiment().propagation.free_surface);
    box->setChecked(false);
    QVERIFY(!doc->experiment().propagation.free_surface);

    Acquisition acq = doc->experiment().acquisition;
    acq.shots.at(0).receivers.at(0).z_m = 0;
    doc->edit_acquisition(acq, "a receiver on the top");
    box->setChecked(true);
    QVERIFY(!doc->experiment().propagation.free_surface);
    QVERIFY(!box->isChecked());
}

FWI_UI_TEST_MAIN(TestSettingsLayout)
#include "tst_settings_layout.moc"
