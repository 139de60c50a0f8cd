// The GUI of a 3D project: the orthogonal slices show the right cells at the slider positions, the 3D view
// draws the three planes where the sliders put them (and volume-renders a field when asked), an areal drag
// on the depth slice places the right grid of sources, and a 3D project file opens as slices. Runs started
// from the window are in tst_volume_runs.cpp.
#include "block_volume.hpp"
#include "fwi/error.hpp"
#include "fwi/ui/acquisition_panel.hpp"
#include "fwi/ui/areal_acquisition.hpp"
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/slice_view.hpp"
#include "fwi/ui/volume_3d_view.hpp"
#include "fwi/ui/volume_slices_view.hpp"
#include "ui_test_main.hpp"

#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace fwi;
using namespace fwi::ui;
using namespace fwi::ui::test;

namespace {
/// Pixels close to colour c (a few levels per channel).
int pixels_like(const QImage& img, QColor c, int tolerance = 14) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor p = img.pixelColor(x, y);
            if (std::abs(p.red() - c.red()) < tolerance && std::abs(p.green() - c.green()) < tolerance &&
                std::abs(p.blue() - c.blue()) < tolerance)
                ++n;
        }
    return n;
}

/// The block model in a slices view of 1200 x 900, shown (the caller waits for it to be exposed).
void show_block_slices(VolumeSlicesView& v) {
    v.resize(1200, 900);
    v.set_model(block_model());
    v.show();
}

/// Widget pixel of slice coordinates (metres) in a slice view.
QPoint pixel_of(const SliceView& v, double col_m, double row_m) {
    return v.to_widget({col_m, row_m}).toPoint();
}
} // namespace

class TestVolumeSlices : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { set_message_boxes(false); }
    void slice_values_takes_the_cells_at_the_index();
    void slices_refuse_bad_input();
    void points_near_a_slice();
    void areal_grid_positions();
    void slices_show_the_model_at_the_slider_positions();
    void volume_view_draws_the_three_planes();
    void volume_rendering_draws_the_field();
    void areal_drag_adds_a_grid_of_sources();
    void opens_a_3d_project_file();
};

void TestVolumeSlices::slice_values_takes_the_cells_at_the_index() {
    // Every cell has its own value: iz * 10000 + iy * 100 + ix.
    Grid g(nz, ny, nx, 5, 7, 3);
    std::vector<float> v(std::size_t(g.cells()));
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix)
                v[g.index(iz, iy, ix)] = float(iz * 10000 + iy * 100 + ix);
    const auto inl = slice_values(g, v, SliceAxis::Inline, 13); // rows z, cols x
    QCOMPARE(std::int64_t(inl.size()), nz * nx);
    QCOMPARE(inl[std::size_t(19 * nx + 7)], 19 * 10000.0f + 13 * 100 + 7);
    QCOMPARE(inl.back(), (nz - 1) * 10000.0f + 13 * 100 + (nx - 1));
    const auto xl = slice_values(g, v, SliceAxis::Crossline, 7); // rows z, cols y
    QCOMPARE(std::int64_t(xl.size()), nz * ny);
    QCOMPARE(xl[std::size_t(19 * ny + 13)], 19 * 10000.0f + 13 * 100 + 7);
    QCOMPARE(xl[std::size_t(ny - 1)], (ny - 1) * 100.0f + 7);
    const auto dep = slice_values(g, v, SliceAxis::Depth, 19); // rows y, cols x
    QCOMPARE(std::int64_t(dep.size()), ny * nx);
    QCOMPARE(dep[std::size_t(13 * nx + 7)], 19 * 10000.0f + 13 * 100 + 7);

    const Grid sg = slice_grid(g, SliceAxis::Crossline);
    QCOMPARE(sg.rank, 2);
    QCOMPARE(sg.nz(), nz);
    QCOMPARE(sg.nx(), ny);
    QCOMPARE(sg.dz(), 5.0);
    QCOMPARE(sg.dx(), 7.0);
    QCOMPARE(slice_position_m(g, SliceAxis::Crossline, 4), 12.0);
    QCOMPARE(slice_index_at(g, SliceAxis::Depth, 51.0), std::int64_t(10));
    QCOMPARE(slice_index_at(g, SliceAxis::Depth, -3.0), std::int64_t(0));
    QCOMPARE(slice_index_at(g, SliceAxis::Depth, 1e6), nz - 1);
}

