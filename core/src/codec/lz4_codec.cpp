// lz4: lossless and fast; the one checked wrapper of liblz4 (block API, one block per row band). A band whose
// samples LZ4 cannot shrink is written as one literal block (lz4_literals.hpp): still LZ4, made and decoded
// at copy speed; a field whose every band is so is stored raw without being encoded.
#include "codec/codec_factories.hpp"
#include "codec/framed_codec.hpp"
#include "codec/lz4_literals.hpp"
#include "fwi/error.hpp"

#include <climits>
#include <lz4.h>

namespace fwi::detail {
namespace {

int checked_int(std::size_t bytes, const char* what) {
    if (bytes > std::size_t(LZ4_MAX_INPUT_SIZE))
        throw ResourceError(std::string("lz4: ") + what + " of " + std::to_string(bytes) +
                            " bytes exceeds the library's limit of " + std::to_string(LZ4_MAX_INPUT_SIZE));
    return int(bytes);
}

class Lz4Codec final : public FramedCodec {
  public:
    Lz4Codec() : FramedCodec(CodecId::Lz4, 0, "lz4", true) {}

  protected:
    std::size_t payload_bound(ConstFieldView field) const override {
        return std::size_t(LZ4_compressBound(checked_int(field_bytes(field.rows, field.cols), "field")));
    }
    std::size_t encode(ConstFieldView field, std::byte* dst, std::size_t capacity) const override {
        const int raw = checked_int(field_bytes(field.rows, field.cols), "field");
        const int cap = capacity > std::size_t(INT_MAX) ? INT_MAX : int(capacity);
        const int n = LZ4_compress_default(reinterpret_cast<const char*>(field.data),
                                           reinterpret_cast<char*>(dst), raw, cap);
        if (n <= 0) throw Error("lz4: compression failed");
        return std::size_t(n);
    }
    bool judges_bands() const override { return true; }
    bool judged_incompressible(ConstFieldView band) const override {
        return lz4_sampled_incompressible(reinterpret_cast<const std::byte*>(band.data),
                                          field_bytes(band.rows, band.cols));
    }
    std::size_t encode_plain(ConstFieldView band, std::byte* dst, std::size_t capacity) const override {
        const std::size_t n = write_lz4_literal_block(reinterpret_cast<const std::byte*>(band.data),
                                                      field_bytes(band.rows, band.cols), dst, capacity);
        if (n == 0) throw Error("lz4: no room for a literal block");
        return n;
    }
    void decode(const std::byte* src, std::size_t bytes, FieldView field) const override {
        const int raw = checked_int(field_bytes(field.rows, field.cols), "field");
        const int n =
            LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(field.data),
                                checked_int(bytes, "payload"), raw);
        if (n < 0) throw FormatError("lz4: corrupt payload");
        if (n != raw)
            throw FormatError("lz4: payload decodes to " + std::to_string(n) + " bytes, expected " +
                              std::to_string(raw));
    }
};

} // namespace

std::unique_ptr<Codec> make_lz4_codec() {
    return std::make_unique<Lz4Codec>();
}

} // namespace fwi::detail
