// Codec frames: every corrupted byte, truncated and foreign frames and edited chunk tables rejected with
// FormatError; frames that follow one another at any offset; bands of about 512 KiB coded apart, whose bytes
// do not depend on the thread count; lz4's literal blocks for bands it cannot shrink; the memory tier's
// unchecked frames, which no decompress accepts.
#include "codec/checksum.hpp"
#include "codec/framed_codec.hpp"
#include "codec/lz4_literals.hpp"
#include "codec_round_trip.hpp"
#include "fwi/codec.hpp"
#include "fwi/error.hpp"
#include "thread_count.hpp"
#include "wavefields.hpp"

#include <QtTest>
#include <cmath>
#include <cstring>
#include <lz4.h>
#include <random>

using namespace fwi;
using namespace fwi::test;

namespace {

/// A field of `bands` whole bands of `cols` columns plus `extra_rows` rows (a short last band).
Field2D banded_ricker(std::int64_t bands, std::int64_t extra_rows, std::int64_t cols) {
    return ricker_ring(bands * codec_chunk_rows(cols) + extra_rows, cols, 1.0, 9.0);
}

// Where a frame keeps what the chunk-table tests edit (codec.hpp, chunk_table.hpp; native-endian).
constexpr std::size_t flags_at = 5; // 1: stored raw
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

} // namespace

class TestCodecFrames : public QObject {
    Q_OBJECT
  private slots:
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

    void checksum_is_xxh64() {
        // Reference values from the xxhash package (XXH64), for every tail path: under 32 bytes, the 32-byte
        // stripes, and 8-, 4- and 1-byte tails. An empty buffer may be (nullptr, 0): an empty raw frame's
        // combined checksum is one (fuzz_codec regression).
        struct Case {
            std::size_t bytes;
            std::uint64_t seed0, seed42;
        };
        const Case cases[] = {{0, 0xef46db3751d8e999, 0x98b1582b0977e704},
                              {7, 0x14cc643f630c72d2, 0x3ec2863aeaf013fd},
                              {13, 0x13d17c4c779723a8, 0x847041625f7bee19},
                              {32, 0xcbf59c5116ff32b4, 0x8809e1ca0be25072},
                              {100, 0x6ac1e58032166597, 0x819d2b726001d507}};
        std::vector<std::byte> counting(100);
        for (std::size_t i = 0; i < counting.size(); ++i)
            counting[i] = std::byte(i);
        for (const Case& c : cases) {
            QCOMPARE(detail::checksum64(counting.data(), c.bytes), c.seed0);
            QCOMPARE(detail::checksum64(counting.data(), c.bytes, 42), c.seed42);
        }
        QCOMPARE(detail::checksum64(nullptr, 0), std::uint64_t(0xef46db3751d8e999));
    }

