#pragma once
// A 2D array shown as an image in model coordinates: colour map, colour bar, axes in metres, zoom (wheel) and
// pan (middle drag, or left drag where a subclass does not use the left button), and a cursor readout. Data
// layout as everywhere: row-major (z, x), x fast.
#include "fwi/ui/colormap.hpp"
#include "fwi/ui/view_transform.hpp"
#include "fwi/ui/vtk_widget.hpp"

#include <QPointF>
#include <QString>

#include <array>
#include <cstdint>
#include <memory>
#include <span>

class QMouseEvent;

namespace fwi::ui {

/// How the colour range follows the data: fixed, the data's min..max, or symmetric about zero at a high
/// percentile of |value| (for wavefields, whose peaks would otherwise wash out the rest).
enum class RangeMode { Fixed, MinMax, Symmetric };

class ImageView : public VtkWidget {
    Q_OBJECT
  public:
    explicit ImageView(QWidget* parent = nullptr);
    ~ImageView() override;

    /// Copies `values` (rows * cols, x fast). spacing_x/z in the axes' units; the first cell centre sits at
    /// origin.
    void set_image(std::span<const float> values, std::int64_t rows, std::int64_t cols, double spacing_z,
                   double spacing_x, double origin_z = 0, double origin_x = 0);
    bool has_image() const;
    /// A grey picture underneath the image on the same axes (the model under a wavefield); empty values
    /// remove it.
    void set_underlay(std::span<const float> values, std::int64_t rows, std::int64_t cols, double spacing_z,
                      double spacing_x, double origin_z = 0, double origin_x = 0);
    bool has_underlay() const;
    /// How much of the image covers the underlay, in [0, 1]: its colours are blended over the underlay with
    /// this weight, times a ramp that makes values near zero transparent (a quiet wavefield shows the model).
    /// Without an underlay the image is opaque.
    void set_image_opacity(double opacity);
    double image_opacity() const;
    /// The alpha the image's lookup table gives `value` now (what the renderer blends with).
    double alpha_at(double value) const;
    std::int64_t rows() const;
    std::int64_t cols() const;
    /// The value of the cell nearest to (x, z); false outside the image.
    bool value_at(double x, double z, float& value) const;

    void set_colormap(Colormap c);
    Colormap colormap() const;
    void set_range_mode(RangeMode mode);
    /// Fixes the colour range (switches to RangeMode::Fixed).
    void set_value_range(double low, double high);
    std::pair<double, double> value_range() const;
    /// Axis and colour-bar titles, e.g. "x (m)", "z (m)", "vp (m/s)".
    void set_titles(const QString& x_title, const QString& z_title, const QString& value_title);

    /// The line under a symmetric scale's picture that states its clip ("" in the other modes).
    QString caption() const;

    /// Small views: narrower margins and, optionally, no colour bar.
    void set_colorbar_visible(bool visible);
    void set_compact(bool compact);
    /// Axis labels and the cursor readout show coordinate * scale (default 1): lets a gather be drawn square
    /// while its axes read receiver number and seconds.
    void set_label_scale(double x_scale, double z_scale);

    const ViewTransform& view_transform() const;
    /// Widget pixel (logical) -> model coordinates, and back.
    QPointF to_model(QPointF widget_px) const;
    QPointF to_widget(QPointF model_xz) const;
    /// Fits the whole image into the widget (the default until the user zooms or pans).
    void reset_view();
    void zoom_by(double factor, QPointF anchor_px);

  signals:
    /// Cursor position in label units (model coordinates times the label scale) and the value there; inside
    /// is false off the image.
    void cursor_moved(double x, double z, double value, bool inside);
    void view_changed();

  protected:
    void prepare_render(int width_px, int height_px) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;

    /// Left-button hooks for subclasses (editing); the default pans. Return true when handled.
    virtual bool left_press(QPointF /*px*/, Qt::KeyboardModifiers /*mods*/) { return false; }
    virtual bool left_drag(QPointF /*px*/, Qt::KeyboardModifiers /*mods*/) { return false; }
    virtual bool left_release(QPointF /*px*/, Qt::KeyboardModifiers /*mods*/) { return false; }
    /// For overlays: called at every render after the camera is set.
    virtual void update_overlays() {}
    /// Extent of the image in model coordinates (cell edges): x0, x1, z0, z1.
    std::array<double, 4> image_bounds() const;

  private:
    void update_range();
    void apply_table(); ///< the colour map over the range, with the alphas of an underlay's blend
    void update_axes();
    void fit_if_automatic();
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
