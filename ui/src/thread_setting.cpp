#include "fwi/ui/thread_setting.hpp"

#include "fwi/threading.hpp"

#include <QSettings>
#include <QThread>

#include <atomic>

namespace fwi::ui {
namespace {
constexpr const char* key = "engine/threads";
std::atomic<int> chosen{-1}; // -1: not read yet
} // namespace

int thread_setting() {
    int n = chosen.load();
    if (n < 0) {
        n = std::max(0, QSettings().value(key, 0).toInt());
        chosen.store(n);
    }
    return n;
}

void set_thread_setting(int threads) {
    threads = std::max(0, threads);
    chosen.store(threads);
    QSettings().setValue(key, threads);
    apply_thread_setting();
}

void apply_thread_setting() {
    set_thread_count(thread_setting());
}

ThreadCountBox::ThreadCountBox(QWidget* parent) : QSpinBox(parent) {
    setObjectName("thread_count");
    setRange(0, std::max(256, QThread::idealThreadCount()));
    setPrefix(tr("threads: "));
    setSpecialValueText(tr("threads: all cores"));
    setToolTip(tr("OpenMP threads for the engine's runs and measurements (0 = all %1 cores)")
                   .arg(QThread::idealThreadCount()));
    setKeyboardTracking(false);
    setValue(thread_setting());
    apply_thread_setting(); // the GUI thread's count, which the status bar reports
    connect(this, &QSpinBox::valueChanged, this, [this](int n) {
        set_thread_setting(n);
        emit thread_setting_changed(n);
    });
}

} // namespace fwi::ui
