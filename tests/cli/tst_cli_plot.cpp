// fwi plot: every kind of picture comes out as SVG with its title, axes, colour bar units and the stated
// clip, and as PNG; the clip is the stated percentile of the project's own values; clear errors (exit 2/3)
// otherwise.
#include "fwi/figure.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_runner.hpp"

using fwi::test::fwi_cli;
using fwi::test::json_of;
using Run = fwi::test::CliRun;

class TestCliPlot : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;
    QString path(const char* name) const { return dir_.filePath(name); }
    QString svg(const char* name) const { return QString::fromUtf8(fwi::test::file_bytes(path(name))); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = path("p.fwi");
        Run r = fwi::test::new_layered_project(project_);
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void errors_name_what_is_missing() {
        Run r = fwi_cli({"plot", project_, "gradient", "-o", path("g.svg")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--store"), r.err.constData());
        r = fwi_cli({"plot", project_, "gather", "-o", path("d.svg")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("observed"), r.err.constData());
        r = fwi_cli({"plot", project_, "model", "-o", path("m.jpg")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(".png or .svg"), r.err.constData());
        r = fwi_cli({"plot", project_, "model", "-o", path("no/such/dir/m.png")});
        QCOMPARE(r.code, 3);
        r = fwi_cli({"plot", project_, "wavefield", "--shot", "7", "-o", path("w.svg")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--shot 7"), r.err.constData());
        QVERIFY(!QFile::exists(path("g.svg")) && !QFile::exists(path("w.svg")));
    }

    /// An option the picture does not read is refused, not ignored without a word.
    void options_the_picture_ignores_are_refused() {
        Run r = fwi_cli({"plot", project_, "model", "-o", path("m.svg"), "--shot", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--shot is for `fwi plot gather|wavefield`, not `fwi plot model`"),
                 r.err.constData());
        r = fwi_cli({"plot", project_, "gather", "-o", path("d.svg"), "--vmin", "1000"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--vmin is for `fwi plot model`"), r.err.constData());
        r = fwi_cli({"plot", project_, "gradient", "-o", path("g.svg"), "--time", "0.1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--time is for `fwi plot wavefield`"), r.err.constData());
        QVERIFY(!QFile::exists(path("m.svg")) && !QFile::exists(path("d.svg")) &&
                !QFile::exists(path("g.svg")));
    }

    void model_has_axes_and_units() {
        const Run r = fwi_cli({"--json", "plot", project_, "model", "--model", "true", "-o", path("m.svg")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString s = svg("m.svg"); // 81 cells x 25 m: km across, 41 x 25 m: m down
        for (const char* text :
             {">True model</text>", ">x (km)</text>", ">depth (m)</text>", ">vp (m/s)</text>"})
            QVERIFY2(s.contains(text), text);
        const fwi::Project p = fwi::load_project(project_.toStdString());
        const QJsonArray range = json_of(r)["range_mps"].toArray();
        QCOMPARE(range[0].toDouble(), double(p.experiment.true_model.min_velocity()));
        QCOMPARE(range[1].toDouble(), double(p.experiment.true_model.max_velocity()));
        QVERIFY(fwi_cli({"-q", "plot", project_, "model", "-o", path("m.png")}).code == 0);
        QVERIFY(fwi::test::file_bytes(path("m.png")).startsWith("\x89PNG"));
    }

    void gradient_and_gather_state_their_clip() {
        QVERIFY(fwi_cli({"-q", "forward", project_, "--store-observed"}).code == 0);
        QVERIFY(fwi_cli({"-q", "gradient", project_, "--store"}).code == 0);
        const fwi::Project p = fwi::load_project(project_.toStdString());

        Run r = fwi_cli({"--json", "plot", project_, "gradient", "--percentile", "95", "-o", path("g.svg")});
        QVERIFY2(r.code == 0, r.err.constData());
        const double clip = fwi::abs_percentile(p.gradient, 95);
        QCOMPARE(json_of(r)["clip"].toDouble(), clip);
        char stated[96];
        std::snprintf(stated, sizeof stated, "+/-%.3g (95th percentile of |gradient|)", clip);
        QVERIFY2(svg("g.svg").contains(stated), stated);
        QVERIFY(svg("g.svg").contains(">dJ/dvp (per m/s)</text>"));

        r = fwi_cli({"--json", "plot", project_, "gather", "--shot", "1", "-o", path("d.svg")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["percentile"].toDouble(), 98.0);
        const std::vector<fwi::Gather> gathers = fwi::observed_gathers(p);
        QCOMPARE(json_of(r)["clip"].toDouble(), fwi::abs_percentile(gathers[1].traces, 98));
        for (const char* text : {">Observed data, shot 1</text>", ">time (s)</text>",
                                 ">receiver x (km)</text>", "98th percentile of |amplitude|"})
            QVERIFY2(svg("d.svg").contains(text), text);
    }

    void gradient_png_option_draws_the_same_picture() {
        Run r = fwi_cli({"gradient", project_, "--png", path("g.jpg")});
        QCOMPARE(r.code, 2); // refused before the gradient runs
        QVERIFY2(r.err.contains("--png") && r.err.contains(".png or .svg"), r.err.constData());
        r = fwi_cli({"-q", "gradient", project_, "--png", path("g2.svg")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(svg("g2.svg").contains(">Misfit gradient</text>"));
        QVERIFY(svg("g2.svg").contains("99th percentile of |gradient|"));
    }

    void wavefield_snapshot_at_the_asked_time() {
        const Run r =
            fwi_cli({"--json", "plot", project_, "wavefield", "--time", "0.2", "-o", path("w.png")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QVERIFY(j["time_s"].toDouble() >= 0.2 - 1e-9 && j["time_s"].toDouble() < 0.3);
        QVERIFY(j["clip"].toDouble() > 0); // a wave has started
        QCOMPARE(j["model"].toString(), QString("true"));
        QVERIFY(fwi::test::file_bytes(path("w.png")).startsWith("\x89PNG"));
        QCOMPARE(fwi_cli({"plot", project_, "wavefield", "--time", "9", "-o", path("w2.png")}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliPlot)
#include "tst_cli_plot.moc"
