#include "image_frame.hpp"

#include "fwi/figure.hpp"

#include <vtkAxisActor2D.h>
#include <vtkLookupTable.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <vector>

namespace fwi::ui {
namespace {

void style_text(vtkTextProperty* p, double size, bool bold = false) {
    p->SetColor(0.1, 0.1, 0.12);
    p->SetFontSize(int(size));
    p->SetBold(bold);
    p->SetItalic(false);
    p->SetShadow(false);
    p->SetFontFamilyToArial();
}

/// The first and last of round tick values and their count: VTK's axis actor spaces labels evenly between
/// the two.
struct AxisTicks {
    explicit AxisTicks(const std::vector<double>& ticks)
        : first(ticks.empty() ? 0 : ticks.front()), last(ticks.empty() ? 0 : ticks.back()),
          count(int(ticks.size())) {}
    double first, last;
    int count;
};

} // namespace

ImageFrame::ImageFrame() {
    bar_->SetNumberOfLabels(5);
    bar_->SetMaximumWidthInPixels(60);
    bar_->SetBarRatio(0.3);
    bar_->SetLabelFormat("%.4g");
    bar_->UnconstrainedFontSizeOn();
    style_text(bar_->GetLabelTextProperty(), 12);
    style_text(bar_->GetTitleTextProperty(), 13, true);
    bar_->SetTitle("");
    bar_->SetVisibility(false);

    for (vtkAxisActor2D* axis : {x_axis_.Get(), z_axis_.Get()}) {
        axis->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
        axis->GetPosition2Coordinate()->SetCoordinateSystemToDisplay();
        axis->SetNumberOfLabels(6);
        axis->AdjustLabelsOff();
        axis->SetLabelFormat("%g");
        axis->SetTickLength(6);
        axis->SetFontFactor(1.0);
        axis->UseFontSizeFromPropertyOn();
        axis->GetProperty()->SetColor(0.1, 0.1, 0.12);
        style_text(axis->GetLabelTextProperty(), 12);
        style_text(axis->GetTitleTextProperty(), 13, true);
        axis->SetVisibility(false);
    }
    x_axis_->SetTitle("x (m)");
    z_axis_->TitleVisibilityOff();
    z_title_->SetInput("z (m)");
    style_text(z_title_->GetTextProperty(), 13, true);
    z_title_->GetTextProperty()->SetOrientation(90);
    z_title_->GetTextProperty()->SetJustificationToCentered();
    z_title_->GetTextProperty()->SetVerticalJustificationToTop();
    z_title_->SetVisibility(false);
    style_text(caption_->GetTextProperty(), 11);
    caption_->SetVisibility(false);
}

ImageFrame::~ImageFrame() = default;

void ImageFrame::add_to(vtkRenderer* renderer) {
    renderer->AddActor2D(bar_);
    renderer->AddActor2D(x_axis_);
    renderer->AddActor2D(z_axis_);
    renderer->AddActor2D(z_title_);
    renderer->AddActor2D(caption_);
}

void ImageFrame::set_lookup_table(vtkLookupTable* table) {
    bar_->SetLookupTable(table);
}

void ImageFrame::show(bool image, bool colorbar) {
    bar_->SetVisibility(image && colorbar);
    x_axis_->SetVisibility(image);
    z_axis_->SetVisibility(image);
    z_title_->SetVisibility(image);
}

void ImageFrame::set_colorbar_visible(bool visible) {
    bar_->SetVisibility(visible);
}

void ImageFrame::set_titles(const char* x_title, const char* z_title, const char* value_title) {
    x_axis_->SetTitle(x_title);
    z_title_->SetInput(z_title);
    bar_->SetTitle(value_title);
}

void ImageFrame::set_caption(const char* text) {
    caption_->SetInput(text);
}

const char* ImageFrame::caption() const {
    return caption_->GetInput();
}

void ImageFrame::place(const Layout& l) {
    const double dpr = l.device_pixel_ratio;
    const ViewTransform& v = l.view;
    const auto& b = l.bounds;
    const ViewMargins& margins = l.margins;
    const double left = margins.left, right = v.width_px - margins.right;
    const double top = margins.top, bottom = v.height_px - margins.bottom;
    const double px0 = std::clamp(v.to_pixels({b[0], 0}).x_px, left, right);
    const double px1 = std::clamp(v.to_pixels({b[1], 0}).x_px, left, right);
    const double py0 = std::clamp(v.to_pixels({0, b[2]}).y_px, top, bottom);
    const double py1 = std::clamp(v.to_pixels({0, b[3]}).y_px, top, bottom);
    const double h = v.height_px;
    // Ticks at round values inside the visible range; the axis line spans exactly those ticks, so every label
    // sits where its value is (VTK's AdjustLabels would instead stretch the labels over the line).
    const MetresPoint m0 = v.to_metres({px0, py0}), m1 = v.to_metres({px1, py1});
    const double sx = l.x_scale, sz = l.z_scale;
    const AxisTicks tx(nice_ticks(m0.x_m * sx, m1.x_m * sx)), tz(nice_ticks(m0.z_m * sz, m1.z_m * sz));
    const double ax0 = v.to_pixels({tx.first / sx, 0}).x_px, ax1 = v.to_pixels({tx.last / sx, 0}).x_px;
    const double az0 = v.to_pixels({0, tz.first / sz}).y_px, az1 = v.to_pixels({0, tz.last / sz}).y_px;
    // Display coordinates have y up. The x axis runs right to left so that VTK puts its labels above it.
    x_axis_->GetPositionCoordinate()->SetValue(ax1 * dpr, (h - py0 + 2) * dpr);
    x_axis_->GetPosition2Coordinate()->SetValue(ax0 * dpr, (h - py0 + 2) * dpr);
    x_axis_->SetRange(tx.last, tx.first);
    x_axis_->SetNumberOfLabels(tx.count);
    z_axis_->GetPositionCoordinate()->SetValue((px0 - 2) * dpr, (h - az0) * dpr);
    z_axis_->GetPosition2Coordinate()->SetValue((px0 - 2) * dpr, (h - az1) * dpr);
    z_axis_->SetRange(tz.first, tz.last);
    z_axis_->SetNumberOfLabels(tz.count);
    x_axis_->SetVisibility(px1 - px0 > 20 && tx.count >= 2);
    z_axis_->SetVisibility(py1 - py0 > 20 && tz.count >= 2);
    z_title_->SetVisibility(py1 - py0 > 20);
    z_title_->SetDisplayPosition(int(4 * dpr), int((h - 0.5 * (py0 + py1)) * dpr));
    caption_->SetVisibility(l.caption);
    caption_->SetDisplayPosition(int(margins.left * dpr), int(6 * dpr));
    // Colour bar in the right margin, as tall as the drawn image (but readable when the image is flat), plus
    // room for its title above.
    const double bar_h = std::max(py1 - py0, std::min(220.0, bottom - top));
    const double bar_bottom = std::min(bottom, std::max(py1, py0 + bar_h));
    bar_->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
    bar_->GetPositionCoordinate()->SetValue((v.width_px - margins.right + 12) * dpr, (h - bar_bottom) * dpr);
    bar_->GetPosition2Coordinate()->SetCoordinateSystemToDisplay();
    bar_->GetPosition2Coordinate()->SetValue((margins.right - 16) * dpr, (bar_h + 26) * dpr);
}

} // namespace fwi::ui
