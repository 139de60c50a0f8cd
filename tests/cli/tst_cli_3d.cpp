// The fwi commands on a 3D project: info, forward (gathers with y in every format), gradient (a checkpointed
// lossless gradient equal to store-all bit for bit, `auto` within a budget a fifth of store-all's need, the
// gradient written as a (nz, ny, nx) array and as three slice pictures), plan, taylor and plot.
#include "fwi/acquisition.hpp"
#include "fwi/gather.hpp"
#include "fwi/npy.hpp"
#include "fwi/project.hpp"

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
