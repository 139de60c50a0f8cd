// /settings/{propagation,gradient,inversion}: every field of the structs in fwi/settings.hpp, one attribute
// each (the user wavelet, an array, as a dataset). Integers are stored as int64, byte counts as uint64.
#include "project/project_io.hpp"

namespace fwi::project_io {

namespace {

void write_propagation(const h5::Group& group, const PropagationSettings& s) {
    group.set_attribute("order", std::int64_t(s.order));
    group.set_attribute("pml_width", std::int64_t(s.pml_width));
    group.set_attribute("freq_hz", s.freq_hz);
    group.set_attribute("dt_s", s.dt_s);
    group.set_attribute("nt", std::int64_t(s.nt));
    group.set_attribute("max_velocity_mps", s.max_velocity_mps);
    group.set_attribute("cfl_number", s.cfl_number);
    group.set_attribute("free_surface", std::int64_t(s.free_surface ? 1 : 0));
    if (!s.wavelet.empty())
        group.write_dataset<float>("wavelet", s.wavelet, {std::int64_t(s.wavelet.size())});
}

PropagationSettings read_propagation(const h5::Group& group) {
    PropagationSettings s;
    s.order = group.attribute_int("order");
    s.pml_width = group.attribute_int("pml_width");
    s.freq_hz = group.attribute<double>("freq_hz");
    s.dt_s = group.attribute<double>("dt_s");
    s.nt = group.attribute<std::int64_t>("nt");
    if (s.nt < 0 || s.nt > max_samples)
        group.fail("nt " + std::to_string(s.nt) + " is outside 0.." + std::to_string(max_samples));
    s.max_velocity_mps = group.attribute<double>("max_velocity_mps");
    s.cfl_number = group.attribute<double>("cfl_number");
    // Absent from projects written before the free surface existed: their tops absorb.
    if (group.has_attribute("free_surface")) {
        const std::int64_t free_surface = group.attribute<std::int64_t>("free_surface");
        if (free_surface != 0 && free_surface != 1)
            group.fail("free_surface " + std::to_string(free_surface) + " is neither 0 nor 1");
        s.free_surface = free_surface == 1;
    }
    if (group.has("wavelet")) {
        const h5::Dataset wavelet = group.open_dataset("wavelet");
        const auto shape = wavelet.shape();
        if (shape.size() != 1) wavelet.fail("must have one dimension (samples)");
        if (shape[0] > max_samples) wavelet.fail("declares " + std::to_string(shape[0]) + " samples");
        s.wavelet = wavelet.read<float>(shape);
    }
    return s;
}

void write_gradient(const h5::Group& group, const GradientSettings& s) {
    group.set_attribute("schedule", s.schedule);
    group.set_attribute("compression", s.compression);
    group.set_attribute("budget_bytes", std::uint64_t(s.budget_bytes));
    group.set_attribute("disk_budget_bytes", std::uint64_t(s.disk_budget_bytes));
    group.set_attribute("scratch_dir", s.scratch_dir);
    group.set_attribute("sampling_interval", std::int64_t(s.sampling_interval));
}

GradientSettings read_gradient(const h5::Group& group) {
    GradientSettings s;
    s.schedule = group.attribute<std::string>("schedule");
    s.compression = group.attribute<std::string>("compression");
    s.budget_bytes = group.attribute<std::uint64_t>("budget_bytes");
    s.disk_budget_bytes = group.attribute<std::uint64_t>("disk_budget_bytes");
    s.scratch_dir = group.attribute<std::string>("scratch_dir");
    s.sampling_interval = group.attribute_int("sampling_interval");
    return s;
}

void write_inversion(const h5::Group& group, const InversionSettings& s) {
    group.set_attribute("iterations", std::int64_t(s.iterations));
    group.set_attribute("stage_freqs_hz", s.stage_freqs_hz);
    group.set_attribute("min_velocity_mps", s.min_velocity_mps);
    group.set_attribute("max_velocity_mps", s.max_velocity_mps);
    group.set_attribute("optimizer", s.optimizer);
    group.set_attribute("misfit", s.misfit);
}

InversionSettings read_inversion(const h5::Group& group) {
    InversionSettings s;
    s.iterations = group.attribute_int("iterations");
    s.stage_freqs_hz = group.attribute<std::vector<double>>("stage_freqs_hz");
    s.min_velocity_mps = group.attribute<double>("min_velocity_mps");
    s.max_velocity_mps = group.attribute<double>("max_velocity_mps");
    s.optimizer = group.attribute<std::string>("optimizer");
    s.misfit = group.attribute<std::string>("misfit");
    return s;
}

} // namespace

void write_settings(const h5::Group& root, const Experiment& experiment) {
    const h5::Group settings = root.create_group("settings");
    write_propagation(settings.create_group("propagation"), experiment.propagation);
    write_gradient(settings.create_group("gradient"), experiment.gradient);
    write_inversion(settings.create_group("inversion"), experiment.inversion);
}

void read_settings(const h5::Group& root, Experiment& experiment) {
    const h5::Group settings = root.open_group("settings");
    experiment.propagation = read_propagation(settings.open_group("propagation"));
    experiment.gradient = read_gradient(settings.open_group("gradient"));
    experiment.inversion = read_inversion(settings.open_group("inversion"));
}

} // namespace fwi::project_io
