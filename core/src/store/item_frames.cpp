#include "store/item_frames.hpp"

#include "codec/framed_codec.hpp"
#include "fwi/error.hpp"
#include "runtime/seconds_since.hpp"

#include <algorithm>
#include <chrono>

namespace fwi::detail {
namespace {

using Clock = std::chrono::steady_clock;
} // namespace

EncodedItem encode_item(const Codec& codec, const std::vector<ConstFieldView>& fields, FramePool& pool,
                        bool unchecked) {
    const auto t0 = Clock::now();
    EncodedItem item;
    item.frames.reserve(fields.size());
    std::vector<std::byte> scratch; // one field's worst case
    for (const auto& f : fields) {
        const std::size_t worst = codec.max_compressed_bytes(f.rows, f.cols);
        if (scratch.capacity() != worst) {
            pool.give(std::move(scratch));
            scratch = pool.take(worst);
        }
        scratch.clear();
        if (unchecked)
            append_unchecked_frame(f, scratch);
        else
            codec.compress(f, scratch);
        item.bytes += scratch.size();
        if (scratch.size() == scratch.capacity()) {
            item.frames.push_back(std::move(scratch)); // exact size already
            scratch = {};
        } else {
            std::vector<std::byte> frame = pool.take(scratch.size());
            frame.insert(frame.end(), scratch.begin(), scratch.end());
            item.frames.push_back(std::move(frame));
        }
    }
    pool.give(std::move(scratch));
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
                   const std::vector<FieldView>& fields, bool unchecked) {
    const auto t0 = Clock::now();
    if (frames.size() != fields.size())
        throw FormatError("checkpoint store: item and request differ in fields");
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (unchecked)
            read_unchecked_frame(frames[i].data(), frames[i].size(), fields[i]);
        else
            codec.decompress(frames[i].data(), frames[i].size(), fields[i]);
    return seconds_since(t0);
}

} // namespace fwi::detail
