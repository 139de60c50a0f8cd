#include "fwi/ui/slice_view.hpp"

#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>

namespace fwi::ui {

struct SliceView::Impl {
    SliceAxis axis;
    bool rectangle_mode = false;
    bool dragging = false;
    QPointF press_px, current_px;
    // The rectangle being dragged, in display pixels (y up).
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> lines;
    vtkNew<vtkPolyData> outline;
    vtkNew<vtkPolyDataMapper2D> mapper;
    vtkNew<vtkActor2D> actor;
};

SliceView::SliceView(SliceAxis axis, QWidget* parent) : ModelView(parent), d_(std::make_unique<Impl>()) {
    d_->axis = axis;
    const char* col = axis == SliceAxis::Crossline ? "y (m)" : "x (m)";
    const char* row = axis == SliceAxis::Depth ? "y (m)" : "z (m)";
    set_titles(col, row, "vp (m/s)");
    setObjectName(QString("slice_view_") + slice_name(axis));
    d_->outline->SetPoints(d_->points);
    d_->outline->SetLines(d_->lines);
    d_->mapper->SetInputData(d_->outline);
    d_->actor->SetMapper(d_->mapper);
    d_->actor->GetProperty()->SetColor(1.0, 0.85, 0.1);
    d_->actor->GetProperty()->SetLineWidth(2.0f);
    renderer()->AddActor2D(d_->actor);
    setCursor(Qt::OpenHandCursor);
    // A slice is a nearest-neighbour image: multisampling smooths little but the markers' edges, and with
    // software OpenGL (Xvfb, remote desktops) it makes every repaint 4x dearer (18 ms -> 5 ms measured),
    // which the live slices of a run pay three times per field.
    render_window()->SetMultiSamples(0);
}

SliceView::~SliceView() = default;

SliceAxis SliceView::axis() const {
    return d_->axis;
}

void SliceView::set_rectangle_mode(bool on) {
    d_->rectangle_mode = on;
    d_->dragging = false;
    setCursor(on ? Qt::CrossCursor : Qt::OpenHandCursor);
    update();
}

bool SliceView::rectangle_mode() const {
    return d_->rectangle_mode;
}

bool SliceView::left_press(QPointF px, Qt::KeyboardModifiers mods) {
    if (!d_->rectangle_mode || !has_image() || (mods & Qt::ShiftModifier)) return false; // pan
    d_->dragging = true;
    d_->press_px = d_->current_px = px;
    return true;
}

bool SliceView::left_drag(QPointF px, Qt::KeyboardModifiers) {
    if (!d_->dragging) return false;
    d_->current_px = px;
    update();
    return true;
}

bool SliceView::left_release(QPointF px, Qt::KeyboardModifiers) {
    if (!d_->dragging) return false;
    d_->dragging = false;
    d_->current_px = px;
    update();
    emit rectangle_dragged(to_model(d_->press_px), to_model(px));
    return true;
}

void SliceView::update_overlays() {
    ModelView::update_overlays();
    d_->points->Reset();
    d_->lines->Reset();
    if (d_->dragging) {
        const double dpr = devicePixelRatioF(), h = height();
        const QRectF r = QRectF(d_->press_px, d_->current_px).normalized();
        vtkIdType ids[5];
        const QPointF corners[4] = {r.topLeft(), r.topRight(), r.bottomRight(), r.bottomLeft()};
        for (int i = 0; i < 4; ++i)
            ids[i] = d_->points->InsertNextPoint(corners[i].x() * dpr, (h - corners[i].y()) * dpr, 0);
        ids[4] = ids[0];
        d_->lines->InsertNextCell(5, ids);
    }
    d_->points->Modified();
    d_->lines->Modified();
    d_->outline->Modified();
}

} // namespace fwi::ui
