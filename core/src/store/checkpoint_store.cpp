// CheckpointStore: tiers, exact budgets, pessimistic-then-corrected reservations for asynchronous compression
// (see the header for the contract). One mutex guards all bookkeeping; compression, file I/O and
// decompression run outside it, except on the synchronous path (threads == 0, or the fallback after all
// workers went idle).
#include "fwi/checkpoint_store.hpp"

#include "runtime/seconds_since.hpp"
#include "store/frame_pool.hpp"
#include "store/item_frames.hpp"
#include "store/scratch_directory.hpp"
#include "store/scratch_file.hpp"
#include "store/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>

namespace fwi {
namespace {

using Clock = std::chrono::steady_clock;
using KeyTuple = std::tuple<int, int, std::int64_t>;
/// A stored field's shape, plane_rows included: a 3D field's frames decode only into a view of the same
/// planes.
struct Shape {
    std::int64_t rows = 0, cols = 0, plane_rows = 0;
    explicit Shape(const ConstFieldView& f) : rows(f.rows), cols(f.cols), plane_rows(f.plane_rows) {}
    bool operator==(const Shape&) const = default;
    std::string text() const {
        return std::to_string(rows) + "x" + std::to_string(cols) +
               (plane_rows > 0 ? " (" + std::to_string(plane_rows) + " rows per plane)" : "");
    }
};

KeyTuple tuple_of(const StoreKey& k) {
    return {k.tier, int(k.kind), k.index};
}

std::string describe(const StoreKey& k) {
    return (k.kind == ItemKind::State ? "state " : "snapshot ") + std::to_string(k.index);
}

struct StoredItem {
    StoreKey key;
    bool pending = false;                       ///< a worker is compressing (and writing) it
    std::vector<std::byte> staging;             ///< pending: the raw floats of all fields, one after another
    std::vector<std::vector<std::byte>> frames; ///< memory tier: one exact-size frame per field
    std::vector<std::uint64_t> frame_bytes;     ///< the frames' sizes (their order in a disk tier's file)
    std::vector<Shape> shapes;
    std::uint64_t raw_bytes = 0;
    std::uint64_t accounted_bytes =
        0;            ///< counted against the budget: the worst-case reservation while pending
    std::string path; ///< disk tier file
};

struct Tier {
    TierConfig config;
    TierStats stats;
    std::unique_ptr<detail::ScratchDirectory> scratch; ///< disk tiers only
    /// A memory tier of the "none" codec: its items carry no checksum (append_unchecked_frame), as nothing
    /// leaves memory or passes a decoder. Decided once, when the store is made.
    bool unchecked = false;
};

} // namespace

struct CheckpointStore::Impl {
    std::vector<Tier> tiers;
    std::shared_ptr<const Codec> codec;
    int threads = 0;
    int max_pending = 0;
    mutable std::mutex mutex;
    std::condition_variable settled; ///< a pending item finished (stored or failed)
    std::map<KeyTuple, std::shared_ptr<StoredItem>> items;
    int pending = 0;
    std::exception_ptr async_error;
    std::uint64_t file_counter = 0;
    /// Freed frames and spent buffers, reused by later puts. It holds at most what the memory tiers' budgets
    /// leave free and what they held at their peak beyond what they hold now: items + pool stay within every
    /// budget and within the store's own peak.
    detail::FramePool frame_pool;
    std::unique_ptr<detail::WorkerPool>
        pool; // declared last: destroyed first, so no job outlives what it touches

    Tier& tier_of(int t) {
        if (t < 0 || t >= int(tiers.size()))
            throw ConfigError("checkpoint store: no tier " + std::to_string(t) + " (the store has " +
                              std::to_string(tiers.size()) + ")");
        return tiers[std::size_t(t)];
    }
    const Tier& tier_of(int t) const { return const_cast<Impl*>(this)->tier_of(t); }

    void check_async_error() const {
        if (async_error) std::rethrow_exception(async_error);
    }

    /// The item under `key` once it is no longer pending, or null when absent (or dropped after a failure).
    std::shared_ptr<StoredItem> settled_item(std::unique_lock<std::mutex>& lock, const StoreKey& key) {
        for (;;) {
            const auto it = items.find(tuple_of(key));
            if (it == items.end()) return nullptr;
            if (!it->second->pending) return it->second;
            settled.wait(lock);
        }
    }

