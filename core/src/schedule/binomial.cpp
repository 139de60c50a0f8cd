#include "schedule/binomial.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <string>

namespace fwi::detail {

namespace {

[[noreturn, gnu::noinline, gnu::cold]] void not_positive(std::int64_t l, std::int64_t s, const char* what) {
    throw Error(std::string(what) + ": needs l >= 1 and s >= 1, got l = " + std::to_string(l) +
                ", s = " + std::to_string(s));
}

void require_positive(std::int64_t l, std::int64_t s, const char* what) {
    if (l < 1 || s < 1) not_positive(l, s, what);
}

/// Below this, the loops below run in 64 bits, on the CPU's own division instead of a 128-bit one in
/// software (planning a sweep spent a tenth of its time there): repetition_number's products always fit,
/// optimal_advance_steps' are checked.
constexpr std::int64_t narrow_limit = std::int64_t{1} << 30;

/// r(l, s) counted in the unsigned type U: beta = C(s + r, s), grown with C(s+r, s) = C(s+r-1, s) (s+r) / r
/// (exact division) until it reaches l.
template <class U> std::int64_t count_repetitions(std::int64_t l, std::int64_t s) {
    std::int64_t r = 0;
    U beta = 1;
    while (beta < static_cast<U>(l)) {
        ++r;
        beta = beta * static_cast<U>(s + r) / static_cast<U>(r);
    }
    return r;
}
} // namespace

std::int64_t repetition_number(std::int64_t l, std::int64_t s) {
    require_positive(l, s, "repetition_number");
    if (l < narrow_limit && s < narrow_limit)
        return count_repetitions<std::uint64_t>(l, s); // beta (s + r) < 2^61
    return count_repetitions<u128>(l, s);
}

std::int64_t optimal_advance_steps(std::int64_t l, std::int64_t s) {
    require_positive(l, s, "optimal_advance_steps");
    const std::int64_t r = repetition_number(l, s);
    if (r == 0) return 0;
    // C(s + r, s + 1) = C(s + r, r - 1) = prod_{i=1}^{r-1} (s + 1 + i) / i. It is <= r l, so it fits.
    if (l < narrow_limit && s < narrow_limit && r < narrow_limit) {
        // Each partial product is C(s + 1 + i, i) <= r l < 2^60 before it is multiplied by s + 1 + i < 2^31:
        // that can pass 64 bits (one slot over millions of steps), so the multiplication is checked and the
        // wide loop takes over where it does.
        std::uint64_t c = 1;
        std::int64_t i = 1;
        for (; i <= r - 1; ++i) {
            std::uint64_t wide;
            if (__builtin_mul_overflow(c, static_cast<std::uint64_t>(s + 1 + i), &wide)) break;
            c = wide / static_cast<std::uint64_t>(i);
        }
        if (i > r - 1) return r * l - static_cast<std::int64_t>(c);
    }
    u128 c = 1;
    for (std::int64_t i = 1; i <= r - 1; ++i)
        c = c * static_cast<u128>(s + 1 + i) / static_cast<u128>(i);
    return static_cast<std::int64_t>(static_cast<u128>(r) * static_cast<u128>(l) - c);
}

BinomialTable::BinomialTable(std::int64_t s, std::int64_t l_max) {
    // beta[r] = C(s + r, s) for r = 0, 1, ... up to the first value >= l_max.
    const auto append = [&](std::int64_t value) {
        if (size_ < inline_entries) {
            inline_[size_++] = value;
            return;
        }
        if (heap_.empty()) heap_.assign(inline_.begin(), inline_.end());
        heap_.push_back(value);
        ++size_;
    };
    u128 beta = 1;
    std::int64_t r = 0;
    append(static_cast<std::int64_t>(beta));
    while (beta < static_cast<u128>(l_max)) {
        ++r;
        beta = beta * static_cast<u128>(s + r) / static_cast<u128>(r);
        append(beta >= static_cast<u128>(l_max) ? l_max : static_cast<std::int64_t>(beta));
    }
    beta_ = heap_.empty() ? inline_.data() : heap_.data();
}

std::int64_t BinomialTable::repetition_number(std::int64_t l) const {
    return std::lower_bound(beta_, beta_ + size_, l) - beta_;
}

std::int64_t optimal_split(std::int64_t l, std::int64_t s) {
    if (l < 2 || s < 2)
        throw Error("optimal_split: needs l >= 2 and s >= 2, got l = " + std::to_string(l) +
                    ", s = " + std::to_string(s));
    return optimal_split(l, s, s - 1);
}

namespace {
/// The smallest j in [1, l-1] with f(j+1) - f(j) >= threshold (l-1 if none), f as in optimal_split.
std::int64_t first_rise(std::int64_t l, std::int64_t s, std::int64_t s_right, std::int64_t threshold) {
    if (l < 2 || s < 1 || s_right < 1)
        throw Error("optimal_split: needs l >= 2, s >= 1 and s_right >= 1, got l = " + std::to_string(l) +
                    ", s = " + std::to_string(s) + ", s_right = " + std::to_string(s_right));
    const BinomialTable left(s, l), right(s_right, l);
    auto rises = [&](std::int64_t j) { // f(j+1) - f(j) >= threshold, for j in [1, l-2]
        return 1 + left.repetition_number(j + 1) - right.repetition_number(l - j) >= threshold;
    };
    std::int64_t lo = 1, hi = l - 1; // answer in [lo, hi]; hi = l-1 when f decreases all the way
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (rises(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}
} // namespace

std::int64_t optimal_split(std::int64_t l, std::int64_t s, std::int64_t s_right) {
    return first_rise(l, s, s_right, 0);
}

std::int64_t last_optimal_split(std::int64_t l, std::int64_t s, std::int64_t s_right) {
    return first_rise(l, s, s_right, 1);
}

} // namespace fwi::detail
