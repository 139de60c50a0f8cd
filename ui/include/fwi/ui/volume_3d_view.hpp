#pragma once
// The 3D view of a 3D project: the three orthogonal slices as planes in their places in the volume (the
// same slices and colour map as the 2D slice views), the sources (red) and receivers (blue) as points, and
// the model's outline box, and optionally a volume rendering of a whole field (a wavefield or a gradient:
// ray-cast through the volume, zero transparent, the slices' colour map, opacity growing with |value|).
// z points down the screen. Left drag rotates, the wheel zooms, middle drag (or Shift + left drag) pans,
// double click resets the camera.
#include "fwi/acquisition.hpp"
#include "fwi/grid.hpp"
#include "fwi/ui/colormap.hpp"
#include "fwi/ui/volume_slice.hpp"
#include "fwi/ui/vtk_widget.hpp"

#include <memory>
#include <span>
#include <vector>

namespace fwi::ui {

class Volume3DView : public VtkWidget {
    Q_OBJECT
  public:
    explicit Volume3DView(QWidget* parent = nullptr);
    ~Volume3DView() override;

    /// The volume's grid (rank 3): sets the outline and, when it changed, resets the camera.
    void set_grid(const Grid& grid);
    /// Plane `axis` at slice `index`: `values` as fwi/volume_slice.hpp's slice_values() gives them.
    void set_plane(SliceAxis axis, std::span<const float> values, std::int64_t index);
    void set_colors(Colormap colormap, double low, double high);
    /// The field to volume-render: grid cells in (z, y, x) order, x fastest (shared, not copied; VTK reads it
    /// in place, so it must not change while set). Null or a wrong size hides the volume.
    void set_volume(std::shared_ptr<const std::vector<float>> values);
    /// Whether a field set with set_volume() is drawn (off by default: ray casting costs far more than the
    /// three planes in software OpenGL).
    void set_volume_rendering(bool on);
    bool volume_rendering() const;
    /// True when a volume is actually in the scene (rendering on and a field of the grid's size set).
    bool volume_drawn() const;
    void set_points(const std::vector<Point>& sources, const std::vector<Point>& receivers);
    /// The view from the front-left-top corner, the whole volume in sight.
    void reset_camera();
    /// Turns the camera about the volume (degrees) and zooms (> 1 magnifies); what the mouse does.
    void rotate(double azimuth_deg, double elevation_deg);
    void zoom(double factor);

  protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

  private:
    void pan(double dx_px, double dy_px);
    /// The volume's colour and opacity transfer functions from the current colours and grid.
    void apply_volume_colors();
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
