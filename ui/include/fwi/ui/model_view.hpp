#pragma once
// The velocity model with its acquisition drawn on top (receivers: triangles, sources: stars) and the editing
// gestures: click to add a receiver or a source, drag a point to move it, click or rubber-band to select,
// Delete to remove, drag to lay a line of n receivers. The view only *requests* edits (signals); the owner
// applies them to the ProjectDocument, which refuses impossible ones. Points outside the model are refused
// here already, with refused().
#include "fwi/acquisition.hpp"
#include "fwi/model.hpp"
#include "fwi/ui/acquisition_edit.hpp"
#include "fwi/ui/image_view.hpp"

#include <memory>
#include <vector>

namespace fwi::ui {

enum class EditMode { Select, AddReceiver, AddSource, ReceiverLine };

class ModelView : public ImageView {
    Q_OBJECT
  public:
    explicit ModelView(QWidget* parent = nullptr);
    ~ModelView() override;

    /// Shows vp (m/s); the grid also defines which positions are inside.
    void set_model(const Model& model);
    const Grid& grid() const;
    void set_points(std::vector<Point> sources, std::vector<Point> receivers);

    void set_edit_mode(EditMode mode);
    EditMode edit_mode() const;
    /// Receivers per line in ReceiverLine mode (>= 1).
    void set_line_count(int count);
    int line_count() const;

    std::vector<PointRef> selection() const;
    void set_selection(std::vector<PointRef> refs);
    /// The point under widget pixel `px` within a few pixels, if any.
    bool hit_test(QPointF px, PointRef& ref) const;

  signals:
    void add_requested(fwi::ui::PointKind kind, fwi::Point position);
    void move_requested(fwi::ui::PointRef ref, fwi::Point position);
    void delete_requested(std::vector<fwi::ui::PointRef> refs);
    void line_requested(fwi::Point from, fwi::Point to, int count);
    void refused(const QString& message);
    void selection_changed();
    void edit_mode_changed(fwi::ui::EditMode mode);

  protected:
    bool left_press(QPointF px, Qt::KeyboardModifiers mods) override;
    bool left_drag(QPointF px, Qt::KeyboardModifiers mods) override;
    bool left_release(QPointF px, Qt::KeyboardModifiers mods) override;
    void keyPressEvent(QKeyEvent* event) override;
    void update_overlays() override;

  private:
    Point to_point(QPointF px) const;
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
