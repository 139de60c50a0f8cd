// fwi-studio: the desktop application. All the work is in fwi_ui; this sets up Qt, opens what the command
// line names, and is (with the job runner) the only place that catches everything.
#include "fwi/error.hpp"
#include "fwi/project.hpp"
#include "fwi/threading.hpp"
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/file_check.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/screenshot_tour.hpp"
#include "fwi/ui/vtk_widget.hpp"
#include "fwi/ui/welcome_page.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <exception>
#include <iostream>
#include <thread>

int main(int argc, char** argv) {
    // Passive OpenMP waiting: the GUI thread and the engine share the cores. May re-execute the program.
    fwi::ensure_passive_openmp_wait(argc, argv);
    // The GUI's own child process for checking a project before it opens it (no display needed).
    if (const int code = fwi::ui::run_project_check(argc, argv); code >= 0) return code;
    if (fwi::thread_count() > fwi::max_thread_count) { // libgomp would crash creating them
        std::cerr << "fwi-studio: OMP_NUM_THREADS asks for " << fwi::thread_count()
                  << " threads; running on the machine's cores instead\n";
        fwi::set_thread_count(int(std::max(1u, std::thread::hardware_concurrency())));
    }
    // Writing past a file size limit then fails with EFBIG and is reported like a full disk, instead of the
    // signal killing the application with the user's unsaved work.
    std::signal(SIGXFSZ, SIG_IGN);
    fwi::ui::set_default_surface_format(); // before QApplication: VTK needs an OpenGL 3.2 core context
    QApplication app(argc, argv);
    QApplication::setApplicationName("FWI Studio");
    QApplication::setOrganizationName("fwi-studio");
    QApplication::setApplicationVersion("0.1.0");

    QCommandLineParser parser;
    parser.setApplicationDescription("FWI Studio: 2D and 3D acoustic full-waveform inversion");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption demo("demo", "Open a demo project: toy | marmousi2 | checkpointing | marmousi2-3d.",
                            "name");
    parser.addOption(demo);
    QCommandLineOption screenshots("screenshots",
                                   "Run the scripted tour and save screenshots into DIR, then quit.", "dir");
    parser.addOption(screenshots);
    QCommandLineOption write_demos("write-demos", "Write the demo projects as DIR/NAME.fwi, then quit.",
                                   "dir");
    parser.addOption(write_demos);
    parser.addPositionalArgument("project", "A project file (.fwi) to open.");
    parser.process(app);

    try {
        if (parser.isSet(write_demos)) {
            const QString dir = parser.value(write_demos);
            QDir().mkpath(dir);
            for (const QString& name : fwi::ui::demo_names()) {
                const QString path = dir + "/" + name + ".fwi";
                fwi::save_project(path.toStdString(), fwi::ui::make_demo_project(name));
                std::cout << path.toStdString() << "\n";
            }
            return 0;
        }
        fwi::ui::MainWindow window;
        if (parser.isSet(screenshots)) return fwi::ui::run_screenshot_tour(window, parser.value(screenshots));
        if (!parser.positionalArguments().isEmpty())
            window.open_project(parser.positionalArguments().first());
        else
            window.open_demo(parser.isSet(demo) ? parser.value(demo) : "toy");
        window.show();
        // Started without a project: the welcome page offers the demos (until the user unticks it).
        if (parser.positionalArguments().isEmpty() && !parser.isSet(demo) &&
            fwi::ui::WelcomePage::show_at_startup())
            QTimer::singleShot(0, &window, [&window] { window.show_welcome(); });
        return app.exec();
    } catch (const std::exception& e) {
        std::cerr << "fwi-studio: " << e.what() << "\n";
        QMessageBox::critical(nullptr, "FWI Studio", QString::fromUtf8(e.what()));
        return 1;
    }
}
