#include "fwi/communicator.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

namespace fwi {
namespace {

// A contribution on the wire: position (int64), misfit (double), cells (int64), cells floats.
void append(std::vector<std::byte>& out, const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
}

void pack(std::vector<std::byte>& out, const ShotContribution& c) {
    const auto cells = std::int64_t(c.gradient.size());
    append(out, &c.position, sizeof c.position);
    append(out, &c.misfit, sizeof c.misfit);
    append(out, &cells, sizeof cells);
    append(out, c.gradient.data(), c.gradient.size() * sizeof(float));
}

template <class T> T read(std::span<const std::byte> in, std::size_t& at) {
    if (at + sizeof(T) > in.size()) throw ResourceError("a rank's shot contributions arrived truncated");
    T v;
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
}

void unpack(std::span<const std::byte> in, std::vector<ShotContribution>& out) {
    std::size_t at = 0;
    while (at < in.size()) {
        ShotContribution c;
        c.position = read<std::int64_t>(in, at);
        c.misfit = read<double>(in, at);
        const auto cells = read<std::int64_t>(in, at);
        if (cells < 0 || at + std::size_t(cells) * sizeof(float) > in.size())
            throw ResourceError("a rank's shot contributions arrived truncated");
        c.gradient.resize(std::size_t(cells));
        std::memcpy(c.gradient.data(), in.data() + at, std::size_t(cells) * sizeof(float));
        at += std::size_t(cells) * sizeof(float);
        out.push_back(std::move(c));
    }
}

} // namespace

std::vector<std::vector<std::byte>> SerialCommunicator::gather(std::span<const std::byte> mine) {
    return {std::vector<std::byte>(mine.begin(), mine.end())};
}

void SerialCommunicator::abort(int exit_code) {
    std::exit(exit_code);
}

std::vector<int> split_shots_by_cost(const std::vector<double>& costs, int ranks) {
    if (ranks < 1) throw ConfigError("cannot split shots over " + std::to_string(ranks) + " ranks");
    for (double c : costs)
        if (!(c >= 0) || !std::isfinite(c))
            throw ConfigError("a shot's predicted cost must be finite and >= 0");
    const double total = std::accumulate(costs.begin(), costs.end(), 0.0);
    std::vector<int> owner(costs.size(), 0);
    double before = 0;
    for (std::size_t i = 0; i < costs.size(); ++i) {
        // Equal costs (or all zero) split by count.
        const double middle =
            total > 0 ? (before + 0.5 * costs[i]) / total : (double(i) + 0.5) / double(costs.size());
        owner[i] = std::min(ranks - 1, int(middle * ranks));
        before += costs[i];
    }
    return owner;
}

void add_shot_contribution(ShotSum& sum, const ShotContribution& c) {
    if (sum.gradient.size() != c.gradient.size())
        throw ConfigError("shot contribution of " + std::to_string(c.gradient.size()) +
                          " cells added to a sum of " + std::to_string(sum.gradient.size()));
    sum.misfit += c.misfit;
    for (std::size_t i = 0; i < c.gradient.size(); ++i)
        sum.gradient[i] += c.gradient[i];
}

ShotSum reduce_in_shot_order(Communicator& comm, const std::vector<ShotContribution>& mine, ShotSum start) {
    std::vector<std::byte> packed;
    for (const ShotContribution& c : mine)
        pack(packed, c);
    const auto from_ranks = comm.gather(packed);
    std::vector<std::byte> result;
    if (comm.rank() == 0) {
        std::vector<ShotContribution> all;
        for (const auto& bytes : from_ranks)
            unpack(bytes, all);
        std::sort(all.begin(), all.end(),
                  [](const auto& a, const auto& b) { return a.position < b.position; });
        for (const ShotContribution& c : all)
            add_shot_contribution(start, c);
        append(result, &start.misfit, sizeof start.misfit);
        append(result, start.gradient.data(), start.gradient.size() * sizeof(float));
    }
    comm.broadcast(result);
    if (result.size() < sizeof(double) || (result.size() - sizeof(double)) % sizeof(float) != 0)
        throw ResourceError("the reduced gradient arrived truncated");
    ShotSum sum;
    std::memcpy(&sum.misfit, result.data(), sizeof sum.misfit);
    sum.gradient.resize((result.size() - sizeof(double)) / sizeof(float));
    std::memcpy(sum.gradient.data(), result.data() + sizeof(double), sum.gradient.size() * sizeof(float));
    return sum;
}

std::vector<std::byte> to_bytes(std::span<const float> values) {
    std::vector<std::byte> out;
    append(out, values.data(), values.size_bytes());
    return out;
}

std::vector<float> floats_from_bytes(std::span<const std::byte> bytes) {
    std::vector<float> out(bytes.size() / sizeof(float));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
    return out;
}

} // namespace fwi
