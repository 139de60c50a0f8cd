// `--model FILE` of forward and gradient on a project's grid (a .npy holds no spacing: the project's is
// taken), and budget refusals whose figures show the difference even when it is one byte.
#include "fwi/npy.hpp"
#include "fwi/project.hpp"
#include "fwi/project_tools.hpp"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_runner.hpp"

using fwi::test::fwi_cli;
using fwi::test::json_of;
using Run = fwi::test::CliRun;

class TestCliModelOption : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;
    QString path(const char* name) const { return dir_.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = path("p.fwi");
        Run r = fwi::test::new_layered_project(project_, {.shots = 1, .receivers = 10, .duration_s = 0.4});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", project_, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void a_npy_model_takes_the_projects_spacing() {
        const fwi::Project p = fwi::load_project(project_.toStdString());
        const fwi::Model& m = fwi::working_model(p.experiment);
        fwi::write_npy(path("m.npy").toStdString(), fwi::NpyArray{{m.grid.nz(), m.grid.nx()}, m.vp_mps});
        // The same model as the project's own current one: the same misfit, bit for bit in the JSON.
        const Run own = fwi_cli({"--json", "gradient", project_, "--schedule", "all"});
        QVERIFY2(own.code == 0, own.err.constData());
        const Run file =
            fwi_cli({"--json", "gradient", project_, "--schedule", "all", "--model", path("m.npy")});
        QVERIFY2(file.code == 0, file.err.constData());
        QCOMPARE(json_of(file)["misfit"].toDouble(), json_of(own)["misfit"].toDouble());
        const Run fwd =
            fwi_cli({"-q", "forward", project_, "--model", path("m.npy"), "--out", path("d.npy")});
        QVERIFY2(fwd.code == 0, fwd.err.constData());
    }

    void a_model_of_another_shape_names_both_grids() {
        fwi::write_npy(path("small.npy").toStdString(),
                       fwi::NpyArray{{5, 7}, std::vector<float>(35, 2000.0f)});
        const Run r = fwi_cli({"gradient", project_, "--model", path("small.npy")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("5 x 7 cells") && r.err.contains("project's grid"), r.err.constData());
    }

    void a_budget_one_byte_short_shows_exact_bytes() {
        const Run plan = fwi_cli({"--json", "plan", project_});
        QVERIFY2(plan.code == 0, plan.err.constData());
        qint64 need = 0;
        for (const auto& row : json_of(plan)["rows"].toArray())
            if (row.toObject()["schedule"].toString() == "all" &&
                row.toObject()["codec"].toString() == "none")
                need = qint64(row.toObject()["peak_bytes_per_tier"].toArray()[0].toDouble());
        QVERIFY(need > 1024);
        const Run r =
            fwi_cli({"gradient", project_, "--schedule", "all", "--budget", QString::number(need - 1)});
        QCOMPARE(r.code, 3);
        const auto with_commas = [](qint64 v) {
            QString s = QString::number(v);
            for (int i = s.size() - 3; i > 0; i -= 3)
                s.insert(i, ',');
            return s + " B";
        };
        QVERIFY2(r.err.contains(with_commas(need).toUtf8()) && r.err.contains(with_commas(need - 1).toUtf8()),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliModelOption)
#include "tst_cli_model_option.moc"
