// Codecs: lossless round trips bit for bit (random, smooth, zeros, NaN/inf), ZFP error bounds and sizes, spec
// validation, and the codec timing. Frames (corruption, bands, thread counts) are in tst_codec_frames.cpp.
#include "codec_round_trip.hpp"
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"
#include "fwi/error.hpp"
#include "wavefields.hpp"

#include <QtTest>
#include <cmath>
#include <cstring>
#include <functional>

using namespace fwi;
using namespace fwi::test;

Q_DECLARE_METATYPE(fwi::test::Field2D)

namespace {

/// Expected payload size range of zfp fixed-rate mode: every 4x4 block (partial ones padded) takes round(16
/// rate) bits, and the stream is flushed to whole words (8 bits in Debian's libzfp, 64 upstream).
std::pair<std::size_t, std::size_t> zfp_rate_payload_bytes(std::int64_t rows, std::int64_t cols,
                                                           double rate) {
    const auto blocks = std::uint64_t((rows + 3) / 4) * std::uint64_t((cols + 3) / 4);
    const auto bits = blocks * std::uint64_t(std::floor(16 * rate + 0.5));
    return {std::size_t((bits + 7) / 8), std::size_t((bits + 63) / 64 * 8)};
}

/// "name:value" with the value written exactly.
std::string spec_with(const char* name, double value) {
    return std::string(name) + ":" + QString::number(value, 'g', 17).toStdString();
}

} // namespace

