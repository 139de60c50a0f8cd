// zstd[:LEVEL]: lossless; the one checked wrapper of libzstd. Contexts are per thread and reused, since
// creating one per field costs more than compressing a small field.
#include "codec/codec_factories.hpp"
#include "codec/framed_codec.hpp"
#include "fwi/error.hpp"

#include <zstd.h>

namespace fwi::detail {
namespace {

struct CCtxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxDeleter {
    void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

ZSTD_CCtx* thread_cctx() {
    thread_local std::unique_ptr<ZSTD_CCtx, CCtxDeleter> ctx(ZSTD_createCCtx());
    if (!ctx) throw ResourceError("zstd: cannot create a compression context (out of memory)");
    return ctx.get();
}
ZSTD_DCtx* thread_dctx() {
    thread_local std::unique_ptr<ZSTD_DCtx, DCtxDeleter> ctx(ZSTD_createDCtx());
    if (!ctx) throw ResourceError("zstd: cannot create a decompression context (out of memory)");
    return ctx.get();
}

class ZstdCodec final : public FramedCodec {
  public:
    explicit ZstdCodec(int level)
        : FramedCodec(CodecId::Zstd, std::uint64_t(std::int64_t(level)), "zstd:" + std::to_string(level),
                      true),
          level_(level) {}

  protected:
    std::size_t payload_bound(ConstFieldView field) const override {
        return ZSTD_compressBound(field_bytes(field.rows, field.cols));
    }
    std::size_t encode(ConstFieldView field, std::byte* dst, std::size_t capacity) const override {
        const std::size_t n = ZSTD_compressCCtx(thread_cctx(), dst, capacity, field.data,
                                                field_bytes(field.rows, field.cols), level_);
        if (ZSTD_isError(n)) throw Error(std::string("zstd: compression failed: ") + ZSTD_getErrorName(n));
        return n;
    }
    void decode(const std::byte* src, std::size_t bytes, FieldView field) const override {
        const std::size_t raw = field_bytes(field.rows, field.cols);
        const std::size_t n = ZSTD_decompressDCtx(thread_dctx(), field.data, raw, src, bytes);
        if (ZSTD_isError(n)) throw FormatError(std::string("zstd: corrupt payload: ") + ZSTD_getErrorName(n));
        if (n != raw)
            throw FormatError("zstd: payload decodes to " + std::to_string(n) + " bytes, expected " +
                              std::to_string(raw));
    }

  private:
    int level_;
};

} // namespace

std::unique_ptr<Codec> make_zstd_codec(int level) {
    return std::make_unique<ZstdCodec>(level);
}

} // namespace fwi::detail
