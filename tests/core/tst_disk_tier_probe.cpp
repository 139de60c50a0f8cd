// The disk tier's measured costs: plausible bandwidths and per-file costs for the scratch directory, measured
// once per directory and item size (the second call returns the same numbers), no files left behind, and an
// unwritable directory gives no measurement (the assumed costs stay) rather than an error.
#include "engine/disk_tier_probe.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace fwi;

class TestDiskTierProbe : public QObject {
    Q_OBJECT
  private slots:
    void measures_plausible_costs_once() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto costs = measured_disk_tier(dir.path().toStdString(), std::uint64_t(1) << 20);
        QVERIFY(costs.has_value());
        // Between 1 MB/s and 1 TB/s, and under a second per file: any disk or page cache.
        for (double per_byte : {costs->write_s_per_byte, costs->read_s_per_byte}) {
            QVERIFY2(std::isfinite(per_byte) && per_byte > 1e-12 && per_byte < 1e-6,
                     qPrintable(QString::number(per_byte)));
        }
        for (double per_item : {costs->write_s_per_item, costs->read_s_per_item})
            QVERIFY2(std::isfinite(per_item) && per_item >= 0 && per_item < 1,
                     qPrintable(QString::number(per_item)));
        // Its private sub-directories are gone.
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
        // Kept for the process: the same numbers, not a second (noisy) measurement.
        const auto again = measured_disk_tier(dir.path().toStdString(), std::uint64_t(1) << 20);
        QVERIFY(again.has_value());
        QVERIFY(*again == *costs);
    }

    void an_unwritable_directory_gives_no_measurement() {
        QTemporaryDir dir;
        QFile file(dir.filePath("plain-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(!measured_disk_tier(dir.filePath("plain-file/scratch").toStdString(), 4096).has_value());
    }
};

QTEST_GUILESS_MAIN(TestDiskTierProbe)
#include "tst_disk_tier_probe.moc"