    /// What `fields` could take at most once coded (put's reservation).
    std::uint64_t worst_bytes(const std::vector<ConstFieldView>& fields) const {
        std::uint64_t bytes = 0;
        for (const auto& f : fields)
            bytes += codec->max_compressed_bytes(f.rows, f.cols);
        return bytes;
    }

    static bool fits(const Tier& tier, std::uint64_t add, std::uint64_t release) {
        const std::uint64_t budget = tier.config.budget_bytes;
        return budget == 0 || tier.stats.bytes_in_use - release + add <= budget;
    }

    static void add_bytes(Tier& tier, const StoreKey& key, std::uint64_t bytes) {
        TierStats& s = tier.stats;
        s.bytes_in_use += bytes;
        s.peak_bytes = std::max(s.peak_bytes, s.bytes_in_use);
        if (key.kind == ItemKind::Snapshot) {
            s.snapshot_bytes_in_use += bytes;
            s.peak_snapshot_bytes = std::max(s.peak_snapshot_bytes, s.snapshot_bytes_in_use);
        }
    }

    static void sub_bytes(Tier& tier, const StoreKey& key, std::uint64_t bytes) {
        tier.stats.bytes_in_use -= bytes;
        if (key.kind == ItemKind::Snapshot) tier.stats.snapshot_bytes_in_use -= bytes;
    }

    /// Drops a settled item: bookkeeping, then its file; its frames go to the pool unless a get still reads
    /// them (it holds the item too).
    void release(const std::shared_ptr<StoredItem>& item) {
        Tier& tier = tiers[std::size_t(item->key.tier)];
        items.erase(tuple_of(item->key));
        sub_bytes(tier, item->key, item->accounted_bytes);
        --tier.stats.items;
        detail::remove_file(item->path);
        if (item.use_count() == 1) {
            update_pool_limit();
            for (auto& frame : item->frames)
                frame_pool.give(std::move(frame));
            item->frames.clear();
        }
    }

    /// The pool's limit from the budgets' headroom now (bytes_in_use counts pending reservations, so the
    /// headroom is never overstated).
    void update_pool_limit() {
        std::uint64_t limit = 0;
        for (const Tier& tier : tiers)
            if (!tier.config.on_disk) limit += tier.stats.peak_bytes - tier.stats.bytes_in_use;
        for (const Tier& tier : tiers) {
            const std::uint64_t budget = tier.config.budget_bytes;
            if (tier.config.on_disk || budget == 0) continue;
            limit = std::min(limit, budget > tier.stats.bytes_in_use ? budget - tier.stats.bytes_in_use : 0);
        }
        frame_pool.set_limit(limit);
    }

    std::string new_path(const Tier& tier, const StoreKey& key) {
        if (!tier.scratch) return {};
        return tier.scratch->path() + "/" + (key.kind == ItemKind::State ? "state_" : "snapshot_") +
               std::to_string(key.index) + "_" + std::to_string(++file_counter) + ".fwz";
    }

    [[noreturn]] static void refuse(const Tier& tier, const StoreKey& key, std::uint64_t bytes,
                                    std::uint64_t released) {
        std::string text = "checkpoint store: tier '" + tier.config.name + "' budget of " +
                           std::to_string(tier.config.budget_bytes) + " bytes cannot take " + describe(key) +
                           " (" + std::to_string(bytes) + " bytes compressed; " +
                           std::to_string(tier.stats.bytes_in_use) + " in use";
        if (released > 0) text += ", " + std::to_string(released) + " of them by the item it replaces";
        throw BudgetExceeded(text + ")");
    }

    static std::shared_ptr<StoredItem> new_item(const StoreKey& key,
                                                const std::vector<ConstFieldView>& fields) {
        auto item = std::make_shared<StoredItem>();
        item->key = key;
        item->raw_bytes = raw_bytes(fields);
        for (const auto& f : fields)
            item->shapes.emplace_back(f);
        return item;
    }

