// fwi plan --sweep: the JSON has one Revolve-alone plan and one point per codec for every budget, ascending,
// with Revolve alone never recomputing more as memory grows and storing every state at the top; each speed-up
// is Revolve alone's time over the codec's; given budgets are used as given; --plot writes a valid PNG and an
// SVG with the curves; clear errors.
#include "fwi/project.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "cli_runner.hpp"
#include "png_read.hpp"

using fwi::test::fwi_cli;
using fwi::test::json_of;
using Run = fwi::test::CliRun;

class TestCliPlanSweep : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;
    QString path(const char* name) const { return dir_.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = path("p.fwi");
        const Run r = fwi::test::new_layered_project(project_, {.shots = 1, .receivers = 8});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void json_curves_are_consistent() {
        const Run r = fwi_cli({"--json", "plan", project_, "--sweep", "--codecs", "zstd;zfp-rate:16"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        const qint64 steps = j["steps"].toInteger();
        QVERIFY(steps > 10);
        const QJsonArray budgets = j["budgets_bytes"].toArray();
        const QJsonArray alone = j["revolve_alone"].toArray();
        QVERIFY(budgets.size() >= 12);
        QCOMPARE(alone.size(), budgets.size());
        for (qsizetype i = 0; i < alone.size(); ++i) {
            const QJsonObject a = alone[i].toObject();
            QVERIFY(a["fits_budget"].toBool());
            QVERIFY(a["peak_bytes"].toInteger() <= budgets[i].toInteger());
            if (i == 0) continue;
            const QJsonObject before = alone[i - 1].toObject();
            QVERIFY(budgets[i].toInteger() > budgets[i - 1].toInteger());
            QVERIFY(a["ram_slots"].toInteger() >= before["ram_slots"].toInteger());
            QVERIFY(a["recompute_steps"].toInteger() <= before["recompute_steps"].toInteger());
        }
        QCOMPARE(alone.first().toObject()["ram_slots"].toInteger(), 2);
        QCOMPARE(alone.last().toObject()["recompute_steps"].toInteger(), steps - 1); // every state stored

        const QJsonArray curves = j["curves"].toArray();
        QCOMPARE(curves.size(), 2);
        QCOMPARE(curves[1].toObject()["codec"].toString(), QString("zfp-rate:16"));
        for (const QJsonValue& c : curves) {
            const QJsonArray points = c.toObject()["points"].toArray();
            QCOMPARE(points.size(), budgets.size());
            for (qsizetype i = 0; i < points.size(); ++i) {
                const QJsonObject p = points[i].toObject();
                const double alone_s = alone[i].toObject()["predicted_seconds_per_shot"].toDouble();
                const double codec_s = p["revolve"].toObject()["predicted_seconds_per_shot"].toDouble();
                QVERIFY(std::abs(p["speedup"].toDouble() - alone_s / codec_s) <= 1e-9 * alone_s / codec_s);
                QVERIFY(p["best_speedup"].toDouble() >= p["speedup"].toDouble());
            }
        }
        // zfp-rate:16 halves a state: at the smallest budget its Revolve holds about twice the slots.
        const qint64 half_slots = curves[1]
                                      .toObject()["points"]
                                      .toArray()[0]
                                      .toObject()["revolve"]
                                      .toObject()["ram_slots"]
                                      .toInteger();
        QVERIFY(half_slots >= 3 && half_slots <= 4);
        const QJsonObject current = j["current"].toObject();
        QCOMPARE(current["codec"].toString(), QString("none"));
        QCOMPARE(current["budget_index"].toInteger(), budgets.size() - 1); // unlimited: the top budget
        QCOMPARE(current["speedup"].toDouble(), 1.0);
    }

    void given_budgets_and_the_project_budget() {
        const Run r = fwi_cli({"--json", "plan", project_, "--sweep", "--codecs", "lz4", "--sweep-budgets",
                               "2M,300K", "--budget", "1M"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QCOMPARE(j["budgets_bytes"].toArray(), (QJsonArray{300 * 1024, 1024 * 1024, 2 * 1024 * 1024}));
        QCOMPARE(j["current"].toObject()["budget_index"].toInteger(), 1);
    }

    // The project's own codec gets a curve (appended when not listed) and its budget is the marked point.
    void project_codec_is_marked() {
        fwi::Project p = fwi::load_project(project_.toStdString());
        p.experiment.gradient.compression = "zstd";
        p.experiment.gradient.schedule = "auto";
        p.experiment.gradient.budget_bytes = 1024 * 1024;
        const QString zstd_project = path("zstd.fwi");
        fwi::save_project(zstd_project.toStdString(), p);
        const Run r = fwi_cli({"--json", "plan", zstd_project, "--sweep", "--codecs", "lz4"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        const QJsonArray curves = j["curves"].toArray();
        QCOMPARE(curves.size(), 2);
        QVERIFY(curves[1].toObject()["codec"].toString().startsWith("zstd"));
        const QJsonObject current = j["current"].toObject();
        const qint64 i = current["budget_index"].toInteger();
        QCOMPARE(j["budgets_bytes"].toArray()[i].toInteger(), 1024 * 1024);
        QCOMPARE(current["schedule"].toString(), QString("auto"));
        QCOMPARE(current["speedup"].toDouble(),
                 curves[1].toObject()["points"].toArray()[i].toObject()["speedup"].toDouble());
    }

    void plot_writes_png_and_svg() {
        Run r = fwi_cli({"-q", "plan", project_, "--sweep", "--codecs", "zstd;lz4", "--plot", path("s.png")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("revolve alone")); // the table
        const fwi::test::Png png = fwi::test::read_png(path("s.png"));
        QVERIFY(!png.rgb.empty());
        QVERIFY(png.width >= 600 && png.height >= 400);

        r = fwi_cli(
            {"-q", "--json", "plan", project_, "--sweep", "--codecs", "zstd;lz4", "--plot", path("s.svg")});
        QVERIFY2(r.code == 0, r.err.constData());
        QXmlStreamReader xml(fwi::test::file_bytes(path("s.svg")));
        QStringList texts;
        int polylines = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            if (xml.name() == QLatin1String("polyline")) ++polylines;
            if (xml.name() == QLatin1String("text")) texts << xml.readElementText();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(polylines, 2);
        for (const char* t : {"lz4", "speed-up over Revolve alone"})
            QVERIFY2(texts.contains(t), t);
        QVERIFY(texts.filter(QRegularExpression("^zstd(:\\d+)?$")).size() == 1); // zstd names its level
        QVERIFY(texts.filter("project: all, no compression").size() == 1);
    }

    void errors() {
        Run r = fwi_cli({"plan", project_, "--plot", path("x.png")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--sweep"), r.err.constData());
        r = fwi_cli({"plan", project_, "--sweep", "--plot", path("x.jpg")});
        QCOMPARE(r.code, 2);
        r = fwi_cli({"plan", project_, "--sweep", "--sweep-budgets", "0,1M"});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(path("x.png")));
    }
};

QTEST_GUILESS_MAIN(TestCliPlanSweep)
#include "tst_cli_plan_sweep.moc"
