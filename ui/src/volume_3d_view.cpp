#include "fwi/ui/volume_3d_view.hpp"

#include <QMouseEvent>
#include <QWheelEvent>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkColorTransferFunction.h>
#include <vtkFloatArray.h>
#include <vtkImageActor.h>
#include <vtkImageData.h>
#include <vtkImageMapper3D.h>
#include <vtkImageProperty.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkPiecewiseFunction.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartVolumeMapper.h>
#include <vtkVolume.h>
#include <vtkVolumeProperty.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace fwi::ui {
namespace {

/// One slice as a one-cell-thick image placed in the volume: the slice layouts of volume_slice.hpp are
/// exactly vtkImageData's (x fastest, then y, then z) with the normal axis of extent 1.
struct Plane {
    vtkNew<vtkImageData> image;
    vtkNew<vtkFloatArray> scalars;
    vtkNew<vtkImageActor> actor;
    Plane() {
        image->GetPointData()->SetScalars(scalars);
        actor->GetMapper()->SetInputData(image);
        actor->GetMapper()->BorderOn();
        actor->GetProperty()->UseLookupTableScalarRangeOn();
        actor->GetProperty()->SetInterpolationTypeToNearest();
        actor->SetVisibility(false);
    }
};

/// Points drawn as round dots of a fixed pixel size.
struct Dots {
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> verts;
    vtkNew<vtkPolyData> data;
    vtkNew<vtkPolyDataMapper> mapper;
    vtkNew<vtkActor> actor;
    Dots(double r, double g, double b, float size) {
        data->SetPoints(points);
        data->SetVerts(verts);
        mapper->SetInputData(data);
        actor->SetMapper(mapper);
        actor->GetProperty()->SetColor(r, g, b);
        actor->GetProperty()->SetPointSize(size);
        actor->GetProperty()->RenderPointsAsSpheresOn();
    }
    void set(const std::vector<Point>& pts) {
        points->Reset();
        verts->Reset();
        for (const Point& p : pts) {
            const vtkIdType id = points->InsertNextPoint(p.x_m, p.y_m, p.z_m);
            verts->InsertNextCell(1, &id);
        }
        points->Modified();
        verts->Modified();
        data->Modified();
    }
};

/// A whole field drawn by ray casting. The image wraps the shared values without a copy (VTK is told not to
/// free them; `values` keeps them alive).
struct RenderedVolume {
    std::shared_ptr<const std::vector<float>> values;
    vtkNew<vtkImageData> image;
    vtkNew<vtkFloatArray> scalars;
    vtkNew<vtkSmartVolumeMapper> mapper;
    vtkNew<vtkColorTransferFunction> colors;
    vtkNew<vtkPiecewiseFunction> opacity;
    vtkNew<vtkVolumeProperty> property;
    vtkNew<vtkVolume> volume;
    bool enabled = false;
    RenderedVolume() {
        image->GetPointData()->SetScalars(scalars);
        mapper->SetInputData(image);
        property->SetColor(colors);
        property->SetScalarOpacity(opacity);
        property->SetInterpolationTypeToLinear();
        property->ShadeOff();
        volume->SetMapper(mapper);
        volume->SetProperty(property);
        volume->SetVisibility(false);
    }
    /// Colours from the colour map over [low, high]; opacity 0 over the middle fifth of the range (around
    /// zero for a signed field) rising linearly to `peak` at both ends, per `unit_m` metres of ray, so that a
    /// ray through the whole volume is not opaque.
    void set_transfer(Colormap map, double low, double high, double unit_m) {
        colors->RemoveAllPoints();
        constexpr int samples = 32;
        for (int i = 0; i <= samples; ++i) {
            const double t = double(i) / samples;
            const QColor c = colormap_color(map, t);
            colors->AddRGBPoint(low + t * (high - low), c.redF(), c.greenF(), c.blueF());
        }
        const double mid = 0.5 * (low + high), quiet = 0.1 * (high - low);
        constexpr double peak = 0.5;
        opacity->RemoveAllPoints();
        opacity->AddPoint(low, peak);
        opacity->AddPoint(mid - quiet, 0.0);
        opacity->AddPoint(mid + quiet, 0.0);
        opacity->AddPoint(high, peak);
        property->SetScalarOpacityUnitDistance(unit_m);
    }
};

} // namespace

struct Volume3DView::Impl {
    Grid grid;
    std::array<Plane, 3> planes;
    vtkNew<vtkLookupTable> table;
    vtkNew<vtkPoints> box_points;
    vtkNew<vtkCellArray> box_lines;
    vtkNew<vtkPolyData> box;
    vtkNew<vtkPolyDataMapper> box_mapper;
    vtkNew<vtkActor> box_actor;
    Dots sources{0.92, 0.16, 0.16, 9.0f};
    Dots receivers{0.16, 0.7, 1.0, 6.0f};
    RenderedVolume rendered;
    Colormap colormap = Colormap::Viridis;
    double low = 0, high = 1;
    Qt::MouseButton button = Qt::NoButton;
    bool panning = false;
    QPointF last_px;
};