void TestVolumeSlices::slices_refuse_bad_input() {
    const Model m = block_model();
    QVERIFY_THROWS_EXCEPTION(ConfigError, slice_model(m, SliceAxis::Inline, ny));
    QVERIFY_THROWS_EXCEPTION(ConfigError, slice_model(m, SliceAxis::Depth, -1));
    std::vector<float> short_volume(10);
    QVERIFY_THROWS_EXCEPTION(ConfigError, slice_values(m.grid, short_volume, SliceAxis::Depth, 0));
    Grid flat(nz, nx, h, h);
    std::vector<float> plane(std::size_t(flat.cells()));
    QVERIFY_THROWS_EXCEPTION(ConfigError, slice_values(flat, plane, SliceAxis::Inline, 0));
}

void TestVolumeSlices::points_near_a_slice() {
    const Grid g = block_model().grid;
    const std::vector<Point> pts = {{50, 20, 100}, {60, 30, 112}, {70, 40, 140}}; // x, z, y
    // Inline slice 10 (y = 100 m), 1.5 cells: y 85..115 m.
    const auto on = points_on_slice(pts, g, SliceAxis::Inline, 10, 1.5);
    QCOMPARE(on.size(), std::size_t(2));
    QCOMPARE(on[1].x_m, 60.0); // column: x
    QCOMPARE(on[1].z_m, 30.0); // row: z
    // Crossline: column y, row z; projected (negative tolerance) keeps all.
    const auto all = points_on_slice(pts, g, SliceAxis::Crossline, 0, -1);
    QCOMPARE(all.size(), std::size_t(3));
    QCOMPARE(all[2].x_m, 140.0);
    // Depth: column x, row y; and back.
    const Point s = to_slice_coordinates(pts[1], SliceAxis::Depth);
    QCOMPARE(s.x_m, 60.0);
    QCOMPARE(s.z_m, 112.0);
    QCOMPARE(from_slice_coordinates(s, SliceAxis::Depth, 30.0), pts[1]);
}

void TestVolumeSlices::areal_grid_positions() {
    const Grid g = block_model().grid;
    Acquisition acq;
    acq.shots.push_back({{100, 10, 100}, {{0, 0, 0}}});
    const Acquisition out = with_areal_grid(acq, g, PointKind::Source, {200, 30, 150}, {20, 30, 50}, 3, 2, 0);
    QCOMPARE(out.shots.size(), std::size_t(7));
    // x fast from the smaller corner: x 20, 110, 200; y 50, 150; every one at z 30 and recorded by the
    // shared receiver.
    QCOMPARE(out.shots[1].source, (Point{20, 30, 50}));
    QCOMPARE(out.shots[2].source, (Point{110, 30, 50}));
    QCOMPARE(out.shots[6].source, (Point{200, 30, 150}));
    QCOMPARE(out.shots[6].receivers, acq.shots[0].receivers);
    const Acquisition rec = with_areal_grid(acq, g, PointKind::Receiver, {0, 0, 0}, {230, 0, 190}, 2, 2, 0);
    QCOMPARE(rec.shots[0].receivers.size(), std::size_t(5));
    QCOMPARE(rec.shots[0].receivers[4], (Point{230, 0, 190}));
    // Outside (y beyond 190 m), a count of 0, a 2D model.
    QVERIFY_THROWS_EXCEPTION(ConfigError,
                             with_areal_grid(acq, g, PointKind::Source, {0, 0, 0}, {100, 0, 250}, 2, 2, 0));
    QVERIFY_THROWS_EXCEPTION(ConfigError,
                             with_areal_grid(acq, g, PointKind::Source, {0, 0, 0}, {100, 0, 100}, 0, 2, 0));
    QVERIFY_THROWS_EXCEPTION(ConfigError, with_areal_grid(acq, Grid(nz, nx, h, h), PointKind::Source,
                                                          {0, 0, 0}, {100, 0, 100}, 2, 2, 0));
    try {
        with_areal_grid(acq, g, PointKind::Source, {0, 0, 0}, {100, 0, 250}, 2, 2, 0);
    } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).contains("y 0..190.0 m"), e.what());
    }
}

