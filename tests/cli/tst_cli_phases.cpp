// Where a command's wall time goes: the --json phases of `fwi forward` and `fwi gradient` follow one another
// and add up to the whole command (forward's seconds, gradient's command_seconds), which holds the gradient's
// own seconds.
#include "cli_runner.hpp"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace fwi::test;

class TestCliPhases : public QObject {
    Q_OBJECT
  private slots:
    void summaries_account_for_the_whole_command() {
        QTemporaryDir dir;
        const QString project = dir.filePath("p.fwi");
        QCOMPARE(new_layered_project_with_observed(project, {.shots = 1}).code, 0);
        // The phases' sum, or -1 if a phase is missing, unexpected or negative.
        const auto phases_sum = [](const QJsonObject& j, QStringList names) {
            const QJsonObject p = j["phases_seconds"].toObject();
            names.sort(); // as keys() returns them
            if (p.keys() != names) return -1.0;
            double sum = 0;
            for (const QJsonValue v : p) {
                if (v.toDouble(-1.0) < 0) return -1.0;
                sum += v.toDouble();
            }
            return sum;
        };
        CliRun r = fwi_cli({"--json", "forward", project});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject j = json_of(r);
        double sum = phases_sum(j, {"read", "device_start", "setup", "compute", "write"});
        double total = j["seconds"].toDouble();
        QVERIFY2(sum > 0 && std::abs(sum - total) <= 0.01 * total + 1e-3,
                 qPrintable(QString("phases %1 s, command %2 s").arg(sum).arg(total)));
        r = fwi_cli({"--json", "gradient", project});
        QVERIFY2(r.code == 0, r.err.constData());
        j = json_of(r);
        sum = phases_sum(j, {"read", "device_start", "setup", "plan", "compute", "write"});
        total = j["command_seconds"].toDouble();
        QVERIFY2(sum > 0 && std::abs(sum - total) <= 0.01 * total + 1e-3,
                 qPrintable(QString("phases %1 s, command %2 s").arg(sum).arg(total)));
        QVERIFY(j["phases_seconds"].toObject()["compute"].toDouble() >= j["seconds"].toDouble());
        QVERIFY(total > j["seconds"].toDouble());
    }
};

QTEST_GUILESS_MAIN(TestCliPhases)
#include "tst_cli_phases.moc"
