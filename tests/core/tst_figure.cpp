// Publication pictures: the percentile clip exactly on known arrays, nice ticks, the SVG's texts (title, axis
// labels in km/s, colour bar units, the stated clip), the PNG's size and ink in the axis margins, the greyed
// model under a wavefield, clear errors.
#include "fwi/error.hpp"
#include "fwi/figure.hpp"
#include "fwi/standard_figures.hpp"
#include "png_read.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace fwi;
using fwi::test::Png;
using fwi::test::read_png;

namespace {

/// Every <text> element's content, in order; empty if the document is not well-formed XML.
QStringList svg_texts(const std::string& svg) {
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    QStringList texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts << xml.readElementText();
    return xml.hasError() ? QStringList{} : texts;
}

Model layered(std::int64_t nz, std::int64_t nx, double h) {
    Model m{Grid(nz, nx, h, h), {}};
    m.vp_mps.resize(std::size_t(m.grid.cells()));
    for (std::int64_t iz = 0; iz < nz; ++iz)
        for (std::int64_t ix = 0; ix < nx; ++ix)
            m.vp_mps[m.grid.index(iz, ix)] = float(1500 + 3000 * iz / nz);
    return m;
}

} // namespace

class TestFigure : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void percentile_clip_is_exact() {
        // |x| = 1..1000 in a scrambled order with alternating signs: the p-th percentile is 10 p.
        std::vector<float> v(1000);
        for (int i = 0; i < 1000; ++i) {
            const int k = (i * 389) % 1000 + 1; // 389 is coprime to 1000: a permutation of 1..1000
            v[std::size_t(i)] = float(i % 2 ? -k : k);
        }
        QCOMPARE(abs_percentile(v, 99), 990.0);
        QCOMPARE(abs_percentile(v, 99.5), 995.0);
        QCOMPARE(abs_percentile(v, 100), 1000.0);
        QCOMPARE(abs_percentile(v, 0.1), 1.0);
        // Nearest rank on seven values: the 50th percentile is the ceil(3.5) = 4th smallest |x|.
        const std::vector<float> seven{-3, 1, 0, 5, -2, 4, 6};
        QCOMPARE(abs_percentile(seven, 50), 3.0);
        QCOMPARE(abs_percentile(seven, 99), 6.0);
        QVERIFY_THROWS_EXCEPTION(ConfigError, abs_percentile(std::vector<float>{}, 99));
        QVERIFY_THROWS_EXCEPTION(ConfigError, abs_percentile(seven, 0));
        QVERIFY_THROWS_EXCEPTION(ConfigError, abs_percentile(seven, 100.5));
    }

    void ticks_are_round_and_inside() {
        QCOMPARE(nice_ticks(-0.5, 9.7, 5), (std::vector<double>{0, 2, 4, 6, 8}));
        QCOMPARE(nice_ticks(0, 1, 4), (std::vector<double>{0, 0.5, 1}));
        QCOMPARE(nice_ticks(1500, 4800, 5), (std::vector<double>{1500, 2000, 2500, 3000, 3500, 4000, 4500}));
        const std::vector<double> sym = nice_ticks(-3e-5, 3e-5, 5);
        QCOMPARE(sym.size() % 2, std::size_t(1)); // symmetric around an exact 0
        QCOMPARE(sym[sym.size() / 2], 0.0);
        QCOMPARE(sym.front(), -sym.back());
        for (double t : sym)
            QVERIFY(std::abs(t) <= 3e-5 * (1 + 1e-12));
    }

    void svg_names_axes_scale_and_clip() {
        const Model m = layered(40, 150, 20); // 3 km wide, 800 m deep
        std::vector<float> g(std::size_t(m.grid.cells()));
        for (std::size_t i = 0; i < g.size(); ++i)
            g[i] = float((int(i % 7) - 3) * 1e-6 * double(1 + i % 100));
        const Figure f = gradient_figure(m, g, "Misfit gradient", 99);
        const double clip = abs_percentile(g, 99);
        QCOMPARE(f.vmax, clip);
        QCOMPARE(f.vmin, -clip);
        const QStringList texts = svg_texts(figure_svg(f));
        QVERIFY2(!texts.isEmpty(), "SVG is not well-formed");
        QVERIFY(texts.contains("Misfit gradient"));
        QVERIFY(texts.contains("x (km)"));    // 3 km: shown in km
        QVERIFY(texts.contains("depth (m)")); // 800 m: in metres
        QVERIFY(texts.contains("dJ/dvp (per m/s)"));
        QVERIFY2(texts.contains("0.5") && texts.contains("1.0") && texts.contains("2.5"),
                 qPrintable(texts.join("|"))); // km ticks
        QVERIFY(texts.contains("400"));        // a depth tick
        char stated[64];
        std::snprintf(stated, sizeof stated, "+/-%.3g (99th percentile of |gradient|)", clip);
        QVERIFY2(texts.filter(stated).size() == 1, stated);
    }

    void svg_of_a_gather_has_time_and_receiver_axes() {
        Gather gather;
        for (int r = 0; r < 25; ++r)
            gather.receivers.push_back({100.0 * r, 10});
        gather.samples = 300;
        gather.dt_s = 0.004;
        gather.traces.resize(25 * 300);
        for (std::size_t i = 0; i < gather.traces.size(); ++i)
            gather.traces[i] = float(std::sin(0.01 * double(i)));
        std::vector<float> image;
        const QStringList texts = svg_texts(figure_svg(gather_figure(gather, image, "Shot 0")));
        QVERIFY(texts.contains("receiver x (km)"));
        QVERIFY(texts.contains("time (s)"));
        QVERIFY(texts.contains("pressure (arbitrary units)"));
        QVERIFY(texts.contains("0.8")); // a time tick (0..1.2 s)
        QCOMPARE(image[std::size_t(5 * 25 + 3)], gather.traces[std::size_t(3 * 300 + 5)]); // (time, receiver)
    }

    void png_has_its_size_and_ink_in_the_margins() {
        const Model m = layered(40, 150, 20);
        const Figure f = model_figure(m, "True model", 1500, 4500);
        const QString path = dir_.filePath("model.png");
        write_figure(path.toStdString(), f);
        const Png png = read_png(path);
        const auto [w, h] = figure_png_size(f);
        QCOMPARE(png.width, w);
        QCOMPARE(png.height, h);
        QVERIFY(w > 720 && h > 720 * 800 / 3000); // plot plus margins
        // Black ink (axis text, ticks; no field colour is black) in the left margin, the bottom band and the
        // title.
        const auto ink = [&](int x0, int x1, int y0, int y1) {
            int n = 0;
            for (int y = y0; y < y1; ++y)
                for (int x = x0; x < x1; ++x)
                    n += png.at(x, y) == std::array<std::uint8_t, 3>{0, 0, 0};
            return n;
        };
        QVERIFY(ink(0, 60, 0, h) > 50);               // depth label and ticks
        QVERIFY(ink(0, w, h - 70, h) > 100);          // x label and caption's band
        QVERIFY(ink(0, w, 0, 40) > 50);               // title
        QVERIFY(ink(w - 60, w, 0, h) > 30);           // colour bar ticks
        QCOMPARE(ink(0, w, 0, h) < w * h / 10, true); // and not everything
    }

    void a_wavefield_lies_over_the_model_in_grey() {
        const Model m = layered(60, 60, 10);
        std::vector<float> p(std::size_t(m.grid.cells()), 0.f);
        p[m.grid.index(5, 5)] = 1; // a wave only in one corner cell
        const Figure f = wavefield_figure(m, p, "Wavefield");
        const QString path = dir_.filePath("wave.png");
        write_figure(path.toStdString(), f);
        const Png png = read_png(path);
        const auto [w, h] = figure_png_size(f);
        QCOMPARE(png.width, w);
        // Somewhere in the middle of the picture (inside the plot) the pixel is the model's grey: r = g = b.
        int grey = 0;
        for (int x = w / 4; x < w / 2; ++x) {
            const auto c = png.at(x, h / 2);
            grey += c[0] == c[1] && c[1] == c[2] && c[0] >= 100 && c[0] <= 230;
        }
        QVERIFY(grey > 50);
        QVERIFY(f.caption.find("model vp in grey") != std::string::npos);
    }

    void bad_requests_are_clear_errors() {
        const Model m = layered(10, 10, 10);
        const Figure f = model_figure(m, "t");
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_figure(dir_.filePath("x.jpg").toStdString(), f));
        QVERIFY_THROWS_EXCEPTION(ResourceError,
                                 write_figure(dir_.filePath("no/such/dir/x.svg").toStdString(), f));
        QVERIFY_THROWS_EXCEPTION(ResourceError,
                                 write_figure(dir_.filePath("no/such/dir/x.png").toStdString(), f));
        Figure flat = f;
        flat.vmin = flat.vmax = 2000;
        QVERIFY_THROWS_EXCEPTION(ConfigError, figure_svg(flat));
        QVERIFY(!QFile::exists(dir_.filePath("x.jpg")));
    }
};

QTEST_GUILESS_MAIN(TestFigure)
#include "tst_figure.moc"
