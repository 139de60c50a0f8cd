#pragma once
// One orthogonal slice of a 3D project (volume_slice.hpp): a ModelView that draws the slice and the sources
// and receivers near it, in slice coordinates. It does not edit single points (the slice has no place for a
// point's third coordinate): the left button pans, except in rectangle mode, where a left drag outlines a
// rectangle and reports its corners (slice coordinates) with rectangle_dragged().
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/volume_slice.hpp"

#include <memory>

namespace fwi::ui {

class SliceView : public ModelView {
    Q_OBJECT
  public:
    explicit SliceView(SliceAxis axis, QWidget* parent = nullptr);
    ~SliceView() override;
    SliceAxis axis() const;

    /// Left drags outline a rectangle (true) or pan (false, the default).
    void set_rectangle_mode(bool on);
    bool rectangle_mode() const;

  signals:
    /// Corners of a finished rectangle drag, in slice coordinates (metres: column axis, row axis).
    void rectangle_dragged(QPointF from, QPointF to);

  protected:
    bool left_press(QPointF px, Qt::KeyboardModifiers mods) override;
    bool left_drag(QPointF px, Qt::KeyboardModifiers mods) override;
    bool left_release(QPointF px, Qt::KeyboardModifiers mods) override;
    void update_overlays() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
