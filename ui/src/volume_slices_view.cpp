#include "fwi/ui/volume_slices_view.hpp"

#include "fwi/ui/slice_view.hpp"
#include "fwi/ui/volume_3d_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace fwi::ui {
namespace {

constexpr double near_slice_cells = 1.5; // points drawn on the inline and crossline slices

/// The colour range of a signed field: symmetric about zero at the 99th percentile of |value| over a strided
/// sample of at most 65536 values (a few extreme cells near a source would otherwise wash out the rest).
double symmetric_clip(const std::vector<float>& v) {
    if (v.empty()) return 1;
    const std::size_t stride = std::max<std::size_t>(1, v.size() / 65536);
    std::vector<float> sample;
    sample.reserve(v.size() / stride + 1);
    for (std::size_t i = 0; i < v.size(); i += stride)
        sample.push_back(std::abs(v[i]));
    const auto k = std::size_t(0.99 * double(sample.size() - 1));
    std::nth_element(sample.begin(), sample.begin() + std::ptrdiff_t(k), sample.end());
    const double clip = sample[k];
    return clip > 0 && std::isfinite(clip) ? clip : 1;
}

} // namespace

struct VolumeSlicesView::Impl {
    Model model;
    std::vector<Point> sources, receivers;
    std::array<Volume, 3> fields; // by Layer; [0] unused (the model)
    std::array<QString, 3> captions;
    Layer layer = Layer::Model;
    std::array<std::int64_t, 3> index{0, 0, 0};
    std::array<SliceView*, 3> views{};
    std::array<QSlider*, 3> sliders{};
    std::array<QLabel*, 3> labels{};
    Volume3DView* volume = nullptr;
    QComboBox* layer_box = nullptr;
    QComboBox* areal_box = nullptr;
    QCheckBox* volume_box = nullptr;
    std::array<QSpinBox*, 2> counts{};
    QLabel* caption = nullptr;
    double low = 0, high = 1;
    double field_seconds = 0;
    int fields_shown = 0;
    double render_baseline_s = 0;
    bool updating_sliders = false;

    bool has_model() const {
        return model.grid.rank == 3 && std::int64_t(model.vp_mps.size()) == model.grid.cells() &&
               model.grid.cells() > 0;
    }
    const std::vector<float>* volume_of(Layer l) const {
        if (l == Layer::Model) return &model.vp_mps;
        const Volume& f = fields[std::size_t(l)];
        return f && std::int64_t(f->size()) == model.grid.cells() ? f.get() : nullptr;
    }
};

VolumeSlicesView::VolumeSlicesView(QWidget* parent) : QWidget(parent), d_(std::make_unique<Impl>()) {
    setObjectName("volume_slices_view");
    build_controls();
}

VolumeSlicesView::~VolumeSlicesView() = default;

