// 3D projects: bit-exact round trips of 3D models, [z, y, x] points, gathers, gradients and history; schema 3
// for 3D files and 2 for 2D ones (so older builds keep reading 2D projects); projects mixing ranks refused on
// save, and damaged 3D files (points of the wrong width, models of different ranks) refused on load.
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "hdf5_test_util.hpp"

#include <QTemporaryDir>
#include <QTest>

#include <hdf5.h>

using namespace fwi;

namespace {

Model make_model_3d(std::int64_t nz, std::int64_t ny, std::int64_t nx, double d, unsigned seed) {
    Model m;
    m.grid = Grid(nz, ny, nx, d, 1.5 * d, 2 * d);
    m.vp_mps = test::random_floats(std::size_t(m.grid.cells()), 1500.0f, 4500.0f, seed);
    return m;
}

Project project_3d() {
    Project p;
    Experiment& e = p.experiment;
    e.true_model = make_model_3d(6, 7, 9, 10, 1);
    e.initial_model = make_model_3d(6, 7, 9, 10, 2);
    e.current_model = make_model_3d(4, 5, 3, 20, 3);
    e.acquisition.shots = {{{15.0, 2.5, 7.25}, {{0, 5, 1}, {10, 5, 2}, {20.25, 5.5, 3.5}}},
                           {{150.0, 2.5, 0.5}, {{1, 2, 3}}}};
    p.observed = {{3, 20, 0.002, test::random_floats(60, -1, 1, 4)},
                  {1, 20, 0.002, test::random_floats(20, -1, 1, 5)}};
    p.gradient = test::random_floats(std::size_t(p.experiment.current_model.grid.cells()), -1, 1, 6);
    p.misfit = 0.5;
    IterationRecord it;
    it.iteration = 3;
    it.model = make_model_3d(4, 5, 3, 20, 7);
    it.gradient = test::random_floats(60, -1, 1, 8);
    p.history = {it};
    return p;
}

std::int64_t schema_of(const std::string& path) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t attribute = H5Aopen(file, "fwi_studio_schema", H5P_DEFAULT);
    std::int64_t version = -1;
    H5Aread(attribute, H5T_NATIVE_INT64, &version);
    H5Aclose(attribute);
    H5Fclose(file);
    return version;
}

std::vector<hsize_t> dataset_shape(const std::string& path, const char* name) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
    const hid_t space = H5Dget_space(dataset);
    std::vector<hsize_t> dims(std::size_t(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(dataset);
    H5Fclose(file);
    return dims;
}

/// Replaces /acquisition/<name> by an (n, 2) array, as a damaged or hand-edited 3D file might hold.
void write_two_columns(const std::string& path, const char* name, hsize_t rows) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(file, name, H5P_DEFAULT);
    const hsize_t dims[2] = {rows, 2};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t dataset =
        H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const std::vector<double> zeros(rows * 2, 1.0);
    H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data());
    H5Dclose(dataset);
    H5Sclose(space);
    H5Fclose(file);
}

std::string load_error(const std::string& path) {
    try {
        load_project(path);
    } catch (const FormatError& e) {
        return e.what();
    }
    return "";
}

} // namespace

class TestProject3D : public QObject {
    Q_OBJECT

  private slots:
    void roundTripIsBitExact() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cube.fwi").toStdString();
        const Project written = project_3d();
        save_project(path, written);
        const Project read = load_project(path);
        for (auto slot : {&Experiment::true_model, &Experiment::initial_model, &Experiment::current_model}) {
            QCOMPARE((read.experiment.*slot).grid, (written.experiment.*slot).grid);
            QVERIFY(test::same_bits((read.experiment.*slot).vp_mps, (written.experiment.*slot).vp_mps));
        }
        QCOMPARE(read.experiment.true_model.grid.rank, 3);
        QVERIFY(read.experiment.acquisition == written.experiment.acquisition); // y kept exactly
        QCOMPARE(read.observed.size(), std::size_t(2));
        QVERIFY(test::same_bits(read.observed[0].traces, written.observed[0].traces));
        QVERIFY(test::same_bits(read.gradient, written.gradient));
        QCOMPARE(read.history.size(), std::size_t(1));
        QCOMPARE(read.history[0].model.grid, written.history[0].model.grid);
        QVERIFY(test::same_bits(read.history[0].gradient, written.history[0].gradient));
    }

    void fileLayoutIsZYXFirstAxisSlowest() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cube.fwi").toStdString();
        save_project(path, project_3d());
        QCOMPARE(schema_of(path), std::int64_t(3));
        QCOMPARE(dataset_shape(path, "/models/true"), (std::vector<hsize_t>{6, 7, 9}));
        QCOMPARE(dataset_shape(path, "/acquisition/sources"), (std::vector<hsize_t>{2, 3}));
        QCOMPARE(dataset_shape(path, "/acquisition/receivers"), (std::vector<hsize_t>{4, 3}));
        QCOMPARE(dataset_shape(path, "/results/gradient"), (std::vector<hsize_t>{4, 5, 3}));
    }

    void twoDimensionalProjectsStaySchemaTwo() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("flat.fwi").toStdString();
        Project p;
        p.experiment.true_model.grid = Grid(3, 4, 10, 10);
        p.experiment.true_model.vp_mps.assign(12, 2000.0f);
        p.experiment.acquisition.shots = {{{5, 5, 99}, {{1, 1, 42}}}}; // y is not a 2D coordinate
        save_project(path, p);
        QCOMPARE(schema_of(path), std::int64_t(2));
        QCOMPARE(dataset_shape(path, "/acquisition/sources"), (std::vector<hsize_t>{1, 2}));
        const Project read = load_project(path);
        QCOMPARE(read.experiment.acquisition.shots[0].source, (Point{5, 5, 0}));
    }

    void mixedRanksAreRefusedOnSave() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("mixed.fwi").toStdString();
        Project p = project_3d();
        p.experiment.initial_model.grid = Grid(6, 63, 10, 20);
        try {
            save_project(path, p);
            QFAIL("a project mixing 2D and 3D models was saved");
        } catch (const ConfigError& e) {
            const std::string message = e.what();
            QVERIFY2(message.find("initial model is 2D") != std::string::npos, e.what());
        }
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
    }

    void pointsOfTheWrongWidthAreFormatErrors() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("damaged.fwi").toStdString();
        save_project(path, project_3d());
        write_two_columns(path, "/acquisition/receivers", 4);
        std::string message = load_error(path);
        QVERIFY2(message.find("sources with 3 coordinates but receivers with 2") != std::string::npos,
                 message.c_str());
        write_two_columns(path, "/acquisition/sources", 2);
        message = load_error(path);
        QVERIFY2(message.find("2 coordinates in a 3D project") != std::string::npos, message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestProject3D)
#include "tst_project_3d.moc"
