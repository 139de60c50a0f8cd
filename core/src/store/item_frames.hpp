#pragma once
// An item (a list of fields) as codec frames: one exact-size buffer per field, so what the store holds is
// exactly what it counts.
#include "fwi/codec.hpp"
#include "fwi/field.hpp"
#include "store/frame_pool.hpp"

#include <cstdint>
#include <vector>

namespace fwi::detail {

struct EncodedItem {
    std::vector<std::vector<std::byte>> frames; ///< one per field, capacity == size
    std::uint64_t bytes = 0;                    ///< sum of the frame sizes
    double seconds = 0;                         ///< compression time
};

/// Scratch and frames come from `pool` and the scratch goes back to it. A frame that fills its field's worst
/// case (the "none" codec, an incompressible field) is the scratch itself: no second copy. `unchecked`: an
/// uncompressed item of a memory tier, whose frames carry no checksum (append_unchecked_frame,
/// framed_codec.hpp); the same sizes as the "none" codec's.
EncodedItem encode_item(const Codec& codec, const std::vector<ConstFieldView>& fields, FramePool& pool,
                        bool unchecked = false);

/// Decodes consecutive frames of the given sizes from `bytes` (a disk tier's file) into `fields`. Returns the
/// seconds spent. Throws FormatError when counts or sizes disagree or a frame is corrupt.
double decode_item(const Codec& codec, const std::vector<std::byte>& bytes,
                   const std::vector<std::uint64_t>& frame_bytes, const std::vector<FieldView>& fields);

/// Decodes one frame buffer per field (a memory tier's item; `unchecked` as encode_item made it);
/// FormatError as above.
double decode_item(const Codec& codec, const std::vector<std::vector<std::byte>>& frames,
                   const std::vector<FieldView>& fields, bool unchecked = false);

} // namespace fwi::detail
