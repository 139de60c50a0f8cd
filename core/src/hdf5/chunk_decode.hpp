#pragma once
// Reading a whole chunked dataset with its chunks decoded on the OpenMP team. libhdf5 decodes a dataset's
// chunks one after another on the calling thread (inflate, its adler32 check, unshuffle, then a copy into the
// caller's array): a 1000 x 1000 float model took 8 ms, most of a project's read. Here the library only
// fetches each chunk's stored bytes (H5Dread_chunk, serial, under the library's lock); inflating,
// unshuffling and placing the chunks run in parallel, with zlib checking each stream as libhdf5's deflate
// filter does. Only the layouts FWI Studio writes are taken (chunked; filters none, deflate, or shuffle then
// deflate with the element's size; the file's number type the memory's, so no conversion; every chunk
// written with every filter): anything else, and any chunk that does not decode to exactly its size, makes
// the caller read the dataset with H5Dread as before, which also reports damage in libhdf5's words.
#include <hdf5.h>

#include <cstddef>

namespace fwi::h5::detail {

/// Reads all of `dataset` (elements of `element_size` bytes, file type equal to `memory_type`) into `out`,
/// which holds every element. Returns false, having written nothing usable, when the dataset is not one this
/// reader takes or does not decode; true when `out` holds exactly what H5Dread would give.
bool read_chunks_in_parallel(hid_t dataset, hid_t memory_type, std::size_t element_size, void* out);

} // namespace fwi::h5::detail
