#pragma once
// Strong Wolfe line search (Nocedal & Wright, Numerical Optimization, 2nd ed., Algorithms 3.5 and 3.6) on a
// scalar function phi(a) given by an evaluation callback, with safeguarded cubic interpolation.
#include "fwi/events.hpp"

#include <functional>
#include <vector>

namespace fwi::inv {

/// phi and phi' at a step, with the point and gradient that produced them (kept so that the accepted point
/// needs no second evaluation).
struct PathPoint {
    double step = 0;
    double value = 0;
    double slope = 0;
    std::vector<float> x, grad;
};

struct LineSearchProblem {
    std::function<PathPoint(double step)> evaluate;
    double value0 = 0;
    double slope0 = 0; ///< must be < 0
    double c1 = 1e-4, c2 = 0.9;
    double initial_step = 1;
    int max_evaluations = 10;
    const CancelToken* cancel = nullptr; ///< polled before every evaluation
};

struct LineSearchOutcome {
    bool found = false;     ///< a point with sufficient decrease was accepted
    bool curvature = false; ///< it also satisfies the strong curvature condition
    PathPoint point;
    int evaluations = 0;
};

/// Returns the first point satisfying both strong Wolfe conditions; when the evaluation budget runs out, the
/// best point with sufficient decrease (curvature = false); found = false when there is none.
LineSearchOutcome strong_wolfe_search(const LineSearchProblem& problem);

/// Minimiser of the cubic through (a, fa, ga) and (b, fb, gb); NaN when it has none.
double cubic_minimizer(double a, double fa, double ga, double b, double fb, double gb);

} // namespace fwi::inv
