// ModelView + AcquisitionEditor: clicks land where the user sees the model, edits are undoable, out-of-model
// positions are refused with a message, and the table stays in sync.
#include "fwi/ui/acquisition_editor.hpp"
#include "fwi/ui/acquisition_panel.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "ui_test_main.hpp"

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTimer>
#include <QUndoStack>

using namespace fwi;
using namespace fwi::ui;

namespace {
// 2000 m x 1000 m at 10 m; 2000 m/s everywhere except a 4000 m/s block over x 600..700 m, z 300..400 m.
Experiment block_experiment() {
    Experiment e;
    e.initial_model.grid = Grid(101, 201, 10.0, 10.0);
    e.initial_model.vp_mps.assign(101 * 201, 2000.0f);
    for (int iz = 30; iz <= 40; ++iz)
        for (int ix = 60; ix <= 70; ++ix)
            e.initial_model.vp_mps[std::size_t(iz * 201 + ix)] = 4000.0f;
    e.acquisition = surface_survey(2, 100, 1900, 20, 5, 0, 2000, 10);
    return e;
}

struct Fixture {
    ProjectDocument doc;
    ModelView view;
    AcquisitionPanel panel;
    AcquisitionEditor editor{&doc, &view, &panel};
    QStringList messages;
    Fixture() {
        QObject::connect(&editor, &AcquisitionEditor::message, [this](const QString& m) { messages << m; });
        Project p;
        p.experiment = block_experiment();
        doc.reset(std::move(p), {});
        view.resize(900, 560);
        view.show();
        panel.show();
    }
};
} // namespace

class TestModelView : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { set_message_boxes(false); }
    void click_adds_receiver_where_the_model_is_drawn();
    void drag_moves_and_undo_restores();
    void outside_click_refused();
    void delete_key_removes_selection();
    void receiver_line_by_drag();
    void table_follows_and_edits();
    void line_dialog_refuses_bad_input();
};

void TestModelView::click_adds_receiver_where_the_model_is_drawn() {
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    const QImage img = f.view.snapshot();
    img.save(test::output_path("tst_model_view.png"));
    // Locate the fast block in the rendered image by its colour (the top of the viridis map), independently
    // of the view's own mapping, and click at its centre.
    const QColor top = colormap_color(Colormap::Viridis, 1.0);
    double sx = 0, sy = 0;
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            if (std::abs(c.red() - top.red()) < 12 && std::abs(c.green() - top.green()) < 12 &&
                std::abs(c.blue() - top.blue()) < 12 && x < img.width() - 130) { // not the colour bar
                sx += x;
                sy += y;
                ++n;
            }
        }
    QVERIFY2(n > 50, "the fast block is visible");
    const qreal dpr = img.devicePixelRatio();
    const QPoint click(int(std::lround(sx / n / dpr)), int(std::lround(sy / n / dpr)));

    f.view.set_edit_mode(EditMode::AddReceiver);
    const auto before = f.doc.experiment().acquisition.shots[0].receivers.size();
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, click);
    const auto& rec = f.doc.experiment().acquisition.shots[0].receivers;
    QCOMPARE(rec.size(), before + 1);
    const double tol = 2 * f.view.view_transform().metres_per_pixel; // block centre found to about a pixel
    QVERIFY2(std::abs(rec.back().x_m - 650) < tol && std::abs(rec.back().z_m - 350) < tol,
             qPrintable(QString("landed at %1, %2").arg(rec.back().x_m).arg(rec.back().z_m)));
    // Shared spread: the other shot got it too.
    QCOMPARE(f.doc.experiment().acquisition.shots[1].receivers.back(), rec.back());
    // And the view's exposed mapping agrees exactly with where the click landed.
    const QPointF m = f.view.to_model(click);
    QCOMPARE(rec.back().x_m, m.x());
    QCOMPARE(rec.back().z_m, m.y());
    QVERIFY(f.doc.dirty());
}

void TestModelView::drag_moves_and_undo_restores() {
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    const Point r0 = f.doc.experiment().acquisition.shots[0].receivers[2]; // (1000, 10)
    const QPoint from = f.view.to_widget({r0.x_m, r0.z_m}).toPoint();
    const QPoint to = from + QPoint(40, 60);
    QTest::mousePress(&f.view, Qt::LeftButton, {}, from);
    QTest::mouseMove(&f.view, from + QPoint(20, 30));
    QTest::mouseMove(&f.view, to);
    QTest::mouseRelease(&f.view, Qt::LeftButton, {}, to);
    const Point moved = f.doc.experiment().acquisition.shots[0].receivers[2];
    const QPointF expect = f.view.to_model(to);
    QVERIFY(std::abs(moved.x_m - expect.x()) < 1e-6 && std::abs(moved.z_m - expect.y()) < 1e-6);
    QCOMPARE(f.doc.undo_stack()->count(), 1);
    f.doc.undo_stack()->undo();
    QCOMPARE(f.doc.experiment().acquisition.shots[0].receivers[2], r0);
    QVERIFY(!f.doc.dirty());
}

