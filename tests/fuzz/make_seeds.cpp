// Writes the committed seed corpus (tests/fuzz/corpus/<target>/) with the project's own writers: small valid
// files of every format, so the fuzzers start from inputs that reach deep into each reader.
// Usage: fuzz_make_seeds <corpus dir>. Rerun after a format change and commit the result (a few KiB each).
#include "fwi/codec.hpp"
#include "fwi/gather.hpp"
#include "fwi/hdf5_model.hpp"
#include "fwi/model_io.hpp"
#include "fwi/npy.hpp"
#include "fwi/project.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace {
namespace fs = std::filesystem;
using namespace fwi;

Model small_model(std::int64_t nz, std::int64_t nx, float base) {
    Model m;
    m.grid = Grid(nz, nx, 10.0, 12.5);
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps.push_back(base + 50.0f * float(iz) + float(ix));
    return m;
}

// (z, y, x) volume with every axis distinct, for the 3D model readers.
Model small_volume(std::int64_t nz, std::int64_t ny, std::int64_t nx, float base) {
    Model m;
    m.grid = Grid(nz, ny, nx, 10.0, 7.5, 12.5);
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix)
                m.vp_mps.push_back(base + 50.0f * float(iz) + 5.0f * float(iy) + float(ix));
    return m;
}

std::vector<Gather> small_gathers() {
    std::vector<Gather> gathers;
    for (int s = 0; s < 2; ++s) {
        Gather g;
        g.source = {20.0 + 30.0 * s, 5.0};
        g.receivers = {{0, 2}, {25, 2}, {50, 2.5}};
        g.samples = 6;
        g.dt_s = 0.002;
        for (std::size_t i = 0; i < g.receivers.size() * std::size_t(g.samples); ++i)
            g.traces.push_back(std::sin(0.7f * float(i + s)));
        gathers.push_back(g);
    }
    return gathers;
}

std::vector<char> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

