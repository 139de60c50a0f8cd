#include "engine/item_storage.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace fwi {
namespace {

/// Plain uncompressed memory (the reference; used until the tiered store is wired in).
class RawMemoryStorage final : public ItemStorage {
public:
    explicit RawMemoryStorage(int tiers) : in_use_(std::size_t(tiers), 0), peak_(std::size_t(tiers), 0) {}
    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields) override {
        free(key);
        std::vector<float> data;
        for (const auto& f : fields) data.insert(data.end(), f.data, f.data + f.size());
        const std::uint64_t bytes = data.size() * sizeof(float);
        in_use_.at(std::size_t(key.tier)) += bytes;
        peak_[std::size_t(key.tier)] = std::max(peak_[std::size_t(key.tier)], in_use_[std::size_t(key.tier)]);
        if (key.kind == ItemKind::Snapshot) {
            snapshot_bytes_ += bytes;
            peak_snapshot_ = std::max(peak_snapshot_, snapshot_bytes_);
        } else {
            ++writes_;
        }
        items_[tuple(key)] = std::move(data);
    }
    void get(const StoreKey& key, const std::vector<FieldView>& fields) override {
        auto it = items_.find(tuple(key));
        if (it == items_.end()) throw Error("storage: no item for the requested key");
        std::size_t offset = 0;
        for (const auto& f : fields) {
            std::memcpy(f.data, it->second.data() + offset, std::size_t(f.size()) * sizeof(float));
            offset += std::size_t(f.size());
        }
        if (key.kind == ItemKind::State) ++reads_;
    }
    void free(const StoreKey& key) override {
        auto it = items_.find(tuple(key));
        if (it == items_.end()) return;
        const std::uint64_t bytes = it->second.size() * sizeof(float);
        in_use_[std::size_t(key.tier)] -= bytes;
        if (key.kind == ItemKind::Snapshot) snapshot_bytes_ -= bytes;
        items_.erase(it);
    }
    bool contains(const StoreKey& key) const override { return items_.count(tuple(key)) > 0; }
    std::vector<std::uint64_t> bytes_in_use() const override { return in_use_; }
    std::vector<std::uint64_t> peak_bytes() const override { return peak_; }
    std::uint64_t peak_snapshot_bytes() const override { return peak_snapshot_; }
    std::int64_t writes() const override { return writes_; }
    std::int64_t reads() const override { return reads_; }
    double compression_ratio() const override { return 1.0; }

private:
    static std::tuple<int, int, std::int64_t> tuple(const StoreKey& k) { return {int(k.kind), k.tier, k.index}; }
    std::map<std::tuple<int, int, std::int64_t>, std::vector<float>> items_;
    std::vector<std::uint64_t> in_use_, peak_;
    std::uint64_t snapshot_bytes_ = 0, peak_snapshot_ = 0;
    std::int64_t writes_ = 0, reads_ = 0;
};

} // namespace

std::unique_ptr<ItemStorage> make_item_storage(const GradientSettings& /*settings*/, int tiers) {
    return std::make_unique<RawMemoryStorage>(tiers);
}

} // namespace fwi