void TestModelView::outside_click_refused() {
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    const Acquisition before = f.doc.experiment().acquisition;
    f.view.set_edit_mode(EditMode::AddSource);
    QSignalSpy refused(&f.view, &ModelView::refused);
    const QPoint outside = f.view.to_widget({-150, 500}).toPoint(); // left of the model
    QVERIFY(f.view.rect().contains(outside));
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, outside);
    QCOMPARE(refused.count(), 1);
    QVERIFY(refused.first().first().toString().contains("outside the model"));
    QCOMPARE(f.messages.size(), 1);
    QVERIFY(f.doc.experiment().acquisition == before);
    QVERIFY(!f.doc.dirty());
}

void TestModelView::delete_key_removes_selection() {
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    f.view.set_selection({{PointKind::Receiver, 1}, {PointKind::Source, 0}});
    QTest::keyClick(&f.view, Qt::Key_Delete);
    const Acquisition& a = f.doc.experiment().acquisition;
    QCOMPARE(a.shots.size(), std::size_t(1)); // the source's shot went
    QCOMPARE(a.shots[0].source.x_m, 1900.0);  // the other shot stayed
    QCOMPARE(a.shots[0].receivers.size(), std::size_t(4));
    QCOMPARE(a.shots[0].receivers[1].x_m, 1000.0); // receiver 1 (500 m) went
}

void TestModelView::receiver_line_by_drag() {
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    f.view.set_edit_mode(EditMode::ReceiverLine);
    f.view.set_line_count(11);
    const QPoint a = f.view.to_widget({200, 500}).toPoint();
    const QPoint b = f.view.to_widget({1200, 500}).toPoint();
    QTest::mousePress(&f.view, Qt::LeftButton, {}, a);
    QTest::mouseMove(&f.view, (a + b) / 2);
    QTest::mouseMove(&f.view, b);
    QTest::mouseRelease(&f.view, Qt::LeftButton, {}, b);
    const auto& rec = f.doc.experiment().acquisition.shots[0].receivers;
    QCOMPARE(rec.size(), std::size_t(5 + 11));
    const QPointF ma = f.view.to_model(a), mb = f.view.to_model(b);
    for (int i = 0; i < 11; ++i) {
        const double x = ma.x() + i * (mb.x() - ma.x()) / 10;
        QVERIFY(std::abs(rec[std::size_t(5 + i)].x_m - x) < 1e-6);
    }
    QCOMPARE(f.doc.undo_stack()->count(), 1); // one undo step for the whole line
}

void TestModelView::table_follows_and_edits() {
    Fixture f;
    auto* model = f.panel.table_model();
    QCOMPARE(model->rowCount(), 2 + 5);
    // Edit receiver 0's x in the table: the document moves it (and the view follows).
    const QModelIndex x_cell = model->index(2, AcquisitionTableModel::XColumn);
    model->setData(x_cell, "123.5", Qt::EditRole);
    QCOMPARE(f.doc.experiment().acquisition.shots[0].receivers[0].x_m, 123.5);
    QCOMPARE(model->data(x_cell, Qt::EditRole).toDouble(), 123.5);
    // Bad values are refused with a message and change nothing.
    model->setData(x_cell, "abc", Qt::EditRole);
    model->setData(x_cell, "-5000", Qt::EditRole);
    QCOMPARE(f.messages.size(), 2);
    QVERIFY(f.messages.last().contains("outside the model"));
    QCOMPARE(f.doc.experiment().acquisition.shots[0].receivers[0].x_m, 123.5);
    // Selection follows both ways.
    f.view.set_selection({{PointKind::Receiver, 3}});
    QCOMPARE(f.panel.selection(), (std::vector<PointRef>{{PointKind::Receiver, 3}}));
    f.panel.table_view()->selectRow(0);
    QCOMPARE(f.view.selection(), (std::vector<PointRef>{{PointKind::Source, 0}}));
}

void TestModelView::line_dialog_refuses_bad_input() {
    ReceiverLineDialog dialog;
    dialog.set_grid(Grid(101, 201, 10, 10));
    dialog.set_values(0, {0, 10}, {2000, 10});
    const int errors = error_count();
    dialog.accept();
    QCOMPARE(error_count(), errors + 1);
    QVERIFY(last_error().contains("at least one"));
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    dialog.set_values(10, {0, 10}, {2500, 10});
    dialog.accept();
    QVERIFY(last_error().contains("outside the model"));
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    dialog.set_values(10, {0, 10}, {2000, 10});
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(error_count(), errors + 2);
    auto* y0 = dialog.findChild<QDoubleSpinBox*>("y0");
    QVERIFY(y0 && y0->isHidden()); // 2D: no y
    QCOMPARE(dialog.from().y_m, 0.0);

    // 3D (x 0..400, y 0..300, z 0..200 m): the y boxes appear and y is checked against the volume.
    dialog.set_grid(Grid(21, 31, 41, 10, 10, 10));
    QVERIFY(!y0->isHidden());
    dialog.set_values(5, {0, 10, 50}, {400, 10, 350});
    dialog.accept();
    QVERIFY(last_error().contains("outside the model"));
    QCOMPARE(error_count(), errors + 3);
    dialog.set_values(5, {0, 10, 50}, {400, 10, 250});
    dialog.accept();
    QCOMPARE(error_count(), errors + 3);
    QCOMPARE(dialog.from(), (Point{0, 10, 50}));
    QCOMPARE(dialog.to(), (Point{400, 10, 250}));
}

FWI_UI_TEST_MAIN(TestModelView)
#include "tst_model_view.moc"