    void count_write(Tier& tier, const StoredItem& item, double compress_s, double io_s) {
        ++tier.stats.writes;
        tier.stats.raw_bytes_written += item.raw_bytes;
        tier.stats.stored_bytes_written += item.accounted_bytes;
        tier.stats.compress_seconds += compress_s;
        if (item.key.kind == ItemKind::State) tier.stats.state_compress_seconds += compress_s;
        tier.stats.io_seconds += io_s;
    }

    void put_sync(std::unique_lock<std::mutex>& lock, const StoreKey& key,
                  const std::vector<ConstFieldView>& fields);
    void put_async(const std::shared_ptr<StoredItem>& old, const StoreKey& key,
                   const std::vector<ConstFieldView>& fields, std::vector<std::byte> staging,
                   std::uint64_t reserve);
    void run_job(std::shared_ptr<StoredItem> item) noexcept;
};

void CheckpointStore::Impl::put_sync(std::unique_lock<std::mutex>& lock, const StoreKey& key,
                                     const std::vector<ConstFieldView>& fields) {
    Tier& tier = tiers[std::size_t(key.tier)];
    auto old = settled_item(lock, key);
    if (old && !tier.scratch && fits(tier, worst_bytes(fields), old->accounted_bytes)) {
        release(old); // no size can be refused now: the new frames may reuse the old ones
        old.reset();
    }
    detail::EncodedItem encoded = detail::encode_item(*codec, fields, frame_pool, tier.unchecked);
    const std::uint64_t released = old ? old->accounted_bytes : 0;
    if (!fits(tier, encoded.bytes, released)) {
        for (auto& frame : encoded.frames)
            frame_pool.give(std::move(frame));
        refuse(tier, key, encoded.bytes, released);
    }
    if (old) release(old);
    auto item = new_item(key, fields);
    item->accounted_bytes = encoded.bytes;
    for (const auto& frame : encoded.frames)
        item->frame_bytes.push_back(frame.size());
    double io_s = 0;
    if (tier.scratch) {
        item->path = new_path(tier, key);
        const auto t0 = Clock::now();
        detail::write_frames(item->path, encoded.frames); // throws with the partial file removed
        io_s = seconds_since(t0);
        for (auto& frame : encoded.frames)
            frame_pool.give(std::move(frame));
    } else {
        item->frames = std::move(encoded.frames);
    }
    items[tuple_of(key)] = item;
    add_bytes(tier, key, item->accounted_bytes);
    ++tier.stats.items;
    count_write(tier, *item, encoded.seconds, io_s);
    update_pool_limit();
}

void CheckpointStore::Impl::put_async(const std::shared_ptr<StoredItem>& old, const StoreKey& key,
                                      const std::vector<ConstFieldView>& fields,
                                      std::vector<std::byte> staging, std::uint64_t reserve) {
    Tier& tier = tiers[std::size_t(key.tier)];
    if (old) release(old);
    auto item = new_item(key, fields);
    item->pending = true;
    item->staging = std::move(staging);
    item->accounted_bytes = reserve;
    item->path = new_path(tier, key);
    items[tuple_of(key)] = item;
    add_bytes(tier, key, reserve);
    ++tier.stats.items;
    ++pending;
    pool->submit([this, item]() mutable { run_job(std::move(item)); });
}

void CheckpointStore::Impl::run_job(std::shared_ptr<StoredItem> item) noexcept {
    detail::EncodedItem encoded;
    std::vector<std::uint64_t> frame_bytes;
    double io_s = 0;
    std::exception_ptr error;
    try {
        std::vector<ConstFieldView> views;
        const auto* data = reinterpret_cast<const float*>(item->staging.data());
        for (const Shape& shape : item->shapes) {
            views.emplace_back(data, shape.rows, shape.cols, shape.plane_rows);
            data += shape.rows * shape.cols;
        }
        encoded =
            detail::encode_item(*codec, views, frame_pool, tiers[std::size_t(item->key.tier)].unchecked);
        for (const auto& frame : encoded.frames)
            frame_bytes.push_back(frame.size());
        if (!item->path.empty()) {
            const auto t0 = Clock::now();
            detail::write_frames(item->path, encoded.frames);
            io_s = seconds_since(t0);
            for (auto& frame : encoded.frames) // the file holds them now
                frame_pool.give(std::move(frame));
            encoded.frames.clear();
        }
    } catch (...) {
        error = std::current_exception();
    }
    std::unique_lock lock(mutex);
    Tier& tier = tiers[std::size_t(item->key.tier)];
    sub_bytes(tier, item->key, item->accounted_bytes); // the reservation goes back in full ...
    frame_pool.give(std::move(item->staging));
    item->staging = {};
    item->pending = false;
    --pending;
    if (error) {
        items.erase(tuple_of(item->key));
        --tier.stats.items;
        detail::remove_file(item->path);
        if (!async_error) async_error = error;
    } else {
        item->accounted_bytes = encoded.bytes; // ... and the real size is counted: the surplus is released
        add_bytes(tier, item->key, encoded.bytes);
        item->frame_bytes = std::move(frame_bytes);
        if (item->path.empty()) item->frames = std::move(encoded.frames);
        count_write(tier, *item, encoded.seconds, io_s);
    }
    update_pool_limit();
    item.reset(); // before anyone is woken: a freed item's memory must not outlive flush() on this thread
    lock.unlock();
    settled.notify_all();
}

CheckpointStore::CheckpointStore(std::vector<TierConfig> tiers, std::shared_ptr<const Codec> codec,
                                 int threads)
    : impl_(std::make_unique<Impl>()) {
    if (tiers.empty()) throw ConfigError("checkpoint store: no tiers");
    if (!codec) throw ConfigError("checkpoint store: no codec");
    if (threads < 0) throw ConfigError("checkpoint store: negative thread count " + std::to_string(threads));
    impl_->codec = std::move(codec);
    impl_->threads = threads;
    impl_->max_pending = 2 * threads;
    for (auto& config : tiers) {
        Tier tier;
        if (config.on_disk)
            tier.scratch = std::make_unique<detail::ScratchDirectory>(config.directory, config.name);
        tier.config = std::move(config);
        tier.unchecked = !tier.scratch && impl_->codec->name() == "none";
        impl_->tiers.push_back(std::move(tier)); // on a throw, earlier tiers' directories are removed
    }
    if (threads > 0) impl_->pool = std::make_unique<detail::WorkerPool>(threads);
}

CheckpointStore::~CheckpointStore() {
    impl_->pool.reset(); // running jobs finish, queued ones are dropped; then the scratch directories go
}

void CheckpointStore::put(const StoreKey& key, const std::vector<ConstFieldView>& fields) {
    Impl& s = *impl_;
    Tier& tier = s.tier_of(key.tier);
    std::uint64_t reserve = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto& f = fields[i];
        if (f.rows < 0 || f.cols < 0 || (f.size() > 0 && f.data == nullptr))
            throw ConfigError("checkpoint store: " + describe(key) + ": field " + std::to_string(i) +
                              " is not a valid view (" + std::to_string(f.rows) + "x" +
                              std::to_string(f.cols) + ")");
        reserve += s.codec->max_compressed_bytes(f.rows, f.cols);
    }
    std::unique_lock lock(s.mutex);
    s.check_async_error();
    if (s.threads == 0) return s.put_sync(lock, key, fields);

