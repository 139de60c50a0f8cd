// The fwi commands on a 3D project: info, forward (gathers with y in every format), gradient (a checkpointed
// lossless gradient equal to store-all bit for bit, `auto` within a budget a fifth of store-all's need, the
// gradient written as a (nz, ny, nx) array and as three slice pictures), plan, taylor and plot.
#include "fwi/acquisition.hpp"
#include "fwi/gather.hpp"
#include "fwi/npy.hpp"
#include "fwi/project.hpp"

#include <QFile>

#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "cli_runner.hpp"

using fwi::test::file_bytes;
using fwi::test::fwi_cli;
using fwi::test::json_of;
using Run = fwi::test::CliRun;

namespace {

/// A 14 x 12 x 16 volume at 20 m: 2000 m/s over 2600 m/s with a faster block in the middle.
fwi::Model layered_volume() {
    fwi::Model m;
    m.grid = fwi::Grid(14, 12, 16, 20, 20, 20);
    m.vp_mps.resize(std::size_t(m.grid.cells()));
    for (std::int64_t iz = 0; iz < 14; ++iz)
        for (std::int64_t iy = 0; iy < 12; ++iy)
            for (std::int64_t ix = 0; ix < 16; ++ix) {
                const bool block = iz >= 8 && iz < 11 && iy >= 4 && iy < 8 && ix >= 5 && ix < 11;
                m.vp_mps[m.grid.index(iz, iy, ix)] = block ? 3000.0f : iz < 6 ? 2000.0f : 2600.0f;
            }
    return m;
}

} // namespace

