#pragma once
// What the model view is for a 3D project: three orthogonal slices (inline x-z at a y, crossline y-z at an
// x, depth x-y at a z; volume_slice.hpp), each with a slider and its position in metres, next to the 3D view
// of the same three planes (volume_3d_view.hpp). The slices show one layer: the model, or the live (or last)
// wavefield or gradient of a run drawn over the greyed model; with "Volume" ticked, the 3D view also
// volume-renders that field (never the model). Sources and receivers are drawn on the inline
// and crossline slices when they lie within 1.5 cells of the slice, and on the depth slice (the map) all of
// them, projected; the 3D view draws them all in place.
//
// Areal acquisition: with Areal set to sources or receivers, a left drag on the depth slice outlines a
// rectangle, and areal_requested() asks for an n x by n y grid of points over it at the depth slice's depth.
// The view only requests (as ModelView does); rectangles reaching outside the model are refused here with
// refused().
#include "fwi/model.hpp"
#include "fwi/ui/acquisition_edit.hpp"
#include "fwi/ui/colormap.hpp"
#include "fwi/ui/volume_slice.hpp"

#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace fwi::ui {

class SliceView;
class Volume3DView;

class VolumeSlicesView : public QWidget {
    Q_OBJECT
  public:
    enum class Layer { Model, Wavefield, Gradient };
    enum class ArealMode { Off, Sources, Receivers };
    using Volume = std::shared_ptr<const std::vector<float>>;

    explicit VolumeSlicesView(QWidget* parent = nullptr);
    ~VolumeSlicesView() override;

    /// A 3D model (others are ignored); keeps the slice indices where they fit, else centres them.
    void set_model(const Model& model);
    const Grid& grid() const;
    void set_points(std::vector<Point> sources, std::vector<Point> receivers);

    /// A field on the model's grid (grid().cells() values, else ignored) for the wavefield or gradient
    /// layer, shown at once when that layer is shown. `caption` says what it is ("wavefield, step 120").
    void set_field(Layer layer, Volume values, const QString& caption);
    void clear_fields();
    void clear_field(Layer layer);
    /// Marks the layer's field as a previous run's (its caption says so) without redrawing anything: a new
    /// run keeps showing it until its own first field arrives, and pays no repaint for the switch.
    void mark_stale(Layer layer);
    void show_layer(Layer layer);
    Layer layer() const;
    /// The values the slices show now (the model's velocities for Layer::Model).
    const std::vector<float>* shown_volume() const;

    std::int64_t slice_index(SliceAxis axis) const;
    void set_slice_index(SliceAxis axis, std::int64_t index); ///< clamped; what the slider does
    SliceView* slice_view(SliceAxis axis) const;
    QSlider* slider(SliceAxis axis) const;
    QLabel* position_label(SliceAxis axis) const;
    Volume3DView* volume_view() const;

    void set_areal_mode(ArealMode mode);
    ArealMode areal_mode() const;
    void set_areal_counts(int count_x, int count_y);
    QSpinBox* areal_count_box(int axis) const; ///< 0: n x, 1: n y
    /// The "Volume" box: volume rendering of the shown wavefield or gradient in the 3D view.
    QCheckBox* volume_rendering_box() const;

    /// GUI-thread seconds spent showing fields (slicing and copying into the views; not rendering) and how
    /// many fields were shown, since the last reset: the live slices' cost.
    double field_seconds() const;
    int fields_shown() const;
    /// Seconds the three slices and the 3D view spent painting since the last reset.
    double render_seconds() const;
    /// What drawing one more field will cost: the last paint of each of the four views, summed.
    double draw_estimate_seconds() const;
    void reset_field_cost();

  signals:
    void areal_requested(fwi::ui::PointKind kind, fwi::Point from, fwi::Point to, int count_x, int count_y);
    void refused(const QString& message);
    void layer_changed(fwi::ui::VolumeSlicesView::Layer layer);

  private:
    void build_controls();
    void refresh_slice(SliceAxis axis);
    void refresh_all();
    void apply_colors();
    void update_rendered_volume();
    void on_rectangle(QPointF from, QPointF to);
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
