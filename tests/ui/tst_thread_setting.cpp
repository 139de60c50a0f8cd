// The GUI's thread count reaches the engine: OpenMP keeps the count per calling thread, so the job runner's
// worker must see what the spin box says (a count set only on the GUI thread would not reach it), and the
// choice is kept for the next session.
#include "fwi/threading.hpp"
#include "fwi/ui/job_runner.hpp"
#include "fwi/ui/thread_setting.hpp"
#include "ui_test_main.hpp"

#include <QSettings>
#include <QThread>

#include <atomic>

using namespace fwi;
using namespace fwi::ui;

namespace {
/// fwi::thread_count() as a job on the runner's worker thread sees it.
int worker_thread_count() {
    JobRunner runner;
    std::atomic<int> seen{-1};
    if (!runner.start("threads", [&](JobContext&) -> std::function<void()> {
            seen = thread_count();
            return {};
        }))
        return -2;
    if (!runner.wait(30000)) return -3;
    return seen;
}
} // namespace

class TestThreadSetting : public QObject {
    Q_OBJECT
  private slots:
    void init() { QSettings().remove("engine/threads"); }
    void cleanupTestCase() { QSettings().remove("engine/threads"); }
    void spin_box_reaches_the_worker();
};

void TestThreadSetting::spin_box_reaches_the_worker() {
    const int all = worker_thread_count(); // the default: OMP_NUM_THREADS or all cores
    QVERIFY(all >= 1);
    ThreadCountBox box;
    QCOMPARE(box.value(), 0);
    QCOMPARE(box.text(), QString("threads: all cores"));
    box.setValue(3); // more than this 2-core machine has: OpenMP still runs 3, so the count is told apart
    QCOMPARE(worker_thread_count(), 3);
    QCOMPARE(thread_count(), 3); // the GUI thread's, which the status bar's device text reports
    box.setValue(1);
    QCOMPARE(worker_thread_count(), 1);
    ThreadCountBox next_session;
    QCOMPARE(next_session.value(), 1);
    QCOMPARE(QSettings().value("engine/threads").toInt(), 1);
    box.setValue(0);
    QCOMPARE(worker_thread_count(), all);
}

FWI_UI_TEST_MAIN(TestThreadSetting)
#include "tst_thread_setting.moc"
