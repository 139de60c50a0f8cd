#include "fwi/error.hpp"
#include "fwi/propagator.hpp"
#include "propagator/cpu_propagator.hpp"
#include "propagator/cpu_propagator_3d.hpp"

#include <mutex>
#include <omp.h>

namespace fwi {
namespace {

std::vector<BackendInfo>& registry() {
    static std::vector<BackendInfo> backends{
        BackendInfo{"cpu",
                    [] { return true; },
                    [] { return "CPU (" + std::to_string(omp_get_max_threads()) + " OpenMP threads)"; },
                    [](const PropagatorSetup& s) -> std::unique_ptr<Propagator> {
                        if (s.grid.rank == 3) return std::make_unique<CpuPropagator3D>(s);
                        return std::make_unique<CpuPropagator>(s);
                    },
                    {}}}; // nothing to start: the OpenMP team starts with the first step
    return backends;
}
std::mutex& registry_mutex() {
    static std::mutex m;
    return m;
}
const BackendInfo* find(const std::string& name) {
    for (const auto& b : registry())
        if (b.name == name) return &b;
    return nullptr;
}

} // namespace

void register_backend(BackendInfo info) {
    std::lock_guard lock(registry_mutex());
    for (auto& b : registry())
        if (b.name == info.name) {
            b = std::move(info);
            return;
        }
    registry().push_back(std::move(info));
}

std::vector<std::string> available_backends() {
    std::lock_guard lock(registry_mutex());
    std::vector<std::string> names;
    for (const auto& b : registry())
        if (b.available()) names.push_back(b.name);
    return names;
}

/// "auto" is cuda when it is available, else cpu, for 2D and 3D grids alike (the 3D CUDA kernels passed the
/// device tests on an H100: docs/gpu.md).
static std::string resolve(const std::string& backend) {
    if (backend != "auto") return backend;
    const BackendInfo* cuda = find("cuda");
    return cuda && cuda->available() ? "cuda" : "cpu";
}

std::unique_ptr<Propagator> make_propagator(const std::string& backend, const PropagatorSetup& setup) {
    std::lock_guard lock(registry_mutex());
    const std::string name = resolve(backend);
    const BackendInfo* b = find(name);
    if (!b)
        throw ConfigError("unknown backend '" + backend + "' (this build has: cpu" +
                          (find("cuda") ? ", cuda)" : ")"));
    if (!b->available())
        throw ConfigError("backend '" + name + "' is built but not available on this machine (no device)");
    return b->make(setup);
}

std::string backend_device_name(const std::string& backend) {
    std::lock_guard lock(registry_mutex());
    const BackendInfo* b = find(resolve(backend));
    return b ? b->device_name() : "unknown backend";
}

void start_backend(const std::string& backend) {
    std::function<void()> start;
    {
        std::lock_guard lock(registry_mutex());
        const BackendInfo* b = find(resolve(backend));
        if (!b || !b->start || !b->available()) return;
        start = b->start;
    }
    try {
        start();
    } catch (...) { // make_propagator meets the same trouble and reports it
    }
}

} // namespace fwi
