#pragma once
// Forward modelling split over the ranks of a job (fwi/communicator.hpp): each rank models its block of the
// shot list (split_shots_by_cost with equal costs: every shot runs the same grid for the same steps) and rank
// 0 receives every gather, in shot-list order. A shot's gather does not depend on which rank modelled it, so
// the result is bit for bit that of one process.
#include "fwi/communicator.hpp"
#include "fwi/simulation.hpp"

#include <vector>

namespace fwi {

/// Models `shots` (all when empty). Rank 0 returns every gather in list order; the other ranks return an
/// empty vector. `observer` sees this rank's own shots only. Collective: every rank must call it.
std::vector<Gather> forward_distributed(Simulation& sim, Communicator& comm,
                                        const std::vector<int>& shots = {}, Observer* observer = nullptr,
                                        const CancelToken* cancel = nullptr);

} // namespace fwi
