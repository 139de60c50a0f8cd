#pragma once
// A grey image drawn underneath an ImageView's own image, on the same model coordinates: the model under a
// wavefield, so that one sees where the wave is in the geology. Its grey runs from mid to light so that the
// image's colours stay readable over it.
#include <vtkNew.h>

#include <cstdint>
#include <span>

class vtkFloatArray;
class vtkImageActor;
class vtkImageData;
class vtkLookupTable;

namespace fwi::ui {

class ImageUnderlay {
  public:
    ImageUnderlay();
    ~ImageUnderlay();
    /// Copies the values (rows * cols, x fast); the grey spans their min..max.
    void set(std::span<const float> values, std::int64_t rows, std::int64_t cols, double spacing_z,
             double spacing_x, double origin_z, double origin_x);
    void clear();
    bool shown() const;
    /// The actor to add to the renderer (behind the image: further from the camera).
    vtkImageActor* actor() const;

  private:
    vtkNew<vtkImageData> image_;
    vtkNew<vtkFloatArray> scalars_;
    vtkNew<vtkLookupTable> table_;
    vtkNew<vtkImageActor> actor_;
};

} // namespace fwi::ui
