// fwi export: models, the stored gradient, the inversion history and wavefield snapshots as .vti/.pvd files
// whose values are the project's own, bit for bit; clear errors when there is nothing to export.
#include "fwi/project.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_runner.hpp"
#include "vti_file.hpp"

using fwi::test::fwi_cli;
using fwi::test::json_of;
using fwi::test::read_vti_file;
using Run = fwi::test::CliRun;

class TestCliExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;
    QString path(const char* name) const { return dir_.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = path("p.fwi");
        Run r = fwi::test::new_layered_project(project_);
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", project_, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void models_export_with_their_values() {
        const Run r = fwi_cli({"--json", "export", project_, "model", "-o", path("m.vti")});
        QVERIFY2(r.code == 0, r.err.constData());
        const fwi::Project p = fwi::load_project(project_.toStdString());
        const auto v = read_vti_file(path("m.vti"));
        const auto& g = p.experiment.true_model.grid;
        QCOMPARE(v.whole_extent, QString("0 %1 0 %2 0 0").arg(g.nx() - 1).arg(g.nz() - 1));
        QCOMPARE(v.arrays.at("vp_true"), p.experiment.true_model.vp_mps);
        QCOMPARE(v.arrays.at("vp_initial"), p.experiment.initial_model.vp_mps);
        QCOMPARE(v.arrays.at("vp_current"), p.experiment.current_model.vp_mps);
    }

    void the_gradient_needs_a_stored_one() {
        Run r = fwi_cli({"export", project_, "gradient", "-o", path("g.vti")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--store"), r.err.constData());
        QVERIFY(!QFile::exists(path("g.vti")));
        r = fwi_cli({"-q", "gradient", project_, "--store"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "export", project_, "gradient", "-o", path("g.vti")});
        QVERIFY2(r.code == 0, r.err.constData());
        const fwi::Project p = fwi::load_project(project_.toStdString());
        QCOMPARE(read_vti_file(path("g.vti")).arrays.at("gradient"), p.gradient);
    }

    void wavefield_snapshots_form_a_time_series() {
        const Run r = fwi_cli({"--json", "export", project_, "wavefield", "-o", path("wf"), "--every", "10"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QStringList frames = QDir(path("wf")).entryList({"wavefield_*.vti"}, QDir::Files, QDir::Name);
        QVERIFY(frames.size() >= 5);
        QCOMPARE(json_of(r)["files"].toInt(), int(frames.size()) + 1);
        const QByteArray pvd = fwi::test::file_bytes(path("wf/wavefield.pvd"));
        for (const QString& f : frames)
            QVERIFY2(pvd.contains(("file=\"" + f + "\"").toUtf8()), qPrintable(f));
        // A late snapshot holds a wave: finite, not all zero.
        const auto last = read_vti_file(path("wf/") + frames.last()).arrays.at("pressure");
        double energy = 0;
        for (float x : last) {
            QVERIFY(std::isfinite(x));
            energy += double(x) * x;
        }
        QVERIFY(energy > 0);
    }

    void a_dense_shot_gets_a_snapshot_every_interval() {
        // 4096 receivers or more take 32 steps a call (forward_steps_per_call): the interval is a multiple of
        // the calls the run makes, so that every multiple of it is written (at a multiple of 10 steps, 3 of
        // 50).
        const QString dense = path("dense.fwi");
        Run r = fwi_cli({"-q", "new", dense, "--model", "builtin:layered", "--resample", "25", "--shots", "1",
                         "--receivers", "4096", "--duration", "1"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"--json", "info", dense});
        QVERIFY2(r.code == 0, r.err.constData());
        const int steps = json_of(r)["inner_steps"].toInt();
        r = fwi_cli({"--json", "export", dense, "wavefield", "-o", path("dense_wf")});
        QVERIFY2(r.code == 0, r.err.constData());
        const int every = json_of(r)["every_inner_steps"].toInt();
        const QStringList frames = QDir(path("dense_wf")).entryList({"wavefield_*.vti"}, QDir::Files);
        QVERIFY(every > 0 && steps / every >= 5);
        QCOMPARE(int(frames.size()), steps / every);
    }

    void history_exports_one_file_per_iteration() {
        Run r = fwi_cli({"export", project_, "history", "-o", path("h")});
        QCOMPARE(r.code, 2); // no inversion yet
        r = fwi_cli({"-q", "invert", project_, "--iterations", "2"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "export", project_, "history", "-o", path("h")});
        QVERIFY2(r.code == 0, r.err.constData());
        const fwi::Project p = fwi::load_project(project_.toStdString());
        const QByteArray pvd = fwi::test::file_bytes(path("h/history.pvd"));
        int listed = 0;
        for (const auto& it : p.history) {
            if (it.model.vp_mps.empty()) continue;
            const QString name = QString("iteration_%1.vti").arg(it.iteration, 5, 10, QChar('0'));
            QVERIFY2(pvd.contains(name.toUtf8()), qPrintable(name));
            QCOMPARE(read_vti_file(path("h/") + name).arrays.at("vp_mps"), it.model.vp_mps);
            ++listed;
        }
        QVERIFY(listed >= 2);
    }

    void a_wrong_extension_shot_or_option_is_refused() {
        QCOMPARE(fwi_cli({"export", project_, "model", "-o", path("m.png")}).code, 2);
        QCOMPARE(fwi_cli({"export", project_, "wavefield", "-o", path("w2"), "--shot", "7"}).code, 2);
        // Options the kind does not read: refused, not ignored without a word.
        const Run r = fwi_cli({"export", project_, "model", "-o", path("m2.vti"), "--every", "5"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--every is for `fwi export wavefield`, not `fwi export model`"),
                 r.err.constData());
        QVERIFY(!QFile::exists(path("m2.vti")));
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cli_export.moc"
