// SEG-Y: models and shot gathers round-trip (samples bit for bit), the headers say what other tools expect,
// files from other writers (no FWI Studio text header, IBM floats) are read, and malformed files fail with
// FormatError.
#include "fwi/acquisition.hpp"
#include "fwi/error.hpp"
#include "fwi/gather.hpp"
#include "fwi/model_io.hpp"
#include "fwi/npy.hpp"
#include "io_test_util.hpp"

#include <QTemporaryDir>

#include <cmath>
#include <limits>

using namespace fwi;

namespace {

constexpr std::size_t text_bytes = 3200, file_header_bytes = 3600, trace_header_bytes = 240;

std::int32_t be_int(const std::vector<char>& b, std::size_t offset, int bytes) {
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = v << 8 | std::uint8_t(b[offset + std::size_t(i)]);
    if (bytes == 2) return std::int16_t(v);
    return std::int32_t(v);
}
void put_be(std::vector<char>& b, std::size_t offset, std::uint32_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i, v >>= 8)
        b[offset + std::size_t(i)] = char(v & 0xff);
}
// Field at SEG-Y byte position `pos` (1-based, as segyio and the standard number them) of trace `t`.
std::size_t trace_field(std::size_t t, std::size_t samples, int pos) {
    return file_header_bytes + t * (trace_header_bytes + 4 * samples) + std::size_t(pos - 1);
}

// IBM hexadecimal float for values whose mantissa fits 24 bits (all the test values do).
std::uint32_t to_ibm(float value) {
    if (value == 0) return 0;
    std::uint32_t sign = value < 0 ? 0x80000000u : 0;
    double mag = std::abs(double(value));
    int exponent = 64;
    while (mag >= 1) {
        mag /= 16;
        ++exponent;
    }
    while (mag < 1.0 / 16) {
        mag *= 16;
        --exponent;
    }
    return sign | std::uint32_t(exponent) << 24 | std::uint32_t(std::llround(mag * 16777216.0));
}

Model test_model(std::int64_t nz, std::int64_t nx, double dz, double dx) {
    Model m;
    m.grid = Grid(nz, nx, dz, dx);
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps.push_back(1500.0f + 25.0f * float(iz) + 0.5f * float(ix));
    return m;
}

std::vector<Gather> test_gathers(double dt_s) {
    const Acquisition acq = surface_survey(3, 12.5, 987.6543, 7.25, 4, 0, 1000, 0.0001);
    std::vector<Gather> gathers;
    std::uint32_t seed = 12345;
    for (const Shot& shot : acq.shots) {
        Gather g{shot.source, shot.receivers, 37, dt_s, {}};
        for (std::size_t i = 0; i < shot.receivers.size() * 37; ++i) {
            seed = seed * 1664525u + 1013904223u;
            float v;
            std::uint32_t bits =
                (seed & 0x807fffffu) | 0x3c000000u; // random mantissa and sign, varied exponents
            bits ^= (seed >> 3) & 0x03000000u;
            std::memcpy(&v, &bits, 4);
            g.traces.push_back(v);
        }
        gathers.push_back(std::move(g));
    }
    gathers[1].traces[5] = std::numeric_limits<float>::denorm_min();
    gathers[2].traces[0] = -0.0f;
    return gathers;
}

void blank_text_header(const std::string& file) {
    auto bytes = fwi_test::read_bytes(file);
    std::fill(bytes.begin(), bytes.begin() + text_bytes,
              char(0x40)); // EBCDIC spaces, as many writers leave it
    fwi_test::write_bytes(file, bytes);
}

} // namespace

