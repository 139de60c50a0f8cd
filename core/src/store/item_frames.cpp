#include "store/item_frames.hpp"

#include "fwi/error.hpp"
#include "runtime/seconds_since.hpp"

#include <algorithm>
#include <chrono>

namespace fwi::detail {
namespace {

using Clock = std::chrono::steady_clock;
} // namespace

EncodedItem encode_item(const Codec& codec, const std::vector<ConstFieldView>& fields) {
    const auto t0 = Clock::now();
    EncodedItem item;
    item.frames.reserve(fields.size());
    std::size_t worst = 0;
    for (const auto& f : fields)
        worst = std::max(worst, codec.max_compressed_bytes(f.rows, f.cols));
    std::vector<std::byte> scratch; // the worker's transient buffer: one field's worst case
    scratch.reserve(worst);
    for (const auto& f : fields) {
        scratch.clear();
        codec.compress(f, scratch);
        item.frames.emplace_back(scratch.begin(), scratch.end()); // exact size
        item.bytes += scratch.size();
    }
    item.seconds = seconds_since(t0);
    return item;
}

double decode_item(const Codec& codec, const std::vector<std::byte>& bytes,
                   const std::vector<std::uint64_t>& frame_bytes, const std::vector<FieldView>& fields) {
    const auto t0 = Clock::now();
    if (frame_bytes.size() != fields.size())
        throw FormatError("checkpoint store: item and request differ in fields");
    std::uint64_t offset = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (frame_bytes[i] > bytes.size() - offset)
            throw FormatError("checkpoint store: item shorter than its frames");
        codec.decompress(bytes.data() + offset, std::size_t(frame_bytes[i]), fields[i]);
        offset += frame_bytes[i];
    }
    if (offset != bytes.size()) throw FormatError("checkpoint store: item longer than its frames");
    return seconds_since(t0);
}

double decode_item(const Codec& codec, const std::vector<std::vector<std::byte>>& frames,
                   const std::vector<FieldView>& fields) {
    const auto t0 = Clock::now();
    if (frames.size() != fields.size())
        throw FormatError("checkpoint store: item and request differ in fields");
    for (std::size_t i = 0; i < fields.size(); ++i)
        codec.decompress(frames[i].data(), frames[i].size(), fields[i]);
    return seconds_since(t0);
}

} // namespace fwi::detail