Volume3DView::Volume3DView(QWidget* parent) : VtkWidget(parent), d_(std::make_unique<Impl>()) {
    setObjectName("volume_3d_view");
    apply_colormap(d_->table, Colormap::Viridis, 0, 1);
    for (Plane& p : d_->planes) {
        p.actor->GetProperty()->SetLookupTable(d_->table);
        renderer()->AddActor(p.actor);
    }
    d_->box->SetPoints(d_->box_points);
    d_->box->SetLines(d_->box_lines);
    d_->box_mapper->SetInputData(d_->box);
    d_->box_actor->SetMapper(d_->box_mapper);
    d_->box_actor->GetProperty()->SetColor(0.1, 0.1, 0.12);
    d_->box_actor->GetProperty()->SetLineWidth(1.5f);
    renderer()->AddActor(d_->box_actor);
    renderer()->AddActor(d_->sources.actor);
    renderer()->AddActor(d_->receivers.actor);
    renderer()->AddVolume(d_->rendered.volume);
    renderer()->SetBackground(0.96, 0.96, 0.97);
    setMouseTracking(false);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Left drag: rotate; wheel: zoom; middle or Shift+left drag: pan; double click: reset"));
}

Volume3DView::~Volume3DView() = default;

void Volume3DView::set_grid(const Grid& grid) {
    if (grid == d_->grid) return;
    d_->grid = grid;
    // The outline joins the outer cell centres, as the slices' extents do (cells drawn whole reach half a
    // cell further).
    const double x1 = grid.width_m(), y1 = grid.breadth_m(), z1 = grid.depth_m();
    d_->box_points->Reset();
    d_->box_lines->Reset();
    for (int i = 0; i < 8; ++i)
        d_->box_points->InsertNextPoint((i & 1) ? x1 : 0, (i & 2) ? y1 : 0, (i & 4) ? z1 : 0);
    for (int i = 0; i < 8; ++i)
        for (int bit : {1, 2, 4})
            if (!(i & bit)) {
                const vtkIdType ids[2] = {i, i | bit};
                d_->box_lines->InsertNextCell(2, ids);
            }
    d_->box_points->Modified();
    d_->box_lines->Modified();
    d_->box->Modified();
    set_volume(nullptr); // a field of the old grid
    reset_camera();
}

void Volume3DView::set_plane(SliceAxis axis, std::span<const float> values, std::int64_t index) {
    const Grid& g = d_->grid;
    Plane& p = d_->planes[std::size_t(axis)];
    std::array<int, 3> dims{int(g.nx()), int(g.ny()), int(g.nz())};
    std::array<double, 3> origin{0, 0, 0};
    const int normal = axis == SliceAxis::Inline ? 1 : axis == SliceAxis::Crossline ? 0 : 2;
    dims[std::size_t(normal)] = 1;
    origin[std::size_t(normal)] = slice_position_m(g, axis, index);
    if (std::int64_t(values.size()) != std::int64_t(dims[0]) * dims[1] * dims[2]) {
        p.actor->SetVisibility(false);
        request_render();
        return;
    }
    p.image->SetDimensions(dims.data());
    p.image->SetSpacing(g.dx(), g.dy(), g.dz());
    p.image->SetOrigin(origin.data());
    p.scalars->SetNumberOfTuples(vtkIdType(values.size()));
    std::copy(values.begin(), values.end(), p.scalars->GetPointer(0));
    p.scalars->Modified();
    p.image->Modified();
    p.actor->SetDisplayExtent(0, dims[0] - 1, 0, dims[1] - 1, 0, dims[2] - 1);
    p.actor->SetVisibility(true);
    request_render();
}

void Volume3DView::set_colors(Colormap colormap, double low, double high) {
    apply_colormap(d_->table, colormap, low, high);
    d_->colormap = colormap;
    d_->low = low;
    d_->high = high;
    if (d_->rendered.values) apply_volume_colors();
    request_render();
}

void Volume3DView::apply_volume_colors() {
    const Grid& g = d_->grid;
    d_->rendered.set_transfer(d_->colormap, d_->low, d_->high, 4 * std::max({g.dx(), g.dy(), g.dz()}));
}

