// Standalone HDF5 model files: bit-exact round trips, dataset discovery, spacing fallbacks, atomic writes and
// the error paths (unwritable, corrupt, truncated, wrong content), all without a byte printed by HDF5.
#include "fwi/error.hpp"
#include "fwi/hdf5_model.hpp"
#include "fwi/model_io.hpp"
#include "hdf5_test_util.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace fwi;

namespace {

Model make_model(std::int64_t nz, std::int64_t nx, double dz, double dx, unsigned seed) {
    Model m;
    m.grid = Grid(nz, nx, dz, dx);
    m.vp_mps = test::random_floats(std::size_t(nz * nx), 1500.0f, 4500.0f, seed);
    return m;
}

/// Writes a file with 2D float32 datasets (no attributes) named `names`, with h5import; false if h5import is
/// absent.
// Datasets of the twelve values 1 .. 12, shaped 3 x 4 unless `dims` says otherwise (e.g. "2 3 2").
bool import_datasets(const QTemporaryDir& dir, const QString& output, const QStringList& names,
                     const QString& dims = "3 4") {
    test::write_bytes(dir.filePath("values.txt"), "1 2 3 4\n5 6 7 8\n9 10 11 12\n");
    QStringList arguments;
    for (const auto& name : names) {
        const QString config = dir.filePath(name + ".conf");
        test::write_bytes(config, QString("PATH %1\nINPUT-CLASS TEXTFP\nRANK %2\nDIMENSION-SIZES %3\n"
                                          "OUTPUT-CLASS FP\nOUTPUT-SIZE 32\nOUTPUT-BYTE-ORDER LE\n")
                                      .arg(name)
                                      .arg(dims.split(' ').size())
                                      .arg(dims)
                                      .toUtf8());
        arguments << dir.filePath("values.txt") << "-c" << config;
    }
    arguments << "-o" << output;
    int code = 0;
    QByteArray out;
    return test::run_tool("h5import", arguments, code, out) && code == 0;
}

} // namespace

class TestHdf5Model : public QObject {
    Q_OBJECT

