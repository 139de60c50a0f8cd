#pragma once
// The engine's thread count as the GUI's user chose it (0 = all cores), kept between sessions in QSettings.
// OpenMP keeps its thread count per calling thread, so setting it on the GUI thread does not reach the job
// runner's or the predictor's workers: each calls apply_thread_setting() before it runs the engine.
#include <QSpinBox>

namespace fwi::ui {

/// The chosen count (0 = all cores), read from QSettings "engine/threads" on first use.
int thread_setting();
/// Stores the count and applies it on the calling thread.
void set_thread_setting(int threads);
/// fwi::set_thread_count(thread_setting()) on the calling thread.
void apply_thread_setting();

/// "Threads: all cores" / "Threads: 2": a spin box bound to the setting.
class ThreadCountBox : public QSpinBox {
    Q_OBJECT
  public:
    explicit ThreadCountBox(QWidget* parent = nullptr);
  signals:
    void thread_setting_changed(int threads);
};

} // namespace fwi::ui
