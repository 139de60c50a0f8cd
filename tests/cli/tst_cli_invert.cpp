// fwi invert end to end: a small project made with `fwi new` and `fwi forward --store-observed`, inverted
// with --json; the project records every iteration; --resume continues exactly like an uninterrupted run; the
// run options stay with the project; bad input exits 2.
#include "fwi/project.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>

#include "cli_runner.hpp"

using fwi::test::file_bytes;
using fwi::test::fwi_cli;
using fwi::test::json_of;
using Run = fwi::test::CliRun;

namespace {

std::vector<double> doubles(const QJsonValue& v) {
    std::vector<double> out;
    for (const auto& x : v.toArray())
        out.push_back(x.toDouble());
    return out;
}

} // namespace

class TestCliInvert : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = dir_.filePath("circle.fwi");
        Run r = fwi_cli({"-q",         "new",      project_,  "--model", "builtin:circle",
                         "--resample", "20",       "--shots", "3",       "--receivers",
                         "30",         "--freq",   "8",       "--dt",    "0.004",
                         "--duration", "1.0",      "--order", "4",       "--pml",
                         "10",         "--smooth", "100"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", project_, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void invert_with_json() {
        const QString png = dir_.filePath("final.png");
        const Run r = fwi_cli({"--json", "invert", project_, "--iterations", "2", "--stages", "5,0", "--vmin",
                               "1500", "--vmax", "3000", "--smooth", "20", "--png", png});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        const auto misfits = doubles(j["misfit_history"]), errors = doubles(j["model_error_history"]);
        QCOMPARE(int(misfits.size()), 5); // the start + 2 iterations in each of 2 stages
        QCOMPARE(int(errors.size()), 5);
        QVERIFY(misfits[2] < misfits[0] && misfits[4] < misfits[3]); // each stage lowers its misfit
        QVERIFY(errors[4] < errors[0]);
        QVERIFY(j["seconds"].toDouble() > 0);
        QCOMPARE(j["iterations"].toInt(), 4);
        QCOMPARE(j["stop_reason"].toString(), QString("max_iterations"));
        QVERIFY(r.err.contains("iteration   4")); // progress on stderr
        QVERIFY(QFileInfo(png).size() > 100);
        // Everything is in the project.
        const fwi::Project p = fwi::load_project(project_.toStdString());
        QCOMPARE(int(p.history.size()), 5);
        QCOMPARE(p.history.back().misfit, misfits.back());
        QCOMPARE(p.experiment.current_model.vp_mps, p.history.back().model.vp_mps);
        QCOMPARE(p.experiment.inversion.stage_freqs_hz, (std::vector<double>{5, 0}));
        QCOMPARE(p.optimizer_state.at("inversion.iteration"), std::vector<double>{4});
        QCOMPARE(p.misfit, misfits.back());
    }

    void per_stage_iterations() {
        const Run r = fwi_cli({"--json", "-q", "invert", project_, "--stages", "5,0", "--iterations", "1,3"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(int(doubles(json_of(r)["misfit_history"]).size()), 5); // start + 1 + 3
        const fwi::Project p = fwi::load_project(project_.toStdString());
        QCOMPARE(p.history.back().stage, 1);
        QCOMPARE(p.history[1].stage, 0);
        QCOMPARE(p.history[2].stage, 1);
    }

    void resume_continues_exactly() {
        // 2 iterations, then --resume up to 4 == 4 iterations in one go (misfits and model bit for bit).
        const QStringList common{"--stages",     "0",    "--vmin",          "1500", "--vmax",  "3000",
                                 "--smooth",     "20",   "--source-radius", "30",   "--batch", "2",
                                 "--max-offset", "1500", "--end-taper",     "0.2"};
        Run r = fwi_cli(QStringList{"--json", "-q", "invert", project_, "--iterations", "4"} + common);
        QVERIFY2(r.code == 0, r.err.constData());
        const auto full = doubles(json_of(r)["misfit_history"]);
        const fwi::Project uninterrupted = fwi::load_project(project_.toStdString());
        r = fwi_cli(QStringList{"--json", "-q", "invert", project_, "--iterations", "2"} + common);
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"--json", "-q", "invert", project_, "--resume", "--iterations",
                     "4"}); // options from the project
        QVERIFY2(r.code == 0, r.err.constData());
        const auto tail = doubles(json_of(r)["misfit_history"]);
        QCOMPARE(json_of(r)["resumed"].toBool(), true);
        QCOMPARE(int(tail.size()), 2);
        QCOMPARE(tail[0], full[3]);
        QCOMPARE(tail[1], full[4]);
        const fwi::Project resumed = fwi::load_project(project_.toStdString());
        QCOMPARE(int(resumed.history.size()), 5);
        QCOMPARE(resumed.experiment.current_model.vp_mps, uninterrupted.experiment.current_model.vp_mps);
        QCOMPARE(resumed.optimizer_state, uninterrupted.optimizer_state);
        // Resumed with no iteration left: said, and the project is as it was.
        r = fwi_cli({"invert", project_, "--resume", "--iterations", "3"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("nothing left to run"), r.err.constData());
        QCOMPARE(int(fwi::load_project(project_.toStdString()).history.size()), 5);
    }

    void options_without_their_companion_are_noted() {
        const Run r = fwi_cli({"invert", project_, "--iterations", "1", "--stages", "0", "--optimizer", "gd",
                               "--memory", "3", "--seed", "7", "--illumination-epsilon", "0.1"});
        QVERIFY2(r.code == 0, r.err.constData());
        for (const char* note : {"--memory has no effect without --optimizer lbfgs",
                                 "--seed has no effect without --shots-per-iteration",
                                 "--illumination-epsilon has no effect without --illumination"})
            QVERIFY2(r.err.contains(note), r.err.constData());
        // With their companions: no note.
        const Run used = fwi_cli({"invert", project_, "--iterations", "1", "--stages", "0", "--optimizer",
                                  "lbfgs", "--memory", "3", "--seed", "7", "--shots-per-iteration", "2"});
        QVERIFY2(used.code == 0, used.err.constData());
        QVERIFY2(!used.err.contains("no effect"), used.err.constData());
    }

    /// A state saved against other observed data (here: re-modelled with noise) is not resumed: L-BFGS would
    /// go on with curvature pairs of another misfit.
    void resume_against_changed_data_is_refused() {
        const QString copy = dir_.filePath("changed-data.fwi");
        QVERIFY(QFile::copy(project_, copy));
        Run r = fwi_cli({"-q", "invert", copy, "--stages", "0", "--iterations", "1"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "invert", copy, "--resume", "--iterations", "2"}); // the same data: resumes
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray saved = file_bytes(copy);
        r = fwi_cli({"-q", "invert", copy, "--resume", "--iterations", "3", "--misfit", "normalized"});
        QCOMPARE(r.code, 2); // another objective for the same L-BFGS pairs
        QVERIFY2(r.err.contains("another misfit"), r.err.constData());
        QCOMPARE(file_bytes(copy), saved);
        QCOMPARE(fwi_cli({"-q", "forward", copy, "--store-observed", "--snr", "30"}).code, 0);
        const QByteArray before = file_bytes(copy);
        r = fwi_cli({"-q", "invert", copy, "--resume", "--iterations", "3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("observed data or the acquisition changed"), r.err.constData());
        QCOMPARE(file_bytes(copy), before);
    }

    /// Another program saving the project while an inversion runs (the desktop application, a second
    /// `fwi`): the inversion's next save does not overwrite it; the inversion stops (exit 3) with its project
    /// saved beside the file, and says where.
    void a_project_another_program_saved_meanwhile_is_not_overwritten() {
        const QString copy = dir_.filePath("shared.fwi");
        QVERIFY(QFile::copy(project_, copy));
        const fwi::FileVersion before = fwi::file_version(copy.toStdString());
        QProcess invert;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("OMP_NUM_THREADS", "1");
        invert.setProcessEnvironment(env);
        invert.start(FWI_CLI_EXE, {"-q", "invert", copy, "--iterations", "40", "--min-decrease", "0"});
        QVERIFY(invert.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!(fwi::file_version(copy.toStdString()) == before), 60000); // its first save
        const QString theirs = dir_.filePath("theirs.tmp");
        QVERIFY(QFile::copy(project_, theirs) && std::rename(qPrintable(theirs), qPrintable(copy)) == 0);
        const QByteArray written = file_bytes(copy);
        QVERIFY(invert.waitForFinished(120000));
        const QByteArray err = invert.readAllStandardError();
        QCOMPARE(invert.exitCode(), 3);
        QVERIFY2(err.contains("changed since it was read") && err.contains("it was not overwritten"),
                 err.constData());
        QCOMPARE(file_bytes(copy), written);
        static const QRegularExpression beside(R"(saved as '([^']*shared\.conflict-[0-9-]+\.fwi)')");
        const QRegularExpressionMatch m = beside.match(QString::fromUtf8(err));
        QVERIFY2(m.hasMatch(), err.constData());
        const fwi::Project kept = fwi::load_project(m.captured(1).toStdString());
        QVERIFY(kept.history.size() >= 2); // the inversion's work, up to the refused save
    }

    /// invert models on the same time step as forward and gradient (its default bounds are the models'
    /// range): at the true model both misfits are exactly 0.
    void invert_and_gradient_agree_at_the_true_model() {
        const QString truth = dir_.filePath("at-truth.fwi");
        Run r = fwi_cli({"-q", "new", truth, "--model", "builtin:circle", "--initial", "builtin:circle",
                         "--resample", "40", "--shots", "2", "--receivers", "10", "--duration", "0.5"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(fwi_cli({"-q", "forward", truth, "--store-observed"}).code, 0);
        r = fwi_cli({"--json", "-q", "gradient", truth});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["misfit"].toDouble(), 0.0);
        r = fwi_cli({"--json", "-q", "invert", truth, "--iterations", "0"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["final_misfit"].toDouble(), 0.0);
    }

    void run_options_stay_with_the_project() {
        // The options of one run are the next run's defaults; options given override them.
        const QStringList once{"--stages", "0", "--iterations", "2", "--illumination",
                               "--memory", "3", "--smooth",     "30"};
        Run r = fwi_cli(QStringList{"--json", "-q", "invert", project_} + once);
        QVERIFY2(r.code == 0, r.err.constData());
        const auto first = doubles(json_of(r)["misfit_history"]);
        r = fwi_cli({"--json", "-q", "invert", project_, "--stages", "0", "--iterations", "2"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(doubles(json_of(r)["misfit_history"]), first); // the same options again, bit for bit
        r = fwi_cli(
            {"--json", "-q", "invert", project_, "--stages", "0", "--iterations", "2", "--no-illumination"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(doubles(json_of(r)["misfit_history"]) != first);
        const fwi::Project p = fwi::load_project(project_.toStdString());
        const QByteArray saved = QByteArray::fromStdString(p.metadata.at("fwi_invert_options"));
        QVERIFY2(saved.contains("\"illumination\":false") && saved.contains("\"memory\":3"),
                 saved.constData());
    }

    void bad_input_exits_2() {
        const QString fresh = dir_.filePath("fresh.fwi");
        QCOMPARE(fwi_cli({"-q", "new", fresh, "--model", "builtin:circle", "--resample", "40", "--shots", "1",
                          "--receivers", "5", "--duration", "0.5"})
                     .code,
                 0);
        Run r = fwi_cli({"-q", "invert", fresh}); // no observed data yet
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("observed"));
        QCOMPARE(fwi_cli({"-q", "forward", fresh, "--store-observed"}).code, 0);
        r = fwi_cli({"-q", "invert", fresh, "--resume"}); // nothing to resume
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("optimizer state"));
        r = fwi_cli({"-q", "invert", fresh, "--optimizer", "newton"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("newton"));
        r = fwi_cli({"-q", "invert", fresh, "--vmin", "3000", "--vmax", "2500"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("bound"));
        r = fwi_cli({"-q", "invert", fresh, "--vmax", "1e9"}); // would shrink the time step a million times
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("upper bound"));
        r = fwi_cli({"-q", "invert", fresh, "--stages", "3,5", "--iterations", "1,2,3"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("3 counts for 2 stages"));
        r = fwi_cli({"-q", "invert", fresh, "--max-offset", "-5"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("max_offset_m"));
        r = fwi_cli({"-q", "invert", fresh, "--window-start", "0.4", "--window-end", "0.2"}); // keeps nothing
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("not after start_s"));
        r = fwi_cli({"-q", "invert", dir_.filePath("missing.fwi")});
        QCOMPARE(r.code, 3); // a missing file is a resource problem (docs/cli.md)
    }

  private:
    QTemporaryDir dir_;
    QString project_;
};

QTEST_GUILESS_MAIN(TestCliInvert)
#include "tst_cli_invert.moc"
