#include "hdf5/chunk_decode.hpp"

#include "hdf5/h5.hpp"
#include "runtime/read_hand_over.hpp"

#include <omp.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <vector>

namespace fwi::h5::detail {
namespace {

enum class Filters { none, deflate, shuffle_deflate };

/// Far beyond what FWI Studio writes (1 MiB chunks, so at most 8192 for the largest dataset it reads): a
/// layout past these is left to the library.
constexpr std::size_t max_chunk_bytes = std::size_t(1) << 30;
constexpr std::size_t max_chunks = std::size_t(1) << 20;

/// The filter pipeline, when it is one this reader decodes (shuffle's parameter is the element size).
bool known_filters(hid_t create_list, std::size_t element_size, Filters& filters) {
    const int count = H5Pget_nfilters(create_list);
    if (count < 0 || count > 2) return false;
    H5Z_filter_t ids[2] = {};
    for (int i = 0; i < count; ++i) {
        unsigned flags = 0, config = 0;
        std::size_t values = 1;
        unsigned parameter[1] = {0};
        char name[32];
        ids[i] =
            H5Pget_filter2(create_list, unsigned(i), &flags, &values, parameter, sizeof name, name, &config);
        if (ids[i] == H5Z_FILTER_SHUFFLE && parameter[0] != element_size) return false;
    }
    if (count == 0)
        filters = Filters::none;
    else if (count == 1 && ids[0] == H5Z_FILTER_DEFLATE)
        filters = Filters::deflate;
    else if (count == 2 && ids[0] == H5Z_FILTER_SHUFFLE && ids[1] == H5Z_FILTER_DEFLATE)
        filters = Filters::shuffle_deflate;
    else
        return false;
    return true;
}

/// Inflates a zlib stream to exactly `out_bytes` (libhdf5's deflate filter: zlib format, adler32 checked).
bool inflate_exact(const unsigned char* in, std::size_t in_bytes, unsigned char* out, std::size_t out_bytes) {
    if (in_bytes > UINT_MAX || out_bytes > UINT_MAX) return false;
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return false;
    z.next_in = const_cast<Bytef*>(in);
    z.avail_in = uInt(in_bytes);
    z.next_out = out;
    z.avail_out = uInt(out_bytes);
    const int result = inflate(&z, Z_FINISH);
    const bool exact = result == Z_STREAM_END && z.avail_out == 0;
    inflateEnd(&z);
    return exact;
}

/// libhdf5's shuffle filter, undone for the first `keep` of a chunk's `n` elements (the rest of an edge chunk
/// lies outside the dataset): byte b of element i was stored at b * n + i.
template <std::size_t E>
void unshuffle_elements(const unsigned char* in, std::size_t n, std::size_t keep, unsigned char* out) {
    // Element by element, E bytes from E planes: the compiler interleaves whole vectors of the planes (8x
    // faster than the plane-by-plane loop below, whose byte stores stride by E).
    for (std::size_t i = 0; i < keep; ++i)
        for (std::size_t b = 0; b < E; ++b)
            out[i * E + b] = in[b * n + i];
}

void unshuffle(const unsigned char* in, std::size_t n, std::size_t keep, std::size_t element_size,
               unsigned char* out) {
    if (element_size <= 1 || n <= 1) {
        std::memcpy(out, in, keep * element_size);
        return;
    }
    if (element_size == 4) return unshuffle_elements<4>(in, n, keep, out);
    if (element_size == 8) return unshuffle_elements<8>(in, n, keep, out);
    for (std::size_t b = 0; b < element_size; ++b) {
        const unsigned char* plane = in + b * n;
        for (std::size_t i = 0; i < keep; ++i)
            out[i * element_size + b] = plane[i];
    }
}

struct Layout {
    std::vector<hsize_t> dims, chunk, grid; ///< dataset, chunk and chunk-grid extents per axis
    std::size_t element_size = 0;
    /// 0 when a chunk would exceed max_chunk_bytes (a forged layout: its product could even wrap around).
    std::size_t chunk_bytes() const {
        double n = double(element_size);
        for (hsize_t c : chunk)
            n *= double(c);
        return n <= double(max_chunk_bytes) ? std::size_t(n) : 0;
    }
};

/// True when the chunk at `offset` fills whole rows of every axis but the first, so that its part inside the
/// dataset is one contiguous run of the output (FWI Studio cuts chunks along the slowest axis first); then
/// `start` and `elements` say where and how long.
bool contiguous(const Layout& l, const std::vector<hsize_t>& offset, std::size_t& start,
                std::size_t& elements) {
    std::size_t inner = 1;
    for (std::size_t d = 1; d < l.dims.size(); ++d) {
        if (l.chunk[d] != l.dims[d]) return false;
        inner *= std::size_t(l.dims[d]);
    }
    start = std::size_t(offset[0]) * inner;
    elements = std::size_t(std::min(l.chunk[0], l.dims[0] - offset[0])) * inner;
    return true;
}

/// Copies the part of a decoded chunk at `offset` that lies inside the dataset into `out`, row by row along
/// the last (fastest) axis.
void place(const Layout& l, const std::vector<hsize_t>& offset, const unsigned char* chunk,
           unsigned char* out) {
    const std::size_t rank = l.dims.size(), last = rank - 1;
    const std::size_t row =
        std::size_t(std::min(l.chunk[last], l.dims[last] - offset[last])) * l.element_size;
    std::vector<hsize_t> index(rank, 0); // within the chunk, leading axes only
    for (;;) {
        std::size_t from = 0, to = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            from = from * std::size_t(l.chunk[d]) + std::size_t(index[d]);
            to = to * std::size_t(l.dims[d]) + std::size_t(offset[d] + index[d]);
        }
        std::memcpy(out + to * l.element_size, chunk + from * l.element_size, row);
        std::size_t d = last;
        for (;;) {
            if (d == 0) return;
            --d;
            if (++index[d] < l.chunk[d] && offset[d] + index[d] < l.dims[d]) break;
            index[d] = 0;
        }
    }
}

} // namespace

