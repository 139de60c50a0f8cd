#include "fwi/ui/model_view.hpp"

#include <QKeyEvent>

#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fwi::ui {
namespace {

constexpr double hit_radius_px = 8;
constexpr double drag_threshold_px = 3;

/// Marker geometry in display pixels (y up): a filled polygon and its outline.
struct MarkerLayer {
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> polys;
    vtkNew<vtkCellArray> lines;
    vtkNew<vtkUnsignedCharArray> colours;
    vtkNew<vtkPolyData> fill, outline;
    vtkNew<vtkPolyDataMapper2D> fill_mapper, outline_mapper;
    vtkNew<vtkActor2D> fill_actor, outline_actor;

    MarkerLayer() {
        colours->SetNumberOfComponents(3);
        fill->SetPoints(points);
        fill->SetPolys(polys);
        fill->GetCellData()->SetScalars(colours);
        outline->SetPoints(points);
        outline->SetLines(lines);
        fill_mapper->SetInputData(fill);
        fill_mapper->SetColorModeToDirectScalars();
        fill_mapper->ScalarVisibilityOn();
        fill_mapper->SetScalarModeToUseCellData();
        outline_mapper->SetInputData(outline);
        outline_mapper->ScalarVisibilityOff();
        fill_actor->SetMapper(fill_mapper);
        outline_actor->SetMapper(outline_mapper);
        outline_actor->GetProperty()->SetColor(0.05, 0.05, 0.05);
        outline_actor->GetProperty()->SetLineWidth(1.2f);
    }
    void clear() {
        points->Reset();
        polys->Reset();
        lines->Reset();
        colours->Reset();
    }
    /// A closed polygon of `vertices` (display pixels) filled with rgb.
    void add(const std::vector<std::array<double, 2>>& vertices, std::array<unsigned char, 3> rgb,
             bool closed = true) {
        std::vector<vtkIdType> ids;
        for (const auto& v : vertices)
            ids.push_back(points->InsertNextPoint(v[0], v[1], 0));
        if (closed && vertices.size() >= 3) {
            polys->InsertNextCell(vtkIdType(ids.size()), ids.data());
            colours->InsertNextTypedTuple(rgb.data());
            ids.push_back(ids.front());
        }
        lines->InsertNextCell(vtkIdType(ids.size()), ids.data());
    }
    void finish() {
        points->Modified();
        polys->Modified();
        lines->Modified();
        colours->Modified();
        fill->Modified();
        outline->Modified();
    }
};

std::vector<std::array<double, 2>> triangle_down(double x, double y, double r) {
    return {{x - r, y + 0.6 * r}, {x + r, y + 0.6 * r}, {x, y - r}};
}

std::vector<std::array<double, 2>> star(double x, double y, double r) {
    std::vector<std::array<double, 2>> v;
    for (int i = 0; i < 10; ++i) {
        const double a = std::numbers::pi / 2 + i * std::numbers::pi / 5;
        const double rr = (i % 2 == 0) ? r : 0.45 * r;
        v.push_back({x + rr * std::cos(a), y + rr * std::sin(a)});
    }
    return v;
}

} // namespace

struct ModelView::Impl {
    Grid grid;
    std::vector<Point> sources, receivers;
    std::vector<PointRef> selection;
    EditMode mode = EditMode::Select;
    int line_count = 24;
    MarkerLayer markers;
    MarkerLayer band; // rubber band and line preview
    // Gesture state
    enum class Gesture { None, Move, RubberBand, Line, Add } gesture = Gesture::None;
    PointRef moving;
    QPointF press_px, current_px;
    bool dragged = false;

    std::vector<Point>& list(PointKind k) { return k == PointKind::Source ? sources : receivers; }
    bool selected(PointRef r) const {
        return std::find(selection.begin(), selection.end(), r) != selection.end();
    }
};

ModelView::ModelView(QWidget* parent) : ImageView(parent), d_(std::make_unique<Impl>()) {
    set_titles("x (m)", "z (m)", "vp (m/s)");
    set_colormap(Colormap::Viridis);
    renderer()->AddActor2D(d_->markers.fill_actor);
    renderer()->AddActor2D(d_->markers.outline_actor);
    renderer()->AddActor2D(d_->band.fill_actor);
    renderer()->AddActor2D(d_->band.outline_actor);
    d_->band.outline_actor->GetProperty()->SetColor(1.0, 0.85, 0.1);
    d_->band.outline_actor->GetProperty()->SetLineWidth(1.5f);
    setCursor(Qt::CrossCursor);
}

ModelView::~ModelView() = default;

