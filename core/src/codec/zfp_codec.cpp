// zfp-accuracy | zfp-precision | zfp-rate | zfp-reversible on float fields (cols = fast axis = zfp's nx),
// serial execution per row band: FramedCodec runs the bands in parallel (zfp's own OpenMP policy only
// compresses in parallel; zfp 1.0 decompresses serially). The one checked wrapper of libzfp.
// A 2D field is coded in 4x4 blocks; a 3D field (plane_rows = ny > 0, field.hpp) in 4x4x4 blocks, which
// decorrelate along z and y as well and compress a smooth wavefield further at the same error. Bands are
// multiples of 4 rows (2D) or 4 planes (3D), so they hold whole blocks and give the same values as one stream
// over the field.
//
// libzfp trusts its input: it neither bounds its bit-stream writes (the buffer must hold
// zfp_stream_maximum_size) nor its reads. The frame's size and checksum checks (framed_codec.cpp) therefore
// run before decode() sees a byte, and payloads are whole bit-stream words (a libzfp build choice: 8 bits on
// Debian, 64 upstream), word aligned. Non-finite values are undefined for the lossy transforms, so the lossy
// modes store such fields raw (exact, hence within any bound); reversible mode encodes NaN/inf bit for bit
// itself.
#include "codec/codec_factories.hpp"
#include "codec/framed_codec.hpp"
#include "fwi/error.hpp"

#include <bit>
#include <cstring>
#include <zfp.h>

namespace fwi::detail {
namespace {

std::size_t word_bytes() {
    return stream_word_bits / 8;
}

/// One zfp_stream + bitstream + zfp_field, configured for a mode, released on every path.
class ZfpSession {
  public:
    ZfpSession(ZfpMode mode, double parameter, void* buffer, std::size_t bytes, float* data,
               std::int64_t rows, std::int64_t cols, std::int64_t plane_rows)
        : bits_(buffer ? stream_open(buffer, bytes) : nullptr), zfp_(zfp_stream_open(bits_)),
          field_(make_field(data, rows, cols, plane_rows)) {
        if ((buffer && !bits_) || !zfp_ || !field_) {
            release();
            throw ResourceError("zfp: cannot allocate a stream (out of memory)");
        }
        switch (mode) {
        case ZfpMode::Accuracy:
            zfp_stream_set_accuracy(zfp_, parameter);
            break;
        case ZfpMode::Precision:
            zfp_stream_set_precision(zfp_, unsigned(parameter));
            break;
        case ZfpMode::Rate:
            zfp_stream_set_rate(zfp_, parameter, zfp_type_float, plane_rows > 0 ? 3 : 2, zfp_false);
            break;
        case ZfpMode::Reversible:
            zfp_stream_set_reversible(zfp_);
            break;
        }
        if (bits_) zfp_stream_rewind(zfp_);
    }
    ~ZfpSession() { release(); }
    ZfpSession(const ZfpSession&) = delete;
    ZfpSession& operator=(const ZfpSession&) = delete;

    std::size_t maximum_size() const { return zfp_stream_maximum_size(zfp_, field_); }
    std::size_t compress() {
        const std::size_t n = zfp_compress(zfp_, field_);
        if (n == 0) throw Error("zfp: compression failed");
        return n;
    }
    std::size_t decompress() {
        const std::size_t n = zfp_decompress(zfp_, field_);
        if (n == 0) throw FormatError("zfp: corrupt payload");
        return n;
    }

