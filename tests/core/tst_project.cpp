// The project file: full and empty round trips (bit-exact arrays, equal settings), atomic saves that keep the
// old file on failure, unwritable paths, corrupt, truncated, foreign and newer-schema files, and h5dump
// readability.
#include "fwi/error.hpp"
#include "fwi/hdf5_model.hpp"
#include "fwi/isolated_read.hpp"
#include "fwi/project.hpp"
#include "hdf5_test_util.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <limits>

#include <sys/stat.h>

using namespace fwi;

namespace {

Model make_model(std::int64_t nz, std::int64_t nx, double dz, double dx, unsigned seed) {
    Model m;
    m.grid = Grid(nz, nx, dz, dx);
    m.vp_mps = test::random_floats(std::size_t(nz * nx), 1500.0f, 4500.0f, seed);
    return m;
}

ShotRecord make_record(std::int64_t receivers, std::int64_t samples, double dt_s, unsigned seed) {
    return {receivers, samples, dt_s,
            test::random_floats(std::size_t(receivers * samples), -1.0f, 1.0f, seed)};
}

/// Every part filled, with values that differ from the defaults, models on three different grids.
Project full_project() {
    Project p;
    Experiment& e = p.experiment;
    e.true_model = make_model(20, 30, 12.5, 10.0, 1);
    e.initial_model = make_model(20, 30, 12.5, 10.0, 2);
    e.current_model = make_model(11, 17, 25.0, 20.0, 3);
    e.acquisition.shots = {
        {{15.0, 2.5}, {{0, 5}, {10, 5}, {20.25, 5.5}}},
        {{150.0, 2.5}, {}}, // a shot without receivers
        {{280.0, 7.5}, {{1, 2}, {3, 4}}},
    };
    e.propagation = {4, 12, 7.5, 0.002, 1234, 4200.0, 0.45, test::random_floats(1234, -1, 1, 4), true};
    e.gradient = {"revolve:12",    "zfp-accuracy:1e-05", (std::uint64_t(1) << 63) + 5,
                  123456789012ull, "/scratch/é ü/fwi",   3};
    e.inversion = {25, {3.0, 5.0, 8.5}, 1450.5, 4999.5, "lbfgs", "l2"};
    p.observed = {make_record(3, 400, 0.002, 5), make_record(0, 400, 0.002, 6),
                  make_record(2, 40000, 0.001, 7)};
    p.gradient = test::random_floats(std::size_t(11 * 17), -1e-3f, 1e-3f, 8);
    p.misfit = 0.123456789012345;
    IterationRecord first{0,
                          0,
                          3.0,
                          10.5,
                          0.25,
                          1.5,
                          make_model(11, 17, 25.0, 20.0, 9),
                          test::random_floats(11 * 17, -1, 1, 10)};
    IterationRecord second; // no model, no gradient, NaN errors
    second.iteration = 1;
    second.stage = 1;
    second.freq_hz = 5.0;
    second.seconds = 2.25;
    p.history = {first, second};
    p.optimizer_state = {{"s_history", {1.0, -2.5, 1e-300}}, {"rho", {}}, {"y history (k=0)", {3.0}}};
    p.metadata = {{"created_by", "tst_project"},
                  {"notes", "line one\nline two: ünïcödé"},
                  {"empty", ""},
                  {"a key/with slash", "ok"}};
    return p;
}

void compare_models(const Model& a, const Model& b) {
    QCOMPARE(a.grid, b.grid);
    QVERIFY(test::same_bits(a.vp_mps, b.vp_mps));
}

void compare_projects(const Project& a, const Project& b) {
    compare_models(a.experiment.true_model, b.experiment.true_model);
    compare_models(a.experiment.initial_model, b.experiment.initial_model);
    compare_models(a.experiment.current_model, b.experiment.current_model);
    QVERIFY(a.experiment.acquisition == b.experiment.acquisition);
    QVERIFY(a.experiment.propagation == b.experiment.propagation);
    QVERIFY(test::same_bits(a.experiment.propagation.wavelet, b.experiment.propagation.wavelet));
    QVERIFY(a.experiment.gradient == b.experiment.gradient);
    QVERIFY(a.experiment.inversion == b.experiment.inversion);
    QCOMPARE(a.observed.size(), b.observed.size());
    for (std::size_t s = 0; s < a.observed.size(); ++s) {
        QCOMPARE(a.observed[s].receivers, b.observed[s].receivers);
        QCOMPARE(a.observed[s].samples, b.observed[s].samples);
        QCOMPARE(a.observed[s].dt_s, b.observed[s].dt_s);
        QVERIFY(test::same_bits(a.observed[s].traces, b.observed[s].traces));
    }
    QVERIFY(test::same_bits(a.gradient, b.gradient));
    QVERIFY(test::same_or_both_nan(a.misfit, b.misfit));
    QCOMPARE(a.history.size(), b.history.size());
    for (std::size_t i = 0; i < a.history.size(); ++i) {
        const auto &x = a.history[i], &y = b.history[i];
        QCOMPARE(x.iteration, y.iteration);
        QCOMPARE(x.stage, y.stage);
        QCOMPARE(x.freq_hz, y.freq_hz);
        QVERIFY(test::same_or_both_nan(x.misfit, y.misfit));
        QVERIFY(test::same_or_both_nan(x.model_error, y.model_error));
        QCOMPARE(x.seconds, y.seconds);
        compare_models(x.model, y.model);
        QVERIFY(test::same_bits(x.gradient, y.gradient));
    }
    QVERIFY(a.optimizer_state == b.optimizer_state);
    QVERIFY(a.metadata == b.metadata);
}

/// Rewrites the value of the root attribute fwi_studio_schema in place (the file's bytes), to fake a file
/// from another version. Handles attribute messages of version 1 (8-byte padded fields) and 3 (packed).
bool patch_schema_version(const QString& path, std::int64_t version) {
    QByteArray bytes = test::read_bytes(path);
    const QByteArray name("fwi_studio_schema\0", 18);
    const auto at = bytes.indexOf(name);
    if (at < 9) return false;
    auto u16 = [&](qsizetype i) { return int(quint8(bytes[i])) | int(quint8(bytes[i + 1])) << 8; };
    auto pad8 = [](int n) { return (n + 7) / 8 * 8; };
    qsizetype data = -1;
    if (bytes[at - 8] == 1 && u16(at - 6) == 18) // v1: version, reserved, sizes; fields padded to 8 bytes
        data = at + pad8(18) + pad8(u16(at - 4)) + pad8(u16(at - 2));
    else if (bytes[at - 9] == 3 && u16(at - 7) == 18) // v3: version, flags, sizes, charset; packed
        data = at + 18 + u16(at - 5) + u16(at - 3);
    if (data < 0 || data + 8 > bytes.size()) return false;
    for (int i = 0; i < 8; ++i)
        bytes[data + i] = char((version >> (8 * i)) & 0xff);
    return test::write_bytes(path, bytes);
}

std::string load_error(const QString& path) {
    try {
        load_project(path.toStdString());
    } catch (const FormatError& e) {
        return e.what();
    }
    return "";
}

} // namespace