void TestVolumeSlices::slices_show_the_model_at_the_slider_positions() {
    VolumeSlicesView v;
    v.resize(1200, 900);
    v.set_model(block_model());
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    // Centred at first.
    QCOMPARE(v.slice_index(SliceAxis::Inline), ny / 2);
    QCOMPARE(v.slice_index(SliceAxis::Crossline), nx / 2);
    QCOMPARE(v.slice_index(SliceAxis::Depth), nz / 2);
    QCOMPARE(v.slider(SliceAxis::Inline)->maximum(), int(ny - 1));
    QCOMPARE(v.slider(SliceAxis::Depth)->maximum(), int(nz - 1));
    // Through the block: y index 13, x index 7, z index 19.
    v.slider(SliceAxis::Inline)->setValue(13);
    v.slider(SliceAxis::Crossline)->setValue(7);
    v.slider(SliceAxis::Depth)->setValue(19);
    QVERIFY2(v.position_label(SliceAxis::Inline)->text().contains("y = 130.0 m"),
             qPrintable(v.position_label(SliceAxis::Inline)->text()));
    QVERIFY(v.position_label(SliceAxis::Depth)->text().contains("z = 190.0 m"));
    float value = 0;
    SliceView* inl = v.slice_view(SliceAxis::Inline);
    SliceView* xl = v.slice_view(SliceAxis::Crossline);
    SliceView* dep = v.slice_view(SliceAxis::Depth);
    QCOMPARE(inl->rows(), nz);
    QCOMPARE(inl->cols(), nx);
    QCOMPARE(xl->cols(), ny);
    QCOMPARE(dep->rows(), ny);
    QVERIFY(inl->value_at(7 * h, 19 * h, value)); // (x, z)
    QCOMPARE(value, 3000.0f);
    QVERIFY(inl->value_at(15 * h, 19 * h, value));
    QCOMPARE(value, background(19));
    QVERIFY(xl->value_at(13 * h, 20 * h, value)); // (y, z)
    QCOMPARE(value, 3000.0f);
    QVERIFY(xl->value_at(3 * h, 20 * h, value));
    QCOMPARE(value, background(20));
    QVERIFY(dep->value_at(8 * h, 14 * h, value)); // (x, y)
    QCOMPARE(value, 3000.0f);
    QVERIFY(dep->value_at(8 * h, 2 * h, value));
    QCOMPARE(value, background(19));
    // Moving the sliders moves the slices: off the block, the same cells show the background.
    v.slider(SliceAxis::Inline)->setValue(2);
    QCOMPARE(v.slice_index(SliceAxis::Inline), std::int64_t(2));
    QVERIFY(v.position_label(SliceAxis::Inline)->text().contains("y = 20.0 m"));
    QVERIFY(inl->value_at(7 * h, 19 * h, value));
    QCOMPARE(value, background(19));
    v.slider(SliceAxis::Depth)->setValue(5);
    QVERIFY(dep->value_at(8 * h, 14 * h, value));
    QCOMPARE(value, background(5));
    v.set_slice_index(SliceAxis::Crossline, 100); // clamped
    QCOMPARE(v.slice_index(SliceAxis::Crossline), nx - 1);
    QCOMPARE(v.slider(SliceAxis::Crossline)->value(), int(nx - 1));
}