class TestSegy : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const std::string& name) const {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }

  private slots:
    void model_round_trip_is_exact_data() {
        QTest::addColumn<double>("dz");
        QTest::addColumn<double>("dx");
        QTest::newRow("whole mm") << 7.5 << 12.5;
        QTest::newRow("odd spacing") << 1.0 / 3.0 << 123.456789;
        QTest::newRow("coarse") << 50.0 << 100.0;
    }
    void model_round_trip_is_exact() {
        QFETCH(double, dz);
        QFETCH(double, dx);
        const Model m = test_model(40, 13, dz, dx);
        write_model_segy(path("m.segy"), m);
        std::string note;
        const Model back = read_model_segy(path("m.segy"), 0, 0, &note);
        QCOMPARE(back.grid, m.grid); // spacing exact to the bit, from the text header
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
        QVERIFY2(note.find("FWI Studio textual header") != std::string::npos, note.c_str());
    }

    void model_headers_follow_the_documented_convention() {
        const Model m = test_model(40, 13, 7.5, 12.5);
        write_model_segy(path("h.segy"), m);
        const auto b = fwi_test::read_bytes(path("h.segy"));
        QCOMPARE(b.size(), file_header_bytes + 13 * (trace_header_bytes + 40 * 4));
        QCOMPARE(be_int(b, 3216, 2), 7500); // dz in thousandths of a metre
        QCOMPARE(be_int(b, 3220, 2), 40);   // samples per trace = nz
        QCOMPARE(be_int(b, 3224, 2), 5);    // IEEE float
        QCOMPARE(be_int(b, trace_field(3, 40, 71), 2), -10000);
        QCOMPARE(be_int(b, trace_field(3, 40, 181), 4), 375000); // CDP_X = 3 * 12.5 m in 0.1 mm
        QCOMPARE(be_int(b, trace_field(3, 40, 117), 2), 7500);
        // The first sample of trace 3 is the model's top cell at ix = 3, big-endian IEEE.
        const std::int32_t bits = be_int(b, trace_field(3, 40, 241), 4);
        float first;
        std::memcpy(&first, &bits, 4);
        QCOMPARE(first, m.at(0, 3));
    }

    void foreign_model_uses_headers_then_fallbacks() {
        const Model m = test_model(20, 6, 7.5, 12.5);
        write_model_segy(path("f.segy"), m);
        blank_text_header(path("f.segy"));
        std::string note;
        Model back = read_model_segy(path("f.segy"), 0, 0, &note);
        QCOMPARE(back.grid, m.grid);
        QVERIFY2(note.find("sample interval") != std::string::npos &&
                     note.find("trace coordinates") != std::string::npos,
                 note.c_str());
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));

        // Without interval and coordinates only the caller's spacing can help.
        auto b = fwi_test::read_bytes(path("f.segy"));
        put_be(b, 3216, 0, 2);
        for (std::size_t t = 0; t < 6; ++t) {
            put_be(b, trace_field(t, 20, 117), 0, 2);
            for (int pos : {73, 81, 181})
                put_be(b, trace_field(t, 20, pos), 0, 4);
        }
        fwi_test::write_bytes(path("bare.segy"), b);
        FWI_VERIFY_ERROR(ConfigError, read_model_segy(path("bare.segy")), "bare.segy",
                         "dz is not in the file's headers");
        back = read_model_segy(path("bare.segy"), 4, 8, &note);
        QCOMPARE(back.grid, Grid(20, 6, 4, 8));
        QVERIFY2(note.find("given layout") != std::string::npos, note.c_str());
        RawLayout layout;
        layout.dz_m = 4;
        FWI_VERIFY_ERROR(ConfigError, load_model(path("bare.segy"), layout),
                         "dx is not in the file's headers");
    }

    void ibm_float_samples_are_read() {
        const Model m = test_model(10, 4, 5, 5);
        write_model_segy(path("ibm.segy"), m);
        auto b = fwi_test::read_bytes(path("ibm.segy"));
        put_be(b, 3224, 1, 2); // format code 1: IBM float
        for (std::size_t ix = 0; ix < 4; ++ix)
            for (std::size_t iz = 0; iz < 10; ++iz)
                put_be(b, trace_field(ix, 10, 241) + 4 * iz, to_ibm(m.at(std::int64_t(iz), std::int64_t(ix))),
                       4);
        fwi_test::write_bytes(path("ibm.segy"), b);
        const Model back = read_model_segy(path("ibm.segy"));
        QVERIFY(fwi_test::same_bits(back.vp_mps, m.vp_mps));
    }

    void model_errors() {
        const Model m = test_model(10, 4, 5, 5);
        write_model_segy(path("e.segy"), m);
        auto b = fwi_test::read_bytes(path("e.segy"));
        put_be(b, 3224, 3, 2); // 16-bit integers: not supported
        fwi_test::write_bytes(path("int16.segy"), b);
        FWI_VERIFY_ERROR(FormatError, read_model_segy(path("int16.segy")), "int16.segy",
                         "sample format code 3");
        b = fwi_test::read_bytes(path("e.segy"));
        b.resize(file_header_bytes);
        fwi_test::write_bytes(path("empty.segy"), b);
        FWI_VERIFY_ERROR(FormatError, read_model_segy(path("empty.segy")), "empty.segy", "no traces");
        b = fwi_test::read_bytes(path("e.segy"));
        b.resize(b.size() - 1);
        fwi_test::write_bytes(path("cut.segy"), b);
        FWI_VERIFY_ERROR(FormatError, read_model_segy(path("cut.segy")), "cut.segy",
                         "not a whole number of traces");
        FWI_VERIFY_ERROR(ResourceError, read_model_segy(path("missing.segy")), "missing.segy", "cannot open");
        FWI_VERIFY_ERROR(ConfigError, write_model_segy(path("deep.segy"), test_model(40000, 1, 1, 1)),
                         "nz = 40000", "32767");
    }

    void gathers_round_trip_data() {
        QTest::addColumn<double>("dt");
        QTest::newRow("whole microseconds") << 0.002;
        QTest::newRow("odd dt") << 0.00123456789;
    }
    void gathers_round_trip() {
        QFETCH(double, dt);
        const auto gathers = test_gathers(dt);
        write_gathers_segy(path("g.segy"), gathers);
        const auto back = read_gathers_segy(path("g.segy"));
        QCOMPARE(back.size(), gathers.size());
        for (std::size_t s = 0; s < gathers.size(); ++s) {
            QCOMPARE(back[s].samples, gathers[s].samples);
            QCOMPARE(back[s].dt_s, dt);
            QVERIFY(fwi_test::same_bits(back[s].traces, gathers[s].traces));
            QCOMPARE(back[s].receivers.size(), gathers[s].receivers.size());
            // Geometry to the 0.1 mm of the coordinate scalar.
            QVERIFY(std::abs(back[s].source.x_m - gathers[s].source.x_m) <= 0.5e-4);
            QCOMPARE(back[s].source.z_m, 7.25);
            for (std::size_t r = 0; r < gathers[s].receivers.size(); ++r) {
                QVERIFY(std::abs(back[s].receivers[r].x_m - gathers[s].receivers[r].x_m) <= 0.5e-4);
                QCOMPARE(back[s].receivers[r].z_m, 0.0001);
            }
        }
        QCOMPARE(back[0].source.x_m, 12.5); // decimal positions come back as the same doubles
        QCOMPARE(back[0].receivers[3].x_m, 1000.0);
    }

    void gather_headers_follow_the_documented_convention() {
        const auto gathers = test_gathers(0.002);
        write_gathers_segy(path("gh.segy"), gathers);
        const auto b = fwi_test::read_bytes(path("gh.segy"));
        QCOMPARE(b.size(), file_header_bytes + 12 * (trace_header_bytes + 37 * 4));
        QCOMPARE(be_int(b, 3216, 2), 2000);                // microseconds
        const std::size_t t = 6;                           // shot 1 (second), receiver 2 (third)
        QCOMPARE(be_int(b, trace_field(t, 37, 9), 4), 2);  // FieldRecord, 1-based
        QCOMPARE(be_int(b, trace_field(t, 37, 13), 4), 3); // receiver number, 1-based
        QCOMPARE(be_int(b, trace_field(t, 37, 71), 2), -10000);
        QCOMPARE(be_int(b, trace_field(t, 37, 69), 2), -10000);
        QCOMPARE(be_int(b, trace_field(t, 37, 81), 4),
                 std::int32_t(std::llround(gathers[1].receivers[2].x_m * 1e4)));
        QCOMPARE(be_int(b, trace_field(t, 37, 73), 4),
                 std::int32_t(std::llround(gathers[1].source.x_m * 1e4)));
        QCOMPARE(be_int(b, trace_field(t, 37, 49), 4), 72500); // source depth 7.25 m
        QCOMPARE(be_int(b, trace_field(t, 37, 41), 4), -1);    // receiver elevation = -depth
    }

    void foreign_gathers_take_dt_from_the_headers() {
        write_gathers_segy(path("fg.segy"), test_gathers(0.004));
        blank_text_header(path("fg.segy"));
        const auto back = read_gathers_segy(path("fg.segy"));
        QCOMPARE(back.size(), std::size_t(3));
        QCOMPARE(back[2].dt_s, 0.004);
    }

    void gather_errors() {
        auto gathers = test_gathers(0.002);
        gathers[2].samples = 36;
        gathers[2].traces.resize(4 * 36);
        FWI_VERIFY_ERROR(ConfigError, write_gathers_segy(path("x.segy"), gathers), "shot 2 has 36 samples");
        gathers = test_gathers(0.002);
        gathers[1].traces.pop_back();
        FWI_VERIFY_ERROR(ConfigError, write_gathers_segy(path("x.segy"), gathers), "shot 1",
                         "147 trace values");
        gathers = test_gathers(0.002);
        gathers[0].receivers[3].x_m = std::nan("");
        FWI_VERIFY_ERROR(ConfigError, write_gathers_segy(path("x.segy"), gathers),
                         "shot 0 receiver 3 is not finite");
        FWI_VERIFY_ERROR(ConfigError, write_gathers_segy(path("x.segy"), {}), "no gathers");
        FWI_VERIFY_ERROR(ResourceError, write_gathers_segy(path("no/dir/x.segy"), test_gathers(0.002)),
                         "no/dir");

        write_gathers_segy(path("ok.segy"), test_gathers(0.002));
        auto b = fwi_test::read_bytes(path("ok.segy"));
        b.resize(b.size() - 10);
        fwi_test::write_bytes(path("cut.segy"), b);
        FWI_VERIFY_ERROR(FormatError, read_gathers_segy(path("cut.segy")), "cut.segy", "truncated");
        b = fwi_test::read_bytes(path("ok.segy"));
        blank_text_header(path("ok.segy"));
        b = fwi_test::read_bytes(path("ok.segy"));
        put_be(b, 3216, 0, 2);
        for (std::size_t t = 0; t < 12; ++t)
            put_be(b, trace_field(t, 37, 117), 0, 2);
        fwi_test::write_bytes(path("nodt.segy"), b);
        FWI_VERIFY_ERROR(FormatError, read_gathers_segy(path("nodt.segy")), "nodt.segy",
                         "no sample interval");
        // A trace whose source differs from its shot's (a sorting or header error) is named, not dropped.
        write_gathers_segy(path("ok.segy"), test_gathers(0.002));
        b = fwi_test::read_bytes(path("ok.segy"));
        put_be(b, trace_field(6, 37, 73), be_int(b, trace_field(6, 37, 73), 4) + 1000000, 4); // +100 m
        fwi_test::write_bytes(path("moved.segy"), b);
        FWI_VERIFY_ERROR(FormatError, read_gathers_segy(path("moved.segy")), "trace 7", "one source");
    }

    void gathers_as_npy() {
        const auto gathers = test_gathers(0.002);
        Acquisition acq;
        for (const Gather& g : gathers)
            acq.shots.push_back({g.source, g.receivers});
        write_gathers_npy(path("g3.npy"), gathers);
        QCOMPARE(read_npy(path("g3.npy")).shape, (std::vector<std::int64_t>{3, 4, 37}));
        const auto back = read_gathers_npy(path("g3.npy"), acq, 0.002);
        QCOMPARE(back, gathers); // geometry attached exactly, traces bit for bit (no NaN in the test data)
        QVERIFY(fwi_test::same_bits(back[2].traces, gathers[2].traces));

        write_gathers_npy(path("g1.npy"), {gathers[1]});
        QCOMPARE(read_npy(path("g1.npy")).shape, (std::vector<std::int64_t>{4, 37}));
        Acquisition one{{acq.shots[1]}};
        QCOMPARE(read_gathers_npy(path("g1.npy"), one, 0.002).front(), gathers[1]);

        FWI_VERIFY_ERROR(FormatError, read_gathers_npy(path("g3.npy"), one, 0.002), "g3.npy", "3 shot(s)",
                         "acquisition has 1");
        Acquisition fewer = acq;
        fewer.shots[1].receivers.pop_back();
        FWI_VERIFY_ERROR(FormatError, read_gathers_npy(path("g3.npy"), fewer, 0.002), "4 receivers per shot",
                         "shot 1 of the acquisition has 3");
        write_npy(path("v.npy"), NpyArray{{5}, std::vector<float>(5)});
        FWI_VERIFY_ERROR(FormatError, read_gathers_npy(path("v.npy"), one, 0.002), "v.npy", "the file has 1");
        auto uneven = gathers;
        uneven[2].receivers.pop_back();
        uneven[2].traces.resize(3 * 37);
        FWI_VERIFY_ERROR(ConfigError, write_gathers_npy(path("u.npy"), uneven), "shot 2 has 3 receivers");
    }
};

QTEST_APPLESS_MAIN(TestSegy)
#include "tst_segy.moc"
