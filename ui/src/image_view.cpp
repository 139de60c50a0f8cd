#include "fwi/ui/image_view.hpp"

#include "image_frame.hpp"
#include "image_underlay.hpp"

#include <QMouseEvent>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkFloatArray.h>
#include <vtkImageActor.h>
#include <vtkImageData.h>
#include <vtkImageMapper3D.h>
#include <vtkImageProperty.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace fwi::ui {
namespace {
constexpr ViewMargins full_margins{70, 48, 110, 16}; // left: z axis, top: x axis, right: colour bar
} // namespace

struct ImageView::Impl {
    vtkNew<vtkImageData> image;
    vtkNew<vtkFloatArray> scalars;
    vtkNew<vtkLookupTable> table;
    vtkNew<vtkImageActor> actor;
    ImageFrame frame; // axes, colour bar, clip caption
    ImageUnderlay underlay;
    double opacity = 0.8;
    std::vector<float> values;
    std::int64_t rows = 0, cols = 0;
    double dz = 1, dx = 1, oz = 0, ox = 0;
    Colormap colormap = Colormap::Viridis;
    RangeMode mode = RangeMode::MinMax;
    double low = 0, high = 1;
    ViewTransform view;
    double x_scale = 1, z_scale = 1;
    bool colorbar = true, compact = false;
    ViewMargins margins() const {
        ViewMargins m = full_margins;
        if (compact) m = {48, 40, 90, 10};
        if (!colorbar) m.right = 12;
        if (mode == RangeMode::Symmetric && !compact) m.bottom = 30; // room for the clip caption
        return m;
    }
    bool automatic_view = true; // refit on resize until the user zooms or pans
    Qt::MouseButton drag_button = Qt::NoButton;
    bool left_handled = false;
    QPointF last_px;
};

ImageView::ImageView(QWidget* parent) : VtkWidget(parent), d_(std::make_unique<Impl>()) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    d_->image->SetDimensions(1, 1, 1);
    d_->scalars->SetNumberOfTuples(1);
    d_->scalars->SetValue(0, 0);
    d_->image->GetPointData()->SetScalars(d_->scalars);
    apply_colormap(d_->table, d_->colormap, d_->low, d_->high);
    d_->actor->GetMapper()->SetInputData(d_->image);
    d_->actor->GetMapper()
        ->BorderOn(); // draw edge cells whole: cell centres at the points, edges half a cell out
    d_->actor->GetProperty()->SetLookupTable(d_->table);
    d_->actor->GetProperty()->UseLookupTableScalarRangeOn();
    d_->actor->GetProperty()->SetInterpolationTypeToNearest();
    d_->actor->SetVisibility(false);

    d_->frame.set_lookup_table(d_->table);

    renderer()->SetBackground(0.96, 0.96, 0.97);
    renderer()->AddActor(d_->underlay.actor());
    renderer()->AddActor(d_->actor);
    d_->frame.add_to(renderer());
    vtkCamera* camera = renderer()->GetActiveCamera();
    camera->ParallelProjectionOn();
}

ImageView::~ImageView() = default;

void ImageView::set_image(std::span<const float> values, std::int64_t rows, std::int64_t cols,
                          double spacing_z, double spacing_x, double origin_z, double origin_x) {
    if (rows <= 0 || cols <= 0 || std::int64_t(values.size()) != rows * cols) return;
    const bool geometry_changed = rows != d_->rows || cols != d_->cols || spacing_z != d_->dz ||
                                  spacing_x != d_->dx || origin_z != d_->oz || origin_x != d_->ox;
    d_->values.assign(values.begin(), values.end());
    d_->rows = rows;
    d_->cols = cols;
    d_->dz = spacing_z;
    d_->dx = spacing_x;
    d_->oz = origin_z;
    d_->ox = origin_x;
    if (geometry_changed) {
        d_->image->SetDimensions(int(cols), int(rows), 1);
        d_->image->SetSpacing(spacing_x, spacing_z, 1);
        d_->image->SetOrigin(origin_x, origin_z, 0);
        d_->scalars->SetNumberOfTuples(rows * cols);
    }
    // vtkImageData is x fastest, then y: the same layout as ours with y = z.
    std::copy(values.begin(), values.end(), d_->scalars->GetPointer(0));
    d_->scalars->Modified();
    d_->image->Modified();
    d_->actor->SetVisibility(true);
    d_->frame.show(true, d_->colorbar);
    update_range();
    if (geometry_changed) d_->automatic_view = true;
    fit_if_automatic();
    request_render();
}

void ImageView::set_underlay(std::span<const float> values, std::int64_t rows, std::int64_t cols,
                             double spacing_z, double spacing_x, double origin_z, double origin_x) {
    if (values.empty())
        d_->underlay.clear();
    else
        d_->underlay.set(values, rows, cols, spacing_z, spacing_x, origin_z, origin_x);
    apply_table(); // the alphas depend on whether there is an underlay
    request_render();
}

