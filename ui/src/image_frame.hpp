#pragma once
// What an ImageView draws around its image, in display pixels: the x axis above it, the z axis with its
// vertical title on the left, the colour bar in the right margin and, for a symmetric scale, a caption that
// states its clip (so that a saved picture says it). The ticks are core's round values (nice_ticks), the
// same as the product's figures.
#include "fwi/ui/view_transform.hpp"

#include <vtkNew.h>

#include <array>

class vtkAxisActor2D;
class vtkLookupTable;
class vtkRenderer;
class vtkScalarBarActor;
class vtkTextActor;

namespace fwi::ui {

class ImageFrame {
  public:
    ImageFrame();
    ~ImageFrame();
    /// Adds the frame's actors to the renderer (2D overlays, drawn over the image).
    void add_to(vtkRenderer* renderer);
    /// The colour bar shows this table.
    void set_lookup_table(vtkLookupTable* table);
    /// Axes and title shown or hidden together; the colour bar where `colorbar` is also true.
    void show(bool image, bool colorbar);
    void set_colorbar_visible(bool visible);
    void set_titles(const char* x_title, const char* z_title, const char* value_title);
    void set_caption(const char* text);
    const char* caption() const;

    struct Layout {
        ViewTransform view;
        std::array<double, 4> bounds; // the image's x0, x1, z0, z1 in metres
        ViewMargins margins;
        double device_pixel_ratio = 1;
        double x_scale = 1, z_scale = 1; // labels show metres times these (e.g. 1e-3 for km)
        bool caption = false;            // show the clip caption
    };
    /// Places every actor for this view: axes follow the visible part of the image inside the margins.
    void place(const Layout& layout);

  private:
    vtkNew<vtkScalarBarActor> bar_;
    vtkNew<vtkAxisActor2D> x_axis_;
    vtkNew<vtkAxisActor2D> z_axis_;
    vtkNew<vtkTextActor>
        z_title_; // vertical, left of the z axis labels (the axis' own title would be clipped)
    vtkNew<vtkTextActor> caption_;
};

} // namespace fwi::ui
