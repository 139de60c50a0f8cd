#include "fwi/ui/acquisition_edit.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace fwi::ui {
namespace {

const char* kind_name(PointKind k) {
    return k == PointKind::Source ? "Source" : "Receiver";
}

void require_inside(const Grid& grid, Point p, PointKind kind) {
    const std::string msg = outside_message(grid, p, kind);
    if (!msg.empty()) throw ConfigError(msg);
}

int clamp_shot(const Acquisition& acq, int shot) {
    return std::clamp(shot, 0, std::max(int(acq.shots.size()) - 1, 0));
}

void require_ref(const Acquisition& acq, PointRef ref, int shot) {
    const std::size_t n = ref.kind == PointKind::Source ? acq.shots.size() : receivers_of(acq, shot).size();
    if (ref.index < 0 || std::size_t(ref.index) >= n)
        throw ConfigError(std::string(kind_name(ref.kind)) + " " + std::to_string(ref.index) +
                          " does not exist");
}

} // namespace

bool inside_model(const Grid& grid, Point p) {
    // The small tolerance accepts points typed as the exact edge value after a float round trip.
    const double tol = 1e-9 * std::max({grid.width_m(), grid.depth_m(), grid.breadth_m()});
    const bool in_xz =
        p.x_m >= -tol && p.z_m >= -tol && p.x_m <= grid.width_m() + tol && p.z_m <= grid.depth_m() + tol;
    if (grid.rank != 3) return in_xz; // 2D ignores y
    return in_xz && p.y_m >= -tol && p.y_m <= grid.breadth_m() + tol;
}

std::string outside_message(const Grid& grid, Point p, PointKind kind) {
    if (inside_model(grid, p)) return {};
    char buf[256];
    if (grid.rank == 3)
        std::snprintf(buf, sizeof buf,
                      "%s at (x %.1f, y %.1f, z %.1f) m is outside the model (x 0..%.1f m, y 0..%.1f m, z "
                      "0..%.1f m)",
                      kind_name(kind), p.x_m, p.y_m, p.z_m, grid.width_m(), grid.breadth_m(), grid.depth_m());
    else
        std::snprintf(buf, sizeof buf, "%s at (%.1f, %.1f) m is outside the model (x 0..%.1f m, z 0..%.1f m)",
                      kind_name(kind), p.x_m, p.z_m, grid.width_m(), grid.depth_m());
    return buf;
}

bool receivers_shared(const Acquisition& acq) {
    return std::all_of(acq.shots.begin(), acq.shots.end(),
                       [&](const Shot& s) { return s.receivers == acq.shots.front().receivers; });
}

std::vector<Point> sources_of(const Acquisition& acq) {
    std::vector<Point> out;
    for (const Shot& s : acq.shots)
        out.push_back(s.source);
    return out;
}

std::vector<Point> receivers_of(const Acquisition& acq, int shot) {
    if (acq.shots.empty()) return {};
    return acq.shots[std::size_t(clamp_shot(acq, shot))].receivers;
}

std::vector<Point> points_of(const Acquisition& acq, PointKind kind, int shot) {
    return kind == PointKind::Source ? sources_of(acq) : receivers_of(acq, shot);
}

Acquisition with_point_added(const Acquisition& acq, const Grid& grid, PointKind kind, Point p, int shot) {
    require_inside(grid, p, kind);
    Acquisition out = acq;
    if (kind == PointKind::Source) {
        Shot s;
        s.source = p;
        if (!acq.shots.empty() && receivers_shared(acq)) s.receivers = acq.shots.front().receivers;
        out.shots.push_back(std::move(s));
        return out;
    }
    if (out.shots.empty())
        throw ConfigError("Add a source first: receivers record a shot, and there is none yet");
    if (receivers_shared(acq)) {
        for (Shot& s : out.shots)
            s.receivers.push_back(p);
    } else {
        out.shots[std::size_t(clamp_shot(acq, shot))].receivers.push_back(p);
    }
    return out;
}

Acquisition with_point_moved(const Acquisition& acq, const Grid& grid, PointRef ref, Point p, int shot) {
    require_ref(acq, ref, shot);
    require_inside(grid, p, ref.kind);
    Acquisition out = acq;
    if (ref.kind == PointKind::Source) {
        out.shots[std::size_t(ref.index)].source = p;
    } else if (receivers_shared(acq)) {
        for (Shot& s : out.shots)
            s.receivers[std::size_t(ref.index)] = p;
    } else {
        out.shots[std::size_t(clamp_shot(acq, shot))].receivers[std::size_t(ref.index)] = p;
    }
    return out;
}

Acquisition with_points_deleted(const Acquisition& acq, std::vector<PointRef> refs, int shot) {
    for (const PointRef& r : refs)
        require_ref(acq, r, shot);
    // Highest index first so earlier erasures do not shift later ones.
    std::sort(refs.begin(), refs.end(), std::greater<>());
    refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
    const bool shared = receivers_shared(acq);
    const int active = clamp_shot(acq, shot);
    Acquisition out = acq;
    for (const PointRef& r : refs) {
        if (r.kind != PointKind::Receiver) continue;
        for (std::size_t s = 0; s < out.shots.size(); ++s)
            if (shared || int(s) == active) {
                auto& rec = out.shots[s].receivers;
                rec.erase(rec.begin() + r.index);
            }
    }
    for (const PointRef& r : refs)
        if (r.kind == PointKind::Source) out.shots.erase(out.shots.begin() + r.index);
    return out;
}

Acquisition with_receiver_line(const Acquisition& acq, const Grid& grid, Point from, Point to, int count,
                               int shot) {
    if (count < 1)
        throw ConfigError("A receiver line needs at least 1 receiver, got " + std::to_string(count));
    require_inside(grid, from, PointKind::Receiver);
    require_inside(grid, to, PointKind::Receiver);
    Acquisition out = acq;
    for (int i = 0; i < count; ++i) {
        const double t = count == 1 ? 0.0 : double(i) / double(count - 1);
        const Point p{from.x_m + t * (to.x_m - from.x_m), from.z_m + t * (to.z_m - from.z_m),
                      from.y_m + t * (to.y_m - from.y_m)};
        out = with_point_added(out, grid, PointKind::Receiver, p, shot);
    }
    return out;
}

} // namespace fwi::ui