void TestVolumeSlices::volume_view_draws_the_three_planes() {
    VolumeSlicesView v;
    show_block_slices(v);
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    Volume3DView* view = v.volume_view();
    const QColor top = colormap_color(Colormap::Viridis, 1.0); // the block (the maximum)
    const QColor background_colour(245, 245, 247);             // 0.96, 0.96, 0.97
    // Planes away from the block: no block colour.
    v.set_slice_index(SliceAxis::Inline, 2);
    v.set_slice_index(SliceAxis::Crossline, 20);
    v.set_slice_index(SliceAxis::Depth, 5);
    const QImage away = view->snapshot();
    // Every plane through the block.
    v.set_slice_index(SliceAxis::Inline, 13);
    v.set_slice_index(SliceAxis::Crossline, 7);
    v.set_slice_index(SliceAxis::Depth, 19);
    const QImage through = view->snapshot();
    through.save(test::output_path("tst_volume_slices_3d.png"));
    const int total = through.width() * through.height();
    const int drawn = total - pixels_like(through, background_colour, 6);
    const int black = pixels_like(through, Qt::black, 10);
    QVERIFY2(drawn > total / 8, qPrintable(QString("%1 of %2 pixels drawn").arg(drawn).arg(total)));
    QVERIFY2(black < drawn / 4, qPrintable(QString("%1 black pixels").arg(black)));
    const int block_away = pixels_like(away, top), block_through = pixels_like(through, top);
    QVERIFY2(block_away == 0 && block_through > 50,
             qPrintable(QString("block pixels: away %1, through %2").arg(block_away).arg(block_through)));
    // The deep end of the colour map (the bottom rows, slow background) is drawn too: several planes.
    QVERIFY(pixels_like(through, colormap_color(Colormap::Viridis, 0.0), 20) > 50);
    // Rotating changes the picture.
    view->rotate(60, 10);
    QVERIFY(test::differing_pixels(view->snapshot(), through) > total / 20);
}

/// Pixels clearly red (the positive end of the seismic colour map), whatever their shade.
int reddish_pixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor p = img.pixelColor(x, y);
            if (p.red() > 80 && p.red() > p.green() + 50 && p.red() > p.blue() + 50) ++n;
        }
    return n;
}

void TestVolumeSlices::volume_rendering_draws_the_field() {
    VolumeSlicesView v;
    show_block_slices(v);
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    Volume3DView* view = v.volume_view();
    // A positive ball of radius 5 cells in the middle of the volume, zero elsewhere; the three planes on
    // the far faces (away from the camera), where the field is zero: they draw white and hide nothing.
    auto field = std::make_shared<std::vector<float>>(std::size_t(nx * ny * nz), 0.0f);
    const Grid g = block_model().grid;
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t iy = 0; iy < ny; ++iy)
            for (std::int64_t ix = 0; ix < nx; ++ix) {
                const double r = std::hypot(double(iz - 14), double(iy - 10), double(ix - 12));
                if (r < 5) (*field)[std::size_t(g.index(iz, iy, ix))] = float(1 - r / 5);
            }
    v.set_field(VolumeSlicesView::Layer::Wavefield, field, "ball");
    v.show_layer(VolumeSlicesView::Layer::Wavefield);
    v.set_slice_index(SliceAxis::Inline, ny - 1);
    v.set_slice_index(SliceAxis::Crossline, nx - 1);
    v.set_slice_index(SliceAxis::Depth, nz - 1);
    QVERIFY(!view->volume_drawn()); // off by default
    const QImage off = view->snapshot();
    v.volume_rendering_box()->setChecked(true);
    QVERIFY(view->volume_rendering() && view->volume_drawn());
    const QImage on = view->snapshot();
    on.save(test::output_path("tst_volume_slices_volume_rendering.png"));
    const int total = on.width() * on.height();
    const int red_off = reddish_pixels(off), red_on = reddish_pixels(on);
    QVERIFY2(red_off == 0 && red_on > total / 200,
             qPrintable(QString("red pixels: %1 without the volume, %2 with it").arg(red_off).arg(red_on)));
    QVERIFY(test::differing_pixels(on, off) > total / 200);
    // The model is never volume-rendered; the field comes back with its layer; unticking hides it.
    v.show_layer(VolumeSlicesView::Layer::Model);
    QVERIFY(!view->volume_drawn());
    v.show_layer(VolumeSlicesView::Layer::Wavefield);
    QVERIFY(view->volume_drawn());
    QVERIFY(reddish_pixels(view->snapshot()) > total / 200);
    v.volume_rendering_box()->setChecked(false);
    QVERIFY(!view->volume_drawn());
    QCOMPARE(reddish_pixels(view->snapshot()), 0);
    // A field of the wrong size is refused, not read out of bounds.
    view->set_volume_rendering(true);
    view->set_volume(std::make_shared<std::vector<float>>(std::size_t(5), 1.0f));
    QVERIFY(!view->volume_drawn());
}