    // Back-pressure: bound the raw copies waiting in staging, then make this one outside the lock.
    s.settled.wait(lock, [&] { return s.pending < s.max_pending || s.async_error; });
    s.check_async_error();
    lock.unlock();
    std::vector<std::byte> staging = s.frame_pool.take(std::size_t(raw_bytes(fields)));
    for (const auto& f : fields) {
        const auto* bytes = reinterpret_cast<const std::byte*>(f.data);
        staging.insert(staging.end(), bytes, bytes + f.size() * std::int64_t(sizeof(float)));
    }
    lock.lock();
    s.check_async_error();

    auto old = s.settled_item(lock, key);
    if (!s.fits(tier, reserve, old ? old->accounted_bytes : 0)) {
        // Pending items still hold worst-case reservations: let them settle (the surplus comes back) and
        // retry.
        s.settled.wait(lock, [&] { return s.pending == 0; });
        s.check_async_error();
        old = s.settled_item(lock, key);
    }
    if (s.fits(tier, reserve, old ? old->accounted_bytes : 0)) {
        s.put_async(old, key, fields, std::move(staging), reserve);
    } else {
        s.frame_pool.give(std::move(staging));
        s.put_sync(lock, key, fields); // only the exact size can tell; no worker is busy now
    }
}

void CheckpointStore::get(const StoreKey& key, const std::vector<FieldView>& fields) {
    Impl& s = *impl_;
    Tier& tier = s.tier_of(key.tier);
    std::unique_lock lock(s.mutex);
    s.check_async_error();
    const auto item = s.settled_item(lock, key);
    s.check_async_error();
    if (!item) throw Error("checkpoint store: no " + describe(key) + " in tier '" + tier.config.name + "'");
    if (fields.size() != item->shapes.size())
        throw FormatError("checkpoint store: " + describe(key) + " holds " +
                          std::to_string(item->shapes.size()) + " fields, " + std::to_string(fields.size()) +
                          " requested");
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (Shape(fields[i]) != item->shapes[i])
            throw FormatError("checkpoint store: " + describe(key) + ": field " + std::to_string(i) + " is " +
                              item->shapes[i].text() + ", requested " + Shape(fields[i]).text());
    lock.unlock();
    double io_s = 0, decompress_s = 0;
    if (!item->path.empty()) {
        const auto t0 = Clock::now();
        const auto bytes = detail::read_file(item->path, item->accounted_bytes);
        io_s = seconds_since(t0);
        decompress_s = detail::decode_item(*s.codec, bytes, item->frame_bytes, fields);
    } else {
        decompress_s = detail::decode_item(*s.codec, item->frames, fields, tier.unchecked);
    }
    lock.lock();
    ++tier.stats.reads;
    tier.stats.decompress_seconds += decompress_s;
    if (key.kind == ItemKind::State) tier.stats.state_decompress_seconds += decompress_s;
    tier.stats.io_seconds += io_s;
}

