// Forward modelling split over a job's ranks; rank 0 reassembles the gathers in shot order.
#include "fwi/distributed_forward.hpp"

#include "fwi/error.hpp"

#include <cstring>

namespace fwi {
namespace {

std::vector<int> all_shots(const Simulation& sim, const std::vector<int>& shots) {
    if (!shots.empty()) return shots;
    std::vector<int> list(sim.acquisition().shots.size());
    for (std::size_t s = 0; s < list.size(); ++s)
        list[s] = int(s);
    return list;
}

} // namespace

std::vector<Gather> forward_distributed(Simulation& sim, Communicator& comm, const std::vector<int>& shots,
                                        Observer* observer, const CancelToken* cancel) {
    if (comm.size() == 1) return sim.forward(shots, observer, cancel);
    const std::vector<int> list = all_shots(sim, shots);
    const std::vector<int> owner = split_shots_by_cost(std::vector<double>(list.size(), 1.0), comm.size());
    std::vector<int> mine;
    for (std::size_t k = 0; k < list.size(); ++k)
        if (owner[k] == comm.rank()) mine.push_back(list[k]);
    // An empty list would mean "all shots" to Simulation::forward: a rank without shots models none.
    const std::vector<Gather> modelled =
        mine.empty() ? std::vector<Gather>{} : sim.forward(mine, observer, cancel);

    // On the wire: this rank's traces, shot after shot in list order; rank 0 knows every shot's size.
    std::vector<std::byte> packed;
    for (const Gather& g : modelled) {
        const auto* b = reinterpret_cast<const std::byte*>(g.traces.data());
        packed.insert(packed.end(), b, b + g.traces.size() * sizeof(float));
    }
    const auto from_ranks = comm.gather(packed);
    if (comm.rank() != 0) return {};

    std::vector<Gather> out;
    std::vector<std::size_t> read(from_ranks.size(), 0);
    for (std::size_t k = 0; k < list.size(); ++k) {
        Gather g = sim.empty_gather(std::size_t(list[k]));
        const auto& bytes = from_ranks.at(std::size_t(owner[k]));
        std::size_t& at = read[std::size_t(owner[k])];
        const std::size_t n = g.traces.size() * sizeof(float);
        if (at + n > bytes.size())
            throw ResourceError("rank " + std::to_string(owner[k]) + "'s modelled gathers arrived truncated");
        std::memcpy(g.traces.data(), bytes.data() + at, n);
        at += n;
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace fwi