void ModelView::set_model(const Model& model) {
    d_->grid = model.grid;
    if (model.grid.cells() <= 0 || std::int64_t(model.vp_mps.size()) != model.grid.cells()) return;
    set_image(model.vp_mps, model.grid.nz(), model.grid.nx(), model.grid.dz(), model.grid.dx());
}

const Grid& ModelView::grid() const {
    return d_->grid;
}

void ModelView::set_points(std::vector<Point> sources, std::vector<Point> receivers) {
    d_->sources = std::move(sources);
    d_->receivers = std::move(receivers);
    const auto before = d_->selection.size();
    std::erase_if(d_->selection,
                  [&](const PointRef& r) { return std::size_t(r.index) >= d_->list(r.kind).size(); });
    if (d_->gesture == Impl::Gesture::Move) d_->gesture = Impl::Gesture::None;
    if (before != d_->selection.size()) emit selection_changed();
    request_render();
}

void ModelView::set_edit_mode(EditMode mode) {
    if (mode == d_->mode) return;
    d_->mode = mode;
    d_->gesture = Impl::Gesture::None;
    emit edit_mode_changed(mode);
    update();
}

EditMode ModelView::edit_mode() const {
    return d_->mode;
}
void ModelView::set_line_count(int count) {
    d_->line_count = std::max(1, count);
}
int ModelView::line_count() const {
    return d_->line_count;
}
std::vector<PointRef> ModelView::selection() const {
    return d_->selection;
}

void ModelView::set_selection(std::vector<PointRef> refs) {
    std::sort(refs.begin(), refs.end());
    refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
    if (refs == d_->selection) return;
    d_->selection = std::move(refs);
    emit selection_changed();
    update();
}

bool ModelView::hit_test(QPointF px, PointRef& ref) const {
    double best = hit_radius_px * hit_radius_px;
    bool found = false;
    // Sources first: they are drawn on top.
    for (PointKind kind : {PointKind::Source, PointKind::Receiver}) {
        const auto& pts = kind == PointKind::Source ? d_->sources : d_->receivers;
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const QPointF p = to_widget({pts[i].x_m, pts[i].z_m});
            const double d2 = (p.x() - px.x()) * (p.x() - px.x()) + (p.y() - px.y()) * (p.y() - px.y());
            if (d2 < best) {
                best = d2;
                ref = {kind, int(i)};
                found = true;
            }
        }
        if (found) return true;
    }
    return false;
}

Point ModelView::to_point(QPointF px) const {
    const QPointF m = to_model(px);
    return {m.x(), m.y()};
}

bool ModelView::left_press(QPointF px, Qt::KeyboardModifiers mods) {
    if (!has_image() || (mods & Qt::ShiftModifier)) return false; // Shift+drag pans
    d_->press_px = d_->current_px = px;
    d_->dragged = false;
    PointRef hit;
    if (d_->mode != EditMode::ReceiverLine && hit_test(px, hit)) {
        if (mods & Qt::ControlModifier) {
            auto sel = d_->selection;
            if (d_->selected(hit))
                std::erase(sel, hit);
            else
                sel.push_back(hit);
            set_selection(sel);
            d_->gesture = Impl::Gesture::None;
            return true;
        }
        if (!d_->selected(hit)) set_selection({hit});
        d_->moving = hit;
        d_->gesture = Impl::Gesture::Move;
        return true;
    }
    switch (d_->mode) {
    case EditMode::Select:
        d_->gesture = Impl::Gesture::RubberBand;
        break;
    case EditMode::ReceiverLine:
        d_->gesture = Impl::Gesture::Line;
        break;
    case EditMode::AddReceiver:
    case EditMode::AddSource:
        d_->gesture = Impl::Gesture::Add;
        break;
    }
    return true;
}

bool ModelView::left_drag(QPointF px, Qt::KeyboardModifiers) {
    d_->current_px = px;
    if (std::hypot(px.x() - d_->press_px.x(), px.y() - d_->press_px.y()) > drag_threshold_px)
        d_->dragged = true;
    update();
    return true;
}

