// The .npy reader/writer: bit-exact round trips, foreign layouts (Fortran order, float64, version 2.0)
// written byte by byte, and every malformed-file path.
#include "fwi/error.hpp"
#include "fwi/npy.hpp"
#include "io_test_util.hpp"

#include <QTemporaryDir>

#include <cmath>
#include <limits>

using namespace fwi;
using fwi_test::append_le;

namespace {

// A .npy file as numpy would write it, built from the header dict text and raw data bytes.
std::vector<char> npy_bytes(const std::string& dict, const std::vector<char>& data, int major = 1) {
    std::string header = dict;
    const std::size_t preamble = major == 1 ? 10 : 12;
    while ((preamble + header.size() + 1) % 64 != 0)
        header.push_back(' ');
    header.push_back('\n');
    std::vector<char> out = {'\x93', 'N', 'U', 'M', 'P', 'Y', char(major), 0};
    if (major == 1)
        append_le<std::uint16_t>(out, std::uint16_t(header.size()));
    else
        append_le<std::uint32_t>(out, std::uint32_t(header.size()));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

template <typename T> std::vector<char> values_bytes(const std::vector<T>& values) {
    std::vector<char> out;
    for (T v : values)
        append_le<T>(out, v);
    return out;
}

} // namespace

class TestNpy : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

  private slots:
    void round_trip_is_bit_exact_data() {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::newRow("1d") << QList<qint64>{7};
        QTest::newRow("2d") << QList<qint64>{3, 5};
        QTest::newRow("3d") << QList<qint64>{2, 3, 4};
        QTest::newRow("empty axis") << QList<qint64>{0, 4};
    }
    void round_trip_is_bit_exact() {
        QFETCH(QList<qint64>, shape);
        NpyArray a;
        std::size_t n = 1;
        for (auto d : shape) {
            a.shape.push_back(d);
            n *= std::size_t(d);
        }
        // Awkward values on purpose: signed zero, denormals, infinities, NaN, extremes.
        const float specials[] = {-0.0f,
                                  std::numeric_limits<float>::denorm_min(),
                                  std::numeric_limits<float>::max(),
                                  -std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(),
                                  1.0f / 3.0f};
        for (std::size_t i = 0; i < n; ++i)
            a.data.push_back(i < 6 ? specials[i] : float(i) * 0.1f - 1.0f);
        write_npy(path("rt.npy"), a);
        const NpyArray b = read_npy(path("rt.npy"));
        QCOMPARE(b.shape, a.shape);
        QVERIFY(fwi_test::same_bits(a.data, b.data));
    }

    void written_header_is_what_numpy_expects() {
        write_npy(path("h.npy"), NpyArray{{2, 3}, std::vector<float>(6, 1.0f)});
        const auto bytes = fwi_test::read_bytes(path("h.npy"));
        QCOMPARE(std::string(bytes.data() + 1, 5), std::string("NUMPY"));
        QCOMPARE(int(bytes[6]), 1);
        const std::size_t header_len = std::uint8_t(bytes[8]) | std::uint8_t(bytes[9]) << 8;
        QCOMPARE((10 + header_len) % 64, std::size_t(0)); // data aligned as numpy writes it
        const std::string header(bytes.data() + 10, header_len);
        QVERIFY(header.find("'descr': '<f4'") != std::string::npos);
        QVERIFY(header.find("'fortran_order': False") != std::string::npos);
        QVERIFY(header.find("'shape': (2, 3)") != std::string::npos);
        QCOMPARE(header.back(), '\n');
        QCOMPARE(bytes.size(), 10 + header_len + 6 * sizeof(float));
    }

    void one_dimensional_shape_has_trailing_comma() {
        write_npy(path("v.npy"), NpyArray{{4}, {1, 2, 3, 4}});
        const auto bytes = fwi_test::read_bytes(path("v.npy"));
        QVERIFY(std::string(bytes.begin(), bytes.end()).find("'shape': (4,)") != std::string::npos);
    }

    void fortran_order_float32_is_converted_to_c_order() {
        // A 2 x 3 array a[i][j] = 10 i + j, stored first-axis-fast.
        std::vector<float> fortran;
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 2; ++i)
                fortran.push_back(float(10 * i + j));
        fwi_test::write_bytes(
            path("f.npy"),
            npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", values_bytes(fortran)));
        const NpyArray a = read_npy(path("f.npy"));
        QCOMPARE(a.shape, (std::vector<std::int64_t>{2, 3}));
        QCOMPARE(a.data, (std::vector<float>{0, 1, 2, 10, 11, 12}));
    }

