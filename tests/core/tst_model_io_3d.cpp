// 3D model files: every format round-trips a volume bit for bit with its (z, y, x) orientation, raw x-major
// is Fortran order of (z, y, x), and wrong sizes or an irregular SEG-Y geometry fail with a clear error.
#include "fwi/error.hpp"
#include "fwi/hdf5_model.hpp"
#include "fwi/model_io.hpp"
#include "fwi/npy.hpp"
#include "io_test_util.hpp"

#include <QTemporaryDir>

#include <cstring>

using namespace fwi;

namespace {

constexpr std::size_t segy_file_header_bytes = 3600, segy_trace_header_bytes = 240;

// Different along every axis, so that a transposed or flipped read cannot pass.
Model test_volume(std::int64_t nz, std::int64_t ny, std::int64_t nx, double dz, double dy, double dx) {
    Model m;
    m.grid = Grid(nz, ny, nx, dz, dy, dx);
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix)
                m.vp_mps.push_back(1500.0f + 13.37f * float(iz) + 3.21f * float(iy * iy) +
                                   0.1234f * float(ix));
    return m;
}

RawLayout layout_of(const Model& m, bool x_major = true) {
    RawLayout l;
    l.nz = m.grid.nz();
    l.ny = m.grid.ny();
    l.nx = m.grid.nx();
    l.dz_m = m.grid.dz();
    l.dy_m = m.grid.dy();
    l.dx_m = m.grid.dx();
    l.x_major = x_major;
    return l;
}

float float_at(const std::vector<char>& bytes, std::size_t index) {
    float v;
    std::memcpy(&v, bytes.data() + index * sizeof(float), sizeof v);
    return v;
}

// Big-endian 4-byte field at SEG-Y byte position `pos` (1-based) of trace `t`.
std::size_t trace_field(std::size_t t, std::size_t samples, int pos) {
    return segy_file_header_bytes + t * (segy_trace_header_bytes + 4 * samples) + std::size_t(pos - 1);
}
void put_be32(std::vector<char>& b, std::size_t offset, std::uint32_t v) {
    for (int i = 3; i >= 0; --i, v >>= 8)
        b[offset + std::size_t(i)] = char(v & 0xff);
}

} // namespace