class TestProject : public QObject {
    Q_OBJECT

  private slots:
    void fullRoundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("survey.fwi").toStdString();
        const Project written = full_project();
        save_project(path, written);
        compare_projects(load_project(path), written);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"survey.fwi"});
    }

    void isolatedLoadDecodesTheDataOnce() {
        // fwi reads projects in a child first (isolated_read.hpp); the child hands what it decoded to the
        // real read, which must give the same project bit for bit.
        QTemporaryDir dir;
        const std::string path = dir.filePath("survey.fwi").toStdString();
        const Project written = full_project();
        save_project(path, written);
        const ReadHandOver decoded = read_in_child(path, [&] { (void)load_project(path); });
        // Every float of the three models, the observed traces, the gradient and the history's model and
        // gradient went through the hand-over (and more: wavelet, coordinates, optimizer state).
        const std::uint64_t floats = 2 * 20 * 30 + 11 * 17 + 3 * 400 + 2 * 40000 + 11 * 17 + 2 * 11 * 17;
        QVERIFY2(decoded.bytes() >= floats * sizeof(float), qPrintable(QString::number(decoded.bytes())));
        {
            const ReadHandOver::Replay replay(decoded);
            compare_projects(load_project(path), written);
        }
        IsolatedReadSettings isolated;
        isolated.enabled = true;
        set_isolated_reads(isolated);
        const Project read = load_project(path);
        set_isolated_reads({});
        compare_projects(read, written);
    }

    void partialLoadSkipsTracesAndResultsAndIsNeverSaved() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("survey.fwi").toStdString();
        const Project written = full_project();
        QVERIFY(!written.observed.empty() && !written.gradient.empty() && !written.history.empty());
        save_project(path, written);
        const Project models_only = load_project(path, ProjectParts{.observed = false, .results = false});
        QVERIFY(models_only.partial);
        QVERIFY(models_only.observed.empty() && models_only.gradient.empty() && models_only.history.empty());
        QVERIFY(models_only.optimizer_state.empty() && std::isnan(models_only.misfit));
        compare_models(models_only.experiment.true_model, written.experiment.true_model);
        compare_models(models_only.experiment.current_model, written.experiment.current_model);
        QCOMPARE(models_only.experiment.acquisition.shots.size(),
                 written.experiment.acquisition.shots.size());
        QCOMPARE(models_only.metadata, written.metadata);
        const Project with_traces = load_project(path, ProjectParts{.results = false});
        QCOMPARE(with_traces.observed, written.observed);
        QVERIFY(with_traces.partial && with_traces.history.empty());
        // Saving a partial project would drop what it skipped: refused, and the file stays whole.
        QVERIFY_THROWS_EXCEPTION(ConfigError, save_project(path, models_only));
        Project whole = load_project(path, ProjectParts{});
        QVERIFY(!whole.partial);
        compare_projects(whole, written);
    }

    void emptyRoundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("empty.fwi").toStdString();
        save_project(path, Project{});
        const Project read = load_project(path);
        compare_projects(read, Project{});
        QVERIFY(std::isnan(read.misfit));
        QVERIFY(read.experiment.true_model.vp_mps.empty() && read.observed.empty() && read.history.empty());
    }

    void modelsAreReadableAsModelFiles() {
        // The project stores each model in the standalone model layout, so the model reader can pick one out.
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        const Project p = full_project();
        save_project(path, p);
        compare_models(read_model_hdf5(path, "models/current"), p.experiment.current_model);
        compare_models(read_model_hdf5(path, "/results/history/iter_00000/model"), p.history[0].model);
    }

    void saveReplacesAndFailedSaveKeepsTheOldFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        save_project(path, Project{});
        const Project good = full_project();
        save_project(path, good); // replaces
        compare_projects(load_project(path), good);

        // Found only while writing (the temporary file exists by then): a history model short of one value.
        Project bad = full_project();
        bad.history[0].model.vp_mps.pop_back();
        QVERIFY_THROWS_EXCEPTION(ConfigError, save_project(path, bad));
        Project bad_name = full_project();
        bad_name.optimizer_state["a/b"] = {1.0};
        QVERIFY_THROWS_EXCEPTION(ConfigError, save_project(path, bad_name));
        compare_projects(load_project(path), good);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"p.fwi"});
    }

    // The mode bits decide, for root too: a file nobody may write is not replaced (nor checked as saveable).
    void readOnlyProjectIsNeverReplaced() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        save_project(path, full_project());
        const QByteArray before = test::read_bytes(dir.filePath("p.fwi"));
        QVERIFY(::chmod(path.c_str(), 0444) == 0);
        QVERIFY_THROWS_EXCEPTION(ResourceError, check_project_saveable(path));
        try {
            save_project(path, Project{});
            QFAIL("no exception");
        } catch (const ResourceError& e) {
            QVERIFY2(std::string(e.what()).find("read-only") != std::string::npos, e.what());
        }
        QCOMPARE(test::read_bytes(dir.filePath("p.fwi")), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"p.fwi"});
        struct stat info {};
        QVERIFY(::stat(path.c_str(), &info) == 0);
        QCOMPARE(int(info.st_mode & 07777), 0444);
        QVERIFY(::chmod(path.c_str(), 0644) == 0);
        check_project_saveable(path);                                  // writable again: no throw
        check_project_saveable(dir.filePath("new.fwi").toStdString()); // a new file in a writable directory
    }

    void unreadableProjectIsResourceError() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        save_project(path, full_project());
        QVERIFY(::chmod(path.c_str(), 0) == 0);
        QVERIFY_THROWS_EXCEPTION(ResourceError, load_project(path));
        QVERIFY(::chmod(path.c_str(), 0600) == 0);
        compare_projects(load_project(path), full_project());
    }

    void readOnlyDirectoryKeepsTheOldFile() {
        if (::geteuid() == 0) QSKIP("root ignores directory permissions");
        QTemporaryDir dir;
        const QString sub = dir.filePath("ro");
        QDir().mkdir(sub);
        const std::string path = (sub + "/p.fwi").toStdString();
        save_project(path, full_project());
        QFile::setPermissions(sub, QFile::ReadOwner | QFile::ExeOwner);
        QVERIFY_THROWS_EXCEPTION(ResourceError, save_project(path, Project{}));
        QFile::setPermissions(sub, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        compare_projects(load_project(path), full_project());
    }

    void unwritablePathIsResourceErrorNamingThePath_data() {
        QTest::addColumn<QString>("relative");
        QTest::newRow("missing directory") << "missing/p.fwi";
        QTest::newRow("under a regular file") << "regular/p.fwi";
        QTest::newRow("a directory") << "subdir";
    }
    void unwritablePathIsResourceErrorNamingThePath() {
        QFETCH(QString, relative);
        QTemporaryDir dir;
        test::write_bytes(dir.filePath("regular"), "a file");
        QDir(dir.path()).mkdir("subdir");
        const std::string path = dir.filePath(relative).toStdString();
        try {
            save_project(path, full_project());
            QFAIL("no exception");
        } catch (const ResourceError& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        }
        QCOMPARE(test::read_bytes(dir.filePath("regular")), QByteArray("a file"));
        QVERIFY(QFileInfo(dir.filePath("subdir")).isDir());
    }

    void saveThroughASymlinkReplacesItsTarget() {
        QTemporaryDir dir;
        const QString target = dir.filePath("real.fwi");
        const QString link = dir.filePath("link.fwi");
        save_project(target.toStdString(), Project{});
        QVERIFY(QFile::link(target, link));
        const Project p = full_project();
        save_project(link.toStdString(), p);
        QVERIFY(QFileInfo(link).isSymLink());
        compare_projects(load_project(target.toStdString()), p);
    }

    void corruptFilesAreFormatErrorsAndPrintNothing_data() {
        QTest::addColumn<int>("percent"); // of the file kept; -1 = a text file named .fwi
        QTest::newRow("text file") << -1;
        QTest::newRow("empty") << 0;
        QTest::newRow("truncated to 1%") << 1;
        QTest::newRow("truncated to half") << 50;
        QTest::newRow("truncated to 95%") << 95;
    }
    void corruptFilesAreFormatErrorsAndPrintNothing() {
        QFETCH(int, percent);
        QTemporaryDir dir;
        const QString path = dir.filePath("x.fwi");
        if (percent < 0) {
            test::write_bytes(path, "This is a text file, not a project.\n");
        } else {
            save_project(path.toStdString(), full_project());
            const QByteArray bytes = test::read_bytes(path);
            test::write_bytes(path, bytes.left(bytes.size() * percent / 100));
        }
        test::StderrCapture capture;
        const std::string message = load_error(path);
        const std::string printed = capture.text();
        QVERIFY2(message.find(path.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(printed.empty(), printed.c_str());
    }

    void missingFileIsResourceErrorNamingIt() {
        try {
            load_project("/nonexistent/dir/p.fwi");
            QFAIL("no exception");
        } catch (const ResourceError& e) {
            QVERIFY2(std::string(e.what()).find("/nonexistent/dir/p.fwi") != std::string::npos, e.what());
        }
    }

    void hdf5FileThatIsNotAProjectIsFormatError() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.h5");
        write_model_hdf5(path.toStdString(), make_model(3, 4, 1, 1, 11));
        const std::string message = load_error(path);
        QVERIFY2(message.find("not an FWI Studio project") != std::string::npos, message.c_str());
    }

    void newerSchemaIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("future.fwi");
        save_project(path.toStdString(), full_project());
        QVERIFY(patch_schema_version(path, project_schema_version + 1));
        const std::string message = load_error(path);
        QVERIFY2(message.find("newer") != std::string::npos, message.c_str());
        QVERIFY(patch_schema_version(path, 0));
        QVERIFY(!load_error(path).empty());
        QVERIFY(patch_schema_version(path, project_schema_version)); // the patch itself did no harm
        compare_projects(load_project(path.toStdString()), full_project());
    }

    void h5dumpReadsTheProject() {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.fwi");
        save_project(path.toStdString(), full_project());
        int code = 0;
        QByteArray out;
        if (!test::run_tool("h5dump", {"-H", path}, code, out)) QSKIP("h5dump is not installed");
        QCOMPARE(code, 0);
        for (const char* expected :
             {"ATTRIBUTE \"fwi_studio_schema\"", "GROUP \"models\"", "DATASET \"current\"", "( 11, 17 )",
              "GROUP \"propagation\"", "DATASET \"receiver_offsets\"", "DATASET \"shot_00002\"",
              "( 2, 40000 )", "GROUP \"iter_00001\"", "DATASET \"s_history\"", "ATTRIBUTE \"notes\""})
            QVERIFY2(out.contains(expected), expected);
        QVERIFY(test::run_tool("h5dump", {"-a", "/fwi_studio_schema", path}, code, out));
        QVERIFY2(out.contains("(0): 2"), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