Project small_project() {
    Project p;
    Experiment& e = p.experiment;
    e.true_model = small_model(4, 5, 1500);
    e.initial_model = small_model(4, 5, 1600);
    e.current_model = small_model(4, 5, 1700);
    e.acquisition.shots = {{{10.0, 5.0}, {{0, 5}, {20, 5}}}, {{40.0, 5.0}, {{30, 5}}}};
    e.propagation.nt = 8;
    e.propagation.dt_s = 0.001;
    e.propagation.wavelet = {0, 0.5f, 1, 0.5f, 0, -0.25f, 0, 0};
    p.observed = {{2, 8, 0.001, std::vector<float>(16, 0.25f)}, {1, 8, 0.001, std::vector<float>(8, -0.5f)}};
    p.gradient = std::vector<float>(20, 1e-3f);
    p.misfit = 0.5;
    IterationRecord it;
    it.model = small_model(4, 5, 1650);
    it.gradient = std::vector<float>(20, -1e-3f);
    p.history = {it};
    p.optimizer_state = {{"rho", {1.0, 2.0}}};
    p.metadata = {{"created_by", "fuzz_make_seeds"}, {"notes", "seed"}};
    return p;
}
/// One frame per codec of fuzz_codec.cpp (the first byte picks it): a small smooth field (one band), and a
/// field of two bands and a short third (a chunk table of three entries), quiet but for a few rows per band
/// so that its frames stay a few KiB (the raw one, 1 MB, is left out).
void write_codec_seeds(const fs::path& dir) {
    const char* const codecs[] = {"none",       "zstd:1",          "lz4",
                                  "blosc",      "zfp-reversible",  "zfp-accuracy:1e-3",
                                  "zfp-rate:1", "zfp-precision:12"};
    const std::int64_t band_rows = codec_chunk_rows(256);
    for (const auto& [rows, cols] :
         {std::pair<std::int64_t, std::int64_t>{12, 64}, {2 * band_rows + 5, 256}}) {
        std::vector<float> field(std::size_t(rows * cols));
        for (std::int64_t r = 0; r < rows; ++r)
            if (rows < band_rows || r % band_rows < 4)
                for (std::int64_t c = 0; c < cols; ++c)
                    field[std::size_t(r * cols + c)] = std::sin(0.05f * float(c)) * std::cos(0.3f * float(r));
        for (std::size_t k = 0; k < std::size(codecs); ++k) {
            if (rows > band_rows && k == 0) continue;
            std::vector<std::byte> frame{std::byte(k)};
            make_codec(codecs[k])->compress({field.data(), rows, cols}, frame);
            std::vector<char> bytes(frame.size());
            std::memcpy(bytes.data(), frame.data(), frame.size());
            std::string name =
                std::string(codecs[k]) + "_" + std::to_string(rows) + "x" + std::to_string(cols);
            for (char& c : name)
                if (c == ':') c = '_';
            write_file(dir / name, bytes);
        }
    }
    // 3D frames (fuzz_codec.cpp: bits 3-4 of the first byte = 1 views the field as 4 planes, 2 as 8): one
    // band of 8 planes of 6 x 10, and, for ZFP, 4 planes of 3 x 7 (partial blocks on every axis).
    for (const auto& [planes, ny, nx] : {std::array<std::int64_t, 3>{8, 6, 10}, {4, 3, 7}}) {
        const std::int64_t rows = planes * ny;
        std::vector<float> field(std::size_t(rows * nx));
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < nx; ++c)
                field[std::size_t(r * nx + c)] = std::sin(0.3f * float(c)) * std::cos(0.4f * float(r % ny)) *
                                                 std::cos(0.2f * float(r / ny));
        for (std::size_t k = 0; k < std::size(codecs); ++k) {
            if (planes == 4 && std::string(codecs[k]).rfind("zfp", 0) != 0) continue;
            std::vector<std::byte> frame{std::byte(k + (planes == 4 ? 8 : 16))};
            make_codec(codecs[k])->compress({field.data(), rows, nx, ny}, frame);
            std::vector<char> bytes(frame.size());
            std::memcpy(bytes.data(), frame.data(), frame.size());
            std::string name = std::string(codecs[k]) + "_3d_" + std::to_string(planes) + "x" +
                               std::to_string(ny) + "x" + std::to_string(nx);
            for (char& c : name)
                if (c == ':') c = '_';
            write_file(dir / name, bytes);
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz_make_seeds <corpus dir>\n");
        return 2;
    }
    const fs::path root = argv[1];
    for (const char* t : {"npy", "wavelet", "raw", "segy_model", "segy_gathers", "hdf5_model", "hdf5_gathers",
                          "project", "codec"})
        fs::create_directories(root / t);

    write_model_npy((root / "npy/model_4x5.npy").string(), small_model(4, 5, 1500));
    write_gathers_npy((root / "npy/gathers_2x3x6.npy").string(), small_gathers());
    write_npy((root / "npy/vector_7.npy").string(), {{7}, {1, 2, 3, 4, 5, 6, 7}});
    write_npy((root / "wavelet/ricker_9.npy").string(),
              {{9}, {0, -0.1f, -0.3f, 0.4f, 1, 0.4f, -0.3f, -0.1f, 0}});

    // Raw: the target's first byte chooses the layout (nz = 1 + low nibble, 0x20 = x-major, 0x40 = units
    // auto).
    const fs::path raw = root / "raw/tmp.bin";
    write_model_raw(raw.string(), small_model(4, 5, 1500), true);
    std::vector<char> bytes{char(0x20 | 0x40 | 3)};
    const std::vector<char> body = read_file(raw);
    bytes.insert(bytes.end(), body.begin(), body.end());
    write_file(root / "raw/model_4x5_xmajor.bin", bytes);
    fs::remove(raw);

    write_model_segy((root / "segy_model/model_4x5.segy").string(), small_model(4, 5, 1500));
    write_gathers_segy((root / "segy_gathers/gathers_2x3x6.segy").string(), small_gathers());
    write_model_hdf5((root / "hdf5_model/model_4x5.h5").string(), small_model(4, 5, 1500));
    write_model_npy((root / "npy/volume_3x2x4.npy").string(), small_volume(3, 2, 4, 1500));
    write_model_segy((root / "segy_model/volume_3x2x4.segy").string(), small_volume(3, 2, 4, 1500));
    write_model_hdf5((root / "hdf5_model/volume_3x2x4.h5").string(), small_volume(3, 2, 4, 1500));
    // Large enough (1.4 MB of values) for several compressed chunks, which the parent decodes on its team
    // (hdf5/chunk_decode.hpp), and small on disk: one velocity per row compresses about 500:1.
    Model layered;
    layered.grid = Grid(600, 600, 10.0, 10.0);
    for (std::int64_t iz = 0; iz < 600; ++iz)
        layered.vp_mps.insert(layered.vp_mps.end(), 600, 1500.0f + 2.0f * float(iz));
    write_model_hdf5((root / "hdf5_model/layered_600x600_chunked.h5").string(), layered);
    write_gathers_hdf5((root / "hdf5_gathers/gathers_2x3x6.h5").string(), small_gathers());
    save_project((root / "project/small.fwi").string(), small_project());
    save_project((root / "project/empty.fwi").string(), Project{});
    write_codec_seeds(root / "codec");
    std::printf("seeds written under %s\n", root.c_str());
    return 0;
}
