#pragma once
// Gradient-based minimisation with bound constraints, on a generic objective so that it is testable on
// analytic functions (Rosenbrock, quadratics) as well as on the FWI misfit.
//
// Methods: L-BFGS (default), nonlinear conjugate gradients (Polak-Ribiere+), gradient descent; each with an
// optional symmetric positive semi-definite preconditioner C (for L-BFGS: the initial inverse Hessian gamma *
// C).
//
// Bounds (lower <= x <= upper, the same for every variable): a PROJECTED active-set scheme, not L-BFGS-B's
// Cauchy point. At x the active set is {i : x_i at a bound and -g_i pointing outward}; the direction is
// computed from the gradient with active components zeroed and then has its active components zeroed. Trial
// points are the projection x(a) = P[x + a d] onto the box, and the line search enforces the strong Wolfe
// conditions on phi(a) = J(x(a)), with phi'(a) the derivative along that projected path (sum of g_i d_i over
// the components not clamped at a). Curvature pairs (s, y) are kept only when s.y > eps y.y. A direction that
// is not a descent direction, or a line search that finds no sufficient decrease, drops the memory and
// retries once along -C g.
//
// Step length: on the first iteration and after every memory reset the first trial step is scaled so that
// max |x(a) - x| = first_step_fraction * step_reference; later L-BFGS iterations try a = 1 first, CG and
// gradient descent a_prev * (g_prev.d_prev) / (g.d) (Nocedal & Wright eq. 3.60).
//
// Arithmetic is double inside; x and gradients are float32 at the interface (the model's type).
#include "fwi/events.hpp"

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace fwi {

/// J(x); writes dJ/dx into grad (resized by the callee to x.size()). May throw (e.g. Cancelled): the
/// optimizer then stays at its last completed iteration.
using ObjectiveFunction = std::function<double(const std::vector<float>& x, std::vector<float>& grad)>;
/// Applies a symmetric positive semi-definite C in place (an approximate inverse Hessian, up to scale).
/// Components that C maps to zero never move (that is how masks freeze cells).
using Preconditioner = std::function<void(std::vector<double>& v)>;
/// Everything needed to resume bit for bit; the project file stores exactly this type
/// (Project::optimizer_state).
using OptimizerState = std::map<std::string, std::vector<double>>;

enum class OptimizerMethod { Lbfgs, ConjugateGradient, GradientDescent };
/// "lbfgs" | "cg" | "gd" (also "l-bfgs", "nlcg", "steepest-descent"); ConfigError naming the text otherwise.
OptimizerMethod parse_optimizer_method(const std::string& name);
const char* to_string(OptimizerMethod method);

struct OptimizerOptions {
    OptimizerMethod method = OptimizerMethod::Lbfgs;
    int memory = 5; ///< L-BFGS correction pairs
    double lower_bound = -std::numeric_limits<double>::infinity();
    double upper_bound = std::numeric_limits<double>::infinity();
    double first_step_fraction = 0.01; ///< first trial max |dx| as a fraction of step_reference
    double step_reference = 0;         ///< 0: upper - lower when both are finite, else max |x|, else 1
    double c1 = 1e-4;                  ///< sufficient decrease (Armijo)
    double c2 = 0;                     ///< strong Wolfe curvature; 0 = 0.9 (L-BFGS, GD) or 0.1 (CG)
    int max_evaluations_per_search = 10;
    Preconditioner preconditioner; ///< empty = identity
};

/// What the line search of one iteration accepted: enough to check the Wolfe conditions from outside.
struct LineSearchReport {
    double step = 0;   ///< accepted a
    double value0 = 0; ///< phi(0) = J(x)
    double slope0 = 0; ///< phi'(0) = g.d (< 0)
    double value = 0;  ///< phi(step)
    double slope = 0;  ///< phi'(step) along the projected path
    int evaluations = 0;
    bool sufficient_decrease = false; ///< value <= value0 + c1 step slope0
    bool curvature = false;           ///< |slope| <= c2 |slope0|
    double max_abs_update = 0;        ///< max_i |x_i(step) - x_i|
};

enum class StopReason {
    None,
    MaxIterations,
    SmallDecrease,
    TargetReached,
    Stationary,
    LineSearchFailed,
    Cancelled
};
const char* to_string(StopReason reason);

struct OptimizerIteration {
    int iteration = 0;       ///< iterations completed, this one included
    double value_before = 0; ///< J at the start of the iteration
    double value = 0;        ///< J at the accepted point
    LineSearchReport line_search;
    bool restarted = false; ///< the memory was dropped during this iteration
    int evaluations = 0; ///< objective evaluations in this iteration (a re-evaluation of the start included)
    /// None: a step was taken. Stationary: the projected gradient is zero. LineSearchFailed: no decrease even
    /// along -C g; x is unchanged in both cases.
    StopReason stop = StopReason::None;
};

class Optimizer {
  public:
    /// x0 must lie inside the bounds (it is projected onto them). ConfigError for empty x0, bad bounds or
    /// options.
    Optimizer(ObjectiveFunction objective, std::vector<float> x0, OptimizerOptions options);
    /// Resumes from save_state(); ConfigError naming the key at fault for a malformed state or one saved with
    /// another method. The options (bounds, preconditioner) are not part of the state: pass the same ones.
    static Optimizer resume(ObjectiveFunction objective, const OptimizerState& state,
                            OptimizerOptions options);

    /// One iteration: evaluates J at x first if needed, then direction and line search. Throws what the
    /// objective throws (Cancelled included), or Cancelled when `cancel` is set between evaluations; the
    /// state then stays at the last completed iteration.
    OptimizerIteration iterate(const CancelToken* cancel = nullptr);
    /// The objective changed (a new frequency stage, another shot subset): J and g at x are evaluated again
    /// before the next step. keep_memory = false also drops the curvature pairs and the CG direction.
    void objective_changed(bool keep_memory);
    /// Evaluates J and g at x if they are not known.
    void evaluate();

    OptimizerState save_state() const;
    const std::vector<float>& x() const { return x_; }
    double value() const { return value_; }                      ///< NaN until evaluated
    const std::vector<float>& gradient() const { return grad_; } ///< empty until evaluated
    bool evaluated() const { return evaluated_; }
    int iterations() const { return iterations_; }
    int evaluations() const { return evaluations_; }
    int memory_pairs() const { return int(s_.size()); }
    const OptimizerOptions& options() const { return options_; }

  private:
    Optimizer(ObjectiveFunction objective, OptimizerOptions options);
    std::vector<double> direction(const std::vector<double>& free_grad, bool steepest) const;
    std::vector<double> free_gradient() const;
    void precondition(std::vector<double>& v) const;
    double first_step(const std::vector<double>& d, bool fresh, double slope0) const;
    void update_memory(const std::vector<float>& x_new, const std::vector<float>& g_new);
    void check_options() const;
    void drop_memory();
    void restore(const OptimizerState& state);

    ObjectiveFunction objective_;
    OptimizerOptions options_;
    std::vector<float> x_, grad_;
    double value_ = std::numeric_limits<double>::quiet_NaN();
    bool evaluated_ = false;
    int iterations_ = 0, evaluations_ = 0;
    std::vector<std::vector<double>> s_, y_; ///< L-BFGS pairs, oldest first
    std::vector<double> prev_direction_;     ///< CG: d of the last iteration; GD/CG: for the initial step
    std::vector<double> prev_grad_;          ///< CG: C-weighted Polak-Ribiere needs g_prev
    double prev_step_ = 0, prev_slope_ = 0;  ///< a and g.d of the last iteration (0 after a reset)
};

/// When minimize() stops. Zero disables a criterion.
struct StopCriteria {
    int max_iterations = 100;
    double min_relative_decrease = 0; ///< stop after an iteration with (J_before - J) / |J_before| below this
    double target_relative_value = 0; ///< stop once J <= this * J(x0)
};

struct MinimizeResult {
    std::vector<float> x;
    double value = 0;
    double initial_value = 0;
    int iterations = 0;
    int evaluations = 0;
    StopReason reason = StopReason::None;
    std::vector<OptimizerIteration> history;
};

/// Runs an Optimizer until a criterion holds. Cancellation ends the run with reason Cancelled and the last
/// completed iterate (no exception).
MinimizeResult minimize(ObjectiveFunction objective, std::vector<float> x0, const OptimizerOptions& options,
                        const StopCriteria& stop, const CancelToken* cancel = nullptr,
                        const std::function<void(const OptimizerIteration&)>& on_iteration = {});

} // namespace fwi
