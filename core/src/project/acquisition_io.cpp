// /acquisition (flattened: one array of sources, one of all receivers, and offsets into it) and
// /data/observed (one (receivers, samples) dataset per shot). Points are stored as rows [z_m, x_m]: slowest
// axis first, the same order as shapes and spacings everywhere in the file.
#include "project/project_io.hpp"

#include <cstdio>

namespace fwi::project_io {

std::string indexed_name(const std::string& prefix, std::size_t index) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "_%05zu", index);
    return prefix + digits;
}

namespace {

const char* point_columns(int rank) {
    return rank == 3 ? "z_m y_m x_m" : "z_m x_m";
}

void append_point(std::vector<double>& rows, const Point& p, int rank) {
    rows.push_back(p.z_m);
    if (rank == 3) rows.push_back(p.y_m);
    rows.push_back(p.x_m);
}

/// Reads an (n, 2) float64 array of [z_m, x_m] rows or an (n, 3) one of [z_m, y_m, x_m] rows; `rows` < 0:
/// any n up to `max_rows`. `columns` is set to the width found.
std::vector<Point> read_points(const h5::Group& group, const std::string& name, std::int64_t rows,
                               std::int64_t max_rows, std::int64_t& columns) {
    const h5::Dataset dataset = group.open_dataset(name);
    const auto shape = dataset.shape();
    if (shape.size() != 2 || (shape[1] != 2 && shape[1] != 3))
        dataset.fail("must have shape (n, 2) with rows [z_m, x_m] or (n, 3) with rows [z_m, y_m, x_m]");
    columns = shape[1];
    if (rows >= 0) dataset.require_shape({rows, columns}, "one row per shot");
    if (shape[0] > max_rows)
        dataset.fail("declares " + std::to_string(shape[0]) + " points, more than " +
                     std::to_string(max_rows));
    const auto values = dataset.read<double>();
    std::vector<Point> points(static_cast<std::size_t>(shape[0]));
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double* row = values.data() + std::size_t(columns) * i;
        points[i] = columns == 3 ? Point{row[2], row[0], row[1]} : Point{row[1], row[0]};
    }
    return points;
}

} // namespace

void write_acquisition(const h5::Group& root, const Acquisition& acquisition, int rank) {
    const std::int64_t columns = rank == 3 ? 3 : 2;
    const h5::Group group = root.create_group("acquisition");
    const auto shots = std::int64_t(acquisition.shots.size());
    std::vector<double> sources;
    std::vector<double> receivers;
    std::vector<std::int64_t> offsets{0};
    for (const auto& shot : acquisition.shots) {
        append_point(sources, shot.source, rank);
        for (const auto& r : shot.receivers)
            append_point(receivers, r, rank);
        offsets.push_back(offsets.back() + std::int64_t(shot.receivers.size()));
    }
    group.set_attribute("shot_count", shots);
    group.write_dataset<double>("sources", sources, {shots, columns})
        .set_attribute("columns", std::string(point_columns(rank)));
    group.write_dataset<double>("receivers", receivers, {offsets.back(), columns})
        .set_attribute("columns", std::string(point_columns(rank)));
    group.write_dataset<std::int64_t>("receiver_offsets", offsets, {shots + 1});
}

