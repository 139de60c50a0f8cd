// Codecs: lossless round trips bit for bit (random, smooth, zeros, NaN/inf), ZFP error bounds and sizes, spec
// validation, corrupt/truncated frames and chunk tables rejected with FormatError, and frames whose bytes do
// not depend on the thread count.
#include "codec/checksum.hpp"
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"
#include "fwi/error.hpp"
#include "thread_count.hpp"
#include "wavefields.hpp"

#include <QtTest>
#include <cmath>
#include <cstring>
#include <functional>

using namespace fwi;
using namespace fwi::test;

Q_DECLARE_METATYPE(fwi::test::Field2D)

namespace {

const char* const lossless_specs[] = {"none", "zstd",  "zstd:1",  "zstd:-5", "zstd:19",
                                      "lz4",  "blosc", "blosc:0", "blosc:9", "zfp-reversible"};
const char* const all_specs[] = {
    "none", "zstd", "lz4", "blosc", "zfp-reversible", "zfp-accuracy:1e-3", "zfp-precision:16", "zfp-rate:8"};

std::vector<std::byte> compress(const Codec& codec, const Field2D& f) {
    std::vector<std::byte> bytes;
    const std::size_t n = codec.compress(f.cview(), bytes);
    if (n != bytes.size()) throw std::logic_error("compress() did not report what it appended");
    return bytes;
}

Field2D round_trip(const Codec& codec, const Field2D& f, std::size_t* stored = nullptr) {
    const auto bytes = compress(codec, f);
    if (stored) *stored = bytes.size();
    Field2D out(f.rows, f.cols, 12345.0f);
    codec.decompress(bytes.data(), bytes.size(), out.view());
    return out;
}

/// Expected payload size range of zfp fixed-rate mode: every 4x4 block (partial ones padded) takes round(16
/// rate) bits, and the stream is flushed to whole words (8 bits in Debian's libzfp, 64 upstream).
std::pair<std::size_t, std::size_t> zfp_rate_payload_bytes(std::int64_t rows, std::int64_t cols,
                                                           double rate) {
    const auto blocks = std::uint64_t((rows + 3) / 4) * std::uint64_t((cols + 3) / 4);
    const auto bits = blocks * std::uint64_t(std::floor(16 * rate + 0.5));
    return {std::size_t((bits + 7) / 8), std::size_t((bits + 63) / 64 * 8)};
}

/// A field of `bands` whole bands of `cols` columns plus `extra_rows` rows (a short last band).
Field2D banded_ricker(std::int64_t bands, std::int64_t extra_rows, std::int64_t cols) {
    return ricker_ring(bands * codec_chunk_rows(cols) + extra_rows, cols, 1.0, 9.0);
}

// Where a frame keeps what the chunk-table tests edit (codec.hpp, chunk_table.hpp; native-endian).
constexpr std::size_t header_checksum_at = 40;
constexpr std::size_t table_at = codec_frame_header_bytes;
constexpr std::size_t entry_at(std::size_t chunk) {
    return table_at + 8 + 16 * chunk;
}

template <typename T> T read_at(const std::vector<std::byte>& b, std::size_t at) {
    T v;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}
template <typename T> void write_at(std::vector<std::byte>& b, std::size_t at, T v) {
    std::memcpy(b.data() + at, &v, sizeof v);
}

/// Re-signs an edited chunk table with a valid header checksum, so that only the table's own checks can
/// catch the edit.
void resign_table(std::vector<std::byte>& frame, std::size_t table_bytes) {
    write_at(frame, header_checksum_at, detail::checksum64(frame.data() + table_at, table_bytes));
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
        // Lossless codecs do reduce a field with large quiet areas, and zeros collapse.
        const Field2D ring = ricker_ring(128, 128);
        const Field2D zeros(128, 128);
        for (const char* spec : {"zstd", "lz4", "blosc", "zfp-reversible"}) {
            const auto codec = make_codec(spec);
            const double raw = double(ring.values.size() * sizeof(float));
            QVERIFY2(double(compress(*codec, ring).size()) < raw, spec);
            QVERIFY2(double(compress(*codec, zeros).size()) < raw / 20, spec);
        }
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

    void every_corrupted_byte_is_detected_data() {
        QTest::addColumn<QString>("spec");
        for (const char* spec : all_specs)
            QTest::newRow(spec) << QString(spec);
    }
    void every_corrupted_byte_is_detected() {
        // Header fields are checked one by one and the payload by checksum, so flipping any bit of any byte
        // fails.
        QFETCH(QString, spec);
        const auto codec = make_codec(spec.toStdString());
        const Field2D f = ricker_ring(12, 9);
        const auto bytes = compress(*codec, f);
        Field2D out(f.rows, f.cols);
        for (std::size_t i = 0; i < bytes.size(); ++i)
            for (const unsigned bit : {0u, 5u, 7u}) {
                auto bad = bytes;
                bad[i] ^= std::byte(1u << bit);
                QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(bad.data(), bad.size(), out.view()));
            }
    }