  private slots:
    void roundTripIsBitExact_data() {
        QTest::addColumn<qint64>("nz");
        QTest::addColumn<qint64>("nx");
        QTest::addColumn<double>("dz");
        QTest::addColumn<double>("dx");
        QTest::newRow("one cell") << qint64(1) << qint64(1) << 5.0 << 5.0;
        QTest::newRow("small, anisotropic spacing") << qint64(7) << qint64(11) << 12.5 << 10.0;
        QTest::newRow("large (chunked, deflated)") << qint64(301) << qint64(211) << 4.0 << 3.0;
    }
    void roundTripIsBitExact() {
        QFETCH(qint64, nz);
        QFETCH(qint64, nx);
        QFETCH(double, dz);
        QFETCH(double, dx);
        QTemporaryDir dir;
        const std::string path = dir.filePath("model.h5").toStdString();
        const Model written = make_model(nz, nx, dz, dx, 7);
        write_model_hdf5(path, written);
        const Model read = read_model_hdf5(path);
        QCOMPARE(read.grid, written.grid);
        QVERIFY(test::same_bits(read.vp_mps, written.vp_mps));
        QCOMPARE(read_model_hdf5(path, "vp").grid, written.grid);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
                 QStringList{"model.h5"}); // no temporary left behind
    }

    void overwriteReplacesTheFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("model.h5").toStdString();
        write_model_hdf5(path, make_model(4, 5, 10, 10, 1));
        const Model second = make_model(6, 3, 2, 8, 2);
        write_model_hdf5(path, second);
        const Model read = read_model_hdf5(path);
        QCOMPARE(read.grid, second.grid);
        QVERIFY(test::same_bits(read.vp_mps, second.vp_mps));
    }

    void failedWriteKeepsTheOldFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("model.h5").toStdString();
        const Model good = make_model(4, 5, 10, 10, 3);
        write_model_hdf5(path, good);
        Model bad = make_model(4, 5, 10, 10, 4);
        bad.vp_mps.pop_back(); // found only while writing, after the temporary file exists
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_model_hdf5(path, bad));
        QVERIFY(test::same_bits(read_model_hdf5(path).vp_mps, good.vp_mps));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"model.h5"});
    }

    void emptyOrInconsistentModelIsRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("model.h5").toStdString();
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_model_hdf5(path, Model{}));
        Model zero_spacing = make_model(2, 2, 0, 10, 5);
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_model_hdf5(path, zero_spacing));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    void unwritablePathIsResourceErrorNamingThePath_data() {
        QTest::addColumn<QString>("relative");
        QTest::newRow("missing directory") << "missing/model.h5";
        QTest::newRow("under a regular file") << "regular/model.h5";
        QTest::newRow("a directory") << "subdir";
    }
    void unwritablePathIsResourceErrorNamingThePath() {
        QFETCH(QString, relative);
        QTemporaryDir dir;
        test::write_bytes(dir.filePath("regular"), "not a directory");
        QDir(dir.path()).mkdir("subdir");
        const std::string path = dir.filePath(relative).toStdString();
        try {
            write_model_hdf5(path, make_model(3, 3, 1, 1, 6));
            QFAIL("no exception");
        } catch (const ResourceError& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        }
        QVERIFY(QFileInfo(dir.filePath("subdir")).isDir());
    }

    void readsAModelInsideAnotherFileByPath() {
        // The layout is the same in projects: "models/initial" is such a dataset. Here: a nested dataset
        // path.
        QTemporaryDir dir;
        const QString file = dir.filePath("one.h5");
        if (!import_datasets(dir, file, {"velocity"})) QSKIP("h5import is not installed");
        const Model m = read_model_hdf5(file.toStdString(), "/velocity", {2.0, 0, 3.0});
        QCOMPARE(m.grid, Grid(3, 4, 2.0, 3.0));
        QCOMPARE(m.at(1, 2), 7.0f); // row-major (z, x): row 1, column 2 of the text
    }

    void findsTheOnlyFloatDatasetAndNeedsASpacing() {
        QTemporaryDir dir;
        const QString file = dir.filePath("one.h5");
        if (!import_datasets(dir, file, {"velocity"})) QSKIP("h5import is not installed");
        const Model m = read_model_hdf5(file.toStdString(), "", {5.0, 0, 6.0});
        QCOMPARE(m.grid, Grid(3, 4, 5.0, 6.0));
        QCOMPARE(m.vp_mps.back(), 12.0f);
        // No spacing_m attribute and no fallback: the user must say.
        QVERIFY_THROWS_EXCEPTION(ConfigError, read_model_hdf5(file.toStdString()));
    }

    void findsTheOnlyVolumeAndUsesTheFallbackSpacing() {
        QTemporaryDir dir;
        const QString file = dir.filePath("cube.h5");
        if (!import_datasets(dir, file, {"velocity"}, "2 3 2")) QSKIP("h5import is not installed");
        const Model m = read_model_hdf5(file.toStdString(), "", {5.0, 6.0, 7.0});
        QCOMPARE(m.grid, Grid(2, 3, 2, 5.0, 6.0, 7.0));
        QCOMPARE(m.vp_mps[m.grid.index(1, 0, 1)], 8.0f); // (z, y, x) row-major: value (1 * 3 + 0) * 2 + 1
        // A volume needs dy: a 2D fallback is not enough, and the message names the three spacings.
        try {
            read_model_hdf5(file.toStdString(), "", {5.0, 0, 7.0});
            QFAIL("no exception");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("[dz, dy, dx]") != std::string::npos, e.what());
        }
    }

    void severalCandidatesOrAMissingNameIsFormatError() {
        QTemporaryDir dir;
        const QString file = dir.filePath("two.h5");
        if (!import_datasets(dir, file, {"a", "b"})) QSKIP("h5import is not installed");
        try {
            read_model_hdf5(file.toStdString(), "", {1, 1, 1});
            QFAIL("no exception");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("several") != std::string::npos, e.what());
        }
        try {
            read_model_hdf5(file.toStdString(), "vp", {1, 1, 1});
            QFAIL("no exception");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("vp") != std::string::npos, e.what());
        }
        // A file of several models: the layout names the one to read (fwi new --dataset).
        RawLayout layout{0, 0, 1, 1};
        layout.dataset = "b";
        const Model b = load_model(file.toStdString(), layout);
        QCOMPARE(b.grid.cells(), read_model_hdf5(file.toStdString(), "b", {1, 1, 1}).grid.cells());
        QVERIFY_THROWS_EXCEPTION(ConfigError, load_model(dir.filePath("m.npy").toStdString(), layout));
    }

    void corruptFilesAreFormatErrorsAndPrintNothing_data() {
        QTest::addColumn<int>("percent"); // of the file kept; -1 = a text file
        QTest::newRow("text file") << -1;
        QTest::newRow("empty") << 0;
        QTest::newRow("truncated to 10%") << 10;
        QTest::newRow("truncated to 50%") << 50;
        QTest::newRow("truncated to 99%") << 99;
    }
    void corruptFilesAreFormatErrorsAndPrintNothing() {
        QFETCH(int, percent);
        QTemporaryDir dir;
        const QString path = dir.filePath("model.h5");
        if (percent < 0) {
            test::write_bytes(path, "nz nx\n3 4\nthis is not HDF5\n");
        } else {
            write_model_hdf5(path.toStdString(), make_model(120, 130, 10, 10, 8));
            const QByteArray bytes = test::read_bytes(path);
            test::write_bytes(path, bytes.left(bytes.size() * percent / 100));
        }
        test::StderrCapture capture;
        bool format_error = false;
        try {
            read_model_hdf5(path.toStdString());
        } catch (const FormatError& e) {
            format_error = std::string(e.what()).find(path.toStdString()) != std::string::npos;
        }
        const std::string printed = capture.text();
        QVERIFY(format_error);
        QVERIFY2(printed.empty(), printed.c_str());
    }

    void missingFileIsResourceError() {
        QVERIFY_THROWS_EXCEPTION(ResourceError, read_model_hdf5("/nonexistent/dir/model.h5"));
    }

    void h5dumpReadsTheFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.h5");
        write_model_hdf5(path.toStdString(), make_model(40, 50, 10, 12.5, 9));
        int code = 0;
        QByteArray out;
        if (!test::run_tool("h5dump", {"-H", "-A", path}, code, out)) QSKIP("h5dump is not installed");
        QCOMPARE(code, 0);
        QVERIFY(out.contains("DATASET \"vp\""));
        QVERIFY(out.contains("H5T_IEEE_F32LE"));
        QVERIFY(out.contains("( 40, 50 )"));
        QVERIFY(out.contains("ATTRIBUTE \"spacing_m\""));
        QVERIFY(out.contains("ATTRIBUTE \"units\""));
        // The values themselves, as any tool sees them: spacing [dz, dx].
        QVERIFY(test::run_tool("h5dump", {"-a", "/vp/spacing_m", path}, code, out));
        QVERIFY2(out.contains("10, 12.5"), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestHdf5Model)
#include "tst_hdf5_model.moc"