bool ImageView::has_underlay() const {
    return d_->underlay.shown();
}

void ImageView::set_image_opacity(double opacity) {
    d_->opacity = std::clamp(opacity, 0.0, 1.0);
    apply_table();
    request_render();
}

double ImageView::image_opacity() const {
    return d_->opacity;
}

double ImageView::alpha_at(double value) const {
    return d_->table->GetOpacity(value);
}

void ImageView::apply_table() {
    apply_colormap(d_->table, d_->colormap, d_->low, d_->high);
    if (!d_->underlay.shown()) return;
    // Over an underlay: the chosen opacity, faded to transparent near the middle of a symmetric scale (zero)
    // or the low end of a one-sided one; full weight from a third of the way out.
    const int n = int(d_->table->GetNumberOfTableValues());
    for (int i = 0; i < n; ++i) {
        const double t = double(i) / (n - 1);
        const double out = d_->mode == RangeMode::Symmetric ? std::abs(2 * t - 1) : t;
        double rgba[4];
        d_->table->GetTableValue(i, rgba);
        rgba[3] = d_->opacity * std::min(1.0, 3 * out);
        d_->table->SetTableValue(i, rgba);
    }
    d_->table->Modified();
}

bool ImageView::has_image() const {
    return d_->rows > 0;
}
std::int64_t ImageView::rows() const {
    return d_->rows;
}
std::int64_t ImageView::cols() const {
    return d_->cols;
}

bool ImageView::value_at(double x, double z, float& value) const {
    if (!has_image()) return false;
    const auto ix = std::int64_t(std::floor((x - d_->ox) / d_->dx + 0.5));
    const auto iz = std::int64_t(std::floor((z - d_->oz) / d_->dz + 0.5));
    if (ix < 0 || iz < 0 || ix >= d_->cols || iz >= d_->rows) return false;
    value = d_->values[std::size_t(iz * d_->cols + ix)];
    return true;
}

void ImageView::set_colormap(Colormap c) {
    d_->colormap = c;
    apply_table();
    request_render();
}
Colormap ImageView::colormap() const {
    return d_->colormap;
}

void ImageView::set_range_mode(RangeMode mode) {
    d_->mode = mode;
    update_range();
    request_render();
}

void ImageView::set_value_range(double low, double high) {
    d_->mode = RangeMode::Fixed;
    d_->low = low;
    d_->high = high;
    apply_table();
    request_render();
}

std::pair<double, double> ImageView::value_range() const {
    return {d_->low, d_->high};
}

QString ImageView::caption() const {
    if (d_->mode != RangeMode::Symmetric || d_->values.empty()) return {};
    return QString::fromUtf8(d_->frame.caption());
}

void ImageView::set_titles(const QString& x_title, const QString& z_title, const QString& value_title) {
    d_->frame.set_titles(x_title.toUtf8().constData(), z_title.toUtf8().constData(),
                         value_title.toUtf8().constData());
    request_render();
}

void ImageView::update_range() {
    if (d_->values.empty() || d_->mode == RangeMode::Fixed) return;
    if (d_->mode == RangeMode::MinMax) {
        float lo = INFINITY, hi = -INFINITY;
        for (float v : d_->values)
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        if (!std::isfinite(lo)) lo = hi = 0;
        d_->low = lo;
        d_->high = hi;
    } else {
        // 99.5th percentile of |value| on a subsample: robust to the source's spike, cheap on big grids.
        std::vector<float> mags;
        const std::size_t stride = std::max<std::size_t>(1, d_->values.size() / 65536);
        for (std::size_t i = 0; i < d_->values.size(); i += stride)
            if (std::isfinite(d_->values[i])) mags.push_back(std::abs(d_->values[i]));
        double m = 0;
        if (!mags.empty()) {
            auto k = mags.begin() + std::ptrdiff_t(double(mags.size() - 1) * 0.995);
            std::nth_element(mags.begin(), k, mags.end());
            m = *k;
        }
        if (!(m > 0)) m = 1e-30;
        d_->low = -m;
        d_->high = m;
    }
    d_->frame.set_caption(
        QObject::tr("colour scale symmetric about 0, clipped at \u00b1%1 (the 99.5th percentile of |value|)")
            .arg(d_->high, 0, 'g', 3)
            .toUtf8()
            .constData());
    apply_table();
}

std::array<double, 4> ImageView::image_bounds() const {
    return {d_->ox - 0.5 * d_->dx, d_->ox + (double(d_->cols) - 0.5) * d_->dx, d_->oz - 0.5 * d_->dz,
            d_->oz + (double(d_->rows) - 0.5) * d_->dz};
}