class TestCli3D : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;

    QString path(const char* name) const { return dir_.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = path("cube.fwi");
        fwi::Project p;
        fwi::Experiment& e = p.experiment;
        e.true_model = layered_volume();
        e.initial_model = e.true_model;
        for (auto& v : e.initial_model.vp_mps)
            v = std::min(v, 2600.0f); // no block: the gradient has something to find
        e.current_model = e.initial_model;
        e.acquisition = fwi::fixed_spread(fwi::grid_of_points({2, 1, 60, 240, 110, 110, 40}),
                                          fwi::grid_of_points({4, 3, 0, 300, 20, 200, 20}));
        e.propagation.order = 4;
        e.propagation.pml_width = 6;
        e.propagation.freq_hz = 10;
        e.propagation.dt_s = 0.004;
        e.propagation.nt = 100;
        fwi::save_project(project_.toStdString(), p);
        const Run r = fwi_cli({"-q", "forward", project_, "--store-observed", "--out", path("observed.h5")});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void info_reports_a_3d_project() {
        const Run r = fwi_cli({"--json", "info", project_});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject model = json_of(r)["true_model"].toObject();
        QCOMPARE(model["rank"].toInt(), 3);
        QCOMPARE(model["ny"].toInt(), 12);
        QCOMPARE(json_of(r)["receivers"].toInt(), 24);
    }

    void gathers_keep_the_y_of_every_receiver() {
        QVERIFY(fwi_cli({"-q", "forward", project_, "--out", path("observed.segy")}).code == 0);
        const auto h5 = fwi::read_gathers_hdf5(path("observed.h5").toStdString());
        const auto segy = fwi::read_gathers_segy(path("observed.segy").toStdString());
        QCOMPARE(h5.size(), std::size_t(2));
        for (const auto* gathers : {&h5, &segy}) {
            const fwi::Gather& g = (*gathers)[1];
            QCOMPARE(g.receivers.size(), std::size_t(12));
            QCOMPARE(g.source, (fwi::Point{240, 40, 110}));
            QCOMPARE(g.receivers[11], (fwi::Point{300, 20, 200}));
            QCOMPARE(g.receivers[4], (fwi::Point{0, 20, 110}));
        }
        QCOMPARE(h5[1].traces, segy[1].traces);
        float peak = 0;
        for (float v : h5[0].traces)
            peak = std::max(peak, std::abs(v));
        QVERIFY(peak > 0 && std::isfinite(peak));
    }

    void checkpointed_gradient_equals_store_all_bit_for_bit() {
        Run all = fwi_cli({"--json", "gradient", project_, "--schedule", "all", "--out", path("g_all.npy")});
        QVERIFY2(all.code == 0, all.err.constData());
        Run revolve = fwi_cli({"--json", "gradient", project_, "--schedule", "revolve:7", "--compress", "lz4",
                               "--out", path("g_revolve.npy")});
        QVERIFY2(revolve.code == 0, revolve.err.constData());
        QVERIFY(json_of(revolve)["recompute_steps"].toInt() > 0);
        QCOMPARE(file_bytes(path("g_all.npy")), file_bytes(path("g_revolve.npy")));
        QCOMPARE(json_of(all)["misfit"].toDouble(), json_of(revolve)["misfit"].toDouble());
        const fwi::NpyArray g = fwi::read_npy(path("g_all.npy").toStdString());
        QCOMPARE(g.shape, (std::vector<std::int64_t>{14, 12, 16}));
        double norm = 0;
        for (float v : g.data)
            norm += double(v) * v;
        QVERIFY(norm > 0 && std::isfinite(norm));
    }

    void auto_keeps_within_a_fifth_of_the_store_all_need() {
        Run all = fwi_cli({"--json", "gradient", project_, "--schedule", "all"});
        QVERIFY2(all.code == 0, all.err.constData());
        const double need = json_of(all)["peak_snapshot_bytes"].toDouble();
        const qint64 budget = qint64(need / 5);
        Run r = fwi_cli({"--json", "gradient", project_, "--schedule", "auto", "--budget",
                         QString::number(budget), "--png", path("gradient.png")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        const double ram_peak = j["peak_bytes_per_tier"].toArray()[0].toDouble(); // states and snapshots
        QVERIFY2(ram_peak <= double(budget), qPrintable(j["schedule"].toString()));
        QVERIFY(ram_peak > 0.5 * double(budget)); // it used the budget, not nothing
        QVERIFY(j["recompute_steps"].toInt() > 0);
        QVERIFY(std::abs(j["misfit"].toDouble() / json_of(all)["misfit"].toDouble() - 1) < 1e-3);
        const QJsonArray pictures = j["pictures"].toArray();
        QCOMPARE(pictures.size(), 3);
        for (const char* name : {"gradient-inline.png", "gradient-crossline.png", "gradient-depth.png"})
            QVERIFY2(QFileInfo(path(name)).size() > 1000, name);
    }

    // A sampled run keeps every k-th snapshot, and its memory is what those need: a budget between the
    // sampled and the unsampled store-all need runs (the arena was once sized for every step's snapshot and
    // refused).
    void sampled_snapshots_are_sized_as_kept() {
        Run all = fwi_cli({"--json", "gradient", project_, "--schedule", "all"});
        QVERIFY2(all.code == 0, all.err.constData());
        const double every_step = json_of(all)["peak_snapshot_bytes"].toDouble();
        const QString budget = QString::number(qint64(0.7 * every_step));
        for (const char* schedule : {"all", "auto"}) {
            Run r = fwi_cli({"--json", "gradient", project_, "--schedule", schedule, "--sampling-interval",
                             "2", "--budget", budget});
            QVERIFY2(r.code == 0, r.err.constData());
            const double held = json_of(r)["peak_snapshot_bytes"].toDouble();
            QVERIFY2(held <= 0.51 * every_step && held >= 0.49 * every_step,
                     qPrintable(QString::number(held)));
        }
    }

    void plan_and_taylor_run_in_3d() {
        Run r = fwi_cli({"--json", "plan", project_, "--budget", "200K"});
        QVERIFY2(r.code == 0, r.err.constData());
        // h0 = 0.1: on this small volume the default h0 = 0.5 is where the second-order term still dominates.
        r = fwi_cli({"--json", "taylor", project_, "--shots", "0", "--schedule", "revolve:6", "--h0", "0.1"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QVERIFY2(std::abs(j["slope1"].toDouble() - 1) < 0.15,
                 qPrintable(QString::number(j["slope1"].toDouble())));
        QVERIFY2(std::abs(j["slope2"].toDouble() - 2) < 0.1,
                 qPrintable(QString::number(j["slope2"].toDouble())));
    }

    void new_makes_areal_surveys_of_a_3d_model() {
        const QStringList small{"--resample", "40",  "--freq",  "5", "--dt",  "0.004",
                                "--duration", "0.4", "--order", "4", "--pml", "6"};
        Run r = fwi_cli(QStringList{"--json", "new", path("areal.fwi"), "--model", "builtin:layered3d",
                                    "--shots-x", "3", "--shots-y", "2", "--receivers-x", "5", "--receivers-y",
                                    "4"} +
                        small);
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject j = json_of(r);
        QCOMPARE(j["rank"].toInt(), 3);
        QCOMPARE(j["ny"].toInt(), 21); // 81 cells at 10 m resampled to 40 m
        QCOMPARE(j["shots"].toInt(), 6);
        QCOMPARE(j["receivers"].toInt(), 20);
        // By spacing: 800 m / 200 m + 1 = 5 receivers per axis.
        r = fwi_cli(QStringList{"--json", "new", path("spaced.fwi"), "--model", "builtin:layered3d",
                                "--receiver-spacing", "200"} +
                    small);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["receivers"].toInt(), 25);
        QCOMPARE(json_of(r)["shots"].toInt(), 4); // the 3D default: 2 x 2
        // Points from files.
        QFile sources(path("sources.txt"));
        QVERIFY(sources.open(QIODevice::WriteOnly));
        sources.write("# x y z\n100 200 20\n700 600 20\n");
        sources.close();
        r = fwi_cli(QStringList{"--json", "new", path("files.fwi"), "--model", "builtin:layered3d",
                                "--source-file", path("sources.txt"), "--receiver-file",
                                path("sources.txt")} +
                    small);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["shots"].toInt(), 2);
        const fwi::Project p = fwi::load_project(path("files.fwi").toStdString());
        QCOMPARE(p.experiment.acquisition.shots[1].source, (fwi::Point{700, 20, 600}));
        // A (nz, ny, nx) .npy volume, with its spacing given.
        const fwi::Model volume = layered_volume();
        fwi::write_npy(path("volume.npy").toStdString(), {{14, 12, 16}, volume.vp_mps});
        r = fwi_cli({"--json", "new", path("npy.fwi"), "--model", path("volume.npy"), "--dz", "20", "--dy",
                     "20", "--dx", "20", "--freq", "8", "--duration", "0.3", "--order", "4", "--pml", "6"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["ny"].toInt(), 12);
        const fwi::Project q = fwi::load_project(path("npy.fwi").toStdString());
        QCOMPARE(q.experiment.true_model.vp_mps, volume.vp_mps);
    }

    void bad_3d_surveys_are_clear_errors() {
        const QStringList small{"--resample", "40", "--freq", "5", "--dt", "0.004", "--duration", "0.4"};
        Run r = fwi_cli(QStringList{"new", path("wide.fwi"), "--model", "builtin:layered3d", "--shots-y", "2",
                                    "--source-y1", "5000"} +
                        small);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("shot 2 source") && r.err.contains("y=5000") &&
                     r.err.contains("y in [0, 800] m"),
                 r.err.constData());
        QVERIFY(!QFile::exists(path("wide.fwi")));
        r = fwi_cli({"new", path("flat.fwi"), "--model", "builtin:layered", "--shots-y", "3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--shots-y needs a 3D model"), r.err.constData());
    }

    void invert_lowers_the_misfit_in_3d() {
        QDir().mkpath(path("report"));
        Run r = fwi_cli({"--json", "invert", project_, "--iterations", "2", "--smooth", "40", "--png",
                         path("result.svg"), "--report", path("report")});
        QVERIFY2(r.code == 0, r.err.constData());
        // Pictures of the 3D result: a slice each way through the middle, titled with its position.
        QCOMPARE(json_of(r)["pictures"].toArray().size(), 3 + 3 + 1);
        QVERIFY(file_bytes(path("result-inline.svg")).contains("inline at y ="));
        QVERIFY(file_bytes(path("result-depth.svg")).contains("depth slice at z ="));
        for (const char* name :
             {"models-inline.png", "models-crossline.png", "models-depth.png", "history.png"})
            QVERIFY2(QFileInfo(path("report/") + name).size() > 1000, name);
        const QJsonArray misfits = json_of(r)["misfit_history"].toArray();
        QVERIFY2(misfits.size() >= 2 && misfits.last().toDouble() < 0.9 * misfits.first().toDouble(),
                 r.out.constData());
        const fwi::Project p = fwi::load_project(project_.toStdString());
        QCOMPARE(p.experiment.current_model.grid.rank, 3);
        QVERIFY(!p.history.empty());
    }

    void export_writes_volumes_for_paraview() {
        Run r = fwi_cli({"--json", "export", project_, "model", "-o", path("cube.vti")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray vti = file_bytes(path("cube.vti"));
        QVERIFY(vti.contains("WholeExtent=\"0 15 0 11 0 13\"")); // x, y, depth
        QVERIFY(vti.contains("Direction=\"1 0 0 0 1 0 0 0 -1\""));
        QVERIFY(vti.size() > 3 * 14 * 12 * 16 * 4);
        r = fwi_cli({"--json", "export", project_, "wavefield", "-o", path("waves.pvd")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(json_of(r)["files"].toInt() > 10);
    }

    void plot_draws_three_slices() {
        Run r = fwi_cli({"--json", "plot", project_, "model", "--model", "true", "-o", path("truth.svg")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["pictures"].toArray().size(), 3);
        const QByteArray inline_svg = file_bytes(path("truth-inline.svg"));
        QVERIFY(inline_svg.contains("inline at y = 120 m"));
        QVERIFY(file_bytes(path("truth-depth.svg")).contains("depth slice at z = 140 m"));
        r = fwi_cli({"--json", "plot", project_, "wavefield", "--shot", "1", "-o", path("wave.png")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFileInfo(path("wave-crossline.png")).size() > 1000);
    }
};

QTEST_GUILESS_MAIN(TestCli3D)
#include "tst_cli_3d.moc"
