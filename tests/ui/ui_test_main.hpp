#pragma once
// main() for the GUI tests: the OpenGL format VTK needs must be the default before QApplication exists, which
// QTEST_MAIN does not allow. Tests run under xvfb-run (tests/CMakeLists.txt); offscreen platforms crash
// QOpenGLWidget.
#include "fwi/ui/file_check.hpp"
#include "fwi/ui/vtk_widget.hpp"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QTest>

#define FWI_UI_TEST_MAIN(TestObject)                                                                         \
    int main(int argc, char** argv) {                                                                        \
        fwi::ui::set_default_surface_format();                                                               \
        QApplication app(argc, argv);                                                                        \
        app.setApplicationName("fwi-studio-tests");                                                          \
        app.setOrganizationName("fwi-studio-tests");                                                         \
        fwi::ui::test::use_the_applications_project_checker();                                               \
        TestObject tc;                                                                                       \
        return QTest::qExec(&tc, argc, argv);                                                                \
    }

namespace fwi::ui::test {

/// The test executable is not the application: the GUI's project check runs fwi-studio --check-project.
inline void use_the_applications_project_checker() {
#ifdef FWI_STUDIO_EXE
    fwi::ui::set_project_checker(FWI_STUDIO_EXE, {"--check-project"});
#endif
}

/// Where a test may leave images for a human to look at: $FWI_UI_TEST_OUTPUT or the system temp directory.
inline QString output_path(const QString& name) {
    const QByteArray dir = qgetenv("FWI_UI_TEST_OUTPUT");
    return (dir.isEmpty() ? QDir::tempPath() : QString::fromLocal8Bit(dir)) + "/" + name;
}

/// How many pixels differ by more than `tolerance` in any channel.
inline int differing_pixels(const QImage& a, const QImage& b, int tolerance = 8) {
    if (a.size() != b.size()) return a.width() * a.height();
    const QImage ca = a.convertToFormat(QImage::Format_RGB32), cb = b.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < ca.height(); ++y)
        for (int x = 0; x < ca.width(); ++x) {
            const QRgb p = ca.pixel(x, y), q = cb.pixel(x, y);
            if (std::abs(qRed(p) - qRed(q)) > tolerance || std::abs(qGreen(p) - qGreen(q)) > tolerance ||
                std::abs(qBlue(p) - qBlue(q)) > tolerance)
                ++n;
        }
    return n;
}

} // namespace fwi::ui::test
