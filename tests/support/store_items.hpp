#pragma once
// The items CheckpointStore tests put and get: miniature propagator states (wavefields and a PML strip), with
// what the store must count for them, and the tier configurations the tests use.
#include "fwi/checkpoint_store.hpp"
#include "wavefields.hpp"

#include <QString>
#include <filesystem>
#include <random>
#include <vector>

namespace fwi::test {

namespace fs = std::filesystem;

/// The fields of one stored item (a propagator state in miniature: two wavefields and a PML strip).
struct Item {
    std::vector<Field2D> fields;
    std::vector<ConstFieldView> views() const {
        std::vector<ConstFieldView> v;
        for (const auto& f : fields)
            v.push_back(f.cview());
        return v;
    }
};

inline Item make_item(std::mt19937& rng, std::int64_t rows = 48, std::int64_t cols = 56) {
    std::uniform_real_distribution<double> sigma(1.5, 12), amplitude(1e-3, 10);
    Item item;
    if (rng() % 3 == 0) { // incompressible
        item.fields.push_back(random_field(rows, cols, unsigned(rng())));
        item.fields.push_back(random_field(rows, cols, unsigned(rng())));
    } else {
        item.fields.push_back(ricker_ring(rows, cols, amplitude(rng), sigma(rng)));
        item.fields.push_back(ricker_ring(rows, cols, amplitude(rng), sigma(rng)));
    }
    item.fields.push_back(random_field(4, cols, unsigned(rng()), 1e-3f));
    return item;
}

inline Item empty_like(const Item& item) {
    Item out;
    for (const auto& f : item.fields)
        out.fields.emplace_back(f.rows, f.cols, -7.0f);
    return out;
}

inline std::vector<FieldView> views(Item& item) {
    std::vector<FieldView> v;
    for (auto& f : item.fields)
        v.push_back(f.view());
    return v;
}

/// What the store must count for an item: the codec's frames, computed independently.
inline std::uint64_t stored_size(const Codec& codec, const Item& item) {
    std::uint64_t n = 0;
    for (const auto& f : item.fields) {
        std::vector<std::byte> bytes;
        n += codec.compress(f.cview(), bytes);
    }
    return n;
}

inline std::uint64_t reservation(const Codec& codec, const Item& item) {
    std::uint64_t n = 0;
    for (const auto& f : item.fields)
        n += codec.max_compressed_bytes(f.rows, f.cols);
    return n;
}

/// A stored item matches: bit for bit for lossless codecs, within the tolerance for zfp-accuracy.
inline bool matches(const Codec& codec, const Item& stored, const Item& restored, double tolerance) {
    for (std::size_t i = 0; i < stored.fields.size(); ++i) {
        if (codec.lossless() ? !bit_equal(stored.fields[i].values, restored.fields[i].values)
                             : max_abs_error(stored.fields[i].values, restored.fields[i].values) > tolerance)
            return false;
    }
    return true;
}

inline std::vector<fs::path> files_in(const fs::path& dir) {
    std::vector<fs::path> out;
    if (!fs::exists(dir)) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        out.push_back(e.path());
    return out;
}

inline TierConfig memory_tier(std::uint64_t budget, const char* name = "ram") {
    TierConfig t;
    t.name = name;
    t.budget_bytes = budget;
    return t;
}

inline TierConfig disk_tier(std::uint64_t budget, const QString& dir) {
    TierConfig t;
    t.name = "disk";
    t.budget_bytes = budget;
    t.on_disk = true;
    t.directory = dir.toStdString();
    return t;
}

} // namespace fwi::test