void Volume3DView::set_volume(std::shared_ptr<const std::vector<float>> values) {
    RenderedVolume& r = d_->rendered;
    const Grid& g = d_->grid;
    if (!values || g.rank != 3 || std::int64_t(values->size()) != g.cells()) values.reset();
    if (values != r.values) {
        const bool had_values = r.values != nullptr;
        r.values = std::move(values);
        if (r.values && !had_values) apply_volume_colors(); // later fields come with set_colors
        if (r.values) {
            // VTK reads, never writes, the scalars of a mapper's input: the const_cast is safe.
            r.scalars->SetArray(const_cast<float*>(r.values->data()), vtkIdType(r.values->size()), 1);
            r.image->SetDimensions(int(g.nx()), int(g.ny()), int(g.nz()));
            r.image->SetSpacing(g.dx(), g.dy(), g.dz());
            r.image->SetOrigin(0, 0, 0);
        } else {
            r.scalars->Initialize();
        }
        r.scalars->Modified();
        r.image->Modified();
    }
    r.volume->SetVisibility(volume_drawn());
    request_render();
}

void Volume3DView::set_volume_rendering(bool on) {
    d_->rendered.enabled = on;
    d_->rendered.volume->SetVisibility(volume_drawn());
    request_render();
}

bool Volume3DView::volume_rendering() const {
    return d_->rendered.enabled;
}

bool Volume3DView::volume_drawn() const {
    return d_->rendered.enabled && d_->rendered.values != nullptr;
}

void Volume3DView::set_points(const std::vector<Point>& sources, const std::vector<Point>& receivers) {
    d_->sources.set(sources);
    d_->receivers.set(receivers);
    request_render();
}

void Volume3DView::reset_camera() {
    vtkCamera* camera = renderer()->GetActiveCamera();
    const Grid& g = d_->grid;
    const double cx = 0.5 * g.width_m(), cy = 0.5 * g.breadth_m(), cz = 0.5 * g.depth_m();
    camera->SetFocalPoint(cx, cy, cz);
    // From the front (-y), left (-x) and above (-z, since z points down).
    camera->SetPosition(cx - 1.0, cy - 1.6, cz - 1.0);
    camera->SetViewUp(0, 0, -1);
    camera->OrthogonalizeViewUp();
    renderer()->ResetCamera();
    update();
}

void Volume3DView::rotate(double azimuth_deg, double elevation_deg) {
    vtkCamera* camera = renderer()->GetActiveCamera();
    camera->Azimuth(azimuth_deg);
    camera->Elevation(elevation_deg);
    camera->OrthogonalizeViewUp();
    renderer()->ResetCameraClippingRange();
    update();
}

void Volume3DView::zoom(double factor) {
    renderer()->GetActiveCamera()->Dolly(factor);
    renderer()->ResetCameraClippingRange();
    update();
}

void Volume3DView::pan(double dx_px, double dy_px) {
    vtkCamera* camera = renderer()->GetActiveCamera();
    double focal[3], position[3], up[3], direction[3];
    camera->GetFocalPoint(focal);
    camera->GetPosition(position);
    camera->GetViewUp(up);
    camera->GetDirectionOfProjection(direction);
    // Screen right = direction x up; move the scene with the cursor at the focal plane's scale.
    const double right[3] = {direction[1] * up[2] - direction[2] * up[1],
                             direction[2] * up[0] - direction[0] * up[2],
                             direction[0] * up[1] - direction[1] * up[0]};
    const double distance = camera->GetDistance();
    const double metres_per_px =
        2.0 * distance * std::tan(camera->GetViewAngle() * std::numbers::pi / 360.0) / std::max(height(), 1);
    for (int i = 0; i < 3; ++i) {
        const double shift = (-dx_px * right[i] + dy_px * up[i]) * metres_per_px;
        focal[i] += shift;
        position[i] += shift;
    }
    camera->SetFocalPoint(focal);
    camera->SetPosition(position);
    update();
}

void Volume3DView::mousePressEvent(QMouseEvent* event) {
    d_->button = event->button();
    d_->panning = event->button() == Qt::MiddleButton ||
                  (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    d_->last_px = event->position();
    event->accept();
}

void Volume3DView::mouseMoveEvent(QMouseEvent* event) {
    if (d_->button == Qt::NoButton) return;
    const QPointF delta = event->position() - d_->last_px;
    d_->last_px = event->position();
    if (d_->panning)
        pan(delta.x(), delta.y());
    else if (d_->button == Qt::LeftButton)
        rotate(-0.4 * delta.x(), 0.4 * delta.y());
    event->accept();
}

void Volume3DView::mouseReleaseEvent(QMouseEvent* event) {
    d_->button = Qt::NoButton;
    d_->panning = false;
    event->accept();
}

void Volume3DView::mouseDoubleClickEvent(QMouseEvent* event) {
    reset_camera();
    event->accept();
}

void Volume3DView::wheelEvent(QWheelEvent* event) {
    zoom(std::pow(1.1, event->angleDelta().y() / 120.0));
    event->accept();
}

} // namespace fwi::ui