class TestModelIo3d : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const std::string& name) const {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }
    // A volume written as SEG-Y, returned as bytes for editing.
    std::vector<char> segy_bytes(const Model& m, const std::string& name) {
        save_model(path(name), m);
        return fwi_test::read_bytes(path(name));
    }

  private slots:
    void round_trip_every_format_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("x_major");
        QTest::newRow("raw x-major") << "v.bin" << true;
        QTest::newRow("raw z-major") << "v.bin" << false;
        QTest::newRow("npy") << "v.npy" << true;
        QTest::newRow("segy") << "v.segy" << true;
        QTest::newRow("hdf5") << "v.h5" << true;
    }
    void round_trip_every_format() {
        QFETCH(QString, name);
        QFETCH(bool, x_major);
        const std::string file = path(name.toStdString());
        const Model m = test_volume(11, 5, 7, 7.5, 10, 12.5);
        save_model(file, m, layout_of(m, x_major));
        LoadReport report;
        const Model back = load_model(file, layout_of(m, x_major), &report);
        QCOMPARE(back.grid, m.grid);
        QCOMPARE(back.grid.rank, 3);
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
    }

    void raw_x_major_is_fortran_order_of_z_y_x() {
        const Model m = test_volume(4, 3, 5, 10, 10, 10);
        save_model(path("x.bin"), m, layout_of(m, true));
        save_model(path("z.bin"), m, layout_of(m, false));
        const auto x = fwi_test::read_bytes(path("x.bin")), z = fwi_test::read_bytes(path("z.bin"));
        QCOMPARE(x.size(), std::size_t(4 * 3 * 5 * 4));
        for (std::int64_t iz = 0; iz < 4; ++iz)
            for (std::int64_t iy = 0; iy < 3; ++iy)
                for (std::int64_t ix = 0; ix < 5; ++ix) {
                    const float v = m.vp_mps[m.grid.index(iz, iy, ix)];
                    QCOMPARE(float_at(x, std::size_t((ix * 3 + iy) * 4 + iz)), v); // z fast, then y, then x
                    QCOMPARE(float_at(z, std::size_t((iz * 3 + iy) * 5 + ix)), v); // x fast (grid.hpp)
                }
    }

    void raw_wrong_byte_count_is_a_format_error() {
        const Model m = test_volume(4, 3, 5, 10, 10, 10);
        save_model(path("v.bin"), m);
        RawLayout l = layout_of(m);
        l.ny = 4;
        FWI_VERIFY_ERROR(FormatError, load_model(path("v.bin"), l), "4 x 4 x 5 float32 values need 320 bytes",
                         "the file has 240 bytes");
        // A 2D layout over a 3D file: the 2D message, unchanged.
        l.ny = 0;
        FWI_VERIFY_ERROR(FormatError, load_model(path("v.bin"), l), "4 x 5 float32 values need 80 bytes");
    }

    void raw_volume_needs_dy() {
        const Model m = test_volume(4, 3, 5, 10, 10, 10);
        save_model(path("v.bin"), m);
        RawLayout l = layout_of(m);
        l.dy_m = 0;
        FWI_VERIFY_ERROR(ConfigError, load_model(path("v.bin"), l),
                         "a 3D raw file needs nz, ny, nx, dz, dy and dx", "dy=0 m");
    }

    void npy_volume_needs_dy_and_is_c_order() {
        const Model m = test_volume(4, 3, 5, 10, 20, 30);
        save_model(path("v.npy"), m);
        const NpyArray a = read_npy(path("v.npy"));
        QCOMPARE(a.shape, (std::vector<std::int64_t>{4, 3, 5}));
        QVERIFY(fwi_test::same_bits(a.data, m.vp_mps));
        RawLayout l = layout_of(m);
        l.dy_m = 0;
        FWI_VERIFY_ERROR(ConfigError, load_model(path("v.npy"), l),
                         "is a 3D array (nz, ny, nx); give dy too");
        write_npy(path("flat.npy"), NpyArray{{6}, std::vector<float>(6, 2000.0f)});
        FWI_VERIFY_ERROR(FormatError, load_model(path("flat.npy"), l), "has 1 dimensions",
                         "or a 3D array (nz, ny, nx)");
    }

    void loaded_volumes_are_converted_and_validated() {
        Model m = test_volume(4, 3, 5, 10, 10, 10);
        for (float& v : m.vp_mps)
            v /= 1000.0f;
        save_model(path("km.npy"), m);
        LoadReport report;
        const Model back = load_model(path("km.npy"), layout_of(m), &report);
        QVERIFY2(report.units_note.find("converted to m/s") != std::string::npos, report.units_note.c_str());
        QVERIFY(back.max_velocity() > 1000);
        m.vp_mps[m.grid.index(2, 1, 3)] = -1;
        save_model(path("bad.npy"), m);
        FWI_VERIFY_ERROR(ConfigError, load_model(path("bad.npy"), layout_of(m)), "(iz=2, iy=1, ix=3)");
    }

    void segy_volume_traces_in_any_order() {
        const Model m = test_volume(6, 3, 4, 5, 10, 20);
        auto bytes = segy_bytes(m, "v.segy");
        // Swap traces 1 and 10 (headers with their samples): the inline/crossline numbers place them.
        const std::size_t trace_bytes = segy_trace_header_bytes + 4 * 6;
        std::swap_ranges(bytes.begin() + std::ptrdiff_t(trace_field(1, 6, 1)),
                         bytes.begin() + std::ptrdiff_t(trace_field(1, 6, 1) + trace_bytes),
                         bytes.begin() + std::ptrdiff_t(trace_field(10, 6, 1)));
        QVERIFY(fwi_test::write_bytes(path("shuffled.segy"), bytes));
        const Model back = load_model(path("shuffled.segy"));
        QCOMPARE(back.grid, m.grid);
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
    }

    void segy_volume_spacing_from_trace_coordinates() {
        const Model m = test_volume(6, 3, 4, 5, 10, 20);
        auto bytes = segy_bytes(m, "v.segy");
        std::fill(bytes.begin(), bytes.begin() + 3200, char(0x40)); // EBCDIC blanks: no FWI Studio record
        QVERIFY(fwi_test::write_bytes(path("foreign.segy"), bytes));
        std::string note;
        const Model back = read_model_segy(path("foreign.segy"), 0, 0, &note);
        QCOMPARE(back.grid, m.grid);
        QVERIFY2(note.find("dy = 10 m from trace coordinates") != std::string::npos, note.c_str());
        QVERIFY2(note.find("dx = 20 m from trace coordinates") != std::string::npos, note.c_str());
    }

    void segy_irregular_geometry_is_a_format_error() {
        const Model m = test_volume(6, 3, 4, 5, 10, 20);
        const auto bytes = segy_bytes(m, "v.segy");
        auto duplicate = bytes; // trace 6 (inline 2, crossline 2) relabelled as crossline 1
        put_be32(duplicate, trace_field(5, 6, 193), 1);
        QVERIFY(fwi_test::write_bytes(path("dup.segy"), duplicate));
        FWI_VERIFY_ERROR(FormatError, load_model(path("dup.segy")), "inline 2, crossline 1 occurs twice",
                         "traces 5 and 6");
        auto missing = bytes; // the last trace cut off
        missing.resize(missing.size() - (segy_trace_header_bytes + 4 * 6));
        QVERIFY(fwi_test::write_bytes(path("missing.segy"), missing));
        FWI_VERIFY_ERROR(FormatError, load_model(path("missing.segy")), "inline 3, crossline 4 has no trace",
                         "3 x 4 = 12, the file has 11");
        auto gap = bytes; // inline 2 renumbered 4: inlines 1, 3, 4 miss inline 2
        for (std::size_t t = 4; t < 8; ++t)
            put_be32(gap, trace_field(t, 6, 189), 4);
        QVERIFY(fwi_test::write_bytes(path("gap.segy"), gap));
        FWI_VERIFY_ERROR(FormatError, load_model(path("gap.segy")),
                         "inline numbers run from 1 to 4 in steps of 1", "inline 2 has no traces");
        auto off = bytes; // crossline 4 renumbered 6: 1, 2, 3, 6 miss 4 and 5
        for (std::size_t t = 3; t < 12; t += 4)
            put_be32(off, trace_field(t, 6, 193), 6);
        QVERIFY(fwi_test::write_bytes(path("off.segy"), off));
        FWI_VERIFY_ERROR(FormatError, load_model(path("off.segy")), "crossline 4 has no traces");
    }

    void segy_volume_with_stepped_line_numbers() {
        const Model m = test_volume(6, 3, 4, 5, 10, 20);
        auto bytes = segy_bytes(m, "v.segy");
        for (std::size_t t = 0; t < 12; ++t) { // inlines 10, 12, 14 and crosslines 100, 105, 110, 115
            put_be32(bytes, trace_field(t, 6, 189), std::uint32_t(10 + 2 * (t / 4)));
            put_be32(bytes, trace_field(t, 6, 193), std::uint32_t(100 + 5 * (t % 4)));
        }
        QVERIFY(fwi_test::write_bytes(path("stepped.segy"), bytes));
        const Model back = load_model(path("stepped.segy"));
        QCOMPARE(back.grid, m.grid);
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
    }

    void segy_one_inline_stays_2d() {
        Model m;
        m.grid = Grid(6, 4, 5, 20);
        m.vp_mps.assign(24, 2000.0f);
        m.vp_mps[5] = 2500.0f;
        save_model(path("line.segy"), m);
        const Model back = load_model(path("line.segy"));
        QCOMPARE(back.grid.rank, 2);
        QCOMPARE(back.grid, m.grid);
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
    }

    void hdf5_volume_layout() {
        const Model m = test_volume(4, 3, 5, 10, 20, 30);
        write_model_hdf5(path("v.h5"), m);
        const Model back = read_model_hdf5(path("v.h5"));
        QCOMPARE(back.grid, m.grid);
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
    }

    void writers_refuse_inconsistent_volumes() {
        Model m = test_volume(4, 3, 5, 10, 20, 30);
        m.vp_mps.pop_back();
        for (const char* name : {"w.bin", "w.npy", "w.segy"})
            FWI_VERIFY_ERROR(ConfigError, save_model(path(name), m), "model grid 4 x 3 x 5", "dy=20 m",
                             "with 59 values is inconsistent");
    }
};

QTEST_APPLESS_MAIN(TestModelIo3d)
#include "tst_model_io_3d.moc"
