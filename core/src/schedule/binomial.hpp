#pragma once
// Binomial checkpointing arithmetic (Griewank & Walther, ACM TOMS 2000). l = steps to reverse, s = slots, the
// state at the start of the range counts as one slot. All results are exact integers; intermediate binomials
// use 128-bit arithmetic and stop as soon as they pass l, so nothing overflows for l < 2^62.
#include <array>
#include <cstdint>
#include <vector>

namespace fwi::detail {

__extension__ typedef unsigned __int128 u128; // GCC/Clang; __extension__ keeps -Wpedantic quiet
__extension__ typedef __int128 i128;

/// r(l, s) = min { r >= 0 : C(s + r, s) >= l }: the repetition number (how often the worst step is recomputed
/// + 1 in the optimal schedule). r(1, s) = 0. Requires l >= 1, s >= 1.
std::int64_t repetition_number(std::int64_t l, std::int64_t s);

/// t(l, s) = r l - C(s + r, s + 1): the minimal number of Advance steps to reverse l steps with s slots when
/// each Reverse performs its own forward step. t(1, s) = 0; t(l, s) = l - 1 for s >= l - 1.
std::int64_t optimal_advance_steps(std::int64_t l, std::int64_t s);

/// r(m, s) for every m <= l_max by table lookup (O(log r) each instead of O(r)). Built for every split of
/// every range a schedule plans, so a table of up to 96 entries (s >= 2 and l_max up to 4,656, or s >= 3
/// and l_max up to 152,096) lives inside the object and allocates nothing. Not copyable.
class BinomialTable {
  public:
    BinomialTable(std::int64_t s, std::int64_t l_max); ///< s >= 1, l_max >= 1
    BinomialTable(const BinomialTable&) = delete;
    BinomialTable& operator=(const BinomialTable&) = delete;
    std::int64_t repetition_number(std::int64_t m) const; ///< 1 <= m <= l_max

  private:
    static constexpr std::size_t inline_entries = 96;
    // C(s + r, s) for r = 0, 1, ..., the last one capped at l_max: in inline_ while they fit, else in heap_.
    std::array<std::int64_t, inline_entries> inline_;
    std::vector<std::int64_t> heap_;
    const std::int64_t* beta_ = nullptr;
    std::size_t size_ = 0;
};

/// A first split j in [1, l-1] attaining t(l, s) = j + t(j, s) + t(l - j, s - 1). Requires l >= 2, s >= 2.
/// f(j) = j + t(j,s) + t(l-j,s-1) is convex in j with f(j+1) - f(j) = 1 + r(j+1, s) - r(l-j, s-1), so the
/// smallest j where that difference is >= 0 minimises f; it is found by bisection.
std::int64_t optimal_split(std::int64_t l, std::int64_t s);

/// The same when the right part [j, l) gets `s_right` slots instead of s - 1 (the adaptive schedule, whose
/// right part may keep every slot): a smallest j in [1, l-1] minimising j + t(j, s) + t(l - j, s_right). f is
/// convex for the same reason (f(j+1) - f(j) = 1 + r(j+1, s) - r(l-j, s_right)). Requires l >= 2, s >= 1,
/// s_right >= 1.
std::int64_t optimal_split(std::int64_t l, std::int64_t s, std::int64_t s_right);
/// The largest j attaining the same minimum: every j in [optimal_split, last_optimal_split] does (f is
/// convex, its increments are integers).
std::int64_t last_optimal_split(std::int64_t l, std::int64_t s, std::int64_t s_right);

} // namespace fwi::detail
