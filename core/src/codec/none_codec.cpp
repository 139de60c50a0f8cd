// "none": the raw floats in a checked frame (the FramedCodec stores them raw; nothing to encode).
#include "codec/codec_factories.hpp"
#include "codec/framed_codec.hpp"
#include "fwi/error.hpp"

namespace fwi::detail {
namespace {

class NoneCodec final : public FramedCodec {
  public:
    NoneCodec() : FramedCodec(CodecId::None, 0, "none", true) {}

  protected:
    std::size_t payload_bound(ConstFieldView field) const override {
        return field_bytes(field.rows, field.cols);
    }
    std::size_t encode(ConstFieldView, std::byte*, std::size_t) const override {
        throw Error("codec 'none': nothing to encode"); // unreachable: must_store_raw() is always true
    }
    void decode(const std::byte*, std::size_t, FieldView) const override {
        throw FormatError("codec 'none': corrupt frame (payload not marked raw)");
    }
    bool must_store_raw(ConstFieldView) const override { return true; }
};

} // namespace

std::unique_ptr<Codec> make_none_codec() {
    return std::make_unique<NoneCodec>();
}

} // namespace fwi::detail