Acquisition read_acquisition(const h5::Group& root, int rank) {
    const h5::Group group = root.open_group("acquisition");
    const std::int64_t shots = group.attribute<std::int64_t>("shot_count");
    if (shots < 0 || shots > max_shots)
        group.fail("shot_count " + std::to_string(shots) + " is outside 0.." + std::to_string(max_shots));
    // Shapes first, values after: nothing is allocated for a count the file contradicts.
    const h5::Dataset offsets_dataset = group.open_dataset("receiver_offsets");
    offsets_dataset.require_shape({shots + 1}, "shot_count + 1 offsets");
    std::int64_t source_columns = 0, receiver_columns = 0;
    const auto sources = read_points(group, "sources", shots, max_shots, source_columns);
    const auto receivers = read_points(group, "receivers", -1, max_receivers, receiver_columns);
    if (source_columns != receiver_columns)
        group.fail("has sources with " + std::to_string(source_columns) + " coordinates but receivers with " +
                   std::to_string(receiver_columns));
    if (source_columns != (rank == 3 ? 3 : 2))
        group.fail("has points with " + std::to_string(source_columns) + " coordinates in a " +
                   std::to_string(rank) + "D project");
    const auto offsets = offsets_dataset.read<std::int64_t>({shots + 1});
    // Every offset is checked before any is used: non-decreasing from 0 to the receiver count.
    if (offsets.front() != 0 || offsets.back() != std::int64_t(receivers.size()))
        offsets_dataset.fail("must run from 0 to the receiver count " + std::to_string(receivers.size()));
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
        if (offsets[s + 1] < offsets[s])
            offsets_dataset.fail("must not decrease (offset " + std::to_string(s + 1) + ")");

    Acquisition acquisition;
    acquisition.shots.resize(std::size_t(shots));
    for (std::size_t s = 0; s < acquisition.shots.size(); ++s) {
        acquisition.shots[s].source = sources[s];
        acquisition.shots[s].receivers.assign(receivers.begin() + offsets[s],
                                              receivers.begin() + offsets[s + 1]);
    }
    return acquisition;
}

void write_observed(const h5::Group& root, const std::vector<ShotRecord>& observed) {
    if (observed.empty()) return; // absent = no data yet
    const h5::Group group = root.create_group("data/observed");
    group.set_attribute("shot_count", std::int64_t(observed.size()));
    for (std::size_t s = 0; s < observed.size(); ++s) {
        const ShotRecord& record = observed[s];
        if (record.receivers < 0 || record.samples < 0 ||
            std::int64_t(record.traces.size()) != record.receivers * record.samples)
            throw ConfigError("observed data of shot " + std::to_string(s) + ": " +
                              std::to_string(record.traces.size()) + " values for " +
                              std::to_string(record.receivers) + " receivers x " +
                              std::to_string(record.samples) + " samples");
        group.write_dataset<float>(indexed_name("shot", s), record.traces, {record.receivers, record.samples})
            .set_attribute("dt_s", record.dt_s);
    }
}

std::vector<ShotRecord> read_observed(const h5::Group& root) {
    if (!root.has("data/observed")) return {};
    const h5::Group group = root.open_group("data/observed");
    const std::int64_t shots = group.attribute<std::int64_t>("shot_count");
    if (shots < 0 || shots > max_shots)
        group.fail("shot_count " + std::to_string(shots) + " is outside 0.." + std::to_string(max_shots));
    // All shapes before any values: the data of all shots together must be plausible.
    std::vector<h5::Dataset> datasets;
    std::int64_t total = 0;
    for (std::int64_t s = 0; s < shots; ++s) {
        datasets.push_back(group.open_dataset(indexed_name("shot", std::size_t(s))));
        const auto shape = datasets.back().shape();
        if (shape.size() != 2) datasets.back().fail("must have shape (receivers, samples)");
        if (shape[0] > max_receivers || shape[1] > max_samples)
            datasets.back().fail("declares " + std::to_string(shape[0]) + " traces of " +
                                 std::to_string(shape[1]) + " samples, more than any survey");
        total += shape[0] * shape[1];
        if (total > max_observed_values)
            group.fail("declares more than " + std::to_string(max_observed_values) +
                       " observed samples in all");
    }
    std::vector<ShotRecord> observed;
    for (const h5::Dataset& dataset : datasets) {
        const auto shape = dataset.shape();
        ShotRecord record;
        record.receivers = shape[0];
        record.samples = shape[1];
        record.dt_s = dataset.attribute<double>("dt_s");
        record.traces = dataset.read<float>(shape);
        observed.push_back(std::move(record));
    }
    return observed;
}

} // namespace fwi::project_io
