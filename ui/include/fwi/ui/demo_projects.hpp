#pragma once
// The demo projects offered by File > Open demo. Built in memory from the built-in models (model_tools.hpp,
// resources.hpp), so they need no files besides the shipped Marmousi-II resources.
//   toy            layered model 101 x 201 at 10 m, 3 shots, 0.8 s at 12 Hz: a forward run takes seconds;
//   marmousi2      Marmousi-II (174 x 500 at 20 m), smoothed start, 10 shots, 4 s at 5 Hz: the teaching case;
//   checkpointing  one shot through a circular anomaly, Revolve with a small memory budget and ZFP: watch the
//                  schedule timeline recompute and the memory plot stay under the budget;
//   marmousi2-3d   fwi demo --3d's experiment (fwi/demo_3d.hpp: 88 x 64 x 251 at 40 m, one shot, 3.5 s at
//                  3 Hz), schedule auto under a 1.5 GiB budget against a store-all need over 10 GB.
#include "fwi/project.hpp"

#include <QString>
#include <QStringList>

namespace fwi::ui {

QStringList demo_names();
QString demo_title(const QString& name);
/// Throws fwi::ConfigError for an unknown name, ResourceError if a shipped model is missing.
Project make_demo_project(const QString& name);

} // namespace fwi::ui
