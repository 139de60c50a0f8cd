// Model files through the dispatcher: every format round-trips bit for bit, the shipped models load with the
// right orientation and units, and bad files or bad values fail with a specific, informative error.
#include "fwi/error.hpp"
#include "fwi/hdf5_model.hpp"
#include "fwi/model_io.hpp"
#include "fwi/model_tools.hpp"
#include "fwi/npy.hpp"
#include "fwi/resources.hpp"
#include "io_test_util.hpp"

#include <QTemporaryDir>
#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace fwi;

namespace {

// Non-symmetric in z and x so that a transposed or flipped read cannot pass.
Model test_model(std::int64_t nz, std::int64_t nx, double dz, double dx) {
    Model m;
    m.grid = Grid(nz, nx, dz, dx);
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps.push_back(1500.0f + 13.37f * float(iz) + 0.1234f * float(ix * ix));
    return m;
}

RawLayout layout_of(const Model& m, bool x_major = true) {
    RawLayout l;
    l.nz = m.grid.nz();
    l.nx = m.grid.nx();
    l.dz_m = m.grid.dz();
    l.dx_m = m.grid.dx();
    l.x_major = x_major;
    return l;
}

} // namespace

class TestModelIo : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const std::string& name) const {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }

  private slots:
    void round_trip_every_format_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("raw") << "m.bin";
        QTest::newRow("raw, no extension") << "m";
        QTest::newRow("npy") << "m.npy";
        QTest::newRow("npy upper-case") << "m.NPY";
        QTest::newRow("segy") << "m.segy";
        QTest::newRow("sgy") << "m.sgy";
        QTest::newRow("hdf5") << "m.h5";
    }
    void round_trip_every_format() {
        QFETCH(QString, name);
        const std::string file = path(name.toStdString());
        const Model m = test_model(23, 17, 7.5, 12.5);
        save_model(file, m);
        LoadReport report;
        const Model back = load_model(file, layout_of(m), &report);
        QCOMPARE(back.grid, m.grid);
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
        QVERIFY(!report.format.empty());
        QVERIFY2(report.units_note.find("m/s") != std::string::npos, report.units_note.c_str());
    }

    void raw_layouts_round_trip_and_differ() {
        const Model m = test_model(5, 3, 10, 10);
        save_model(path("zmajor.bin"), m, layout_of(m, false));
        save_model(path("xmajor.bin"), m, layout_of(m, true));
        QVERIFY(fwi_test::same_bits(load_model(path("zmajor.bin"), layout_of(m, false)).vp_mps, m.vp_mps));
        QVERIFY(fwi_test::same_bits(load_model(path("xmajor.bin"), layout_of(m, true)).vp_mps, m.vp_mps));
        // x-major on disk: the first nz floats are the column ix = 0.
        const auto bytes = fwi_test::read_bytes(path("xmajor.bin"));
        float second = 0;
        std::memcpy(&second, bytes.data() + sizeof(float), sizeof(float));
        QCOMPARE(second, m.at(1, 0));
    }

    void marmousi2_loads_water_on_top() {
        LoadReport report;
        const Model m = load_marmousi2("true", &report);
        QCOMPARE(m.grid, Grid(174, 500, 20, 20));
        for (std::int64_t ix = 0; ix < m.grid.nx(); ++ix)
            QCOMPARE(m.at(0, ix), 1500.0f);
        auto row_mean = [&](std::int64_t iz) {
            double s = 0;
            for (std::int64_t ix = 0; ix < m.grid.nx(); ++ix)
                s += m.at(iz, ix);
            return s / double(m.grid.nx());
        };
        QVERIFY(row_mean(173) > row_mean(100));
        QVERIFY(row_mean(100) > row_mean(40));
        QVERIFY(row_mean(40) > row_mean(0));
        QCOMPARE(m.min_velocity(), 1500.0f);
        QVERIFY(std::abs(m.max_velocity() - 4766.604f) < 0.01f);
        QCOMPARE(report.format, std::string("raw float32 (x-major)"));

        // The smooth and 1D starting models share the grid and the water velocity at the surface.
        for (const char* which : {"smooth", "start1d"}) {
            const Model s = load_marmousi2(which);
            QCOMPARE(s.grid, m.grid);
            QCOMPARE(s.at(0, 250), 1500.0f);
        }
        // The 1D model really is 1D: every row is constant.
        const Model one_d = load_marmousi2("start1d");
        for (std::int64_t iz = 0; iz < one_d.grid.nz(); ++iz)
            QCOMPARE(one_d.at(iz, 499), one_d.at(iz, 0));
    }

    void marmousi_in_km_per_s_is_converted_with_a_note() {
        LoadReport report;
        const Model m = load_marmousi(&report);
        QCOMPARE(m.grid, Grid(401, 1601, 7.5, 7.5));
        QCOMPARE(m.at(0, 800), 1500.0f);
        QVERIFY(std::abs(m.min_velocity() - 1028.0f) < 0.01f);
        QVERIFY(std::abs(m.max_velocity() - 4700.0f) < 0.01f);
        QVERIFY2(report.units_note.find("km/s (1.028-4.700)") != std::string::npos,
                 report.units_note.c_str());
        QVERIFY(report.units_note.find("converted to m/s") != std::string::npos);

        // The same file with units left on auto is detected as km/s.
        RawLayout auto_units{401, 1601, 7.5, 7.5, true, "auto"};
        LoadReport detected;
        const Model again =
            load_model(resource_path("models/marmousi/vp_marmousi_bi"), auto_units, &detected);
        QVERIFY(fwi_test::same_bits(again.vp_mps, m.vp_mps));
        QVERIFY2(detected.units_note.find("velocities looked like km/s (1.028-4.700); converted to m/s") !=
                     std::string::npos,
                 detected.units_note.c_str());
    }

    void explicit_units_are_honoured() {
        Model slow = test_model(4, 4, 10, 10);
        for (float& v : slow.vp_mps)
            v /= 1000.0f; // 1.5 .. 1.6: km/s-like values
        save_model(path("slow.npy"), slow);
        RawLayout l = layout_of(slow);
        l.units = "m/s";
        const Model kept = load_model(path("slow.npy"), l);
        QVERIFY(fwi_test::same_bits(kept.vp_mps, slow.vp_mps));
        l.units = "km/s";
        QCOMPARE(load_model(path("slow.npy"), l).at(0, 0), slow.at(0, 0) * 1000.0f);
        LoadReport report;
        load_model(path("slow.npy"), l, &report);
        QVERIFY(report.units_note.find("given in km/s") != std::string::npos);
        const Model fast = test_model(4, 4, 10, 10);
        save_model(path("fast.npy"), fast);
        // Explicit km/s on values that are obviously m/s gives velocities no rock has (1.5e6 m/s, a time step
        // 1000 times too small): refused, with the likely cause.
        l.units = "km/s";
        FWI_VERIFY_ERROR(ConfigError, load_model(path("fast.npy"), l), "faster than any rock");
        l.units = "ft/s";
        FWI_VERIFY_ERROR(ConfigError, load_model(path("fast.npy"), l), "unknown units 'ft/s'");
    }

    /// An HDF5 model that states its units: they are read as stated, and units given that contradict them
    /// are refused naming both (the file's attribute used to override --units m/s without a word).
    void hdf5_units_stated_by_the_file_win_or_conflict() {
        Model slow = test_model(4, 4, 10, 10);
        for (float& v : slow.vp_mps)
            v /= 1000.0f; // km/s values
        // The file's units attribute set to `units`, or removed (nullptr).
        const auto label = [&](const std::string& file, const char* units) {
            write_model_hdf5(file, slow); // says "m/s"
            const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
            const hid_t d = H5Dopen2(f, "vp", H5P_DEFAULT);
            H5Adelete(d, "units");
            if (units) {
                const hid_t type = H5Tcopy(H5T_C_S1);
                H5Tset_size(type, std::strlen(units));
                const hid_t space = H5Screate(H5S_SCALAR);
                const hid_t a = H5Acreate2(d, "units", type, space, H5P_DEFAULT, H5P_DEFAULT);
                QVERIFY(a >= 0 && H5Awrite(a, type, units) >= 0);
                H5Aclose(a);
                H5Sclose(space);
                H5Tclose(type);
            }
            H5Dclose(d);
            H5Fclose(f);
        };
        const std::string stated = path("km.h5"), unstated = path("bare.h5");
        label(stated, "km/s");
        label(unstated, nullptr);
        RawLayout l;
        for (const char* units : {"auto", "km/s"}) {
            l.units = units;
            QCOMPARE(load_model(stated, l).at(0, 0), slow.at(0, 0) * 1000.0f);   // converted once, not twice
            QCOMPARE(load_model(unstated, l).at(0, 0), slow.at(0, 0) * 1000.0f); // auto: the values say km/s
        }
        l.units = "m/s";
        FWI_VERIFY_ERROR(ConfigError, load_model(stated, l), "in km/s (its 'units' attribute), not m/s");
        QCOMPARE(load_model(unstated, l).at(0, 0), slow.at(0, 0)); // as given
    }

    /// A missing file is a resource problem (not a missing raw layout), a project is not a model.
    void missing_files_and_projects_are_named() {
        RawLayout l;
        FWI_VERIFY_ERROR(ResourceError, load_model(path("missing.bin"), l), "no such file");
        save_model(path("model.npy"), test_model(4, 4, 10, 10));
        QVERIFY(
            QFile::copy(QString::fromStdString(path("model.npy")), QString::fromStdString(path("p.fwi"))));
        FWI_VERIFY_ERROR(ConfigError, load_model(path("p.fwi"), l), "is a project, not a model");
    }

    void raw_size_must_match_exactly() {
        const Model m = test_model(10, 20, 10, 10);
        save_model(path("r.bin"), m);
        RawLayout l = layout_of(m);
        l.nx = 21;
        FWI_VERIFY_ERROR(FormatError, load_model(path("r.bin"), l), "r.bin", "10 x 21", "need 840 bytes",
                         "file has 800 bytes");
        l.nx = 0;
        FWI_VERIFY_ERROR(ConfigError, load_model(path("r.bin"), l), "r.bin", "needs nz, nx, dz and dx",
                         "nx=0");
        l = layout_of(m);
        l.dx_m = 0;
        FWI_VERIFY_ERROR(ConfigError, load_model(path("r.bin"), l), "dx=0");
        auto bytes = fwi_test::read_bytes(path("r.bin"));
        bytes.resize(bytes.size() - 1);
        fwi_test::write_bytes(path("cut.bin"), bytes);
        FWI_VERIFY_ERROR(FormatError, load_model(path("cut.bin"), layout_of(m)), "cut.bin",
                         "file has 799 bytes");
        // nz * nx so large that 4 * nz * nx overflows 64 bits must not wrap around to the file size.
        RawLayout absurd{std::int64_t(1) << 40, std::int64_t(1) << 40, 1, 1, true, "auto"};
        FWI_VERIFY_ERROR(FormatError, load_model(path("r.bin"), absurd), "file has 800 bytes");
    }

    void bad_velocities_in_files_name_file_and_cell_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("nan") << std::numeric_limits<float>::quiet_NaN() << "is NaN";
        QTest::newRow("negative") << -1500.0f << "is -1500 m/s";
        QTest::newRow("zero") << 0.0f << "is 0 m/s";
        QTest::newRow("inf") << -std::numeric_limits<float>::infinity() << "is -inf";
    }
    void bad_velocities_in_files_name_file_and_cell() {
        QFETCH(float, value);
        QFETCH(QString, fragment);
        const std::string frag = fragment.toStdString();
        Model m = test_model(6, 7, 10, 10);
        m.vp_mps[m.grid.index(4, 2)] = value;
        for (const char* name : {"bad.bin", "bad.npy", "bad.segy"}) {
            save_model(path(name),
                       m); // writers keep what they are given: a broken model can still be inspected
            FWI_VERIFY_ERROR(ConfigError, load_model(path(name), layout_of(m)), name, "(iz=4, ix=2)",
                             frag.c_str());
        }
    }

    void npy_models_need_two_or_three_dimensions_and_spacing() {
        // A 3D array is a volume (tst_model_io_3d): it needs dy as well; a 1D array is no model.
        fwi::NpyArray cube{{2, 3, 4}, std::vector<float>(24, 2000.0f)};
        write_npy(path("cube.npy"), cube);
        FWI_VERIFY_ERROR(ConfigError, load_model(path("cube.npy"), RawLayout{0, 0, 10, 10}), "cube.npy",
                         "give dy too");
        fwi::NpyArray line{{24}, std::vector<float>(24, 2000.0f)};
        write_npy(path("line.npy"), line);
        FWI_VERIFY_ERROR(FormatError, load_model(path("line.npy"), RawLayout{0, 0, 10, 10}), "line.npy",
                         "1 dimensions");
        save_model(path("flat.npy"), test_model(3, 4, 10, 10));
        FWI_VERIFY_ERROR(ConfigError, load_model(path("flat.npy")), "flat.npy", "hold no spacing");
    }

    void garbage_and_truncated_files_are_format_errors() {
        std::vector<char> garbage(5000);
        for (std::size_t i = 0; i < garbage.size(); ++i)
            garbage[i] = char((i * 7919) % 251);
        fwi_test::write_bytes(path("garbage.npy"), garbage);
        FWI_VERIFY_ERROR(FormatError, load_model(path("garbage.npy"), RawLayout{0, 0, 10, 10}), "garbage.npy",
                         "magic");
        fwi_test::write_bytes(path("garbage.segy"), garbage);
        FWI_VERIFY_ERROR(FormatError, load_model(path("garbage.segy")), "garbage.segy", "SEG-Y");

        const Model m = test_model(30, 9, 10, 10);
        save_model(path("full.segy"), m);
        auto bytes = fwi_test::read_bytes(path("full.segy"));
        bytes.resize(bytes.size() - 100);
        fwi_test::write_bytes(path("cut.segy"), bytes);
        FWI_VERIFY_ERROR(FormatError, load_model(path("cut.segy")), "cut.segy", "truncated");
        bytes.resize(3000); // not even the file headers
        fwi_test::write_bytes(path("stub.segy"), bytes);
        FWI_VERIFY_ERROR(FormatError, load_model(path("stub.segy")), "stub.segy");

        save_model(path("full.npy"), m);
        bytes = fwi_test::read_bytes(path("full.npy"));
        bytes.resize(bytes.size() - 4);
        fwi_test::write_bytes(path("cut.npy"), bytes);
        FWI_VERIFY_ERROR(FormatError, load_model(path("cut.npy"), layout_of(m)), "cut.npy", "truncated");

        fwi_test::write_bytes(path("garbage.h5"), garbage);
        FWI_VERIFY_ERROR(FormatError, load_model(path("garbage.h5"), layout_of(m)), "garbage.h5");
    }

    void missing_and_unwritable_paths_are_resource_errors() {
        for (const char* name : {"none.bin", "none.npy", "none.segy"})
            FWI_VERIFY_ERROR(ResourceError, load_model(path(name), RawLayout{2, 2, 1, 1, true, "auto"}),
                             name);
        const Model m = test_model(3, 3, 10, 10);
        for (const char* name : {"no/dir/m.bin", "no/dir/m.npy", "no/dir/m.segy"})
            FWI_VERIFY_ERROR(ResourceError, save_model(path(name), m), "no/dir");
    }

    void writers_refuse_inconsistent_models() {
        Model m = test_model(3, 3, 10, 10);
        m.vp_mps.pop_back();
        for (const char* name : {"i.bin", "i.npy", "i.segy"})
            FWI_VERIFY_ERROR(ConfigError, save_model(path(name), m), name, "inconsistent");
    }
};

QTEST_APPLESS_MAIN(TestModelIo)
#include "tst_model_io.moc"
