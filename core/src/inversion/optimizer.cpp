#include "fwi/optimizer.hpp"

#include "fwi/error.hpp"
#include "inversion/line_search.hpp"

#include <algorithm>
#include <cmath>

namespace fwi {
namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}

double max_abs(const std::vector<double>& v) {
    double m = 0;
    for (double x : v)
        m = std::max(m, std::abs(x));
    return m;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

} // namespace

OptimizerMethod parse_optimizer_method(const std::string& name) {
    const std::string n = lower(name);
    if (n == "lbfgs" || n == "l-bfgs") return OptimizerMethod::Lbfgs;
    if (n == "cg" || n == "nlcg" || n == "conjugate-gradient") return OptimizerMethod::ConjugateGradient;
    if (n == "gd" || n == "steepest-descent" || n == "gradient-descent")
        return OptimizerMethod::GradientDescent;
    throw ConfigError("optimizer '" + name + "' is unknown (use lbfgs, cg or gd)");
}

const char* to_string(OptimizerMethod m) {
    switch (m) {
    case OptimizerMethod::Lbfgs:
        return "lbfgs";
    case OptimizerMethod::ConjugateGradient:
        return "cg";
    case OptimizerMethod::GradientDescent:
        return "gd";
    }
    return "unknown";
}

const char* to_string(StopReason r) {
    switch (r) {
    case StopReason::None:
        return "none";
    case StopReason::MaxIterations:
        return "max_iterations";
    case StopReason::SmallDecrease:
        return "small_decrease";
    case StopReason::TargetReached:
        return "target_reached";
    case StopReason::Stationary:
        return "stationary";
    case StopReason::LineSearchFailed:
        return "line_search_failed";
    case StopReason::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

Optimizer::Optimizer(ObjectiveFunction objective, std::vector<float> x0, OptimizerOptions options)
    : objective_(std::move(objective)), options_(std::move(options)), x_(std::move(x0)) {
    check_options();
    if (x_.empty()) throw ConfigError("optimizer: the start point has no variables");
    for (std::size_t i = 0; i < x_.size(); ++i) {
        if (!std::isfinite(x_[i]))
            throw ConfigError("optimizer: start point variable " + std::to_string(i) + " is not finite");
        x_[i] = float(std::clamp(double(x_[i]), options_.lower_bound, options_.upper_bound));
    }
}

void Optimizer::check_options() const {
    const auto& o = options_;
    if (!(o.lower_bound < o.upper_bound))
        throw ConfigError("optimizer: lower bound " + std::to_string(o.lower_bound) +
                          " is not below upper bound " + std::to_string(o.upper_bound));
    if (o.memory < 1 || o.memory > 1000)
        throw ConfigError("optimizer: memory " + std::to_string(o.memory) + " not in 1..1000");
    if (!(o.first_step_fraction > 0) || !std::isfinite(o.first_step_fraction))
        throw ConfigError("optimizer: first step fraction must be positive");
    if (!(o.c1 > 0) || !(o.c1 < 0.5)) throw ConfigError("optimizer: c1 must be in (0, 0.5)");
    if (o.c2 != 0 && (!(o.c2 > o.c1) || !(o.c2 < 1))) throw ConfigError("optimizer: c2 must be in (c1, 1)");
    if (o.max_evaluations_per_search < 1)
        throw ConfigError("optimizer: max evaluations per search must be >= 1");
    if (!(o.step_reference >= 0)) throw ConfigError("optimizer: step reference must be >= 0");
}

void Optimizer::evaluate() {
    if (evaluated_) return;
    std::vector<float> g;
    const double v = objective_(x_, g);
    ++evaluations_;
    if (g.size() != x_.size())
        throw Error("objective returned a gradient of " + std::to_string(g.size()) + " values for " +
                    std::to_string(x_.size()) + " variables");
    if (!std::isfinite(v)) throw ConfigError("the objective is not finite at the current point");
    value_ = v;
    grad_ = std::move(g);
    evaluated_ = true;
}

void Optimizer::objective_changed(bool keep_memory) {
    evaluated_ = false;
    value_ = std::numeric_limits<double>::quiet_NaN();
    grad_.clear();
    if (!keep_memory) drop_memory();
}

void Optimizer::drop_memory() {
    s_.clear();
    y_.clear();
    prev_direction_.clear();
    prev_grad_.clear();
    prev_step_ = prev_slope_ = 0;
}

void Optimizer::precondition(std::vector<double>& v) const {
    if (options_.preconditioner) {
        const std::size_t n = v.size();
        options_.preconditioner(v);
        if (v.size() != n) throw Error("the preconditioner changed the vector's size");
    }
}

std::vector<double> Optimizer::free_gradient() const {
    std::vector<double> g(grad_.size());
    for (std::size_t i = 0; i < g.size(); ++i) {
        const double gi = grad_[i];
        const bool at_lower = x_[i] <= options_.lower_bound && gi > 0;
        const bool at_upper = x_[i] >= options_.upper_bound && gi < 0;
        g[i] = (at_lower || at_upper) ? 0.0 : gi;
    }
    return g;
}

std::vector<double> Optimizer::direction(const std::vector<double>& fg, bool steepest) const {
    std::vector<double> d = fg;
    const auto method = options_.method;
    if (steepest || method == OptimizerMethod::GradientDescent ||
        (method == OptimizerMethod::Lbfgs && s_.empty()) ||
        (method == OptimizerMethod::ConjugateGradient && prev_direction_.empty())) {
        precondition(d);
        for (double& v : d)
            v = -v;
    } else if (method == OptimizerMethod::Lbfgs) {
        // Two-loop recursion with H0 = gamma C, gamma = s.y / y.C y of the newest pair.
        const std::size_t m = s_.size();
        std::vector<double> alpha(m), rho(m);
        for (std::size_t k = m; k-- > 0;) {
            rho[k] = 1.0 / dot(s_[k], y_[k]);
            alpha[k] = rho[k] * dot(s_[k], d);
            for (std::size_t i = 0; i < d.size(); ++i)
                d[i] -= alpha[k] * y_[k][i];
        }
        std::vector<double> cy = y_.back();
        precondition(cy);
        const double ycy = dot(y_.back(), cy);
        const double gamma = ycy > 0 ? dot(s_.back(), y_.back()) / ycy : 1.0;
        precondition(d);
        for (double& v : d)
            v *= gamma;
        for (std::size_t k = 0; k < m; ++k) {
            const double beta = rho[k] * dot(y_[k], d);
            for (std::size_t i = 0; i < d.size(); ++i)
                d[i] += s_[k][i] * (alpha[k] - beta);
        }
        for (double& v : d)
            v = -v;
    } else {
        // Preconditioned Polak-Ribiere+: beta = max(0, (C g).(g - g_prev) / (C g_prev).g_prev).
        std::vector<double> cg = fg, cgp = prev_grad_;
        precondition(cg);
        precondition(cgp);
        double num = 0;
        for (std::size_t i = 0; i < fg.size(); ++i)
            num += cg[i] * (fg[i] - prev_grad_[i]);
        const double den = dot(cgp, prev_grad_);
        const double beta = den > 0 ? std::max(0.0, num / den) : 0.0;
        for (std::size_t i = 0; i < d.size(); ++i)
            d[i] = -cg[i] + beta * prev_direction_[i];
    }
    // Components pointing out of the box from a variable at its bound cannot move: the projected path is flat
    // there.
    for (std::size_t i = 0; i < d.size(); ++i)
        if ((x_[i] <= options_.lower_bound && d[i] < 0) || (x_[i] >= options_.upper_bound && d[i] > 0))
            d[i] = 0;
    return d;
}

double Optimizer::first_step(const std::vector<double>& d, bool fresh, double slope0) const {
    if (!fresh) {
        if (options_.method == OptimizerMethod::Lbfgs) return 1.0;
        if (prev_step_ > 0 && prev_slope_ < 0) return prev_step_ * prev_slope_ / slope0;
    }
    double ref = options_.step_reference;
    if (!(ref > 0) && std::isfinite(options_.lower_bound) && std::isfinite(options_.upper_bound))
        ref = options_.upper_bound - options_.lower_bound;
    if (!(ref > 0))
        for (float v : x_)
            ref = std::max(ref, double(std::abs(v)));
    if (!(ref > 0)) ref = 1;
    return options_.first_step_fraction * ref / max_abs(d);
}

void Optimizer::update_memory(const std::vector<float>& x_new, const std::vector<float>& g_new) {
    if (options_.method != OptimizerMethod::Lbfgs) return;
    std::vector<double> s(x_.size()), y(x_.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        s[i] = double(x_new[i]) - double(x_[i]);
        y[i] = double(g_new[i]) - double(grad_[i]);
    }
    const double sy = dot(s, y), yy = dot(y, y);
    if (!(sy > 2.2e-16 * yy) || !(yy > 0)) return; // no positive curvature along s: skip the pair
    s_.push_back(std::move(s));
    y_.push_back(std::move(y));
    if (int(s_.size()) > options_.memory) {
        s_.erase(s_.begin());
        y_.erase(y_.begin());
    }
}

OptimizerIteration Optimizer::iterate(const CancelToken* cancel) {
    OptimizerIteration it;
    const int evaluations_before = evaluations_;
    if (cancel) cancel->checkpoint();
    evaluate();
    it.value_before = value_;
    it.value = value_;
    const std::vector<double> fg = free_gradient();
    if (max_abs(fg) == 0) {
        it.stop = StopReason::Stationary;
        it.iteration = iterations_;
        it.evaluations = evaluations_ - evaluations_before;
        return it;
    }
    const double c2 =
        options_.c2 > 0 ? options_.c2 : (options_.method == OptimizerMethod::ConjugateGradient ? 0.1 : 0.9);
    for (int attempt = 0; attempt < 2; ++attempt) {
        const bool steepest = attempt == 1;
        const bool fresh = steepest || (options_.method == OptimizerMethod::Lbfgs && s_.empty()) ||
                           (options_.method != OptimizerMethod::Lbfgs && !(prev_step_ > 0));
        const std::vector<double> d = direction(fg, steepest);
        double slope0 = 0;
        for (std::size_t i = 0; i < d.size(); ++i)
            slope0 += double(grad_[i]) * d[i];
        if (!(slope0 < 0)) {
            if (attempt == 0) {
                drop_memory(); // J and g at x stay valid
                it.restarted = true;
                continue;
            }
            it.stop =
                StopReason::Stationary; // even -C g is no descent direction (everything masked or active)
            break;
        }
        inv::LineSearchProblem p;
        p.value0 = value_;
        p.slope0 = slope0;
        p.c1 = options_.c1;
        p.c2 = c2;
        p.initial_step = first_step(d, fresh, slope0);
        p.max_evaluations = options_.max_evaluations_per_search;
        p.cancel = cancel;
        p.evaluate = [&](double a) {
            inv::PathPoint q;
            q.step = a;
            q.x.resize(x_.size());
            std::vector<bool> moving(x_.size());
            for (std::size_t i = 0; i < x_.size(); ++i) {
                const double t = double(x_[i]) + a * d[i];
                moving[i] = t > options_.lower_bound && t < options_.upper_bound;
                q.x[i] = float(std::clamp(t, options_.lower_bound, options_.upper_bound));
            }
            q.value = objective_(q.x, q.grad);
            ++evaluations_;
            if (q.grad.size() != x_.size()) throw Error("objective returned a gradient of the wrong size");
            q.slope = 0;
            for (std::size_t i = 0; i < x_.size(); ++i)
                if (moving[i]) q.slope += double(q.grad[i]) * d[i];
            return q;
        };
        inv::LineSearchOutcome ls = inv::strong_wolfe_search(p);
        it.line_search.evaluations += ls.evaluations;
        if (!ls.found) {
            if (attempt == 0) {
                drop_memory();
                it.restarted = true;
                continue;
            }
            it.stop = StopReason::LineSearchFailed;
            break;
        }
        LineSearchReport& r = it.line_search;
        r.step = ls.point.step;
        r.value0 = value_;
        r.slope0 = slope0;
        r.value = ls.point.value;
        r.slope = ls.point.slope;
        r.sufficient_decrease = true;
        r.curvature = ls.curvature;
        for (std::size_t i = 0; i < x_.size(); ++i)
            r.max_abs_update = std::max(r.max_abs_update, std::abs(double(ls.point.x[i]) - double(x_[i])));
        update_memory(ls.point.x, ls.point.grad);
        if (options_.method == OptimizerMethod::ConjugateGradient) {
            prev_direction_ = d;
            prev_grad_ = fg;
        }
        prev_step_ = r.step;
        prev_slope_ = slope0;
        x_ = std::move(ls.point.x);
        grad_ = std::move(ls.point.grad);
        value_ = ls.point.value;
        ++iterations_;
        it.value = value_;
        break;
    }
    it.iteration = iterations_;
    it.evaluations = evaluations_ - evaluations_before;
    return it;
}

MinimizeResult minimize(ObjectiveFunction objective, std::vector<float> x0, const OptimizerOptions& options,
                        const StopCriteria& stop, const CancelToken* cancel,
                        const std::function<void(const OptimizerIteration&)>& on_iteration) {
    Optimizer opt(std::move(objective), std::move(x0), options);
    MinimizeResult res;
    try {
        if (cancel) cancel->checkpoint();
        opt.evaluate();
        res.initial_value = opt.value();
        while (true) {
            if (stop.max_iterations > 0 && opt.iterations() >= stop.max_iterations) {
                res.reason = StopReason::MaxIterations;
                break;
            }
            OptimizerIteration it = opt.iterate(cancel);
            if (it.stop != StopReason::None) {
                res.reason = it.stop;
                break;
            }
            res.history.push_back(it);
            if (on_iteration) on_iteration(it);
            if (stop.target_relative_value > 0 &&
                it.value <= stop.target_relative_value * res.initial_value) {
                res.reason = StopReason::TargetReached;
                break;
            }
            if (stop.min_relative_decrease > 0 &&
                (it.value_before - it.value) < stop.min_relative_decrease * std::abs(it.value_before)) {
                res.reason = StopReason::SmallDecrease;
                break;
            }
        }
    } catch (const Cancelled&) {
        res.reason = StopReason::Cancelled;
    }
    res.x = opt.x();
    res.value = opt.value();
    res.iterations = opt.iterations();
    res.evaluations = opt.evaluations();
    return res;
}

} // namespace fwi