    void truncated_and_foreign_frames_throw_format_error_data() { every_corrupted_byte_is_detected_data(); }
    void truncated_and_foreign_frames_throw_format_error() {
        QFETCH(QString, spec);
        const auto codec = make_codec(spec.toStdString());
        const Field2D f = ricker_ring(40, 36);
        auto bytes = compress(*codec, f);
        Field2D out(f.rows, f.cols);
        for (const std::size_t keep :
             {std::size_t(0), std::size_t(1), std::size_t(20), codec_frame_header_bytes - 1,
              codec_frame_header_bytes, bytes.size() / 2, bytes.size() - 1})
            QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(bytes.data(), keep, out.view()));
        auto longer = bytes;
        longer.push_back(std::byte{0});
        QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(longer.data(), longer.size(), out.view()));
        // Wrong shape, same number of values.
        Field2D transposed(f.cols, f.rows);
        QVERIFY_THROWS_EXCEPTION(FormatError,
                                 codec->decompress(bytes.data(), bytes.size(), transposed.view()));
        // Random garbage of the right length.
        std::mt19937 rng(1);
        std::vector<std::byte> garbage(bytes.size());
        for (auto& b : garbage)
            b = std::byte(rng() & 0xff);
        QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(garbage.data(), garbage.size(), out.view()));
        // A frame of another codec, or of the same codec with another parameter.
        const char* other = spec == "zfp-accuracy:1e-3" ? "zfp-accuracy:1e-4" : "zfp-accuracy:1e-3";
        const auto foreign = compress(*make_codec(other), f);
        QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(foreign.data(), foreign.size(), out.view()));
    }

    void compress_appends_at_any_offset() {
        // Frames can follow one another in one buffer (as in a store file), at offsets that are not word
        // aligned.
        const Field2D a = ricker_ring(31, 29), b = random_field(17, 23, 9);
        for (const char* spec : all_specs) {
            const auto codec = make_codec(spec);
            std::vector<std::byte> buffer(3, std::byte{0x5a});
            const std::size_t na = codec->compress(a.cview(), buffer);
            const std::size_t nb = codec->compress(b.cview(), buffer);
            QCOMPARE(buffer.size(), 3 + na + nb);
            Field2D ra(a.rows, a.cols), rb(b.rows, b.cols);
            codec->decompress(buffer.data() + 3, na, ra.view());
            codec->decompress(buffer.data() + 3 + na, nb, rb.view());
            QCOMPARE(round_trip(*codec, a).values, ra.values);
            QCOMPARE(round_trip(*codec, b).values, rb.values);
        }
    }

    void negative_shape_is_rejected_and_leaves_output_unchanged() {
        const auto codec = make_codec("zstd");
        std::vector<std::byte> out(5);
        const float value = 1;
        QVERIFY_THROWS_EXCEPTION(ConfigError, codec->compress(ConstFieldView(&value, -1, 4), out));
        QCOMPARE(out.size(), std::size_t(5));
    }

    void bands_are_multiples_of_4_rows_of_about_512_kib() {
        for (const std::int64_t cols : {1, 7, 256, 1000, 4040, 100000, 1000000}) {
            const std::int64_t rows = codec_chunk_rows(cols);
            const std::int64_t row_bytes = cols * 4, target = 512 * 1024;
            QVERIFY2(rows >= 4 && rows % 4 == 0, qPrintable(QString("%1 cols: %2 rows").arg(cols).arg(rows)));
            // The most rows (in fours) within 512 KiB, or 4 rows when even those are larger.
            if (rows > 4) QVERIFY(rows * row_bytes <= target && (rows + 4) * row_bytes > target);
            if (rows == 4) QVERIFY(8 * row_bytes > target);
        }
        QCOMPARE(codec_chunk_table_bytes(5, 7), std::size_t(8 + 16));
        QCOMPARE(codec_chunk_table_bytes(2 * codec_chunk_rows(300) + 1, 300), std::size_t(8 + 3 * 16));
    }

    void bytes_do_not_depend_on_the_thread_count_data() {
        QTest::addColumn<QString>("spec");
        for (const char* spec : {"none", "zstd:1", "lz4", "blosc", "zfp-reversible", "zfp-accuracy:1e-4",
                                 "zfp-precision:16", "zfp-rate:8", "zfp-rate:16"})
            QTest::newRow(spec) << QString(spec);
    }
    void bytes_do_not_depend_on_the_thread_count() {
        // Bands are cut by the width alone: 1, 2 and 5 threads (more than the cores, so bands finish out of
        // order) write the same bytes and decode the same values, also when called inside a parallel region
        // (bands then run serially on each caller).
        QFETCH(QString, spec);
        const auto codec = make_codec(spec.toStdString());
        const Field2D f = banded_ricker(5, 6, 256);
        std::vector<std::byte> one;
        Field2D decoded_one(f.rows, f.cols);
        {
            ThreadCount threads(1);
            one = compress(*codec, f);
            codec->decompress(one.data(), one.size(), decoded_one.view());
        }
        for (const int n : {2, 5}) {
            ThreadCount threads(n);
            QVERIFY2(compress(*codec, f) == one, qPrintable(QString("%1 threads").arg(n)));
            Field2D decoded(f.rows, f.cols);
            codec->decompress(one.data(), one.size(), decoded.view());
            QVERIFY(bit_equal(decoded.values, decoded_one.values));
        }
        ThreadCount threads(3);
        std::vector<std::vector<std::byte>> nested(3);
        std::vector<Field2D> nested_decoded(3, Field2D(f.rows, f.cols));
#pragma omp parallel for
        for (int i = 0; i < 3; ++i) {
            nested[std::size_t(i)] = compress(*codec, f);
            codec->decompress(one.data(), one.size(), nested_decoded[std::size_t(i)].view());
        }
        for (int i = 0; i < 3; ++i) {
            QVERIFY(nested[std::size_t(i)] == one);
            QVERIFY(bit_equal(nested_decoded[std::size_t(i)].values, decoded_one.values));
        }
    }

    void many_bands_round_trip_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<Field2D>("field");
        for (const char* spec : lossless_specs) {
            if (std::string(spec) == "zstd:19") continue; // ~1 s per MB; the band logic is the codec's
            QTest::newRow(qPrintable(QString("%1 ricker 3 bands + 3 rows").arg(spec)))
                << QString(spec) << banded_ricker(3, 3, 300);
            QTest::newRow(qPrintable(QString("%1 nan/inf 2 bands + 1 row").arg(spec)))
                << QString(spec) << special_values_field(2 * codec_chunk_rows(200) + 1, 200);
        }
    }
    void many_bands_round_trip() {
        // Rows that are a multiple of neither the band height nor 4: the short last band round-trips too.
        QFETCH(QString, spec);
        QFETCH(Field2D, field);
        QVERIFY(field.rows % codec_chunk_rows(field.cols) % 4 != 0);
        const auto codec = make_codec(spec.toStdString());
        std::size_t stored = 0;
        QVERIFY(bit_equal(round_trip(*codec, field, &stored).values, field.values));
        QVERIFY(stored <= codec->max_compressed_bytes(field.rows, field.cols));
    }

    void zfp_bands_decode_as_separate_fields() {
        // Bands hold whole 4x4 blocks, so each band decodes to what the same rows give as a field of their
        // own, and the error bounds of the whole field are those of one stream.
        const Field2D f = banded_ricker(2, 7, 300);
        const std::int64_t band = codec_chunk_rows(f.cols);
        for (const char* spec : {"zfp-rate:8", "zfp-accuracy:1e-4", "zfp-precision:12"}) {
            const auto codec = make_codec(spec);
            const Field2D whole = round_trip(*codec, f);
            for (std::int64_t first = 0; first < f.rows; first += band) {
                const std::int64_t rows = std::min(band, f.rows - first);
                Field2D part(rows, f.cols);
                std::memcpy(part.values.data(), f.values.data() + first * f.cols,
                            part.values.size() * sizeof(float));
                const Field2D decoded = round_trip(*codec, part);
                QVERIFY2(std::memcmp(decoded.values.data(), whole.values.data() + first * f.cols,
                                     decoded.values.size() * sizeof(float)) == 0,
                         qPrintable(QString("%1, band at row %2").arg(spec).arg(first)));
            }
            if (std::string(spec) == "zfp-accuracy:1e-4")
                QVERIFY(max_abs_error(whole.values, f.values) <= 1e-4);
        }
    }

    void corrupt_chunk_tables_throw_format_error_data() {
        QTest::addColumn<QString>("spec");
        for (const char* spec : {"zstd", "lz4", "blosc", "zfp-reversible", "zfp-accuracy:1e-4", "zfp-rate:8"})
            QTest::newRow(spec) << QString(spec);
    }
    void corrupt_chunk_tables_throw_format_error() {
        // Each edit is re-signed with a valid header checksum, so the table's own checks must catch it
        // before a decoder library reads a chunk.
        QFETCH(QString, spec);
        const auto codec = make_codec(spec.toStdString());
        const Field2D f = banded_ricker(3, 5, 300);
        const auto frame = compress(*codec, f);
        const std::size_t table = codec_chunk_table_bytes(f.rows, f.cols);
        QCOMPARE(read_at<std::uint32_t>(frame, table_at + 4), std::uint32_t(4)); // 3 bands + a short one
        Field2D out(f.rows, f.cols);
        codec->decompress(frame.data(), frame.size(), out.view()); // the untouched frame decodes
        const auto bytes_of = [&](std::size_t chunk) {
            return read_at<std::uint64_t>(frame, entry_at(chunk));
        };
        const std::vector<std::pair<const char*, std::function<void(std::vector<std::byte>&)>>> edits = {
            {"band height",
             [](auto& b) { write_at<std::uint32_t>(b, table_at, read_at<std::uint32_t>(b, table_at) + 4); }},
            {"chunk count", [](auto& b) { write_at<std::uint32_t>(b, table_at + 4, 3); }},
            {"empty chunk", [](auto& b) { write_at<std::uint64_t>(b, entry_at(0), 0); }},
            {"chunk past the end",
             [](auto& b) { write_at<std::uint64_t>(b, entry_at(1), std::uint64_t(1) << 62); }},
            {"sizes wrap around",
             [&](auto& b) {
                 // The sum modulo 2^64 is unchanged.
                 write_at<std::uint64_t>(b, entry_at(0), bytes_of(0) + (std::uint64_t(1) << 63));
                 write_at<std::uint64_t>(b, entry_at(1), bytes_of(1) + (std::uint64_t(1) << 63));
             }},
            {"sum too small", [&](auto& b) { write_at<std::uint64_t>(b, entry_at(3), bytes_of(3) - 1); }},
            {"sum too large", [&](auto& b) { write_at<std::uint64_t>(b, entry_at(3), bytes_of(3) + 1); }},
            {"boundary moved (same sum)",
             [&](auto& b) {
                 write_at<std::uint64_t>(b, entry_at(0), bytes_of(0) + 8);
                 write_at<std::uint64_t>(b, entry_at(1), bytes_of(1) - 8);
             }},
            {"chunks swapped (same sum)", // the last band is the short one: sizes differ even at a fixed rate
             [&](auto& b) {
                 write_at<std::uint64_t>(b, entry_at(2), bytes_of(3));
                 write_at<std::uint64_t>(b, entry_at(3), bytes_of(2));
             }},
            {"chunk checksum",
             [&](auto& b) {
                 write_at<std::uint64_t>(b, entry_at(2) + 8, read_at<std::uint64_t>(b, entry_at(2) + 8) ^ 1);
             }},
        };
        for (const auto& [what, edit] : edits) {
            auto bad = frame;
            edit(bad);
            resign_table(bad, table);
            QVERIFY2(bad != frame, what);
            QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(bad.data(), bad.size(), out.view()));
        }
        // A flipped byte in the last chunk, and in an unsigned table, are caught too.
        auto bad = frame;
        bad[frame.size() - 3] ^= std::byte{0x10};
        QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(bad.data(), bad.size(), out.view()));
        bad = frame;
        bad[entry_at(1)] ^= std::byte{0x01};
        QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(bad.data(), bad.size(), out.view()));
    }

    void corrupt_bands_of_raw_frames_are_detected() {
        // Raw frames carry no table: their checksum combines per-band checksums, so every band is covered.
        const Field2D f = special_values_field(3 * codec_chunk_rows(200) + 2, 200);
        for (const char* spec : {"none", "zfp-rate:8"}) { // zfp-rate stores NaN/inf fields raw
            const auto codec = make_codec(spec);
            const auto frame = compress(*codec, f);
            QCOMPARE(frame.size(), codec->max_compressed_bytes(f.rows, f.cols));
            Field2D out(f.rows, f.cols);
            for (const std::size_t at : {codec_frame_header_bytes, frame.size() / 2, frame.size() - 1}) {
                auto bad = frame;
                bad[at] ^= std::byte{0x04};
                QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(bad.data(), bad.size(), out.view()));
            }
        }
    }

    void frames_of_the_unchunked_format_are_rejected() {
        // Version-1 frames (magic FWZ1, one stream per field) cannot be read as chunked ones.
        const auto codec = make_codec("lz4");
        const Field2D f = ricker_ring(20, 20);
        auto frame = compress(*codec, f);
        frame[3] = std::byte{'1'};
        Field2D out(f.rows, f.cols);
        QVERIFY_THROWS_EXCEPTION(FormatError, codec->decompress(frame.data(), frame.size(), out.view()));
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
