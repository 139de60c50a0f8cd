// ImageView: what the user sees matches the data (colour under a known cell), the pixel <-> metre mapping is
// exact, and zoom keeps the point under the cursor fixed.
#include "fwi/ui/image_view.hpp"
#include "fwi/ui/view_transform.hpp"
#include "ui_test_main.hpp"

#include <QSignalSpy>

#include <vector>

using namespace fwi::ui;

class TestImageView : public QObject {
    Q_OBJECT
  private slots:
    void transform_round_trip();
    void fit_box_shows_whole_box();
    void zoom_keeps_anchor();
    void renders_colours_where_cells_are();
    void cursor_readout_reports_value();
};

void TestImageView::transform_round_trip() {
    ViewTransform t{500, 250, 2.5, 640, 480};
    const MetresPoint m = t.to_metres({320, 240});
    QCOMPARE(m.x_m, 500.0);
    QCOMPARE(m.z_m, 250.0);
    const MetresPoint m2 = t.to_metres({330, 200});
    QCOMPARE(m2.x_m, 525.0);
    QCOMPARE(m2.z_m, 150.0);
    const PixelPoint p = t.to_pixels(m2);
    QCOMPARE(p.x_px, 330.0);
    QCOMPARE(p.y_px, 200.0);
}

void TestImageView::fit_box_shows_whole_box() {
    const ViewMargins margins{10, 20, 30, 40};
    const ViewTransform t = fit_box(0, 1000, 0, 500, 400, 300, margins);
    // Available 360 x 240 px; 1000 m wide box limits: 1000/360 m per pixel.
    QCOMPARE(t.metres_per_pixel, 1000.0 / 360.0);
    const PixelPoint left_top = t.to_pixels({0, 0});
    const PixelPoint right_bottom = t.to_pixels({1000, 500});
    QVERIFY(std::abs(left_top.x_px - 10) < 1e-9);
    QVERIFY(std::abs(right_bottom.x_px - 370) < 1e-9);
    QVERIFY(left_top.y_px >= 20 - 1e-9 && right_bottom.y_px <= 260 + 1e-9);
}

void TestImageView::zoom_keeps_anchor() {
    ViewTransform t{100, 100, 1, 200, 200};
    const MetresPoint before = t.to_metres({37, 151});
    t.zoom_about({37, 151}, 3.0);
    const MetresPoint after = t.to_metres({37, 151});
    QVERIFY(std::abs(before.x_m - after.x_m) < 1e-9);
    QVERIFY(std::abs(before.z_m - after.z_m) < 1e-9);
    QCOMPARE(t.metres_per_pixel, 1.0 / 3.0);
}

void TestImageView::renders_colours_where_cells_are() {
    // 2 x 2 cells of 100 m: values 0 (top-left), 1, 2, 3 (bottom-right); gray map over [0, 3].
    ImageView view;
    view.resize(500, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const std::vector<float> v{0, 1, 2, 3};
    view.set_image(v, 2, 2, 100, 100);
    view.set_colormap(Colormap::Gray);
    view.set_value_range(0, 3);
    const QImage img = view.snapshot();
    img.save(test::output_path("tst_image_view.png"));
    const qreal dpr = img.devicePixelRatio();
    auto grey_at = [&](double x_m, double z_m) {
        const QPointF p = view.to_widget({x_m, z_m}) * dpr;
        return qGray(img.pixel(int(p.x()), int(p.y())));
    };
    QVERIFY2(grey_at(0, 0) < 20, "top-left cell (value 0) is black");
    QVERIFY2(grey_at(100, 100) > 235, "bottom-right cell (value 3) is white");
    const int g1 = grey_at(100, 0), g2 = grey_at(0, 100); // value 1 (top-right) and 2 (bottom-left)
    QVERIFY2(std::abs(g1 - 85) < 20 && std::abs(g2 - 170) < 20, qPrintable(QString("%1 %2").arg(g1).arg(g2)));
}

void TestImageView::cursor_readout_reports_value() {
    ImageView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const std::vector<float> v{10, 20, 30, 40, 50, 60};
    view.set_image(v, 2, 3, 5, 5);
    QSignalSpy spy(&view, &ImageView::cursor_moved);
    const QPointF p = view.to_widget({10, 5}); // cell (iz 1, ix 2) = 60
    QTest::mouseMove(&view, p.toPoint());
    QTRY_VERIFY(!spy.isEmpty());
    const auto args = spy.last();
    QCOMPARE(args.at(3).toBool(), true);
    QCOMPARE(args.at(2).toDouble(), 60.0);
    QVERIFY(std::abs(args.at(0).toDouble() - 10) <= view.view_transform().metres_per_pixel);
}

FWI_UI_TEST_MAIN(TestImageView)
#include "tst_image_view.moc"
