// Whole chunked datasets decoded on the OpenMP team (hdf5/chunk_decode.hpp) give exactly libhdf5's H5Dread
// bytes for every layout FWI Studio writes (edge chunks, chunks that split rows, deflate with or without
// shuffle, no filter, 1 to 3 dimensions, float32/float64/int64), and are left to H5Dread for anything else:
// chunks never written, other filters, a chunk that does not inflate.
#include "hdf5/chunk_decode.hpp"

#include <hdf5.h>
#include <omp.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cstring>
#include <numeric>
#include <vector>

using fwi::h5::detail::read_chunks_in_parallel;

namespace {

enum class Pipeline { none, deflate, shuffle_deflate, fletcher_deflate };

/// Creates dataset `name` of `dims` chunked by `chunk` with the given filters and writes `values` (all of
/// it, or only the first chunk when `whole` is false).
template <class T>
void make_dataset(hid_t file, const char* name, hid_t type, const std::vector<hsize_t>& dims,
                  const std::vector<hsize_t>& chunk, Pipeline pipeline, const std::vector<T>& values,
                  bool whole = true) {
    const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, int(chunk.size()), chunk.data());
    if (pipeline == Pipeline::shuffle_deflate) H5Pset_shuffle(dcpl);
    if (pipeline == Pipeline::fletcher_deflate) H5Pset_fletcher32(dcpl);
    if (pipeline != Pipeline::none) H5Pset_deflate(dcpl, 4);
    const hid_t d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    QVERIFY(d >= 0);
    if (whole) {
        QVERIFY(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
    } else { // the first chunk only: the others stay unwritten (fill values)
        const std::vector<hsize_t> start(dims.size(), 0);
        H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, chunk.data(), nullptr);
        const hid_t memory = H5Screate_simple(int(chunk.size()), chunk.data(), nullptr);
        QVERIFY(H5Dwrite(d, type, memory, space, H5P_DEFAULT, values.data()) >= 0);
        H5Sclose(memory);
    }
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

/// Wavefield-like values: smooth with noise, so deflate and shuffle have work to do.
template <class T> std::vector<T> values_for(std::size_t n) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = T(1000.0 * std::sin(0.001 * double(i)) + double((i * 2654435761u) % 97));
    return v;
}

} // namespace

class TestH5ChunkDecode : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    hid_t file_ = -1;

    /// read_chunks_in_parallel's outcome on `name`, and whether its bytes equal H5Dread's.
    template <class T> std::pair<bool, bool> read_both(const char* name, hid_t type) {
        const hid_t d = H5Dopen2(file_, name, H5P_DEFAULT);
        const hid_t space = H5Dget_space(d);
        const auto n = std::size_t(H5Sget_simple_extent_npoints(space));
        H5Sclose(space);
        std::vector<T> library(n), parallel(n, T(-7));
        H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, library.data());
        const bool taken = read_chunks_in_parallel(d, type, sizeof(T), parallel.data());
        H5Dclose(d);
        return {taken, std::memcmp(library.data(), parallel.data(), n * sizeof(T)) == 0};
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); // H5Dread of the bad chunk reports, as it should
        omp_set_num_threads(2);                      // one thread leaves every dataset to H5Dread
        file_ = H5Fcreate(dir_.filePath("chunks.h5").toUtf8().constData(), H5F_ACC_TRUNC, H5P_DEFAULT,
                          H5P_DEFAULT);
        QVERIFY(file_ >= 0);
        const hid_t f32 = H5T_NATIVE_FLOAT;
        // Chunks of whole rows, the last one cut by the dataset's end (the contiguous path).
        make_dataset(file_, "rows", f32, {1003, 300}, {250, 300}, Pipeline::shuffle_deflate,
                     values_for<float>(1003 * 300));
        // Chunks that split rows and planes, cut on every axis (the row-by-row path).
        make_dataset(file_, "volume", f32, {37, 20, 45}, {8, 7, 16}, Pipeline::shuffle_deflate,
                     values_for<float>(37 * 20 * 45));
        make_dataset(file_, "deflate_only", H5T_NATIVE_DOUBLE, {50, 70}, {16, 32}, Pipeline::deflate,
                     values_for<double>(50 * 70));
        // Eight-byte elements shuffled, chunks cut on both axes.
        make_dataset(file_, "doubles_shuffled", H5T_NATIVE_DOUBLE, {50, 70}, {16, 32},
                     Pipeline::shuffle_deflate, values_for<double>(50 * 70));
        make_dataset(file_, "no_filter", H5T_NATIVE_INT64, {10000}, {1000}, Pipeline::none,
                     values_for<std::int64_t>(10000));
        make_dataset(file_, "unwritten", f32, {100, 64}, {25, 64}, Pipeline::shuffle_deflate,
                     values_for<float>(25 * 64), false);
        make_dataset(file_, "fletcher", f32, {100, 64}, {25, 64}, Pipeline::fletcher_deflate,
                     values_for<float>(100 * 64));
        make_dataset(file_, "one_chunk", f32, {10, 64}, {10, 64}, Pipeline::shuffle_deflate,
                     values_for<float>(10 * 64));
        // A chunk whose stored bytes are not a deflate stream (written raw, filters claimed applied).
        make_dataset(file_, "bad_stream", f32, {100, 64}, {25, 64}, Pipeline::shuffle_deflate,
                     values_for<float>(100 * 64));
        const hid_t d = H5Dopen2(file_, "bad_stream", H5P_DEFAULT);
        const hsize_t offset[2] = {50, 0};
        const std::vector<unsigned char> garbage(300, 0xA5);
        QVERIFY(H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, garbage.size(), garbage.data()) >= 0);
        H5Dclose(d);
        H5Fflush(file_, H5F_SCOPE_GLOBAL);
    }
    void cleanupTestCase() {
        if (file_ >= 0) H5Fclose(file_);
    }

    void theLayoutsFwiStudioWritesDecodeToTheLibrarysBytes() {
        for (const auto& [name, taken_and_equal] :
             {std::pair{"rows", read_both<float>("rows", H5T_NATIVE_FLOAT)},
              std::pair{"volume", read_both<float>("volume", H5T_NATIVE_FLOAT)},
              std::pair{"deflate_only", read_both<double>("deflate_only", H5T_NATIVE_DOUBLE)},
              std::pair{"doubles_shuffled", read_both<double>("doubles_shuffled", H5T_NATIVE_DOUBLE)},
              std::pair{"no_filter", read_both<std::int64_t>("no_filter", H5T_NATIVE_INT64)}}) {
            QVERIFY2(taken_and_equal.first, name);
            QVERIFY2(taken_and_equal.second, name);
        }
    }

    void anythingElseIsLeftToTheLibrary() {
        for (const char* name : {"unwritten", "fletcher", "one_chunk", "bad_stream"})
            QVERIFY2(!read_both<float>(name, H5T_NATIVE_FLOAT).first, name);
        // Another memory type than the file's (a conversion) is the library's too.
        QVERIFY(!read_both<double>("rows", H5T_NATIVE_DOUBLE).first);
    }

    void oneThreadLeavesEverythingToTheLibrary() {
        omp_set_num_threads(1);
        QVERIFY(!read_both<float>("rows", H5T_NATIVE_FLOAT).first);
        omp_set_num_threads(2);
    }
};

QTEST_GUILESS_MAIN(TestH5ChunkDecode)
#include "tst_h5_chunk_decode.moc"