bool read_chunks_in_parallel(hid_t dataset, hid_t memory_type, std::size_t element_size, void* out) {
    // One thread gains nothing over the library's own decoding, and a reading child has no team (its
    // parent's OpenMP threads do not exist there: fwi/isolated_read.hpp).
    if (omp_get_max_threads() < 2 || omp_in_parallel() || fwi::detail::in_reading_child()) return false;
    Handle create_list(H5Dget_create_plist(dataset), H5Pclose);
    Handle file_type(H5Dget_type(dataset), H5Tclose);
    Handle space(H5Dget_space(dataset), H5Sclose);
    if (!create_list.valid() || !file_type.valid() || !space.valid() ||
        H5Pget_layout(create_list.get()) != H5D_CHUNKED || H5Tequal(file_type.get(), memory_type) <= 0 ||
        H5Tget_size(file_type.get()) != element_size) {
        H5Eclear2(H5E_DEFAULT);
        return false;
    }
    Filters filters{};
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (!known_filters(create_list.get(), element_size, filters) || rank < 1 || rank > 8) {
        H5Eclear2(H5E_DEFAULT);
        return false;
    }
    Layout l;
    l.element_size = element_size;
    l.dims.resize(std::size_t(rank));
    l.chunk.resize(std::size_t(rank));
    if (H5Sget_simple_extent_dims(space.get(), l.dims.data(), nullptr) != rank ||
        H5Pget_chunk(create_list.get(), rank, l.chunk.data()) != rank) {
        H5Eclear2(H5E_DEFAULT);
        return false;
    }
    std::size_t chunks = 1;
    for (int d = 0; d < rank; ++d) {
        if (l.dims[std::size_t(d)] == 0 || l.chunk[std::size_t(d)] == 0) return false;
        l.grid.push_back((l.dims[std::size_t(d)] + l.chunk[std::size_t(d)] - 1) / l.chunk[std::size_t(d)]);
        chunks *= std::size_t(l.grid.back());
        if (chunks > max_chunks) return false;
    }
    const std::size_t chunk_bytes = l.chunk_bytes();
    if (chunks < 2 || chunk_bytes == 0) return false;
    hsize_t stored_chunks = 0;
    if (H5Dget_num_chunks(dataset, space.get(), &stored_chunks) < 0 || stored_chunks != chunks) {
        H5Eclear2(H5E_DEFAULT);
        return false; // chunks never written read as fill values: left to H5Dread
    }

    // Where every chunk lies: each chunk of the grid exactly once, none larger than deflate can make it.
    std::vector<std::vector<hsize_t>> offsets(chunks);
    std::vector<std::vector<unsigned char>> stored(chunks);
    std::vector<char> seen(chunks, 0);
    for (std::size_t i = 0; i < chunks; ++i) {
        std::vector<hsize_t> offset(static_cast<std::size_t>(rank), 0);
        unsigned mask = 0;
        haddr_t address = 0;
        hsize_t bytes = 0;
        if (H5Dget_chunk_info(dataset, space.get(), hsize_t(i), offset.data(), &mask, &address, &bytes) < 0 ||
            mask != 0 || bytes == 0 || bytes > chunk_bytes + chunk_bytes / 8 + 1024) {
            H5Eclear2(H5E_DEFAULT);
            return false;
        }
        std::size_t cell = 0;
        for (int d = 0; d < rank; ++d) {
            const std::size_t a = std::size_t(d);
            if (offset[a] % l.chunk[a] != 0 || offset[a] >= l.dims[a]) return false;
            cell = cell * std::size_t(l.grid[a]) + std::size_t(offset[a] / l.chunk[a]);
        }
        if (seen[cell]) return false;
        seen[cell] = 1;
        stored[i].resize(std::size_t(bytes));
        offsets[i] = std::move(offset);
    }
    // Then their bytes (the library, serially). H5Dread_chunk writes as many bytes as the chunk it looks up
    // by offset holds, which H5Dget_chunk_storage_size reports by the same lookup: the buffer must hold that.
    for (std::size_t i = 0; i < chunks; ++i) {
        hsize_t bytes = 0;
        std::uint32_t read_mask = 0;
        if (H5Dget_chunk_storage_size(dataset, offsets[i].data(), &bytes) < 0 || bytes != stored[i].size() ||
            H5Dread_chunk(dataset, H5P_DEFAULT, offsets[i].data(), &read_mask, stored[i].data()) < 0 ||
            read_mask != 0) {
            H5Eclear2(H5E_DEFAULT);
            return false;
        }
    }
    if (filters == Filters::none)
        for (const auto& s : stored)
            if (s.size() != chunk_bytes) return false;

    // Decode and place them on the team: inflate into a scratch chunk, then unshuffle (or copy) straight into
    // the output where the chunk is contiguous there, else into a second scratch chunk placed row by row.
    std::atomic<bool> failed{false};
    unsigned char* target = static_cast<unsigned char*>(out);
    const std::size_t chunk_elements = chunk_bytes / element_size;
#pragma omp parallel
    {
        std::vector<unsigned char> inflated(filters == Filters::none ? 0 : chunk_bytes);
        std::vector<unsigned char> plain;
#pragma omp for schedule(dynamic, 1)
        for (std::size_t i = 0; i < chunks; ++i) {
            if (failed.load(std::memory_order_relaxed)) continue;
            const unsigned char* chunk = stored[i].data();
            if (filters != Filters::none) {
                if (!inflate_exact(stored[i].data(), stored[i].size(), inflated.data(), chunk_bytes)) {
                    failed = true;
                    continue;
                }
                chunk = inflated.data();
            }
            std::size_t start = 0, elements = 0;
            const bool shuffled = filters == Filters::shuffle_deflate;
            if (contiguous(l, offsets[i], start, elements)) {
                unsigned char* to = target + start * element_size;
                if (shuffled)
                    unshuffle(chunk, chunk_elements, elements, element_size, to);
                else
                    std::memcpy(to, chunk, elements * element_size);
                continue;
            }
            if (shuffled) {
                plain.resize(chunk_bytes);
                unshuffle(chunk, chunk_elements, chunk_elements, element_size, plain.data());
                chunk = plain.data();
            }
            place(l, offsets[i], chunk, target);
        }
    }
    return !failed;
}

} // namespace fwi::h5::detail
