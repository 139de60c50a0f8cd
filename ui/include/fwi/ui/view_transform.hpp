#pragma once
// The mapping between widget pixels and model metres used by every image view. Pure arithmetic (no Qt, no
// VTK) so that tests can check it exactly. Widget pixels: x right, y down, origin at the widget's top-left
// corner, logical (device-independent) pixels; pixel (px, py) means the point px, py (pixel centres are at
// +0.5). Model metres: x right, z down, origin at the model's top-left cell centre (acquisition.hpp). Both
// axes have the same scale (square cells look square).
#include <algorithm>

namespace fwi::ui {

struct MetresPoint {
    double x_m = 0;
    double z_m = 0;
};

struct PixelPoint {
    double x_px = 0;
    double y_px = 0;
};

struct ViewTransform {
    double centre_x_m = 0; ///< the model point at the widget's centre
    double centre_z_m = 0;
    double metres_per_pixel = 1; ///< > 0
    int width_px = 1;
    int height_px = 1;

    MetresPoint to_metres(PixelPoint p) const {
        return {centre_x_m + (p.x_px - 0.5 * width_px) * metres_per_pixel,
                centre_z_m + (p.y_px - 0.5 * height_px) * metres_per_pixel};
    }
    PixelPoint to_pixels(MetresPoint m) const {
        return {0.5 * width_px + (m.x_m - centre_x_m) / metres_per_pixel,
                0.5 * height_px + (m.z_m - centre_z_m) / metres_per_pixel};
    }
    /// Zooms by `factor` (> 1 magnifies) keeping the model point under pixel `anchor` fixed.
    void zoom_about(PixelPoint anchor, double factor) {
        const MetresPoint before = to_metres(anchor);
        metres_per_pixel /= factor;
        const MetresPoint after = to_metres(anchor);
        centre_x_m += before.x_m - after.x_m;
        centre_z_m += before.z_m - after.z_m;
    }
    /// Moves the view so that the content follows a drag of (dx_px, dy_px).
    void pan_pixels(double dx_px, double dy_px) {
        centre_x_m -= dx_px * metres_per_pixel;
        centre_z_m -= dy_px * metres_per_pixel;
    }
};

/// Margins (pixels) kept free around the image for axes and the colour bar.
struct ViewMargins {
    int left = 0, top = 0, right = 0, bottom = 0;
};

/// The transform that shows the box [x0, x1] x [z0, z1] (metres) as large as possible inside the widget less
/// the margins.
inline ViewTransform fit_box(double x0_m, double x1_m, double z0_m, double z1_m, int width_px, int height_px,
                             ViewMargins margins) {
    ViewTransform t;
    t.width_px = std::max(width_px, 1);
    t.height_px = std::max(height_px, 1);
    const double avail_w = std::max(t.width_px - margins.left - margins.right, 8);
    const double avail_h = std::max(t.height_px - margins.top - margins.bottom, 8);
    const double box_w = std::max(x1_m - x0_m, 1e-9);
    const double box_h = std::max(z1_m - z0_m, 1e-9);
    t.metres_per_pixel = std::max(box_w / avail_w, box_h / avail_h);
    // Centre the box inside the available area, then express that as the widget-centre point.
    const double area_cx_px = margins.left + 0.5 * avail_w;
    const double area_cy_px = margins.top + 0.5 * avail_h;
    t.centre_x_m = 0.5 * (x0_m + x1_m) - (area_cx_px - 0.5 * t.width_px) * t.metres_per_pixel;
    t.centre_z_m = 0.5 * (z0_m + z1_m) - (area_cy_px - 0.5 * t.height_px) * t.metres_per_pixel;
    return t;
}

} // namespace fwi::ui
