// States kept in a backend's memory (a GPU's state slots): stored and restored through the slots, never
// through the host store; the memory budget is checked before a slot is filled; the accounting (bytes per
// tier, peak, writes, reads) counts them as tier-0 states; an empty or unknown slot is an error.
#include "engine/backend_state_storage.hpp"
#include "fwi/checkpoint_store.hpp"
#include "fwi/error.hpp"

#include <QtTest>

using namespace fwi;

namespace {

struct FakeSlots final : StateSlots {
    std::vector<std::int64_t>* saved;
    std::vector<std::int64_t>* loaded;
    FakeSlots(std::vector<std::int64_t>& s, std::vector<std::int64_t>& l) : saved(&s), loaded(&l) {}
    std::int64_t count() const override { return 4; }
    std::uint64_t slot_bytes() const override { return 100; }
    void save(const WaveState&, std::int64_t slot) override { saved->push_back(slot); }
    void load(std::int64_t slot, WaveState&) override { loaded->push_back(slot); }
};

struct NoFields final : WaveState {
    std::vector<FieldView> fields() override { return {}; }
};

StoreKey state(std::int64_t slot) {
    return {ItemKind::State, 0, slot};
}

} // namespace

class TestBackendStateStorage : public QObject {
    Q_OBJECT
  private slots:
    void states_go_to_the_slots_under_the_budget() {
        std::vector<std::int64_t> saved, loaded;
        GradientSettings settings;
        settings.budget_bytes = 350;
        auto storage = keep_states_in_backend(make_item_storage(settings, 1),
                                              std::make_unique<FakeSlots>(saved, loaded), 350);
        NoFields s;
        for (std::int64_t slot : {0, 1, 2})
            QCOMPARE(storage->put_state(state(slot), s), std::uint64_t(100));
        QCOMPARE(saved, (std::vector<std::int64_t>{0, 1, 2}));
        QCOMPARE(storage->bytes_in_use().at(0), std::uint64_t(300));
        // A fourth would hold 400 bytes: refused before anything is copied.
        QVERIFY_THROWS_EXCEPTION(BudgetExceeded, storage->put_state(state(3), s));
        QCOMPARE(saved.size(), std::size_t(3));
        QVERIFY(!storage->contains(state(3)));
        // Storing into a held slot again replaces it: no new bytes, no budget check.
        storage->put_state(state(2), s);
        QCOMPARE(storage->bytes_in_use().at(0), std::uint64_t(300));
        storage->free(state(1));
        QVERIFY(!storage->contains(state(1)));
        storage->put_state(state(3), s);
        storage->get_state(state(3), s);
        QCOMPARE(loaded, (std::vector<std::int64_t>{3}));
        QCOMPARE(storage->writes(), std::int64_t(5));
        QCOMPARE(storage->reads(), std::int64_t(1));
        QCOMPARE(storage->peak_bytes().at(0), std::uint64_t(300));
        // An empty slot, a slot the backend does not have, and host views of a backend state: errors.
        QVERIFY_THROWS_EXCEPTION(Error, storage->get_state(state(1), s));
        QVERIFY_THROWS_EXCEPTION(Error, storage->put_state(state(9), s));
        QVERIFY_THROWS_EXCEPTION(Error, storage->put(state(0), {}));
    }
};

QTEST_APPLESS_MAIN(TestBackendStateStorage)
#include "tst_backend_state_storage.moc"
