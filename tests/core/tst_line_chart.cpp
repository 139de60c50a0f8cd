// Line charts: the PNG decodes to the stated size with each series' colour on its data points and the
// marker's gold where it is placed; the SVG is well-formed XML with one polyline per series (one vertex per
// point), the marker, the labels and log ticks; clear errors.
#include "fwi/error.hpp"
#include "fwi/line_chart.hpp"

#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "png_read.hpp"

using namespace fwi;

namespace {

LineChart two_series(bool log_x) {
    LineChart c;
    c.title = "Speed-up over Revolve alone";
    c.x_label = "memory budget (MB)";
    c.y_label = "speed-up";
    c.caption = "fwi plan demo.fwi --sweep";
    c.log_x = log_x;
    c.series = {{"zstd", {1, 10, 100, 1000}, {1.2, 1.1, 1.0, 0.9}},
                {"lz4", {1, 10, 100, 1000}, {1.5, 1.3, 1.0, 0.95}}};
    c.markers = {{"current", 10, 1.3}};
    c.has_reference_y = true;
    c.reference_y = 1;
    return c;
}

bool near_colour(const test::Png& png, int x, int y, std::array<std::uint8_t, 3> rgb) {
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            if (png.at(x + dx, y + dy) == rgb) return true;
    return false;
}

} // namespace

class TestLineChart : public QObject {
    Q_OBJECT
  private slots:
    void png_draws_the_points_and_the_marker() {
        QTemporaryDir dir;
        const QString path = dir.filePath("c.png");
        LineChart c = two_series(true);
        c.markers.clear(); // so no marker covers a point
        write_line_chart(path.toStdString(), c);
        const test::Png png = test::read_png(path);
        QVERIFY(!png.rgb.empty());
        QVERIFY(png.width >= 600 && png.height >= 400);
        // The data range maps onto the plot: the leftmost point of a series sits left of the rightmost, the
        // highest above the lowest; find each series' colour there.
        int blue = 0, orange = 0;
        for (int y = 0; y < png.height; ++y)
            for (int x = 0; x < png.width; ++x) {
                blue += png.at(x, y) == std::array<std::uint8_t, 3>{31, 119, 180};
                orange += png.at(x, y) == std::array<std::uint8_t, 3>{255, 127, 14};
            }
        QVERIFY(blue > 200 && orange > 200);

        // With the marker: gold at its place (a 5-pixel diamond), on the lz4 point (10, 1.3).
        write_line_chart(path.toStdString(), two_series(true));
        const test::Png marked = test::read_png(path);
        int gold = 0, gx = 0, gy = 0;
        for (int y = 0; y < marked.height; ++y)
            for (int x = 0; x < marked.width; ++x)
                if (marked.at(x, y) == std::array<std::uint8_t, 3>{255, 215, 0}) ++gold, gx += x, gy += y;
        QVERIFY(gold >= 30);
        gx /= gold, gy /= gold;
        // 10 is a third of the way across 1..1000 in log10: left of the middle; 1.3 in the top half of
        // 0.9..1.5.
        QVERIFY(gx > marked.width / 8 && gx < marked.width / 2);
        QVERIFY(gy < marked.height / 2);
        QVERIFY(near_colour(marked, gx, gy, {255, 215, 0}));
    }

    void svg_is_vector_with_labels() {
        const std::string svg = line_chart_svg(two_series(true));
        QXmlStreamReader xml(QByteArray::fromStdString(svg));
        QStringList texts;
        int polylines = 0, markers = 0, circles = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            if (xml.name() == QLatin1String("polyline")) {
                ++polylines;
                QCOMPARE(xml.attributes().value("points").toString().split(' ').size(), 4);
            } else if (xml.name() == QLatin1String("circle")) {
                ++circles;
            } else if (xml.name() == QLatin1String("polygon")) {
                markers += xml.attributes().value("class") == QLatin1String("marker");
            } else if (xml.name() == QLatin1String("text")) {
                texts << xml.readElementText();
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(polylines, 2);
        QCOMPARE(circles, 8);
        QCOMPARE(markers, 1);
        for (const char* t : {"Speed-up over Revolve alone", "memory budget (MB)", "speed-up", "zstd", "lz4",
                              "current", "fwi plan demo.fwi --sweep", "1", "10", "100", "1000"})
            QVERIFY2(texts.contains(t), t);
    }

    void errors() {
        LineChart c = two_series(true);
        c.series[0].x[0] = 0; // log axis
        QVERIFY_THROWS_EXCEPTION(ConfigError, line_chart_svg(c));
        c = two_series(false);
        c.series[1].y.pop_back();
        QVERIFY_THROWS_EXCEPTION(ConfigError, line_chart_png(c));
        c = two_series(false);
        c.series[0].y[2] = std::nan("");
        QVERIFY_THROWS_EXCEPTION(ConfigError, line_chart_png(c));
        c.series.clear();
        QVERIFY_THROWS_EXCEPTION(ConfigError, line_chart_svg(c));
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_line_chart("/tmp/x.jpg", two_series(false)));
        QVERIFY_THROWS_EXCEPTION(ResourceError, write_line_chart("/no/such/dir/x.png", two_series(false)));
    }
};

QTEST_APPLESS_MAIN(TestLineChart)
#include "tst_line_chart.moc"
