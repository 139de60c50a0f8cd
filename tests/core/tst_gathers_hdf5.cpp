// HDF5 shot gathers (fwi/gather.hpp, docs/data-formats.md): a round trip is bit for bit, for surveys of any
// size (4096 receivers or more made the positions' attribute too large for its object header: the file
// failed to write after the whole run), in 2D and 3D; the positions are datasets beside the traces; files
// of earlier builds, with the positions as attributes, still read; inconsistent positions are refused.
#include "fwi/error.hpp"
#include "fwi/gather.hpp"

#include <hdf5.h>

#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <vector>

namespace {

fwi::Gather make_gather(int receivers, int samples, bool three_d) {
    fwi::Gather g;
    g.source = {125.5, 10, three_d ? 77.25 : 0.0};
    g.samples = samples;
    g.dt_s = 0.002;
    for (int r = 0; r < receivers; ++r)
        g.receivers.push_back({0.5 + 2.5 * r, 20, three_d ? 3.0 + 0.125 * (r % 97) : 0.0});
    for (int i = 0; i < receivers * samples; ++i)
        g.traces.push_back(float(i % 1013) * 1e-3f - 0.5f);
    return g;
}

/// A file in the layout of builds before the positions became datasets: attributes on the shot dataset.
void write_attribute_layout(const std::string& path, const fwi::Gather& g, std::size_t attribute_values) {
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t group = H5Gcreate2(file, "gathers", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    auto attribute = [](hid_t object, const char* name, const std::vector<double>& values, bool scalar) {
        const hsize_t n = values.size();
        const hid_t space = scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr);
        const hid_t a = H5Acreate2(object, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_DOUBLE, values.data());
        H5Aclose(a);
        H5Sclose(space);
    };
    {
        const std::int64_t shots = 1;
        const hid_t space = H5Screate(H5S_SCALAR);
        const hid_t a = H5Acreate2(group, "shot_count", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT64, &shots);
        H5Aclose(a);
        H5Sclose(space);
    }
    const hsize_t dims[2] = {hsize_t(g.receivers.size()), hsize_t(g.samples)};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t d =
        H5Dcreate2(group, "shot_0000", H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, g.traces.data());
    attribute(d, "dt_s", {g.dt_s}, true);
    attribute(d, "source_xz_m", {g.source.x_m, g.source.z_m}, false);
    std::vector<double> xz;
    for (const fwi::Point& r : g.receivers) {
        xz.push_back(r.x_m);
        xz.push_back(r.z_m);
    }
    xz.resize(attribute_values);
    attribute(d, "receivers_xz_m", xz, false);
    H5Dclose(d);
    H5Sclose(space);
    H5Gclose(group);
    H5Fclose(file);
}

bool has_link(const std::string& path, const char* name) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const bool found = H5Lexists(file, name, H5P_DEFAULT) > 0;
    H5Fclose(file);
    return found;
}

} // namespace

class TestGathersHdf5 : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

  private slots:
    void large_surveys_round_trip_bit_for_bit_data() {
        QTest::addColumn<int>("receivers");
        QTest::addColumn<bool>("three_d");
        QTest::newRow("2D, 20 receivers") << 20 << false;
        QTest::newRow("2D, 5000 receivers") << 5000 << false;  // the attribute would be 80 000 bytes
        QTest::newRow("3D, 22500 receivers") << 22500 << true; // a 150 x 150 areal grid
    }
    void large_surveys_round_trip_bit_for_bit() {
        QFETCH(int, receivers);
        QFETCH(bool, three_d);
        const std::vector<fwi::Gather> gathers{make_gather(receivers, 7, three_d),
                                               make_gather(receivers / 2, 5, three_d)};
        const std::string file = path("gathers.h5");
        fwi::write_gathers_hdf5(file, gathers);
        QVERIFY(fwi::read_gathers_hdf5(file) == gathers);
        QVERIFY(has_link(file, "/gathers/shot_0001_receivers_xz_m"));
        QCOMPARE(has_link(file, "/gathers/shot_0001_receivers_y_m"), three_d); // 2D files keep their form
    }

    void files_of_earlier_builds_still_read() {
        const fwi::Gather g = make_gather(30, 4, false);
        const std::string file = path("attributes.h5");
        write_attribute_layout(file, g, 2 * g.receivers.size());
        const auto read = fwi::read_gathers_hdf5(file);
        QCOMPARE(read.size(), std::size_t(1));
        QVERIFY(read[0] == g);
    }

    void inconsistent_positions_are_refused() {
        const fwi::Gather g = make_gather(30, 4, false);
        const std::string old_layout = path("short_attribute.h5");
        write_attribute_layout(old_layout, g, 2 * g.receivers.size() - 1);
        QVERIFY_THROWS_EXCEPTION(fwi::FormatError, fwi::read_gathers_hdf5(old_layout));
        try {
            fwi::read_gathers_hdf5(old_layout);
        } catch (const fwi::FormatError& e) {
            QVERIFY2(std::string(e.what()).find("receivers_xz_m must hold 2 values per receiver") !=
                         std::string::npos,
                     e.what());
        }
        // A positions dataset of the wrong shape (one receiver short) is refused, naming the dataset.
        const std::string file = path("short_dataset.h5");
        fwi::write_gathers_hdf5(file, {g});
        const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        H5Ldelete(f, "/gathers/shot_0000_receivers_xz_m", H5P_DEFAULT);
        const hsize_t dims[2] = {29, 2};
        const hid_t space = H5Screate_simple(2, dims, nullptr);
        const std::vector<double> zeros(58, 0.0);
        const hid_t d = H5Dcreate2(f, "/gathers/shot_0000_receivers_xz_m", H5T_IEEE_F64LE, space, H5P_DEFAULT,
                                   H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data());
        H5Dclose(d);
        H5Sclose(space);
        H5Fclose(f);
        try {
            fwi::read_gathers_hdf5(file);
            QFAIL("a positions dataset one receiver short was read");
        } catch (const fwi::FormatError& e) {
            QVERIFY2(std::string(e.what()).find("shot_0000_receivers_xz_m") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestGathersHdf5)
#include "tst_gathers_hdf5.moc"