void ImageView::set_colorbar_visible(bool visible) {
    d_->colorbar = visible;
    d_->frame.set_colorbar_visible(visible && has_image());
    fit_if_automatic();
    request_render();
}

void ImageView::set_compact(bool compact) {
    d_->compact = compact;
    fit_if_automatic();
    request_render();
}

void ImageView::set_label_scale(double x_scale, double z_scale) {
    d_->x_scale = x_scale > 0 ? x_scale : 1;
    d_->z_scale = z_scale > 0 ? z_scale : 1;
    request_render();
}

const ViewTransform& ImageView::view_transform() const {
    return d_->view;
}

QPointF ImageView::to_model(QPointF px) const {
    const MetresPoint m = d_->view.to_metres({px.x(), px.y()});
    return {m.x_m, m.z_m};
}

QPointF ImageView::to_widget(QPointF xz) const {
    const PixelPoint p = d_->view.to_pixels({xz.x(), xz.y()});
    return {p.x_px, p.y_px};
}

void ImageView::reset_view() {
    d_->automatic_view = true;
    fit_if_automatic();
    update();
    emit view_changed();
}

void ImageView::fit_if_automatic() {
    if (!d_->automatic_view) {
        d_->view.width_px = std::max(width(), 1);
        d_->view.height_px = std::max(height(), 1);
        return;
    }
    const auto b = has_image() ? image_bounds() : std::array<double, 4>{0, 1, 0, 1};
    d_->view = fit_box(b[0], b[1], b[2], b[3], width(), height(), d_->margins());
}

void ImageView::zoom_by(double factor, QPointF anchor) {
    d_->automatic_view = false;
    d_->view.zoom_about({anchor.x(), anchor.y()}, factor);
    update();
    emit view_changed();
}

void ImageView::resizeEvent(QResizeEvent* event) {
    VtkWidget::resizeEvent(event);
    fit_if_automatic();
}

void ImageView::prepare_render(int width_px, int height_px) {
    if (d_->view.width_px != width_px || d_->view.height_px != height_px) fit_if_automatic();
    const ViewTransform& v = d_->view;
    // Camera behind the image looking along +z with "up" = -y: model x goes right and model z goes down, as
    // on paper.
    vtkCamera* camera = renderer()->GetActiveCamera();
    camera->SetFocalPoint(v.centre_x_m, v.centre_z_m, 0);
    camera->SetPosition(v.centre_x_m, v.centre_z_m, -1000);
    camera->SetViewUp(0, -1, 0);
    camera->SetParallelScale(0.5 * v.height_px * v.metres_per_pixel);
    camera->SetClippingRange(1, 2000);
    update_axes();
    update_overlays();
}

void ImageView::update_axes() {
    if (!has_image()) return;
    d_->frame.place({.view = d_->view,
                     .bounds = image_bounds(),
                     .margins = d_->margins(),
                     .device_pixel_ratio = devicePixelRatioF(),
                     .x_scale = d_->x_scale,
                     .z_scale = d_->z_scale,
                     .caption = d_->mode == RangeMode::Symmetric && !d_->compact});
}

void ImageView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::RightButton) return VtkWidget::mousePressEvent(event); // context menu
    d_->last_px = event->position();
    d_->drag_button = event->button();
    d_->left_handled = false;
    if (event->button() == Qt::LeftButton)
        d_->left_handled = left_press(event->position(), event->modifiers());
    event->accept();
}

void ImageView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF p = event->position();
    const bool pan =
        d_->drag_button == Qt::MiddleButton || (d_->drag_button == Qt::LeftButton && !d_->left_handled);
    if (d_->drag_button == Qt::LeftButton && d_->left_handled) {
        left_drag(p, event->modifiers());
    } else if (pan) {
        d_->automatic_view = false;
        d_->view.pan_pixels(p.x() - d_->last_px.x(), p.y() - d_->last_px.y());
        update();
        emit view_changed();
    }
    d_->last_px = p;
    const QPointF m = to_model(p);
    float value = 0;
    const bool inside = value_at(m.x(), m.y(), value);
    emit cursor_moved(m.x() * d_->x_scale, m.y() * d_->z_scale, inside ? double(value) : 0.0, inside);
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && d_->left_handled)
        left_release(event->position(), event->modifiers());
    if (event->button() == d_->drag_button) d_->drag_button = Qt::NoButton;
    d_->left_handled = false;
}

void ImageView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0) zoom_by(std::pow(1.2, steps), event->position());
    event->accept();
}

void ImageView::leaveEvent(QEvent* event) {
    VtkWidget::leaveEvent(event);
    emit cursor_moved(0, 0, 0, false);
}

} // namespace fwi::ui
