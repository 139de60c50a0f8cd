#include "engine/backend_state_storage.hpp"

#include "fwi/byte_text.hpp"
#include "fwi/error.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace fwi {
namespace {

class BackendStateStorage final : public WrappedItemStorage {
  public:
    BackendStateStorage(std::unique_ptr<ItemStorage> inner, std::unique_ptr<StateSlots> slots,
                        std::uint64_t budget_bytes)
        : WrappedItemStorage(std::move(inner)), slots_(std::move(slots)),
          held_(std::size_t(slots_->count()), false), budget_(budget_bytes) {}

    std::uint64_t put_state(const StoreKey& key, WaveState& state) override {
        if (!here(key)) return inner_->put_state(key, state);
        const std::size_t slot = slot_of(key);
        if (!held_[slot]) {
            const std::uint64_t after = tier0_bytes() + slots_->slot_bytes();
            if (budget_ != 0 && after > budget_) {
                const auto [need, budget] = compared_bytes(after, budget_);
                throw BudgetExceeded("storing a state in GPU memory would hold " + need +
                                     " of checkpoints; the memory budget is " + budget);
            }
        }
        slots_->save(state, std::int64_t(slot));
        held_[slot] = true;
        ++writes_;
        note_peak();
        return slots_->slot_bytes();
    }
    void get_state(const StoreKey& key, WaveState& state) override {
        if (!here(key)) return inner_->get_state(key, state);
        const std::size_t slot = slot_of(key);
        if (!held_[slot]) throw Error("state slot " + std::to_string(slot) + " is empty");
        slots_->load(std::int64_t(slot), state);
        ++reads_;
    }
    void put(const StoreKey& key, const std::vector<ConstFieldView>& fields) override {
        if (here(key)) throw Error("states kept in the backend's memory are stored with put_state");
        inner_->put(key, fields);
        note_peak();
    }
    void get(const StoreKey& key, const std::vector<FieldView>& fields) override {
        if (here(key)) throw Error("states kept in the backend's memory are restored with get_state");
        inner_->get(key, fields);
    }
    void free(const StoreKey& key) override {
        if (here(key))
            held_[slot_of(key)] = false;
        else
            inner_->free(key);
    }
    bool contains(const StoreKey& key) const override {
        return here(key) ? held_[slot_of(key)] : inner_->contains(key);
    }
    std::vector<std::uint64_t> bytes_in_use() const override {
        auto v = inner_->bytes_in_use();
        v.at(0) = tier0_bytes();
        return v;
    }
    std::vector<std::uint64_t> peak_bytes() const override {
        auto v = inner_->peak_bytes();
        v.at(0) = std::max(v.at(0), peak_);
        return v;
    }
    std::int64_t writes() const override { return inner_->writes() + writes_; }
    std::int64_t reads() const override { return inner_->reads() + reads_; }
    float* snapshot_slot(std::int64_t step) override {
        float* slot = inner_->snapshot_slot(step);
        note_peak();
        return slot;
    }

  private:
    static bool here(const StoreKey& key) { return key.kind == ItemKind::State && key.tier == 0; }
    std::size_t slot_of(const StoreKey& key) const {
        if (key.index < 0 || key.index >= slots_->count())
            throw Error("state slot " + std::to_string(key.index) + " is outside the " +
                        std::to_string(slots_->count()) + " slots kept in the backend's memory");
        return std::size_t(key.index);
    }
    std::uint64_t tier0_bytes() const {
        const auto held = std::uint64_t(std::count(held_.begin(), held_.end(), true));
        return inner_->bytes_in_use().at(0) + held * slots_->slot_bytes();
    }
    void note_peak() { peak_ = std::max(peak_, tier0_bytes()); }

    std::unique_ptr<StateSlots> slots_;
    std::vector<bool> held_;
    std::uint64_t budget_;
    std::uint64_t peak_ = 0;
    std::int64_t writes_ = 0, reads_ = 0;
};

} // namespace

std::unique_ptr<ItemStorage> keep_states_in_backend(std::unique_ptr<ItemStorage> inner,
                                                    std::unique_ptr<StateSlots> slots,
                                                    std::uint64_t budget_bytes) {
    return std::make_unique<BackendStateStorage>(std::move(inner), std::move(slots), budget_bytes);
}

} // namespace fwi
