#include "engine/calibration_cache.hpp"

#include "runtime/user_cache.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace fwi {
namespace {

constexpr int format_version = 5; // bump when StepCosts or CodecEstimate gain a field
constexpr double max_age_s = 24 * 3600.0;

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 1);
    return "unknown";
}

double now_s() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

nlohmann::json to_json(const Calibration& c) {
    const StepCosts& s = c.steps;
    nlohmann::json tiers = nlohmann::json::array();
    for (const TierCosts& t : s.tiers)
        tiers.push_back({t.write_s_per_item, t.read_s_per_item, t.write_s_per_byte, t.read_s_per_byte});
    return {{"forward_step_s", s.forward_step_s},
            {"adjoint_step_s", s.adjoint_step_s},
            {"recompute_step_s", s.recompute_step_s},
            {"snapshot_write_s", s.snapshot_write_s},
            {"snapshot_transfer_s", s.snapshot_transfer_s},
            {"state_transfer_s", s.state_transfer_s},
            {"backend_memory", s.backend_memory},
            {"backend_state_copy_s", s.backend_state_copy_s},
            {"shot_setup_s", s.shot_setup_s},
            {"first_touch_s_per_byte", s.first_touch_s_per_byte},
            {"state_bytes", s.state_bytes},
            {"snapshot_bytes", s.snapshot_bytes},
            {"compression_ratio", s.compression_ratio},
            {"compress_s", s.compress_s},
            {"decompress_s", s.decompress_s},
            {"state_compress_s", s.state_compress_s},
            {"state_decompress_s", s.state_decompress_s},
            {"tiers", tiers},
            {"sampling_interval", s.sampling_interval},
            {"snapshot_tier", s.snapshot_tier},
            {"snapshots_in_place", s.snapshots_in_place},
            {"codec",
             {{"name", c.codec.codec},
              {"ratio", c.codec.ratio},
              {"compress_s", c.codec.compress_s},
              {"decompress_s", c.codec.decompress_s},
              {"state_compress_s", c.codec.state_compress_s},
              {"state_decompress_s", c.codec.state_decompress_s},
              {"source", c.codec.source}}}};
}

Calibration from_json(const nlohmann::json& j) {
    Calibration c;
    StepCosts& s = c.steps;
    s.forward_step_s = j.at("forward_step_s");
    s.adjoint_step_s = j.at("adjoint_step_s");
    s.recompute_step_s = j.at("recompute_step_s");
    s.snapshot_write_s = j.at("snapshot_write_s");
    s.snapshot_transfer_s = j.at("snapshot_transfer_s");
    s.state_transfer_s = j.at("state_transfer_s");
    s.backend_memory = j.at("backend_memory");
    s.backend_state_copy_s = j.at("backend_state_copy_s");
    s.shot_setup_s = j.at("shot_setup_s");
    s.first_touch_s_per_byte = j.at("first_touch_s_per_byte");
    s.state_bytes = j.at("state_bytes");
    s.snapshot_bytes = j.at("snapshot_bytes");
    s.compression_ratio = j.at("compression_ratio");
    s.compress_s = j.at("compress_s");
    s.decompress_s = j.at("decompress_s");
    s.state_compress_s = j.at("state_compress_s");
    s.state_decompress_s = j.at("state_decompress_s");
    for (const auto& t : j.at("tiers"))
        s.tiers.push_back(TierCosts{t.at(0), t.at(1), t.at(2), t.at(3)});
    s.sampling_interval = j.at("sampling_interval");
    s.snapshot_tier = j.at("snapshot_tier");
    s.snapshots_in_place = j.at("snapshots_in_place");
    const auto& k = j.at("codec");
    c.codec = {k.at("name"),
               k.at("ratio"),
               k.at("compress_s"),
               k.at("decompress_s"),
               k.at("state_compress_s"),
               k.at("state_decompress_s"),
               k.at("source")};
    s.validate(); // a hand-edited negative time or zero size is a miss, not a wrong plan
    return c;
}

std::filesystem::path file_for(const CalibrationKey& key) {
    const std::filesystem::path dir = calibration_cache_directory();
    if (dir.empty()) return {};
    std::ostringstream name;
    name << "calibration-" << std::hex << std::hash<std::string>{}(key.text()) << ".json";
    return dir / name.str();
}

} // namespace

std::string CalibrationKey::text() const {
    std::ostringstream s;
    s << "v" << format_version << " " << backend << " " << nz << "x";
    if (ny != 1) s << ny << "x"; // 2D keys keep their form, so caches written before 3D stay valid
    s << nx << " order " << order << " pml " << pml << " codec " << codec << " threads " << threads
      << " receivers " << receivers << " steps " << inner_steps;
    if (free_surface) s << " free surface"; // absent from absorbing keys, so caches written before stay valid
    s << " cpu" << cpu_model() << " build " << detail::program_identity();
    return s.str();
}

std::filesystem::path calibration_cache_directory() {
    if (const char* d = std::getenv("FWI_CALIBRATION_CACHE"); d != nullptr && *d != '\0') {
        if (std::string(d) == "off" || std::string(d) == "0") return {};
        return d;
    }
    return detail::user_cache_directory();
}

std::optional<Calibration> load_cached_calibration(const CalibrationKey& key) {
    const std::filesystem::path file = file_for(key);
    if (file.empty()) return std::nullopt;
    try {
        std::ifstream in(file);
        if (!in) return std::nullopt;
        const nlohmann::json j = nlohmann::json::parse(in);
        if (j.at("key").get<std::string>() != key.text()) return std::nullopt; // a hash collision
        const double age = now_s() - j.at("measured_at").get<double>();
        if (!(age >= 0 && age < max_age_s)) return std::nullopt;
        return from_json(j.at("calibration"));
    } catch (const std::exception&) {
        return std::nullopt; // corrupt or from another version: measure again
    }
}

void store_cached_calibration(const CalibrationKey& key, const Calibration& c) {
    const std::filesystem::path file = file_for(key);
    if (file.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) return;
    const std::filesystem::path tmp =
        file.string() + ".tmp" + std::to_string(static_cast<long long>(::getpid()));
    {
        std::ofstream out(tmp);
        out << nlohmann::json{{"key", key.text()}, {"measured_at", now_s()}, {"calibration", to_json(c)}}
                   .dump(1);
        if (!out.flush()) {
            std::filesystem::remove(tmp, ec);
            return;
        }
    }
    std::filesystem::rename(tmp, file, ec); // atomic: a reader sees the old file or the new one
    if (ec) std::filesystem::remove(tmp, ec);
}

} // namespace fwi
