// The wavefield drawn over the greyed model: the opacity slider reaches the image's lookup table (the alpha
// the renderer blends with) and the pixels: where the wavefield is at full scale, a pixel is the blend
// opacity * wavefield colour + (1 - opacity) * model grey; where it is zero, the model shows through.
#include "fwi/ui/image_view.hpp"
#include "fwi/ui/wavefield_panel.hpp"
#include "ui_test_main.hpp"

#include <QCheckBox>
#include <QSlider>

#include <cmath>
#include <vector>

using namespace fwi;
using namespace fwi::ui;

namespace {
constexpr int nz = 60, nx = 100;
constexpr double h = 10;

/// Two layers: 1500 m/s above z = 300 m, 3000 m/s below.
Model layered() {
    Model m;
    m.grid = Grid(nz, nx, h, h);
    m.vp_mps.resize(std::size_t(nz * nx));
    for (int iz = 0; iz < nz; ++iz)
        for (int ix = 0; ix < nx; ++ix)
            m.vp_mps[std::size_t(iz * nx + ix)] = iz * h < 300 ? 1500.f : 3000.f;
    return m;
}

/// Zero except a positive block (x 200..400 m, z 100..250 m) and a negative one (x 600..800 m, z 350..500 m).
std::vector<float> blocks() {
    std::vector<float> v(std::size_t(nz * nx), 0.f);
    for (int iz = 0; iz < nz; ++iz)
        for (int ix = 0; ix < nx; ++ix) {
            const double x = ix * h, z = iz * h;
            if (x >= 200 && x <= 400 && z >= 100 && z <= 250) v[std::size_t(iz * nx + ix)] = 1.f;
            if (x >= 600 && x <= 800 && z >= 350 && z <= 500) v[std::size_t(iz * nx + ix)] = -1.f;
        }
    return v;
}

QColor pixel(ImageView* view, const QImage& img, double x, double z) {
    const QPointF p = view->to_widget({x, z}) * view->devicePixelRatioF();
    return img.pixelColor(int(p.x()), int(p.y()));
}

bool near(const QColor& a, double r, double g, double b, int tol = 6) {
    return std::abs(a.red() - r) <= tol && std::abs(a.green() - g) <= tol && std::abs(a.blue() - b) <= tol;
}
QString text(const QColor& c) {
    return QString("(%1, %2, %3)").arg(c.red()).arg(c.green()).arg(c.blue());
}
} // namespace

class TestWavefieldOverlay : public QObject {
    Q_OBJECT
  private slots:
    void opacity_blends_wavefield_over_model();
};

void TestWavefieldOverlay::opacity_blends_wavefield_over_model() {
    WavefieldPanel panel;
    panel.resize(700, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ImageView* view = panel.view();
    const std::vector<float> wave = blocks();
    view->set_image(wave, nz, nx, h, h);
    panel.set_model(layered());
    QVERIFY(view->has_underlay());
    // A saved picture states its clip: half the cells are 0 and the rest +-1, so the 99.5th percentile is 1.
    QVERIFY2(
        view->caption().contains(QString::fromUtf8("clipped at \u00b11 (the 99.5th percentile of |value|)")),
        qPrintable(view->caption()));

    // Fully transparent: the model alone, lighter grey above (slow = dark: 1500 m/s is the darkest).
    panel.opacity_slider()->setValue(0);
    QCOMPARE(view->image_opacity(), 0.0);
    QCOMPARE(view->alpha_at(1.0), 0.0);
    const QImage model_only = view->snapshot();
    const QColor slow = pixel(view, model_only, 300, 175), fast = pixel(view, model_only, 700, 425);
    QVERIFY2(slow.red() == slow.green() && slow.green() == slow.blue(), qPrintable(text(slow))); // grey
    QVERIFY2(fast.red() > slow.red() + 60, qPrintable(text(slow) + " " + text(fast)));

    // Opaque: the wavefield's own colours at full scale, the model where it is zero.
    panel.opacity_slider()->setValue(100);
    QCOMPARE(view->alpha_at(1.0), 1.0);
    QVERIFY(view->alpha_at(0.0) < 0.02); // zero is (the table entry next to it: almost) transparent
    const QImage opaque = view->snapshot();
    const QColor red = pixel(view, opaque, 300, 175), blue = pixel(view, opaque, 700, 425);
    const QColor seismic_high = colormap_color(Colormap::Seismic, 1.0),
                 seismic_low = colormap_color(Colormap::Seismic, 0.0);
    QVERIFY2(near(red, seismic_high.red(), seismic_high.green(), seismic_high.blue()), qPrintable(text(red)));
    QVERIFY2(near(blue, seismic_low.red(), seismic_low.green(), seismic_low.blue()), qPrintable(text(blue)));
    QVERIFY2(near(pixel(view, opaque, 900, 100), pixel(view, model_only, 900, 100).red(),
                  pixel(view, model_only, 900, 100).green(), pixel(view, model_only, 900, 100).blue(), 2),
             "where the wavefield is zero the model shows");

    // Half: the blend.
    panel.opacity_slider()->setValue(50);
    QVERIFY(std::abs(view->alpha_at(1.0) - 0.5) <= 1.0 / 255); // the table keeps 8-bit alphas
    const QImage half = view->snapshot();
    const QColor mixed = pixel(view, half, 300, 175);
    QVERIFY2(near(mixed, 0.5 * seismic_high.red() + 0.5 * slow.red(),
                  0.5 * seismic_high.green() + 0.5 * slow.green(),
                  0.5 * seismic_high.blue() + 0.5 * slow.blue()),
             qPrintable(text(mixed)));
    QVERIFY(test::differing_pixels(half, opaque) > 1000);

    // No model underneath: the image is opaque again, zero drawn in the colour map's white.
    panel.underlay_box()->setChecked(false);
    QVERIFY(!view->has_underlay());
    QCOMPARE(view->alpha_at(0.0), 1.0);
    half.save(test::output_path("tst_wavefield_overlay_half.png"));
}

FWI_UI_TEST_MAIN(TestWavefieldOverlay)
#include "tst_wavefield_overlay.moc"