  private:
    static zfp_field* make_field(float* data, std::int64_t rows, std::int64_t cols, std::int64_t plane_rows) {
        if (plane_rows > 0) // (z, y, x) with x fast: zfp's nx, ny, nz
            return zfp_field_3d(data, zfp_type_float, std::size_t(cols), std::size_t(plane_rows),
                                std::size_t(rows / plane_rows));
        return zfp_field_2d(data, zfp_type_float, std::size_t(cols), std::size_t(rows));
    }
    void release() {
        if (field_) zfp_field_free(field_);
        if (zfp_) zfp_stream_close(zfp_);
        if (bits_) stream_close(bits_);
        field_ = nullptr;
        zfp_ = nullptr;
        bits_ = nullptr;
    }
    bitstream* bits_;
    zfp_stream* zfp_;
    zfp_field* field_;
};

bool word_aligned(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % word_bytes() == 0;
}

std::uint64_t header_param(ZfpMode mode, double parameter) {
    if (mode == ZfpMode::Reversible) return 0;
    if (mode == ZfpMode::Precision) return std::uint64_t(parameter);
    return std::bit_cast<std::uint64_t>(parameter);
}

CodecId codec_id(ZfpMode mode) {
    switch (mode) {
    case ZfpMode::Accuracy:
        return CodecId::ZfpAccuracy;
    case ZfpMode::Precision:
        return CodecId::ZfpPrecision;
    case ZfpMode::Rate:
        return CodecId::ZfpRate;
    case ZfpMode::Reversible:
        break;
    }
    return CodecId::ZfpReversible;
}

std::string codec_name(ZfpMode mode, double parameter) {
    switch (mode) {
    case ZfpMode::Accuracy:
        return "zfp-accuracy:" + format_number(parameter);
    case ZfpMode::Precision:
        return "zfp-precision:" + std::to_string(unsigned(parameter));
    case ZfpMode::Rate:
        return "zfp-rate:" + format_number(parameter);
    case ZfpMode::Reversible:
        break;
    }
    return "zfp-reversible";
}

class ZfpCodec final : public FramedCodec {
  public:
    ZfpCodec(ZfpMode mode, double parameter)
        : FramedCodec(codec_id(mode), header_param(mode, parameter), codec_name(mode, parameter),
                      mode == ZfpMode::Reversible),
          mode_(mode), parameter_(parameter) {}

  protected:
    std::size_t payload_bound(ConstFieldView field) const override {
        ZfpSession s(mode_, parameter_, nullptr, 0, const_cast<float*>(field.data), field.rows, field.cols,
                     field.plane_rows);
        return s.maximum_size();
    }
    std::size_t encode(ConstFieldView field, std::byte* dst, std::size_t capacity) const override {
        // zfp writes whole words through a word pointer: give it an aligned buffer.
        std::vector<std::uint64_t> aligned;
        void* buffer = dst;
        if (!word_aligned(dst)) {
            aligned.resize(capacity / sizeof(std::uint64_t) + 1);
            buffer = aligned.data();
        }
        ZfpSession s(mode_, parameter_, buffer, capacity, const_cast<float*>(field.data), field.rows,
                     field.cols, field.plane_rows);
        const std::size_t n = s.compress();
        if (n > capacity) throw Error("zfp: compressed stream overran its buffer");
        if (buffer != dst) std::memcpy(dst, buffer, n);
        return n;
    }
    void decode(const std::byte* src, std::size_t bytes, FieldView field) const override {
        if (bytes % word_bytes() != 0)
            throw FormatError("zfp: payload is not a whole number of stream words");
        std::vector<std::uint64_t> aligned;
        const void* buffer = src;
        if (!word_aligned(src)) {
            aligned.resize(bytes / sizeof(std::uint64_t) + 1);
            std::memcpy(aligned.data(), src, bytes);
            buffer = aligned.data();
        }
        ZfpSession s(mode_, parameter_, const_cast<void*>(buffer), bytes, field.data, field.rows, field.cols,
                     field.plane_rows);
        const std::size_t n = s.decompress();
        if (n != bytes)
            throw FormatError("zfp: payload of " + std::to_string(bytes) + " bytes decoded from " +
                              std::to_string(n) + " bytes");
    }
    bool must_store_raw(ConstFieldView field) const override {
        return mode_ != ZfpMode::Reversible &&
               !all_finite(field); // reversible mode keeps NaN/inf bits exactly
    }

  private:
    ZfpMode mode_;
    double parameter_;
};

} // namespace

std::unique_ptr<Codec> make_zfp_codec(ZfpMode mode, double parameter) {
    return std::make_unique<ZfpCodec>(mode, parameter);
}

} // namespace fwi::detail
