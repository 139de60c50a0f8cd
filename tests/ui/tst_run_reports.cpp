// What a run reports after it ends, on the checkpointing demo (Revolve, ZFP, an 8 MB budget): the log's peak
// equals the memory plot's highest tier-0 value (it once said "peak 0 B": it read the gradient-snapshot
// counter, which a compressed Revolve run never uses), the memory plot draws the budget as a line at the
// budget, the timing plot has one predicted and one measured point per run, x = run number, with their
// ratio, and the prediction panel takes the codec ratio the run measured.
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/plot_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/run_monitor.hpp"
#include "fwi/ui/settings_panel.hpp"
#include "ui_test_main.hpp"

#include <QPlainTextEdit>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace fwi;
using namespace fwi::ui;

class TestRunReports : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { set_message_boxes(false); }
    void gradient_reports_match_the_plots();
};

void TestRunReports::gradient_reports_match_the_plots() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_demo("checkpointing"));
    // The prediction (measured on a worker thread) gives the timing plot its predicted times.
    QTRY_VERIFY_WITH_TIMEOUT(w.settings_panel()->prediction().ok, 60000);
    QVERIFY(w.run_forward());
    QVERIFY(w.job_runner()->wait(120000));
    QVERIFY(!w.document()->project().observed.empty());
    QTRY_VERIFY_WITH_TIMEOUT(!w.settings_panel()->calibrating(), 60000);
    const QString probed_ratio = QString::number(w.settings_panel()->prediction().measured_ratio, 'g', 6);
    QVERIFY2(w.settings_panel()->prediction_text().contains("priced on four of the project's own wavefields"),
             qPrintable(w.settings_panel()->prediction_text()));
    QVERIFY(w.run_gradient());
    QVERIFY(w.job_runner()->wait(120000));

    // The log's peak against the memory plot's maximum of tier 0.
    auto* log = w.findChild<QPlainTextEdit*>("log");
    QVERIFY(log);
    const QString text = log->toPlainText();
    const QRegularExpressionMatch m =
        QRegularExpression(R"(peak tier 0 \(RAM\) [^(]+\((\d+) B\))").match(text);
    QVERIFY2(m.hasMatch(), qPrintable(text));
    const double logged = m.captured(1).toDouble();
    PlotView* memory = w.run_monitor()->memory_plot();
    const int tier0 = memory->find_series("tier 0");
    QVERIFY(tier0 >= 0);
    const std::vector<double>& mb = memory->series_y(tier0);
    QVERIFY(!mb.empty());
    const double plotted = *std::max_element(mb.begin(), mb.end()) * 1e6;
    QVERIFY2(logged > 0, qPrintable(text));
    QCOMPARE(std::llround(logged), std::llround(plotted));
    QVERIFY(logged <= 8e6); // under the demo's budget

    // The run taught the engine its codec's ratio over all of its items (fwi::learn_from_run): the prediction
    // panel takes it, where before the run it had the probe's (four snapshots and states).
    const QRegularExpressionMatch ratio = QRegularExpression(R"(compression ratio (\S+))").match(text);
    QVERIFY2(ratio.hasMatch(), qPrintable(text));
    QVERIFY2(ratio.captured(1) != probed_ratio, qPrintable(probed_ratio));
    QTRY_COMPARE_WITH_TIMEOUT(QString::number(w.settings_panel()->prediction().measured_ratio, 'g', 6),
                              ratio.captured(1), 60000);
    QVERIFY2(w.settings_panel()->prediction_text().contains("priced by what the last run measured"),
             qPrintable(w.settings_panel()->prediction_text()));

    // The budget line at 8 MB, spanning the run.
    const int budget = memory->find_series("budget");
    QVERIFY(budget >= 0);
    const std::vector<double>& by = memory->series_y(budget);
    QCOMPARE(by.size(), std::size_t(2));
    QCOMPARE(by[0], 8.0);
    QCOMPARE(by[1], 8.0);
    const std::vector<double>& times = memory->series_x(tier0);
    QVERIFY(memory->series_x(budget)[1] >= times.back());

    // A second gradient: the timing plot has runs 1 (forward), 2 and 3, each with both series.
    QVERIFY(w.run_gradient());
    QVERIFY(w.job_runner()->wait(120000));
    PlotView* timing = w.run_monitor()->timing_plot();
    const int predicted = timing->find_series("predicted"), measured = timing->find_series("measured");
    QVERIFY(predicted >= 0 && measured >= 0);
    QCOMPARE(timing->series_x(measured), (std::vector<double>{1, 2, 3}));
    QCOMPARE(timing->series_x(predicted), (std::vector<double>{1, 2, 3}));
    const std::vector<double>& ratios = w.run_monitor()->timing_ratios();
    QCOMPARE(ratios.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
        QVERIFY(timing->series_y(predicted)[i] > 0);
        QCOMPARE(ratios[i], timing->series_y(measured)[i] / timing->series_y(predicted)[i]);
    }
    QVERIFY2(timing->x_title().contains(QString("run 3: measured/predicted %1").arg(ratios[2], 0, 'f', 2)),
             qPrintable(timing->x_title()));
}

FWI_UI_TEST_MAIN(TestRunReports)
#include "tst_run_reports.moc"
