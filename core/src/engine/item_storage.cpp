// ItemStorage over the CheckpointStore: tier 0 in memory under the RAM budget, tier 1 (multilevel plans) in a
// private scratch directory under the disk budget, every item through the run's codec.
#include "engine/item_storage.hpp"

#include "fwi/codec.hpp"
#include "fwi/error.hpp"

#include <memory>

namespace fwi {
namespace {

class StoreBackedStorage final : public ItemStorage {
  public:
    StoreBackedStorage(std::vector<TierConfig> tiers, std::shared_ptr<const Codec> codec, int threads)
        : store_(std::move(tiers), std::move(codec), threads) {}

    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields) override {
        store_.put(key, fields);
        if (key.kind == ItemKind::State) ++writes_;
    }
    void get(const StoreKey& key, const std::vector<FieldView>& fields) override {
        store_.get(key, fields);
        if (key.kind == ItemKind::State) ++reads_;
    }
    void free(const StoreKey& key) override { store_.free(key); }
    bool contains(const StoreKey& key) const override { return store_.contains(key); }
    std::vector<std::uint64_t> bytes_in_use() const override {
        std::vector<std::uint64_t> v;
        for (int t = 0; t < store_.tier_count(); ++t)
            v.push_back(store_.stats(t).bytes_in_use);
        return v;
    }
    std::vector<std::uint64_t> peak_bytes() const override {
        std::vector<std::uint64_t> v;
        for (int t = 0; t < store_.tier_count(); ++t)
            v.push_back(store_.stats(t).peak_bytes);
        return v;
    }
    std::uint64_t peak_snapshot_bytes() const override { return store_.stats(0).peak_snapshot_bytes; }
    std::int64_t writes() const override { return writes_; }
    std::int64_t reads() const override { return reads_; }
    double compression_ratio() const override { return store_.compression_ratio(); }
    double compress_seconds() const override {
        double s = 0;
        for (int t = 0; t < store_.tier_count(); ++t)
            s += store_.stats(t).compress_seconds;
        return s;
    }
    double decompress_seconds() const override {
        double s = 0;
        for (int t = 0; t < store_.tier_count(); ++t)
            s += store_.stats(t).decompress_seconds;
        return s;
    }

  private:
    CheckpointStore store_;
    std::int64_t writes_ = 0, reads_ = 0;
};

} // namespace

std::unique_ptr<ItemStorage> make_item_storage(const GradientSettings& settings, int tiers) {
    std::vector<TierConfig> config;
    TierConfig ram;
    ram.name = "ram";
    ram.budget_bytes = settings.budget_bytes;
    config.push_back(ram);
    if (tiers >= 2) {
        TierConfig disk;
        disk.name = "disk";
        disk.on_disk = true;
        disk.budget_bytes = settings.disk_budget_bytes;
        disk.directory = settings.scratch_dir;
        config.push_back(disk);
    }
    if (tiers > 2) throw ConfigError("plans with more than two storage tiers are not supported");
    std::shared_ptr<const Codec> codec =
        make_codec(settings.compression.empty() ? "none" : settings.compression);
    // Compression (and disk writes) run on two workers, overlapping the propagation that follows a store; a
    // plain in-memory copy is cheaper inline.
    const int threads = codec->name() == "none" && tiers < 2 ? 0 : 2;
    return std::make_unique<StoreBackedStorage>(std::move(config), std::move(codec), threads);
}

} // namespace fwi
