// Optimizer state as a map of named double arrays (the project's optimizer_state). Every float of the state
// is stored as a double (exact), and everything derived (rho, gamma) is recomputed the same way, so a
// restored optimizer continues bit for bit.
#include "fwi/error.hpp"
#include "fwi/optimizer.hpp"

#include <cmath>

namespace fwi {
namespace {

constexpr double state_version = 1;

std::vector<double> to_doubles(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

const std::vector<double>& need(const OptimizerState& s, const std::string& key, std::size_t size) {
    const auto it = s.find(key);
    if (it == s.end()) throw ConfigError("optimizer state: '" + key + "' is missing");
    if (it->second.size() != size)
        throw ConfigError("optimizer state: '" + key + "' has " + std::to_string(it->second.size()) +
                          " values; expected " + std::to_string(size));
    return it->second;
}

double need_scalar(const OptimizerState& s, const std::string& key) {
    return need(s, key, 1)[0];
}

int need_count(const OptimizerState& s, const std::string& key, double max) {
    const double v = need_scalar(s, key);
    if (!(v >= 0) || !(v <= max) || v != std::floor(v))
        throw ConfigError("optimizer state: '" + key + "' = " + std::to_string(v) + " is not a count in 0.." +
                          std::to_string(max));
    return int(v);
}

std::vector<float> to_floats(const std::vector<double>& v) {
    std::vector<float> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = float(v[i]);
    return out;
}

} // namespace

OptimizerState Optimizer::save_state() const {
    OptimizerState s;
    s["optimizer.version"] = {state_version};
    s["optimizer.method"] = {double(int(options_.method))};
    s["optimizer.iterations"] = {double(iterations_)};
    s["optimizer.evaluations"] = {double(evaluations_)};
    s["optimizer.x"] = to_doubles(x_);
    s["optimizer.evaluated"] = {evaluated_ ? 1.0 : 0.0};
    if (evaluated_) {
        s["optimizer.value"] = {value_};
        s["optimizer.gradient"] = to_doubles(grad_);
    }
    s["optimizer.pairs"] = {double(s_.size())};
    for (std::size_t k = 0; k < s_.size(); ++k) {
        s["optimizer.s." + std::to_string(k)] = s_[k];
        s["optimizer.y." + std::to_string(k)] = y_[k];
    }
    s["optimizer.previous_step"] = {prev_step_, prev_slope_};
    if (!prev_direction_.empty()) {
        s["optimizer.previous_direction"] = prev_direction_;
        s["optimizer.previous_gradient"] = prev_grad_;
    }
    return s;
}

Optimizer::Optimizer(ObjectiveFunction objective, OptimizerOptions options)
    : objective_(std::move(objective)), options_(std::move(options)) {
    check_options();
}

Optimizer Optimizer::resume(ObjectiveFunction objective, const OptimizerState& state,
                            OptimizerOptions options) {
    Optimizer opt(std::move(objective), std::move(options));
    opt.restore(state);
    return opt;
}

void Optimizer::restore(const OptimizerState& s) {
    if (need_scalar(s, "optimizer.version") != state_version)
        throw ConfigError("optimizer state: version " + std::to_string(need_scalar(s, "optimizer.version")) +
                          " is not supported (expected 1)");
    const int method = need_count(s, "optimizer.method", 2);
    if (method != int(options_.method))
        throw ConfigError(std::string("optimizer state was saved by method ") +
                          to_string(OptimizerMethod(method)) + ", not " + to_string(options_.method));
    const auto xit = s.find("optimizer.x");
    if (xit == s.end() || xit->second.empty())
        throw ConfigError("optimizer state: 'optimizer.x' is missing or empty");
    const std::size_t n = xit->second.size();
    x_ = to_floats(xit->second);
    iterations_ = need_count(s, "optimizer.iterations", 1e9);
    evaluations_ = need_count(s, "optimizer.evaluations", 2e9);
    evaluated_ = need_count(s, "optimizer.evaluated", 1) == 1;
    if (evaluated_) {
        value_ = need_scalar(s, "optimizer.value");
        grad_ = to_floats(need(s, "optimizer.gradient", n));
    }
    const int pairs = need_count(s, "optimizer.pairs", options_.memory);
    s_.clear();
    y_.clear();
    for (int k = 0; k < pairs; ++k) {
        s_.push_back(need(s, "optimizer.s." + std::to_string(k), n));
        y_.push_back(need(s, "optimizer.y." + std::to_string(k), n));
    }
    const auto& prev = need(s, "optimizer.previous_step", 2);
    prev_step_ = prev[0];
    prev_slope_ = prev[1];
    prev_direction_.clear();
    prev_grad_.clear();
    if (s.count("optimizer.previous_direction")) {
        prev_direction_ = need(s, "optimizer.previous_direction", n);
        prev_grad_ = need(s, "optimizer.previous_gradient", n);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!std::isfinite(x_[i]))
            throw ConfigError("optimizer state: x[" + std::to_string(i) + "] is not finite");
}

} // namespace fwi
