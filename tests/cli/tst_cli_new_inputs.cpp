// `fwi new`'s inputs beside the model itself. The model-layout options (--nz --nx --ny --z-major for raw
// files;
// --dz --dx --dy --units --dataset for files) are refused, before anything is written, where no given model
// reads them: they used to be ignored without a word (`--nz 800` with builtin:salt3d made 61 x 81 x 81
// cells). Where a model reads them they still work. A wavelet file must be one finite, non-zero trace, and a
// wavelet so large that the gradient overflows float32 is an error naming the cause, not a NaN gradient. A
// spacing so coarse that the grid cannot carry the source's wavelength at all is refused. A free surface is
// refused over a source or receiver on it (z = 0), and kept in the project.
#include "fwi/npy.hpp"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "cli_runner.hpp"

using fwi::test::fwi_cli;
using fwi::test::json_of;
using Run = fwi::test::CliRun;

class TestCliNewInputs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fwi::write_npy(path("plane.npy").toStdString(), {{20, 24}, std::vector<float>(20 * 24, 2000.0f)});
        fwi::write_npy(path("volume.npy").toStdString(),
                       {{12, 10, 14}, std::vector<float>(12 * 10 * 14, 2000.0f)});
        const auto wavelet = [&](const char* name, std::vector<std::int64_t> shape, float peak, float bad) {
            std::vector<float> w(std::size_t(shape[0] * (shape.size() > 1 ? shape[1] : 1)), 0.0f);
            for (std::size_t i = 10; i < 30; ++i) // one smooth pulse
                w[i] = peak * float(std::sin(3.14159265 * double(i - 10) / 20.0));
            w[5] = bad;
            fwi::write_npy(path(name).toStdString(), {std::move(shape), std::move(w)});
        };
        wavelet("pulse.npy", {300}, 1.0f, 0.0f);
        wavelet("nan.npy", {300}, 1.0f, std::nanf(""));
        wavelet("zeros.npy", {300}, 0.0f, 0.0f);
        wavelet("plane-wavelet.npy", {20, 15}, 1.0f, 0.0f);
        wavelet("huge.npy", {300}, 1e20f, 0.0f);
        wavelet("overflowing.npy", {300}, 1e37f, 0.0f);
        QFile raw(path("plane.bin"));
        QVERIFY(raw.open(QIODevice::WriteOnly));
        const std::vector<float> values(20 * 24, 2000.0f);
        raw.write(reinterpret_cast<const char*>(values.data()), qint64(values.size() * sizeof(float)));
    }

    void inputs_no_run_could_use_are_refused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("a shape for a built-in model")
            << QStringList{"--model", "builtin:salt3d", "--nz", "800"}
            << "--nz is for raw float32 model files, whose shape and order the file does not hold; --model "
               "builtin:salt3d has its own grid (--resample changes the spacing)";
        QTest::newRow("a spacing for a built-in model")
            << QStringList{"--model", "builtin:layered", "--dx", "3"}
            << "--dx is for model files; --model builtin:layered has its own grid";
        QTest::newRow("units for built-in models")
            << QStringList{"--model", "builtin:layered", "--initial", "builtin:layered", "--units", "km/s"}
            << "--units is for model files; --model and --initial have their own grids";
        QTest::newRow("a shape that contradicts the .npy's")
            << QStringList{"--model", "@volume.npy", "--dz", "10", "--dy", "10", "--dx", "10", "--nz", "5"}
            << "holds them itself";
        QTest::newRow("an order for a .npy")
            << QStringList{"--model", "@plane.npy", "--dz", "10", "--dx", "10", "--z-major"}
            << "--z-major is for raw";
        QTest::newRow("a shape for neither model")
            << QStringList{"--model", "builtin:layered", "--initial", "@plane.npy", "--ny", "3"}
            << "--model and --initial hold them themselves";
        QTest::newRow("a y spacing for a 2D .npy")
            << QStringList{"--model", "@plane.npy", "--dz", "10", "--dx", "10", "--dy", "7"}
            << "--dy needs a 3D model (this one is 2D)";
        QTest::newRow("a wavelet with a NaN")
            << QStringList{"--model", "builtin:layered", "--nt", "300", "--wavelet", "@nan.npy"}
            << "wavelet " + path("nan.npy") + ": sample 5 is not finite";
        QTest::newRow("a wavelet of zeros")
            << QStringList{"--model", "builtin:layered", "--nt", "300", "--wavelet", "@zeros.npy"}
            << "all zeros";
        QTest::newRow("a wavelet of several traces")
            << QStringList{"--model", "builtin:layered", "--nt", "300", "--wavelet", "@plane-wavelet.npy"}
            << "is a 2D array; give one trace";
        QTest::newRow("a project named as a model file")
            << QStringList{"--model", "builtin:layered", "--out-name", "@refused.h5"} << "ends in .fwi";
        QTest::newRow("a spacing far too coarse for the source (km given as m)")
            << QStringList{"--model", "@plane.npy", "--dz", "10000", "--dx", "10000"}
            << "(400 m at 5 Hz, 2e+03 m/s) spans 0.04 cells of 1e+04 m, fewer than the 2 per wavelength";
        QTest::newRow("a spacing of 1e300 m")
            << QStringList{"--model", "@plane.npy", "--dz", "1e300", "--dx", "10"}
            << "the grid cannot carry the source";
        QTest::newRow("a y spacing for a 2D raw file")
            << QStringList{"--model", "@plane.bin", "--nz", "20", "--nx", "24",
                           "--dz",    "10",         "--dx", "10", "--dy", "7"}
            << "--dy needs a 3D model";
        QTest::newRow("a receiver on a free surface")
            << QStringList{"--model", "@plane.npy", "--dz",        "10", "--dx",           "10",
                           "--shots", "1",          "--receivers", "4",  "--free-surface", "--receiver-z",
                           "0"}
            << "shot 0 receiver 0 lies on the free surface (z = 0 m), where the pressure is held at zero: it "
               "would record nothing";
    }
    void inputs_no_run_could_use_are_refused() {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        for (QString& a : args)
            if (a.startsWith('@')) a = path(a.mid(1));
        QString out = path("refused.fwi");
        if (const auto at = args.indexOf("--out-name"); at >= 0) { // the project's own name under test
            out = args[at + 1];
            args.remove(at, 2);
        }
        const Run r = fwi_cli(QStringList{"new", out} + args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    /// A wavelet of 1e20 makes finite data and a finite misfit, but the gradient (the square of the
    /// amplitudes) overflows float32: an error that says so, where it was a NaN gradient written without a
    /// word (and an inversion that stopped as "stationary"). One of 1e37 overflows the modelled data.
    void overflows_of_float32_are_errors() {
        const QString project = path("huge.fwi");
        Run r = fwi_cli({"-q", "new", project, "--model", "builtin:layered", "--resample", "25", "--shots",
                         "1", "--receivers", "12", "--nt", "300", "--wavelet", path("huge.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(fwi_cli({"-q", "forward", project, "--store-observed"}).code, 0);
        for (const QStringList& command : {QStringList{"gradient", project, "--out", path("g.npy")},
                                           QStringList{"invert", project, "--iterations", "1"}}) {
            r = fwi_cli(QStringList{"-q"} + command);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("the gradient is not finite although the misfit is") &&
                         r.err.contains("scale the source wavelet and the observed data down"),
                     r.err.constData());
        }
        QVERIFY(!QFile::exists(path("g.npy")));
        // A wavelet of 1e37 overflows the forward modelling itself.
        r = fwi_cli({"-q", "new", path("overflowing.fwi"), "--model", "builtin:layered", "--resample", "25",
                     "--shots", "1", "--receivers", "12", "--nt", "300", "--wavelet",
                     path("overflowing.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray before = fwi::test::file_bytes(path("overflowing.fwi"));
        r = fwi_cli({"-q", "forward", path("overflowing.fwi"), "--store-observed"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("shot 0: the modelled data are not finite"), r.err.constData());
        QCOMPARE(fwi::test::file_bytes(path("overflowing.fwi")), before);
        // The same project with a wavelet of 1: a finite gradient.
        r = fwi_cli({"-q", "new", path("pulse.fwi"), "--model", "builtin:layered", "--resample", "25",
                     "--shots", "1", "--receivers", "12", "--nt", "300", "--wavelet", path("pulse.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(fwi_cli({"-q", "forward", path("pulse.fwi"), "--store-observed"}).code, 0);
        r = fwi_cli({"-q", "gradient", path("pulse.fwi")});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    /// --free-surface is kept in the project and shown by `fwi info`; a project without it absorbs at the
    /// top.
    void the_free_surface_is_a_project_setting() {
        for (const bool free_surface : {true, false}) {
            QStringList args{
                "-q",   "new", path("surface.fwi"), "--model", path("plane.npy"), "--dz", "10",
                "--dx", "10",  "--shots",           "1",       "--receivers",     "4",    "--force"};
            if (free_surface) args << "--free-surface";
            Run r = fwi_cli(args);
            QVERIFY2(r.code == 0, r.err.constData());
            r = fwi_cli({"--json", "info", path("surface.fwi")});
            QVERIFY2(r.code == 0, r.err.constData());
            QCOMPARE(json_of(r)["free_surface"].toBool(), free_surface);
        }
    }

    /// Where a model reads them, the same options make the grid they say.
    void options_a_model_reads_are_used() {
        Run r = fwi_cli({"--json", "new", path("raw.fwi"), "--model", path("plane.bin"), "--nz", "20", "--nx",
                         "24", "--dz", "10", "--dx", "12", "--z-major", "--shots", "1", "--receivers", "4"});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject grid = json_of(r);
        QCOMPARE(grid["nz"].toInt(), 20);
        QCOMPARE(grid["nx"].toInt(), 24);
        QCOMPARE(grid["dx_m"].toDouble(), 12.0);
        // A raw true model with a .npy initial one of the same grid: the shape options are the raw file's.
        r = fwi_cli({"--json", "new", path("mixed.fwi"), "--model", path("plane.bin"), "--initial",
                     path("plane.npy"), "--nz", "20", "--nx", "24", "--dz", "10", "--dx", "10", "--shots",
                     "1", "--receivers", "4"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"--json", "new", path("volume.fwi"), "--model", path("volume.npy"), "--dz", "10", "--dy",
                     "8", "--dx", "10", "--shots-x", "1", "--receivers-x", "2", "--receivers-y", "2"});
        QVERIFY2(r.code == 0, r.err.constData());
        grid = json_of(r);
        QCOMPARE(grid["ny"].toInt(), 10);
        QCOMPARE(grid["dy_m"].toDouble(), 8.0);
    }
};

QTEST_GUILESS_MAIN(TestCliNewInputs)
#include "tst_cli_new_inputs.moc"
