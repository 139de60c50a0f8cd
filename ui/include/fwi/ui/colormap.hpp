#pragma once
// Colour maps for the image views: perceptual (viridis) for velocities and gradients' magnitudes, diverging
// (seismic) for signed fields such as wavefields, gathers and gradients, grey for print.
#include <QColor>
#include <QString>
#include <QStringList>

class vtkLookupTable;

namespace fwi::ui {

enum class Colormap { Viridis, Seismic, Gray, Rainbow };

QStringList colormap_names(); ///< in enum order
QString colormap_name(Colormap c);
/// Unknown names give Viridis.
Colormap colormap_from_name(const QString& name);
/// Colour at t in [0, 1] (clamped).
QColor colormap_color(Colormap c, double t);
/// Fills `table` with 256 entries of `c` over [low, high] (low < high; equal values are widened).
void apply_colormap(vtkLookupTable* table, Colormap c, double low, double high);

} // namespace fwi::ui