void TestVolumeSlices::areal_drag_adds_a_grid_of_sources() {
    MainWindow w;
    w.document()->reset(block_project(), {});
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    VolumeSlicesView* v = w.volume_view();
    QCOMPARE(qobject_cast<QStackedWidget*>(w.centralWidget())->currentWidget(), v);
    QVERIFY(v->volume_view()->isVisible());
    v->set_slice_index(SliceAxis::Depth, 2); // z = 20 m
    v->set_areal_mode(VolumeSlicesView::ArealMode::Sources);
    v->set_areal_counts(3, 2);
    SliceView* dep = v->slice_view(SliceAxis::Depth);
    QVERIFY(dep->rectangle_mode());
    const QPoint a = pixel_of(*dep, 30, 40), b = pixel_of(*dep, 200, 160);
    QTest::mousePress(dep, Qt::LeftButton, {}, a);
    QTest::mouseMove(dep, (a + b) / 2);
    QTest::mouseMove(dep, b);
    QTest::mouseRelease(dep, Qt::LeftButton, {}, b);
    const auto& shots = w.document()->experiment().acquisition.shots;
    QCOMPARE(shots.size(), std::size_t(7));
    // Where the pixels map back to, to within a pixel's size.
    const QPointF ma = dep->to_model(a), mb = dep->to_model(b);
    const double tol = dep->view_transform().metres_per_pixel + 1e-9;
    for (int iy = 0; iy < 2; ++iy)
        for (int ix = 0; ix < 3; ++ix) {
            const Point s = shots[std::size_t(1 + iy * 3 + ix)].source;
            const double x = ma.x() + (mb.x() - ma.x()) * ix / 2.0, y = ma.y() + (mb.y() - ma.y()) * iy;
            QVERIFY2(
                std::abs(s.x_m - x) <= tol && std::abs(s.y_m - y) <= tol && s.z_m == 20.0,
                qPrintable(
                    QString("source %1: (%2, %3, %4)").arg(ix + 3 * iy).arg(s.x_m).arg(s.y_m).arg(s.z_m)));
            QVERIFY(std::abs(s.x_m - (30 + 85.0 * ix)) < 2 * tol &&
                    std::abs(s.y_m - (40 + 120.0 * iy)) < 2 * tol);
        }
    w.grab().save(test::output_path("tst_volume_slices_window.png"));
    // The table shows y in 3D, and editing it moves the point in y only.
    QTableView* table = w.acquisition_panel()->table_view();
    QVERIFY(!table->isColumnHidden(AcquisitionTableModel::YColumn));
    auto* add_line = w.acquisition_panel()->findChild<QPushButton*>("acquisition_add_line");
    QVERIFY(add_line && add_line->isEnabled());
    {
        // A receiver line across y, as the line dialog's OK requests it: 5 receivers from y = 20 to 180 m.
        const std::size_t before = w.document()->experiment().acquisition.shots[0].receivers.size();
        emit w.model_view()->line_requested(Point{50, 30, 20}, Point{50, 30, 180}, 5);
        const auto& rec = w.document()->experiment().acquisition.shots[0].receivers;
        QCOMPARE(rec.size(), before + 5);
        for (std::size_t i = 0; i < 5; ++i)
            QCOMPARE(rec[before + i], (Point{50, 30, 20 + 40.0 * double(i)}));
        w.document()->undo_stack()->undo(); // one edit, one undo
        QCOMPARE(w.document()->experiment().acquisition.shots[0].receivers.size(), before);
    }
    AcquisitionTableModel* model = w.acquisition_panel()->table_model();
    const QModelIndex y_cell = model->index(4, AcquisitionTableModel::YColumn); // source 4: ix 0, iy 1
    QCOMPARE(model->data(y_cell, Qt::EditRole).toDouble(), shots[4].source.y_m);
    const Point before = shots[4].source;
    model->setData(y_cell, "150", Qt::EditRole);
    QCOMPARE(shots[4].source, (Point{before.x_m, before.z_m, 150.0}));
    w.document()->undo_stack()->undo();
    // Undo removes the grid in one step.
    w.document()->undo_stack()->undo();
    QCOMPARE(w.document()->experiment().acquisition.shots.size(), std::size_t(1));
    // A rectangle reaching outside the model (y beyond 190 m) is refused with a message.
    QSignalSpy refused(v, &VolumeSlicesView::refused);
    const QPoint c = pixel_of(*dep, 100, 100), outside = pixel_of(*dep, 150, 230);
    QTest::mousePress(dep, Qt::LeftButton, {}, c);
    QTest::mouseMove(dep, outside);
    QTest::mouseRelease(dep, Qt::LeftButton, {}, outside);
    QCOMPARE(refused.count(), 1);
    QVERIFY2(refused.at(0).at(0).toString().contains("inside the model"),
             qPrintable(refused.at(0).at(0).toString()));
    QCOMPARE(w.document()->experiment().acquisition.shots.size(), std::size_t(1));
    // Off: a drag pans, nothing is added.
    v->set_areal_mode(VolumeSlicesView::ArealMode::Off);
    QTest::mousePress(dep, Qt::LeftButton, {}, a);
    QTest::mouseMove(dep, b);
    QTest::mouseRelease(dep, Qt::LeftButton, {}, b);
    QCOMPARE(w.document()->experiment().acquisition.shots.size(), std::size_t(1));
}

