// blosc[:LEVEL]: lossless blosclz with byte shuffle (groups the bytes of the floats, which helps smooth
// fields) and one internal thread (FramedCodec runs row bands in parallel). The one checked wrapper of
// libblosc; the _ctx calls keep no global state, so several store workers may call them at once.
#include "codec/codec_factories.hpp"
#include "codec/framed_codec.hpp"
#include "fwi/error.hpp"

#include <blosc.h>

namespace fwi::detail {
namespace {

std::size_t checked_size(std::size_t bytes) {
    if (bytes > std::size_t(BLOSC_MAX_BUFFERSIZE))
        throw ResourceError("blosc: field of " + std::to_string(bytes) +
                            " bytes exceeds the library's limit of " + std::to_string(BLOSC_MAX_BUFFERSIZE));
    return bytes;
}

class BloscCodec final : public FramedCodec {
  public:
    explicit BloscCodec(int level)
        : FramedCodec(CodecId::Blosc, std::uint64_t(level), "blosc:" + std::to_string(level), true),
          level_(level) {}

  protected:
    std::size_t payload_bound(ConstFieldView field) const override {
        return checked_size(field_bytes(field.rows, field.cols)) + BLOSC_MAX_OVERHEAD;
    }
    std::size_t encode(ConstFieldView field, std::byte* dst, std::size_t capacity) const override {
        const std::size_t raw = checked_size(field_bytes(field.rows, field.cols));
        const int n = blosc_compress_ctx(level_, BLOSC_SHUFFLE, sizeof(float), raw, field.data, dst, capacity,
                                         BLOSC_BLOSCLZ_COMPNAME, 0, 1);
        if (n <= 0) throw Error("blosc: compression failed (code " + std::to_string(n) + ")");
        return std::size_t(n);
    }
    void decode(const std::byte* src, std::size_t bytes, FieldView field) const override {
        const std::size_t raw = field_bytes(field.rows, field.cols);
        std::size_t announced = 0;
        if (blosc_cbuffer_validate(src, bytes, &announced) != 0 || announced != raw)
            throw FormatError("blosc: corrupt payload header");
        const int n = blosc_decompress_ctx(src, field.data, raw, 1);
        if (n < 0 || std::size_t(n) != raw)
            throw FormatError("blosc: corrupt payload (code " + std::to_string(n) + ")");
    }

  private:
    int level_;
};

} // namespace

std::unique_ptr<Codec> make_blosc_codec(int level) {
    return std::make_unique<BloscCodec>(level);
}

} // namespace fwi::detail