class TestCodecs : public QObject {
    Q_OBJECT
  private slots:
    void lossless_round_trip_is_bit_exact_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<Field2D>("field");
        for (const char* spec : lossless_specs) {
            const auto row = [&](const char* what, Field2D f) {
                QTest::newRow(qPrintable(QString("%1 %2").arg(spec, what))) << QString(spec) << std::move(f);
            };
            row("random 37x53", random_field(37, 53, 7));
            row("random bits 64x48", random_bits_field(64, 48, 11));
            row("ricker 96x130", ricker_ring(96, 130, 3e-4));
            row("zeros 40x40", Field2D(40, 40));
            row("nan/inf 45x61", special_values_field(45, 61));
            row("1x1", Field2D(1, 1, -2.5f));
            row("empty 0x7", Field2D(0, 7));
        }
    }
    void lossless_round_trip_is_bit_exact() {
        QFETCH(QString, spec);
        QFETCH(Field2D, field);
        const auto codec = make_codec(spec.toStdString());
        QVERIFY(codec->lossless());
        std::size_t stored = 0;
        const Field2D out = round_trip(*codec, field, &stored);
        QVERIFY(bit_equal(out.values, field.values));
        QVERIFY(stored <= codec->max_compressed_bytes(field.rows, field.cols));
    }

    void smooth_fields_compress_losslessly() {
        // Lossless codecs reduce a wavefield whose quiet parts are exact zeros (as a finite-difference
        // field's are ahead of its front), and zeros collapse. All but lz4 also reduce the ring with tiny
        // tails that are nowhere zero; lz4, whose samples of it shrink by less than 1/16, stores it raw
        // rather than spend four times a copy on a few percent (tst_codec_frames).
        const Field2D ring = ricker_ring(128, 128);
        Field2D front = ring;
        for (float& v : front.values)
            if (std::abs(v) < 1e-3f) v = 0;
        const Field2D zeros(128, 128);
        const double raw = double(ring.values.size() * sizeof(float));
        for (const char* spec : {"zstd", "lz4", "blosc", "zfp-reversible"}) {
            const auto codec = make_codec(spec);
            if (std::string(spec) != "lz4") QVERIFY2(double(compress(*codec, ring).size()) < raw, spec);
            QVERIFY2(double(compress(*codec, front).size()) < 0.8 * raw, spec);
            QVERIFY2(double(compress(*codec, zeros).size()) < raw / 20, spec);
        }
        QCOMPARE(compress(*make_codec("lz4"), ring).size(), codec_frame_header_bytes + std::size_t(raw));
    }

    void names_are_canonical_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("lossless");
        QTest::newRow("none") << "none"
                              << "none" << true;
        QTest::newRow("zstd default") << "zstd"
                                      << "zstd:3" << true;
        QTest::newRow("zstd 7") << "zstd:7"
                                << "zstd:7" << true;
        QTest::newRow("lz4") << "lz4"
                             << "lz4" << true;
        QTest::newRow("blosc default") << "blosc"
                                       << "blosc:5" << true;
        QTest::newRow("accuracy") << "zfp-accuracy:0.00001"
                                  << "zfp-accuracy:1e-05" << false;
        QTest::newRow("precision") << "zfp-precision:20"
                                   << "zfp-precision:20" << false;
        QTest::newRow("rate") << "zfp-rate:4.5"
                              << "zfp-rate:4.5" << false;
        QTest::newRow("reversible") << "zfp-reversible"
                                    << "zfp-reversible" << true;
    }
    void names_are_canonical() {
        QFETCH(QString, spec);
        QFETCH(QString, name);
        QFETCH(bool, lossless);
        const auto codec = make_codec(spec.toStdString());
        QCOMPARE(QString::fromStdString(codec->name()), name);
        QCOMPARE(codec->lossless(), lossless);
        QCOMPARE(make_codec(codec->name())->name(), codec->name()); // the name is itself a spec
    }

    void bad_specs_throw_config_error_data() {
        QTest::addColumn<QString>("spec");
        for (const char* s : {"",
                              "gzip",
                              "ZSTD",
                              "zfp",
                              "zstd:",
                              "zstd:abc",
                              "zstd:99",
                              "zstd:3x",
                              "lz4:1",
                              "none:0",
                              "blosc:10",
                              "blosc:-1",
                              "zfp-accuracy",
                              "zfp-accuracy:",
                              "zfp-accuracy:-1e-3",
                              "zfp-accuracy:0",
                              "zfp-accuracy:nan",
                              "zfp-accuracy:inf",
                              "zfp-accuracy:1e-3x",
                              "zfp-rate:0",
                              "zfp-rate:-4",
                              "zfp-rate:65",
                              "zfp-rate",
                              "zfp-precision:65",
                              "zfp-precision:0",
                              "zfp-precision:8.5",
                              "zfp-precision",
                              "zfp-reversible:1"})
            QTest::newRow(*s ? s : "(empty)") << QString(s);
    }
    void bad_specs_throw_config_error() {
        QFETCH(QString, spec);
        try {
            make_codec(spec.toStdString());
            QFAIL("no exception");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("'" + spec + "'"), e.what());
        }
    }

    void zfp_accuracy_respects_tolerance() {
        // Several amplitudes (the bound is absolute) and both smooth and rough data; error and ratio both
        // grow (non-strictly) with the tolerance.
        for (const double amplitude : {1.0, 3e-4, 250.0}) {
            for (const bool smooth : {true, false}) {
                const Field2D f =
                    smooth ? ricker_ring(160, 200, amplitude) : random_field(67, 45, 3, float(amplitude));
                double last_error = 0, last_ratio = 0;
                for (const double relative : {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1}) {
                    const double tolerance = relative * amplitude;
                    const auto codec = make_codec(spec_with("zfp-accuracy", tolerance));
                    std::size_t stored = 0;
                    const Field2D out = round_trip(*codec, f, &stored);
                    const double error = max_abs_error(out.values, f.values);
                    const double ratio = double(f.values.size() * sizeof(float)) / double(stored);
                    QVERIFY2(error <= tolerance,
                             qPrintable(QString("error %1 > tolerance %2").arg(error).arg(tolerance)));
                    QVERIFY(error >= last_error);
                    QVERIFY(ratio >= last_ratio);
                    last_error = error;
                    last_ratio = ratio;
                }
                QVERIFY(last_error > 0); // the loosest tolerance is really lossy
            }
        }
    }

    void zfp_precision_error_falls_with_bits() {
        const Field2D f = ricker_ring(120, 88);
        double last_error = HUGE_VAL;
        for (const int bits : {8, 12, 16, 20, 24, 28}) {
            const auto codec = make_codec("zfp-precision:" + std::to_string(bits));
            const double error = max_abs_error(round_trip(*codec, f).values, f.values);
            QVERIFY2(error <= last_error, qPrintable(QString("%1 bits: error %2").arg(bits).arg(error)));
            last_error = error;
        }
        QVERIFY(last_error < 1e-6 * max_abs(f.values));
    }

    void zfp_rate_gives_predicted_size_data() {
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        for (const double rate : {1.0, 4.0, 8.0, 12.5, 16.0, 31.0})
            for (const auto& [r, c] : {std::pair{64, 64}, std::pair{33, 50}, std::pair{3, 5}})
                QTest::newRow(qPrintable(QString("rate %1 %2x%3").arg(rate).arg(r).arg(c))) << rate << r << c;
    }
    void zfp_rate_gives_predicted_size() {
        QFETCH(double, rate);
        QFETCH(int, rows);
        QFETCH(int, cols);
        const auto codec = make_codec(spec_with("zfp-rate", rate));
        const auto [low, high] = zfp_rate_payload_bytes(rows, cols, rate);
        const std::size_t raw = std::size_t(rows) * std::size_t(cols) * sizeof(float);
        const std::size_t table = codec_chunk_table_bytes(rows, cols); // one band: 8 + 16 bytes
        QCOMPARE(table, std::size_t(24));
        for (const Field2D& f : {ricker_ring(rows, cols), random_field(rows, cols, 5)}) {
            std::size_t stored = 0;
            const Field2D out = round_trip(*codec, f, &stored);
            std::size_t payload = stored - codec_frame_header_bytes;
            if (low + table > raw) {
                QCOMPARE(payload, raw); // padded partial blocks outgrow a tiny field: stored raw instead
            } else {
                payload -= table;
                QVERIFY2(payload >= low && payload <= high,
                         qPrintable(QString("payload %1 not in [%2, %3]").arg(payload).arg(low).arg(high)));
            }
            // Decodes to the right field: at 8+ bits per value the error is a few percent of the unit peak at
            // most.
            if (rate >= 8) QVERIFY(max_abs_error(out.values, f.values) < 0.1);
        }
    }

    void lossy_zfp_stores_non_finite_fields_raw() {
        // NaN/inf are undefined for zfp's lossy transform; such fields are kept exactly instead.
        const Field2D f = special_values_field(45, 61);
        for (const char* spec : {"zfp-accuracy:1e-2", "zfp-precision:8", "zfp-rate:4"}) {
            const auto codec = make_codec(spec);
            std::size_t stored = 0;
            QVERIFY2(bit_equal(round_trip(*codec, f, &stored).values, f.values), spec);
            QCOMPARE(stored, codec->max_compressed_bytes(f.rows, f.cols));
        }
    }

    void zfp_accuracy_ratio_on_wavefield_exceeds_10x() {
        // The case for compression (REFERENCES.md, Compression): a snapshot-like field at a tolerance of 1e-3
        // of its peak amplitude. Lossless codecs shown for comparison.
        const Field2D f = ricker_ring(512, 512, 2.0e-5);
        const double peak = max_abs(f.values);
        const auto accuracy = make_codec(spec_with("zfp-accuracy", 1e-3 * peak));
        std::size_t stored = 0;
        const Field2D out = round_trip(*accuracy, f, &stored);
        const double ratio = double(f.values.size() * sizeof(float)) / double(stored);
        QVERIFY(max_abs_error(out.values, f.values) <= 1e-3 * peak);
        qInfo("zfp-accuracy at 1e-3 of the peak: ratio %.1f", ratio);
        QVERIFY2(ratio >= 10, qPrintable(QString("ratio %1").arg(ratio)));
        for (const char* spec :
             {"zstd", "lz4", "blosc", "zfp-reversible", "zfp-rate:8", "zfp-precision:16"}) {
            const auto codec = make_codec(spec);
            qInfo("%s: ratio %.2f", spec,
                  double(f.values.size() * sizeof(float)) / double(compress(*codec, f).size()));
        }
    }

    void negative_shape_is_rejected_and_leaves_output_unchanged() {
        const auto codec = make_codec("zstd");
        std::vector<std::byte> out(5);
        const float value = 1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, codec->compress(ConstFieldView(&value, -1, 4), out));
        QCOMPARE(out.size(), std::size_t(5));
    }

    void measure_codec_reports_consistent_numbers() {
        const Field2D f = ricker_ring(128, 128);
        const auto codec = make_codec("zfp-accuracy:1e-4");
        const CodecTiming t = measure_codec(*codec, f.cview(), 3);
        QVERIFY(t.compress_seconds > 0 && t.decompress_seconds > 0);
        QCOMPARE(t.raw_bytes, std::uint64_t(128 * 128 * 4));
        QCOMPARE(t.compressed_bytes, std::uint64_t(compress(*codec, f).size()));
        QCOMPARE(t.ratio, double(t.raw_bytes) / double(t.compressed_bytes));
        QVERIFY_THROWS_EXCEPTION(ConfigError, measure_codec(*codec, f.cview(), 0));
    }
};

QTEST_GUILESS_MAIN(TestCodecs)
#include "tst_codecs.moc"