    void fortran_order_float64_3d_is_converted() {
        // a[i][j][k] = 100 i + 10 j + k with shape (2, 3, 4), first axis fast.
        std::vector<double> fortran;
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 2; ++i)
                    fortran.push_back(100.0 * i + 10.0 * j + k);
        fwi_test::write_bytes(path("f3.npy"),
                              npy_bytes("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3, 4), }",
                                        values_bytes(fortran)));
        const NpyArray a = read_npy(path("f3.npy"));
        QCOMPARE(a.shape, (std::vector<std::int64_t>{2, 3, 4}));
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 4; ++k)
                    QCOMPARE(a.data[std::size_t((i * 3 + j) * 4 + k)], float(100 * i + 10 * j + k));
    }

    void float64_c_order_is_converted_to_float32() {
        const std::vector<double> values = {1500.25, -2.5, 1e-3, 4766.604};
        // Keys in a different order than numpy's, and double quotes: still a valid Python dict literal.
        fwi_test::write_bytes(path("d.npy"),
                              npy_bytes("{\"shape\": (2, 2), \"fortran_order\": False, \"descr\": \"<f8\"}",
                                        values_bytes(values)));
        const NpyArray a = read_npy(path("d.npy"));
        QCOMPARE(a.shape, (std::vector<std::int64_t>{2, 2}));
        for (std::size_t i = 0; i < values.size(); ++i)
            QCOMPARE(a.data[i], float(values[i]));
    }

    void version_2_header_is_read() {
        fwi_test::write_bytes(path("v2.npy"),
                              npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                                        values_bytes(std::vector<float>{1, 2, 3}), 2));
        QCOMPARE(read_npy(path("v2.npy")).data, (std::vector<float>{1, 2, 3}));
    }

    void malformed_files_are_format_errors_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("fragment");
        const auto four = values_bytes(std::vector<float>{1, 2, 3, 4});
        auto qb = [](const std::vector<char>& v) { return QByteArray(v.data(), qsizetype(v.size())); };
        const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
        QTest::newRow("empty") << QByteArray() << "wrong magic";
        QTest::newRow("wrong magic") << QByteArray("PK\x03\x04 this is a zip file, not npy") << "wrong magic";
        QTest::newRow("truncated preamble") << QByteArray("\x93NUMPY\x01", 7) << "wrong magic";
        auto cut_header = npy_bytes(good, four);
        cut_header.resize(30);
        QTest::newRow("truncated header") << qb(cut_header) << "truncated inside the header";
        auto cut_data = npy_bytes(good, four);
        cut_data.resize(cut_data.size() - 3);
        QTest::newRow("truncated data") << qb(cut_data) << "(truncated)";
        auto extra = npy_bytes(good, four);
        extra.push_back(0);
        QTest::newRow("trailing bytes") << qb(extra) << "the file holds 17";
        QTest::newRow("int dtype")
            << qb(npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", four))
            << "unsupported dtype '<i4'";
        QTest::newRow("big endian")
            << qb(npy_bytes("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }", four))
            << "unsupported dtype '>f4'";
        QTest::newRow("4 dims")
            << qb(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 2), }", four))
            << "4 dimensions";
        QTest::newRow("scalar") << qb(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
                                                four))
                                << "0 dimensions";
        QTest::newRow("no shape") << qb(npy_bytes("{'descr': '<f4', 'fortran_order': False, }", four))
                                  << "no 'shape'";
        QTest::newRow("bad bool") << qb(npy_bytes("{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 2), }",
                                                  four))
                                  << "neither True nor False";
        QTest::newRow("garbage header") << qb(npy_bytes("hello world", four)) << "expected '{'";
        QTest::newRow("unknown key")
            << qb(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1}", four))
            << "unexpected header key 'x'";
        QTest::newRow("huge shape")
            << qb(npy_bytes(
                   "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999, 99999999, 99999999), }",
                   four))
            << "(truncated)";
        auto bad_version = npy_bytes(good, four);
        bad_version[6] = 9;
        QTest::newRow("version 9") << qb(bad_version) << "unsupported format version 9";
    }
    void malformed_files_are_format_errors() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, fragment);
        const std::string file = path("bad.npy");
        QVERIFY(fwi_test::write_bytes(file, std::vector<char>(bytes.begin(), bytes.end())));
        const std::string frag = fragment.toStdString();
        FWI_VERIFY_ERROR(FormatError, read_npy(file), "bad.npy", frag.c_str());
    }

    void missing_file_is_a_resource_error() {
        FWI_VERIFY_ERROR(ResourceError, read_npy(path("nope.npy")), "nope.npy");
    }

    void write_checks_shape_against_data() {
        FWI_VERIFY_ERROR(ConfigError, write_npy(path("x.npy"), NpyArray{{2, 3}, std::vector<float>(5)}),
                         "(2, 3)", "5 values");
        FWI_VERIFY_ERROR(ResourceError, write_npy(path("no/such/dir/x.npy"), NpyArray{{1}, {1.0f}}),
                         "no/such/dir");
    }
};

QTEST_APPLESS_MAIN(TestNpy)
#include "tst_npy.moc"