void CheckpointStore::free(const StoreKey& key) {
    Impl& s = *impl_;
    s.tier_of(key.tier);
    std::unique_lock lock(s.mutex);
    if (const auto item = s.settled_item(lock, key)) s.release(item);
    s.update_pool_limit();
}

bool CheckpointStore::contains(const StoreKey& key) const {
    std::lock_guard lock(impl_->mutex);
    return impl_->items.count(tuple_of(key)) > 0;
}

void CheckpointStore::flush() {
    std::unique_lock lock(impl_->mutex);
    impl_->settled.wait(lock, [&] { return impl_->pending == 0; });
    impl_->check_async_error();
}

int CheckpointStore::tier_count() const {
    return int(impl_->tiers.size());
}

const TierConfig& CheckpointStore::tier(int t) const {
    return impl_->tier_of(t).config;
}

TierStats CheckpointStore::stats(int t) const {
    const Tier& tier = impl_->tier_of(t);
    std::lock_guard lock(impl_->mutex);
    return tier.stats;
}

std::uint64_t CheckpointStore::allocated_bytes(int t) const {
    impl_->tier_of(t);
    std::lock_guard lock(impl_->mutex);
    std::uint64_t bytes = 0;
    for (const auto& [key, item] : impl_->items) {
        if (std::get<0>(key) != t) continue;
        bytes += item->staging.capacity();
        for (const auto& frame : item->frames)
            bytes += frame.capacity();
        if (!item->pending && !item->path.empty()) {
            std::error_code ec;
            const auto size = std::filesystem::file_size(item->path, ec);
            if (!ec) bytes += size;
        }
    }
    return bytes;
}

std::uint64_t CheckpointStore::retained_bytes() const {
    return impl_->frame_pool.bytes();
}

std::string CheckpointStore::scratch_directory(int t) const {
    const Tier& tier = impl_->tier_of(t);
    return tier.scratch ? tier.scratch->path() : std::string();
}

const Codec& CheckpointStore::codec() const {
    return *impl_->codec;
}

int CheckpointStore::threads() const {
    return impl_->threads;
}

double CheckpointStore::compression_ratio() const {
    std::lock_guard lock(impl_->mutex);
    std::uint64_t raw = 0, stored = 0;
    for (const auto& tier : impl_->tiers) {
        raw += tier.stats.raw_bytes_written;
        stored += tier.stats.stored_bytes_written;
    }
    return stored == 0 ? 1.0 : double(raw) / double(stored);
}

} // namespace fwi