    void lz4_literal_blocks_decode_as_lz4() {
        // One literal run is a whole LZ4 block: liblz4 itself decodes it, for lengths on both sides of the
        // token's 15 and of each 255 of the length bytes.
        std::mt19937 rng(5);
        for (const std::size_t n : {0, 1, 14, 15, 16, 269, 270, 271, 524, 525, 4096, 100003}) {
            std::vector<std::byte> src(n);
            for (auto& b : src)
                b = std::byte(rng());
            const std::size_t bytes = detail::lz4_literal_block_bytes(n);
            QVERIFY(bytes <= std::size_t(LZ4_compressBound(int(n))));
            std::vector<std::byte> block(bytes + 8);
            QCOMPARE(detail::write_lz4_literal_block(src.data(), n, block.data(), bytes - 1), std::size_t(0));
            QCOMPARE(detail::write_lz4_literal_block(src.data(), n, block.data(), block.size()), bytes);
            std::vector<std::byte> back(n + 1);
            const int got = LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()),
                                                reinterpret_cast<char*>(back.data()), int(bytes), int(n + 1));
            QCOMPARE(got, int(n));
            QVERIFY(n == 0 || std::memcmp(back.data(), src.data(), n) == 0);
        }
    }

    void lz4_samples_judge_a_band() {
        const auto judged = [](const Field2D& f) {
            return detail::lz4_sampled_incompressible(reinterpret_cast<const std::byte*>(f.values.data()),
                                                      f.values.size() * sizeof(float));
        };
        QVERIFY(judged(random_bits_field(256, 256, 3)));  // 256 KiB of noise
        QVERIFY(!judged(Field2D(256, 256)));              // zeros
        QVERIFY(!judged(random_bits_field(120, 128, 3))); // under 64 KiB: never judged
        // Half noise, half zeros, in alternate stretches: the samples see both, and LZ4 would halve it.
        Field2D mixed = random_bits_field(256, 256, 4);
        for (std::int64_t r = 0; r < mixed.rows; ++r)
            if ((r / 16) % 2 == 1)
                for (std::int64_t c = 0; c < mixed.cols; ++c)
                    mixed.at(r, c) = 0;
        QVERIFY(!judged(mixed));
    }

    void lz4_writes_unshrinkable_bands_as_literal_blocks() {
        // Bands 0 and 2 hold a dense smooth field on a grid of 2^-14 (LZ4 alone saves about 4% of a band),
        // band 1 zeros. The dense bands become literal blocks (made at copy speed), the zeros are encoded,
        // and the field decodes bit for bit.
        const std::int64_t cols = 256, rows = codec_chunk_rows(cols);
        Field2D f(3 * rows, cols);
        for (std::int64_t r = 0; r < f.rows; ++r)
            for (std::int64_t c = 0; c < cols; ++c)
                if (r / rows != 1)
                    f.at(r, c) = std::ldexp(
                        std::round(std::ldexp(std::sin(0.05f * float(r)) * std::cos(0.07f * float(c)), 14)),
                        -14);
        const std::size_t band_bytes = std::size_t(rows * cols) * sizeof(float);
        {
            std::vector<char> lz4(LZ4_COMPRESSBOUND(band_bytes));
            const int n = LZ4_compress_default(reinterpret_cast<const char*>(f.values.data()), lz4.data(),
                                               int(band_bytes), int(lz4.size()));
            QVERIFY(n > 0 && std::size_t(n) < band_bytes * 99 / 100); // what a plain LZ4 block saves
        }
        const auto codec = make_codec("lz4");
        const auto frame = compress(*codec, f);
        QCOMPARE(std::uint8_t(frame[flags_at]), std::uint8_t(0)); // encoded, not raw
        QCOMPARE(read_at<std::uint32_t>(frame, table_at + 4), std::uint32_t(3));
        const std::size_t literal = detail::lz4_literal_block_bytes(band_bytes);
        QCOMPARE(read_at<std::uint64_t>(frame, entry_at(0)), std::uint64_t(literal));
        QCOMPARE(read_at<std::uint64_t>(frame, entry_at(2)), std::uint64_t(literal));
        QVERIFY(read_at<std::uint64_t>(frame, entry_at(1)) < band_bytes / 100);
        const std::size_t first_chunk = table_at + codec_chunk_table_bytes(f.rows, f.cols);
        QCOMPARE(std::uint8_t(frame[first_chunk]), std::uint8_t(0xF0)); // a literal run's token
        Field2D out(f.rows, f.cols);
        codec->decompress(frame.data(), frame.size(), out.view());
        QVERIFY(bit_equal(out.values, f.values));
        // Every band so judged: the raw frame, nothing encoded.
        const Field2D noise = random_bits_field(3 * rows, cols, 8);
        const auto raw = compress(*codec, noise);
        QCOMPARE(std::uint8_t(raw[flags_at]), std::uint8_t(1));
        QCOMPARE(raw.size(), codec_frame_header_bytes + noise.values.size() * sizeof(float));
        Field2D back(noise.rows, noise.cols);
        codec->decompress(raw.data(), raw.size(), back.view());
        QVERIFY(bit_equal(back.values, noise.values));
    }

    void unchecked_frames_stay_in_memory() {
        // The memory tier's uncompressed items: the "none" frame's size, no checksum, and refused by every
        // codec's decompress (a file's bytes cannot skip the check); read back only as unchecked frames of
        // the same shape.
        Field2D f = banded_ricker(2, 3, 200);
        std::vector<std::byte> frame;
        detail::append_unchecked_frame(f.view(), frame);
        const auto none = make_codec("none");
        QCOMPARE(frame.size(), compress(*none, f).size());
        QCOMPARE(std::uint8_t(frame[flags_at]), std::uint8_t(3)); // raw and unchecked
        QCOMPARE(read_at<std::uint64_t>(frame, header_checksum_at), std::uint64_t(0));
        Field2D out(f.rows, f.cols);
        detail::read_unchecked_frame(frame.data(), frame.size(), out.view());
        QVERIFY(bit_equal(out.values, f.values));
        for (const char* spec : {"none", "lz4", "zstd"})
            QVERIFY_THROWS_EXCEPTION(FormatError,
                                     make_codec(spec)->decompress(frame.data(), frame.size(), out.view()));
        const auto checked = compress(*none, f);
        QVERIFY_THROWS_EXCEPTION(FormatError,
                                 detail::read_unchecked_frame(checked.data(), checked.size(), out.view()));
        Field2D other(f.cols, f.rows);
        QVERIFY_THROWS_EXCEPTION(FormatError,
                                 detail::read_unchecked_frame(frame.data(), frame.size(), other.view()));
        QVERIFY_THROWS_EXCEPTION(FormatError,
                                 detail::read_unchecked_frame(frame.data(), frame.size() - 1, out.view()));
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
};

QTEST_GUILESS_MAIN(TestCodecFrames)
#include "tst_codec_frames.moc"
