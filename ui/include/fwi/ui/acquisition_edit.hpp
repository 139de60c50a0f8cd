#pragma once
// Pure edits of an Acquisition as the GUI offers them (no Qt, testable): every function returns a new value
// and throws fwi::ConfigError with a message for the user when the edit is impossible.
//
// What the user edits: the sources (one per shot) and the receivers of the active shot. When every shot
// records the same receivers (the usual fixed spread, receivers_shared()), a receiver edit applies to every
// shot so the spread stays shared; a new source gets a shot recorded by that spread.
#include "fwi/acquisition.hpp"
#include "fwi/grid.hpp"

#include <compare>
#include <string>
#include <vector>

namespace fwi::ui {

enum class PointKind { Source, Receiver };

struct PointRef {
    PointKind kind = PointKind::Receiver;
    int index = 0; ///< shot index for sources; receiver index within the active shot for receivers
    auto operator<=>(const PointRef&) const = default;
};

/// Inside the model's extent of cell centres: 0 <= x <= width_m, 0 <= z <= depth_m, and in 3D
/// 0 <= y <= breadth_m.
bool inside_model(const Grid& grid, Point p);
/// "Receiver at (x, z) m is outside the model (0..W m x 0..D m)" (3D: with y); empty when inside.
std::string outside_message(const Grid& grid, Point p, PointKind kind);

bool receivers_shared(const Acquisition& acq);
std::vector<Point> sources_of(const Acquisition& acq);
/// Receivers of `shot` (clamped to a valid shot; empty without shots).
std::vector<Point> receivers_of(const Acquisition& acq, int shot);
std::vector<Point> points_of(const Acquisition& acq, PointKind kind, int shot);

/// Adds a source (a new shot recorded by the shared receivers, or by none) or a receiver (of every shot when
/// shared, else of `shot`). A receiver needs a shot: ConfigError without any. Points outside `grid` throw
/// ConfigError.
Acquisition with_point_added(const Acquisition& acq, const Grid& grid, PointKind kind, Point p, int shot);
Acquisition with_point_moved(const Acquisition& acq, const Grid& grid, PointRef ref, Point p, int shot);
/// Deleting a source deletes its shot. Unknown references throw ConfigError.
Acquisition with_points_deleted(const Acquisition& acq, std::vector<PointRef> refs, int shot);
/// `count` receivers evenly from `from` to `to` (count >= 1; both ends inside), appended like
/// with_point_added.
Acquisition with_receiver_line(const Acquisition& acq, const Grid& grid, Point from, Point to, int count,
                               int shot);

} // namespace fwi::ui
