#include "image_underlay.hpp"

#include <vtkFloatArray.h>
#include <vtkImageActor.h>
#include <vtkImageData.h>
#include <vtkImageMapper3D.h>
#include <vtkImageProperty.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>

#include <algorithm>
#include <cmath>

namespace fwi::ui {

ImageUnderlay::ImageUnderlay() {
    image_->SetDimensions(1, 1, 1);
    scalars_->SetNumberOfTuples(1);
    scalars_->SetValue(0, 0);
    image_->GetPointData()->SetScalars(scalars_);
    table_->SetNumberOfTableValues(256);
    table_->SetHueRange(0, 0);
    table_->SetSaturationRange(0, 0);
    table_->SetValueRange(0.3, 0.75); // slow = dark; the fast end stays apart from the light background
    table_->Build();
    actor_->GetMapper()->SetInputData(image_);
    actor_->GetMapper()->BorderOn();
    actor_->GetProperty()->SetLookupTable(table_);
    actor_->GetProperty()->UseLookupTableScalarRangeOn();
    actor_->GetProperty()->SetInterpolationTypeToNearest();
    actor_->SetPosition(0, 0, 1); // the camera looks along +z from z < 0: behind the image at z = 0
    actor_->SetVisibility(false);
}

ImageUnderlay::~ImageUnderlay() = default;

void ImageUnderlay::set(std::span<const float> values, std::int64_t rows, std::int64_t cols, double spacing_z,
                        double spacing_x, double origin_z, double origin_x) {
    if (rows <= 0 || cols <= 0 || std::int64_t(values.size()) != rows * cols) return clear();
    image_->SetDimensions(int(cols), int(rows), 1);
    image_->SetSpacing(spacing_x, spacing_z, 1);
    image_->SetOrigin(origin_x, origin_z, 0);
    scalars_->SetNumberOfTuples(rows * cols);
    std::copy(values.begin(), values.end(), scalars_->GetPointer(0));
    float lo = INFINITY, hi = -INFINITY;
    for (float v : values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!(hi > lo)) lo -= 1, hi += 1; // a homogeneous model: mid grey
    table_->SetTableRange(lo, hi);
    scalars_->Modified();
    image_->Modified();
    actor_->SetVisibility(true);
}

void ImageUnderlay::clear() {
    actor_->SetVisibility(false);
}

bool ImageUnderlay::shown() const {
    return actor_->GetVisibility() != 0;
}

vtkImageActor* ImageUnderlay::actor() const {
    return actor_;
}

} // namespace fwi::ui
