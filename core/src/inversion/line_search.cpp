#include "inversion/line_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace fwi::inv {

double cubic_minimizer(double a, double fa, double ga, double b, double fb, double gb) {
    const double d1 = ga + gb - 3 * (fa - fb) / (a - b);
    const double disc = d1 * d1 - ga * gb;
    if (!(disc >= 0) || !std::isfinite(disc)) return std::numeric_limits<double>::quiet_NaN();
    const double d2 = std::copysign(std::sqrt(disc), b - a);
    const double denom = gb - ga + 2 * d2;
    if (denom == 0) return std::numeric_limits<double>::quiet_NaN();
    return b - (b - a) * (gb + d2 - d1) / denom;
}

namespace {

class Search {
  public:
    explicit Search(const LineSearchProblem& p) : p_(p) {}

    LineSearchOutcome run() {
        PathPoint prev;
        prev.step = 0;
        prev.value = p_.value0;
        prev.slope = p_.slope0;
        double a = p_.initial_step;
        for (int i = 1; budget_left(); ++i) {
            PathPoint cur = eval(a);
            if (!armijo(cur) || (i > 1 && cur.value >= prev.value))
                return zoom(std::move(prev), std::move(cur));
            if (curvature(cur)) return accept(std::move(cur), true);
            if (cur.slope >= 0) return zoom(std::move(cur), std::move(prev));
            // Still descending: extrapolate (cubic minimiser kept within [1.5 a, 4 a]).
            double next = cubic_minimizer(prev.step, prev.value, prev.slope, cur.step, cur.value, cur.slope);
            if (!std::isfinite(next) || next <= a) next = 4 * a;
            next = std::clamp(next, 1.5 * a, 4 * a);
            prev = std::move(cur);
            a = next;
        }
        return fallback();
    }

  private:
    bool budget_left() const { return out_.evaluations < p_.max_evaluations; }
    bool armijo(const PathPoint& q) const { return q.value <= p_.value0 + p_.c1 * q.step * p_.slope0; }
    bool curvature(const PathPoint& q) const { return std::abs(q.slope) <= p_.c2 * std::abs(p_.slope0); }

    PathPoint eval(double a) {
        if (p_.cancel) p_.cancel->checkpoint();
        PathPoint q = p_.evaluate(a);
        ++out_.evaluations;
        // A non-finite misfit (e.g. an unstable trial model) counts as "far too large": the search shrinks.
        if (!std::isfinite(q.value)) q.value = std::numeric_limits<double>::infinity();
        if (!std::isfinite(q.slope)) q.slope = 0;
        if (armijo(q) && (!best_ || q.value < best_->value)) best_ = q;
        return q;
    }

    LineSearchOutcome accept(PathPoint q, bool curv) {
        out_.found = true;
        out_.curvature = curv;
        out_.point = std::move(q);
        return std::move(out_);
    }

    /// lo has sufficient decrease and the lowest value seen between lo and hi; the interval holds a Wolfe
    /// point.
    LineSearchOutcome zoom(PathPoint lo, PathPoint hi) {
        while (budget_left()) {
            const double width = std::abs(hi.step - lo.step);
            if (width <= 1e-12 * std::max(lo.step, hi.step)) break;
            const double left = std::min(lo.step, hi.step) + 0.1 * width;
            const double right = std::max(lo.step, hi.step) - 0.1 * width;
            double a = std::isfinite(hi.value)
                           ? cubic_minimizer(lo.step, lo.value, lo.slope, hi.step, hi.value, hi.slope)
                           : std::numeric_limits<double>::quiet_NaN();
            if (!std::isfinite(a)) a = 0.5 * (lo.step + hi.step);
            a = std::clamp(a, left, right);
            PathPoint cur = eval(a);
            if (!armijo(cur) || cur.value >= lo.value) {
                hi = std::move(cur);
            } else {
                if (curvature(cur)) return accept(std::move(cur), true);
                if (cur.slope * (hi.step - lo.step) >= 0) hi = std::move(lo);
                lo = std::move(cur);
            }
        }
        return fallback();
    }

    LineSearchOutcome fallback() {
        if (best_) return accept(std::move(*best_), curvature(*best_));
        return std::move(out_);
    }

    const LineSearchProblem& p_;
    LineSearchOutcome out_;
    std::optional<PathPoint> best_;
};

} // namespace

LineSearchOutcome strong_wolfe_search(const LineSearchProblem& problem) {
    return Search(problem).run();
}

} // namespace fwi::inv
