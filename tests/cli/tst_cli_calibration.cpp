// The performance model's feedback across processes: what a gradient measured on its own wavefields (a
// codec's ratio and times) is kept in the calibration cache, so that the next `fwi plan` prices the codec
// with it instead of the synthetic probe; with the cache off, every process probes afresh.
#include "cli_runner.hpp"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace fwi::test;

namespace {

constexpr const char* kCodec = "zfp-accuracy:1e-5";

/// The ratio `fwi plan` prices for kCodec.
double planned_ratio(const QString& project) {
    const CliRun r = fwi_cli({"--json", "plan", project, "--codecs", kCodec});
    if (r.code != 0) qWarning("%s", r.err.constData());
    const QJsonArray codecs = json_of(r)["codecs"].toArray();
    return codecs.isEmpty() ? -1 : codecs[0].toObject()["ratio"].toDouble();
}

/// The compression ratio a store-all gradient with kCodec measured.
double measured_ratio(const QString& project) {
    const CliRun r = fwi_cli({"--json", "gradient", project, "--schedule", "all", "--compress", kCodec});
    if (r.code != 0) qWarning("%s", r.err.constData());
    return json_of(r)["compression_ratio"].toDouble();
}

} // namespace

class TestCliCalibration : public QObject {
    Q_OBJECT
  private slots:
    void cleanup() { qputenv("FWI_CALIBRATION_CACHE", "off"); }

    void a_run_s_codec_measurements_price_the_next_plan() {
        QTemporaryDir dir;
        const QString project = dir.filePath("p.fwi");
        // One shot: each shot's run teaches the calibration its own ratio, and with two the last to finish
        // would be the one kept.
        QCOMPARE(new_layered_project_with_observed(project, {.shots = 1}).code, 0);
        qputenv("FWI_CALIBRATION_CACHE", dir.filePath("cache").toUtf8());

        const double probed = planned_ratio(project);
        const double measured = measured_ratio(project);
        QVERIFY2(probed > 1 && measured > 1, qPrintable(QString("%1 %2").arg(probed).arg(measured)));
        // The first estimate codes the run's own snapshots (four of them): close to what the whole run
        // measured (a synthetic front of amplitude 1 gave a fifth of it under this absolute tolerance), yet
        // not equal, so the next comparison can tell which figure plan used.
        QVERIFY2(std::abs(probed / measured - 1) < 0.1 && probed != measured,
                 qPrintable(QString("%1 %2").arg(probed).arg(measured)));
        QCOMPARE(planned_ratio(project), measured); // exactly: kept in full precision

        // Without the cache each process probes again and learns only for itself.
        qputenv("FWI_CALIBRATION_CACHE", "off");
        QCOMPARE(planned_ratio(project), probed);
    }
};

QTEST_GUILESS_MAIN(TestCliCalibration)
#include "tst_cli_calibration.moc"