void VolumeSlicesView::build_controls() {
    auto* top = new QHBoxLayout;
    top->setContentsMargins(6, 2, 6, 2);
    d_->layer_box = new QComboBox(this);
    d_->layer_box->setObjectName("volume_layer");
    d_->layer_box->addItems({tr("Model"), tr("Wavefield"), tr("Gradient")});
    d_->layer_box->setToolTip(tr("What the slices show: the model, or a run's live (or last) wavefield or "
                                 "gradient over the greyed model"));
    d_->areal_box = new QComboBox(this);
    d_->areal_box->setObjectName("volume_areal_mode");
    d_->areal_box->addItems({tr("Off (drag pans)"), tr("Sources"), tr("Receivers")});
    d_->areal_box->setToolTip(tr("Drag a rectangle on the depth slice to place an areal grid of sources or "
                                 "receivers at the depth slice's depth"));
    d_->volume_box = new QCheckBox(tr("Volume"), this);
    d_->volume_box->setObjectName("volume_rendering");
    d_->volume_box->setToolTip(
        tr("Also draw the shown wavefield or gradient as a translucent volume in the 3D view (values near "
           "zero are transparent)"));
    top->addWidget(new QLabel(tr("Show"), this));
    top->addWidget(d_->layer_box);
    top->addWidget(d_->volume_box);
    top->addSpacing(16);
    top->addWidget(new QLabel(tr("Areal grid"), this));
    top->addWidget(d_->areal_box);
    const char* names[2] = {"n x", "n y"};
    for (int i = 0; i < 2; ++i) {
        auto* box = new QSpinBox(this);
        box->setObjectName(i == 0 ? "volume_areal_nx" : "volume_areal_ny");
        box->setRange(1, 1000);
        box->setValue(4);
        top->addWidget(new QLabel(tr(names[i]), this));
        top->addWidget(box);
        d_->counts[std::size_t(i)] = box;
    }
    d_->caption = new QLabel(this);
    d_->caption->setObjectName("volume_caption");
    top->addStretch(1);
    top->addWidget(d_->caption);

    auto* grid = new QGridLayout;
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    for (SliceAxis axis : slice_axes) {
        const auto a = std::size_t(axis);
        auto* cell = new QVBoxLayout;
        auto* header = new QHBoxLayout;
        header->setContentsMargins(6, 0, 6, 0);
        d_->views[a] = new SliceView(axis, this);
        d_->sliders[a] = new QSlider(Qt::Horizontal, this);
        d_->sliders[a]->setObjectName(QString("slider_") + slice_name(axis));
        d_->labels[a] = new QLabel(this);
        d_->labels[a]->setObjectName(QString("position_") + slice_name(axis));
        auto* name = new QLabel(QString("<b>%1</b>").arg(tr(slice_name(axis))), this);
        header->addWidget(name);
        header->addStretch(1);
        header->addWidget(d_->labels[a]);
        cell->addLayout(header);
        cell->addWidget(d_->sliders[a]);
        cell->addWidget(d_->views[a], 1);
        // One colour range for the three: one colour bar (top right) is enough, and the room goes to the
        // pictures.
        d_->views[a]->set_compact(true);
        d_->views[a]->set_colorbar_visible(axis == SliceAxis::Crossline);
        grid->addLayout(cell, axis == SliceAxis::Depth ? 1 : 0, axis == SliceAxis::Crossline ? 1 : 0);
        connect(d_->sliders[a], &QSlider::valueChanged, this, [this, axis](int v) {
            if (!d_->updating_sliders) set_slice_index(axis, v);
        });
    }
    d_->volume = new Volume3DView(this);
    auto* cell = new QVBoxLayout;
    auto* title = new QLabel(tr("<b>3D</b> (drag: rotate, wheel: zoom, double click: reset)"), this);
    title->setContentsMargins(6, 0, 6, 0);
    cell->addWidget(title);
    cell->addWidget(d_->volume, 1);
    grid->addLayout(cell, 1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addLayout(grid, 1);

    connect(d_->layer_box, &QComboBox::currentIndexChanged, this,
            [this](int i) { show_layer(Layer(std::clamp(i, 0, 2))); });
    connect(d_->volume_box, &QCheckBox::toggled, this, [this](bool on) {
        d_->volume->set_volume_rendering(on);
        update_rendered_volume();
    });
    connect(d_->areal_box, &QComboBox::currentIndexChanged, this,
            [this](int i) { set_areal_mode(ArealMode(std::clamp(i, 0, 2))); });
    connect(d_->views[std::size_t(SliceAxis::Depth)], &SliceView::rectangle_dragged, this,
            &VolumeSlicesView::on_rectangle);
}

void VolumeSlicesView::set_model(const Model& model) {
    if (model.grid.rank != 3 || std::int64_t(model.vp_mps.size()) != model.grid.cells()) return;
    const bool new_grid = !(model.grid == d_->model.grid);
    d_->model = model;
    if (new_grid) {
        clear_fields();
        d_->volume->set_grid(model.grid);
    }
    d_->updating_sliders = true;
    for (SliceAxis axis : slice_axes) {
        const auto a = std::size_t(axis);
        const std::int64_t n = slice_count(model.grid, axis);
        if (new_grid) d_->index[a] = n / 2;
        d_->index[a] = std::clamp<std::int64_t>(d_->index[a], 0, n - 1);
        d_->sliders[a]->setRange(0, int(n - 1));
        d_->sliders[a]->setValue(int(d_->index[a]));
    }
    d_->updating_sliders = false;
    apply_colors();
    refresh_all();
}

const Grid& VolumeSlicesView::grid() const {
    return d_->model.grid;
}

void VolumeSlicesView::set_points(std::vector<Point> sources, std::vector<Point> receivers) {
    d_->sources = std::move(sources);
    d_->receivers = std::move(receivers);
    d_->volume->set_points(d_->sources, d_->receivers);
    if (!d_->has_model()) return;
    for (SliceAxis axis : slice_axes) {
        const double tol = axis == SliceAxis::Depth ? -1.0 : near_slice_cells;
        const std::int64_t i = d_->index[std::size_t(axis)];
        d_->views[std::size_t(axis)]->set_points(points_on_slice(d_->sources, grid(), axis, i, tol),
                                                 points_on_slice(d_->receivers, grid(), axis, i, tol));
    }
}

void VolumeSlicesView::set_field(Layer layer, Volume values, const QString& caption) {
    if (layer == Layer::Model || !values || std::int64_t(values->size()) != grid().cells()) return;
    QElapsedTimer clock;
    clock.start();
    d_->fields[std::size_t(layer)] = std::move(values);
    d_->captions[std::size_t(layer)] = caption;
    if (layer == d_->layer) {
        apply_colors();
        refresh_all();
    }
    d_->field_seconds += double(clock.nsecsElapsed()) * 1e-9;
    ++d_->fields_shown;
}

void VolumeSlicesView::clear_fields() {
    for (Volume& f : d_->fields)
        f.reset();
    for (QString& c : d_->captions)
        c.clear();
    update_rendered_volume();
    if (d_->layer != Layer::Model) refresh_all();
}

void VolumeSlicesView::clear_field(Layer layer) {
    if (layer == Layer::Model) return;
    d_->fields[std::size_t(layer)].reset();
    d_->captions[std::size_t(layer)].clear();
    if (d_->layer == layer) {
        apply_colors();
        refresh_all();
    }
}

void VolumeSlicesView::mark_stale(Layer layer) {
    QString& caption = d_->captions[std::size_t(layer)];
    if (layer == Layer::Model || !d_->fields[std::size_t(layer)] || caption.endsWith(tr(" (last run)")))
        return;
    caption += tr(" (last run)");
    if (layer == d_->layer) d_->caption->setText(caption);
}

void VolumeSlicesView::show_layer(Layer layer) {
    const bool changed = layer != d_->layer;
    d_->layer = layer;
    d_->layer_box->setCurrentIndex(int(layer)); // re-enters with the same layer: no-op below
    if (!changed) return;
    for (SliceView* v : d_->views) {
        v->set_titles(v->axis() == SliceAxis::Crossline ? "y (m)" : "x (m)",
                      v->axis() == SliceAxis::Depth ? "y (m)" : "z (m)",
                      layer == Layer::Model      ? tr("vp (m/s)")
                      : layer == Layer::Gradient ? tr("dJ/dv (s/m)")
                                                 : tr("wavefield (a.u.)"));
    }
    apply_colors();
    refresh_all();
    emit layer_changed(layer);
}

VolumeSlicesView::Layer VolumeSlicesView::layer() const {
    return d_->layer;
}

const std::vector<float>* VolumeSlicesView::shown_volume() const {
    return d_->volume_of(d_->layer);
}

std::int64_t VolumeSlicesView::slice_index(SliceAxis axis) const {
    return d_->index[std::size_t(axis)];
}

void VolumeSlicesView::set_slice_index(SliceAxis axis, std::int64_t index) {
    const auto a = std::size_t(axis);
    const std::int64_t n = std::max<std::int64_t>(slice_count(grid(), axis), 1);
    index = std::clamp<std::int64_t>(index, 0, n - 1);
    d_->index[a] = index;
    d_->updating_sliders = true;
    d_->sliders[a]->setValue(int(index));
    d_->updating_sliders = false;
    refresh_slice(axis);
}

SliceView* VolumeSlicesView::slice_view(SliceAxis axis) const {
    return d_->views[std::size_t(axis)];
}
QSlider* VolumeSlicesView::slider(SliceAxis axis) const {
    return d_->sliders[std::size_t(axis)];
}
QLabel* VolumeSlicesView::position_label(SliceAxis axis) const {
    return d_->labels[std::size_t(axis)];
}
Volume3DView* VolumeSlicesView::volume_view() const {
    return d_->volume;
}

void VolumeSlicesView::set_areal_mode(ArealMode mode) {
    d_->areal_box->setCurrentIndex(int(mode));
    d_->views[std::size_t(SliceAxis::Depth)]->set_rectangle_mode(mode != ArealMode::Off);
}

VolumeSlicesView::ArealMode VolumeSlicesView::areal_mode() const {
    return ArealMode(d_->areal_box->currentIndex());
}

void VolumeSlicesView::set_areal_counts(int count_x, int count_y) {
    d_->counts[0]->setValue(count_x);
    d_->counts[1]->setValue(count_y);
}

QSpinBox* VolumeSlicesView::areal_count_box(int axis) const {
    return d_->counts[std::size_t(std::clamp(axis, 0, 1))];
}

double VolumeSlicesView::field_seconds() const {
    return d_->field_seconds;
}
int VolumeSlicesView::fields_shown() const {
    return d_->fields_shown;
}
double VolumeSlicesView::render_seconds() const {
    double s = d_->volume->render_seconds();
    for (SliceView* v : d_->views)
        s += v->render_seconds();
    return s - d_->render_baseline_s;
}

double VolumeSlicesView::draw_estimate_seconds() const {
    double s = d_->volume->last_render_seconds();
    for (SliceView* v : d_->views)
        s += v->last_render_seconds();
    return s;
}

void VolumeSlicesView::reset_field_cost() {
    d_->field_seconds = 0;
    d_->fields_shown = 0;
    d_->render_baseline_s = 0;
    d_->render_baseline_s = render_seconds();
}

void VolumeSlicesView::apply_colors() {
    const std::vector<float>* v = d_->volume_of(d_->layer);
    Colormap colormap = Colormap::Viridis;
    if (d_->layer == Layer::Model || !v) {
        const auto [lo, hi] = std::minmax_element(d_->model.vp_mps.begin(), d_->model.vp_mps.end());
        d_->low = d_->model.vp_mps.empty() ? 0 : *lo;
        d_->high = d_->model.vp_mps.empty() ? 1 : *hi;
    } else {
        colormap = Colormap::Seismic;
        const double clip = symmetric_clip(*v);
        d_->low = -clip;
        d_->high = clip;
    }
    for (SliceView* view : d_->views) {
        view->set_colormap(colormap);
        view->set_value_range(d_->low, d_->high);
    }
    d_->volume->set_colors(colormap, d_->low, d_->high);
    update_rendered_volume();
    d_->caption->setText(d_->layer == Layer::Model ? QString()
                         : v                       ? d_->captions[std::size_t(d_->layer)]
                                                   : tr("(nothing yet: run a job)"));
}

void VolumeSlicesView::update_rendered_volume() {
    // Only the shown field, and only when asked for: handing the view a field it does not draw costs
    // nothing, but keeping the model out of it keeps "Volume" meaning "the run's field".
    const bool wanted = d_->volume_box->isChecked() && d_->layer != Layer::Model && d_->volume_of(d_->layer);
    d_->volume->set_volume(wanted ? d_->fields[std::size_t(d_->layer)] : nullptr);
}

QCheckBox* VolumeSlicesView::volume_rendering_box() const {
    return d_->volume_box;
}

void VolumeSlicesView::refresh_slice(SliceAxis axis) {
    if (!d_->has_model()) return;
    const auto a = std::size_t(axis);
    const Grid& g = grid();
    const std::int64_t index = d_->index[a];
    d_->labels[a]->setText(tr("%1 = %2 m (%3 of %4)")
                               .arg(slice_axis_letter(axis))
                               .arg(slice_position_m(g, axis, index), 0, 'f', 1)
                               .arg(index + 1)
                               .arg(slice_count(g, axis)));
    SliceView* view = d_->views[a];
    const std::vector<float>* field = d_->layer == Layer::Model ? nullptr : d_->volume_of(d_->layer);
    const Model model_slice = slice_model(d_->model, axis, index);
    if (field) {
        const std::vector<float> values = slice_values(g, *field, axis, index);
        const Grid& s = model_slice.grid;
        view->set_underlay(model_slice.vp_mps, s.nz(), s.nx(), s.dz(), s.dx());
        view->set_image(values, s.nz(), s.nx(), s.dz(), s.dx());
        d_->volume->set_plane(axis, values, index);
    } else {
        view->set_underlay({}, 0, 0, 1, 1);
        view->set_model(model_slice);
        d_->volume->set_plane(axis, model_slice.vp_mps, index);
    }
    const double tol = axis == SliceAxis::Depth ? -1.0 : near_slice_cells;
    view->set_points(points_on_slice(d_->sources, g, axis, index, tol),
                     points_on_slice(d_->receivers, g, axis, index, tol));
}

void VolumeSlicesView::refresh_all() {
    for (SliceAxis axis : slice_axes)
        refresh_slice(axis);
}

void VolumeSlicesView::on_rectangle(QPointF from, QPointF to) {
    const ArealMode mode = areal_mode();
    if (mode == ArealMode::Off || !d_->has_model()) return;
    const PointKind kind = mode == ArealMode::Sources ? PointKind::Source : PointKind::Receiver;
    const double depth = slice_position_m(grid(), SliceAxis::Depth, d_->index[std::size_t(SliceAxis::Depth)]);
    const Point a = from_slice_coordinates({from.x(), from.y()}, SliceAxis::Depth, depth);
    const Point b = from_slice_coordinates({to.x(), to.y()}, SliceAxis::Depth, depth);
    for (Point corner : {a, b, Point{a.x_m, depth, b.y_m}, Point{b.x_m, depth, a.y_m}}) {
        const std::string msg = outside_message(grid(), corner, kind);
        if (!msg.empty()) {
            emit refused(tr("The areal grid's rectangle must lie inside the model: %1")
                             .arg(QString::fromStdString(msg)));
            return;
        }
    }
    emit areal_requested(kind, a, b, d_->counts[0]->value(), d_->counts[1]->value());
}

} // namespace fwi::ui