bool ModelView::left_release(QPointF px, Qt::KeyboardModifiers mods) {
    d_->current_px = px;
    const auto gesture = d_->gesture;
    d_->gesture = Impl::Gesture::None;
    update();
    auto request_inside = [&](PointKind kind, Point p) {
        const std::string msg = outside_message(d_->grid, p, kind);
        if (!msg.empty()) emit refused(QString::fromStdString(msg));
        return msg.empty();
    };
    switch (gesture) {
    case Impl::Gesture::Move:
        if (d_->dragged) {
            const Point p = to_point(px);
            if (request_inside(d_->moving.kind, p)) emit move_requested(d_->moving, p);
        }
        break;
    case Impl::Gesture::Add: {
        const Point p = to_point(px);
        const PointKind kind = d_->mode == EditMode::AddSource ? PointKind::Source : PointKind::Receiver;
        if (request_inside(kind, p)) emit add_requested(kind, p);
        break;
    }
    case Impl::Gesture::Line: {
        const Point a = to_point(d_->press_px), b = to_point(px);
        if (!d_->dragged) {
            if (request_inside(PointKind::Receiver, a)) emit add_requested(PointKind::Receiver, a);
        } else if (request_inside(PointKind::Receiver, a) && request_inside(PointKind::Receiver, b)) {
            emit line_requested(a, b, d_->line_count);
        }
        break;
    }
    case Impl::Gesture::RubberBand: {
        const QRectF box = QRectF(d_->press_px, px).normalized();
        std::vector<PointRef> sel = (mods & Qt::ControlModifier) ? d_->selection : std::vector<PointRef>{};
        if (d_->dragged) {
            for (PointKind kind : {PointKind::Source, PointKind::Receiver}) {
                const auto& pts = d_->list(kind);
                for (std::size_t i = 0; i < pts.size(); ++i)
                    if (box.contains(to_widget({pts[i].x_m, pts[i].z_m}))) sel.push_back({kind, int(i)});
            }
        }
        set_selection(sel);
        break;
    }
    case Impl::Gesture::None:
        break;
    }
    return true;
}

void ModelView::keyPressEvent(QKeyEvent* event) {
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && !d_->selection.empty()) {
        emit delete_requested(d_->selection);
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        d_->gesture = Impl::Gesture::None;
        set_selection({});
        update();
        event->accept();
        return;
    }
    ImageView::keyPressEvent(event);
}

void ModelView::update_overlays() {
    const double dpr = devicePixelRatioF();
    const double h = height();
    auto display = [&](Point p) {
        const QPointF w = to_widget({p.x_m, p.z_m});
        return std::array<double, 2>{w.x() * dpr, (h - w.y()) * dpr};
    };
    const unsigned char sel_rgb[3] = {255, 220, 40};
    auto& m = d_->markers;
    m.clear();
    const bool moving = d_->gesture == Impl::Gesture::Move && d_->dragged;
    const QPointF shift = d_->current_px - d_->press_px;
    for (PointKind kind : {PointKind::Receiver, PointKind::Source}) {
        const auto& pts = d_->list(kind);
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const PointRef ref{kind, int(i)};
            Point p = pts[i];
            if (moving && ref == d_->moving) p = to_point(to_widget({p.x_m, p.z_m}) + shift);
            const auto c = display(p);
            const bool sel = d_->selected(ref);
            if (kind == PointKind::Receiver) {
                m.add(triangle_down(c[0], c[1], 6 * dpr),
                      sel ? std::array<unsigned char, 3>{sel_rgb[0], sel_rgb[1], sel_rgb[2]}
                          : std::array<unsigned char, 3>{40, 200, 255});
            } else {
                m.add(star(c[0], c[1], 9 * dpr),
                      sel ? std::array<unsigned char, 3>{sel_rgb[0], sel_rgb[1], sel_rgb[2]}
                          : std::array<unsigned char, 3>{235, 40, 40});
            }
        }
    }
    m.finish();

    auto& b = d_->band;
    b.clear();
    if (d_->gesture == Impl::Gesture::RubberBand && d_->dragged) {
        const QRectF r = QRectF(d_->press_px, d_->current_px).normalized();
        auto px = [&](double x, double y) { return std::array<double, 2>{x * dpr, (h - y) * dpr}; };
        b.add({px(r.left(), r.top()), px(r.right(), r.top()), px(r.right(), r.bottom()),
               px(r.left(), r.bottom()), px(r.left(), r.top())},
              {0, 0, 0}, false);
    } else if (d_->gesture == Impl::Gesture::Line && d_->dragged) {
        const Point a = to_point(d_->press_px), e = to_point(d_->current_px);
        b.add({display(a), display(e)}, {0, 0, 0}, false);
        const int n = d_->line_count;
        for (int i = 0; i < n; ++i) {
            const double t = n == 1 ? 0.0 : double(i) / (n - 1);
            const auto c = display({a.x_m + t * (e.x_m - a.x_m), a.z_m + t * (e.z_m - a.z_m)});
            b.add(triangle_down(c[0], c[1], 4 * dpr), {255, 220, 40});
        }
    }
    b.finish();
}

} // namespace fwi::ui