void TestVolumeSlices::opens_a_3d_project_file() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("block3d.fwi");
    Project p = block_project();
    p.gradient.assign(std::size_t(p.experiment.true_model.grid.cells()), 0.0f);
    p.gradient[p.experiment.true_model.grid.index(19, 13, 7)] = 2.5f; // recognisable
    save_project(path.toStdString(), p);

    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.open_project(path));
    VolumeSlicesView* v = w.volume_view();
    QCOMPARE(qobject_cast<QStackedWidget*>(w.centralWidget())->currentWidget(), v);
    QCOMPARE(v->grid(), p.experiment.true_model.grid);
    w.show_model("true");
    v->set_slice_index(SliceAxis::Inline, 13);
    v->set_slice_index(SliceAxis::Crossline, 7);
    v->set_slice_index(SliceAxis::Depth, 19);
    w.grab().save(test::output_path("tst_volume_slices_true_model.png"));
    float value = 0;
    QVERIFY(v->slice_view(SliceAxis::Crossline)->value_at(13 * h, 19 * h, value));
    QCOMPARE(value, 3000.0f);
    QVERIFY(v->slice_view(SliceAxis::Depth)->value_at(0, 0, value));
    QCOMPARE(value, background(19));
    // The points keep their y: the table shows it.
    AcquisitionTableModel* table = w.acquisition_panel()->table_model();
    QCOMPARE(table->data(table->index(0, AcquisitionTableModel::YColumn), Qt::EditRole).toDouble(), 95.0);
    QVERIFY(!w.acquisition_panel()->table_view()->isColumnHidden(AcquisitionTableModel::YColumn));
    // The stored gradient is offered as the gradient layer.
    v->show_layer(VolumeSlicesView::Layer::Gradient);
    QVERIFY(v->slice_view(SliceAxis::Inline)->value_at(7 * h, 19 * h, value));
    QCOMPARE(value, 2.5f);
    QVERIFY(v->slice_view(SliceAxis::Inline)->value_at(8 * h, 19 * h, value));
    QCOMPARE(value, 0.0f);
    // Opening a 2D project brings the 2D model view back.
    QVERIFY(w.open_demo(demo_names().front()));
    QCOMPARE(qobject_cast<QStackedWidget*>(w.centralWidget())->currentWidget(),
             static_cast<QWidget*>(w.model_view()));
    QVERIFY(w.acquisition_panel()->table_view()->isColumnHidden(AcquisitionTableModel::YColumn));
}

FWI_UI_TEST_MAIN(TestVolumeSlices)
#include "tst_volume_slices.moc"
