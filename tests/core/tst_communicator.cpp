// The shot split over ranks and the shot-ordered reduction (communicator.hpp), with "ranks" that are threads
// exchanging bytes through shared memory: any number of ranks must give the single process's sum bit for bit.
#include "fwi/communicator.hpp"
#include "fwi/error.hpp"

#include <QtTest>

#include <barrier>
#include <cstring>
#include <random>
#include <thread>

using namespace fwi;

namespace {

// n ranks as n threads: every collective is a write to a shared slot between two barrier phases.
struct SharedRanks {
    explicit SharedRanks(int n) : size(n), sync(n), buffers(std::size_t(n)) {}
    int size;
    std::barrier<> sync;
    std::vector<std::vector<std::byte>> buffers;
};

class ThreadCommunicator final : public Communicator {
  public:
    ThreadCommunicator(SharedRanks& shared, int rank) : s_(shared), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return s_.size; }
    std::vector<std::vector<std::byte>> gather(std::span<const std::byte> mine) override {
        s_.buffers[std::size_t(rank_)].assign(mine.begin(), mine.end());
        s_.sync.arrive_and_wait();
        std::vector<std::vector<std::byte>> out;
        if (rank_ == 0) out = s_.buffers;
        s_.sync.arrive_and_wait();
        return out;
    }
    void broadcast(std::vector<std::byte>& bytes) override {
        if (rank_ == 0) s_.buffers[0] = bytes;
        s_.sync.arrive_and_wait();
        if (rank_ != 0) bytes = s_.buffers[0];
        s_.sync.arrive_and_wait();
    }
    void barrier() override { s_.sync.arrive_and_wait(); }
    bool any(bool) override { return false; }
    [[noreturn]] void abort(int) override { std::abort(); }

  private:
    SharedRanks& s_;
    int rank_;
};

// Gradients with values over many magnitudes, so that the order of float additions shows in the bits.
std::vector<ShotContribution> shot_contributions(int shots, std::size_t cells) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> mantissa(-1, 1);
    std::uniform_int_distribution<int> exponent(-12, 12);
    std::vector<ShotContribution> all;
    for (int s = 0; s < shots; ++s) {
        ShotContribution c{s, 0.1 * (s + 1) * mantissa(rng), std::vector<float>(cells)};
        for (float& g : c.gradient)
            g = std::ldexp(mantissa(rng), exponent(rng));
        all.push_back(std::move(c));
    }
    return all;
}

ShotSum in_order(const std::vector<ShotContribution>& all, std::size_t cells) {
    ShotSum sum{0, std::vector<float>(cells, 0.0f)};
    for (const auto& c : all)
        add_shot_contribution(sum, c);
    return sum;
}

bool same_bits(const ShotSum& a, const ShotSum& b) {
    return std::memcmp(&a.misfit, &b.misfit, sizeof a.misfit) == 0 &&
           a.gradient.size() == b.gradient.size() &&
           std::memcmp(a.gradient.data(), b.gradient.data(), a.gradient.size() * sizeof(float)) == 0;
}

} // namespace

class TestCommunicator : public QObject {
    Q_OBJECT
  private slots:
    void equal_costs_split_evenly_in_contiguous_blocks() {
        QCOMPARE(split_shots_by_cost(std::vector<double>(6, 3.0), 3), (std::vector<int>{0, 0, 1, 1, 2, 2}));
        QCOMPARE(split_shots_by_cost(std::vector<double>(7, 1.0), 2),
                 (std::vector<int>{0, 0, 0, 1, 1, 1, 1}));
        QCOMPARE(split_shots_by_cost(std::vector<double>(4, 1.0), 1), (std::vector<int>{0, 0, 0, 0}));
        QCOMPARE(split_shots_by_cost(std::vector<double>(5, 0.0), 5), (std::vector<int>{0, 1, 2, 3, 4}));
    }

    void unequal_costs_balance_the_load() {
        // One shot as expensive as the other six together: it gets a rank to itself.
        const std::vector<double> costs{6, 1, 1, 1, 1, 1, 1};
        QCOMPARE(split_shots_by_cost(costs, 2), (std::vector<int>{0, 1, 1, 1, 1, 1, 1}));
    }

    void more_ranks_than_shots_leaves_ranks_idle() {
        const auto owner = split_shots_by_cost(std::vector<double>(2, 1.0), 5);
        QCOMPARE(owner.size(), std::size_t(2));
        QVERIFY(owner[0] < owner[1]);
        QVERIFY(owner[1] < 5);
        QVERIFY(split_shots_by_cost({}, 3).empty());
        QVERIFY_THROWS_EXCEPTION(ConfigError, split_shots_by_cost({1.0}, 0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, split_shots_by_cost({-1.0}, 2));
    }

    void serial_reduction_is_the_in_order_sum() {
        const std::size_t cells = 500;
        const auto all = shot_contributions(5, cells);
        SerialCommunicator alone;
        auto reversed = all; // contributions may be handed over in any order: position decides
        std::reverse(reversed.begin(), reversed.end());
        const ShotSum r = reduce_in_shot_order(alone, reversed, ShotSum{0, std::vector<float>(cells, 0.0f)});
        QVERIFY(same_bits(r, in_order(all, cells)));
    }

    void any_number_of_ranks_gives_the_same_bits() {
        const std::size_t cells = 2000;
        const int shots = 7;
        const auto all = shot_contributions(shots, cells);
        const ShotSum expected = in_order(all, cells);
        // Non-vacuity: another order (each half summed, then the halves) gives other bits on this data.
        ShotSum first{0, std::vector<float>(cells, 0.0f)}, second = first;
        for (int s = 0; s < shots; ++s)
            add_shot_contribution(s < 4 ? first : second, all[std::size_t(s)]);
        add_shot_contribution(first, ShotContribution{0, second.misfit, second.gradient});
        QVERIFY(!same_bits(first, expected));

        for (int ranks : {1, 2, 3, 5, 9}) {
            const auto owner = split_shots_by_cost(std::vector<double>(shots, 1.0), ranks);
            SharedRanks shared(ranks);
            std::vector<ShotSum> results{std::size_t(ranks)};
            std::vector<std::thread> threads;
            for (int r = 0; r < ranks; ++r)
                threads.emplace_back([&, r] {
                    ThreadCommunicator comm(shared, r);
                    std::vector<ShotContribution> mine;
                    for (int s = 0; s < shots; ++s)
                        if (owner[std::size_t(s)] == r) mine.push_back(all[std::size_t(s)]);
                    results[std::size_t(r)] =
                        reduce_in_shot_order(comm, mine, ShotSum{0, std::vector<float>(cells, 0.0f)});
                });
            for (auto& t : threads)
                t.join();
            for (int r = 0; r < ranks; ++r)
                QVERIFY2(same_bits(results[std::size_t(r)], expected),
                         qPrintable(QString("rank %1 of %2").arg(r).arg(ranks)));
        }
    }

    void mismatched_sizes_are_refused() {
        ShotSum sum{0, std::vector<float>(3, 0.0f)};
        QVERIFY_THROWS_EXCEPTION(ConfigError, add_shot_contribution(sum, ShotContribution{0, 1.0, {1.0f}}));
    }
};

QTEST_GUILESS_MAIN(TestCommunicator)
#include "tst_communicator.moc"
