// The fwi commands end to end on a small project: --json summaries, checkpointed gradients equal to store-all
// bit for bit, the plan table, the event stream, budgets, and exit codes with clear messages for bad input
// (a corrupt project is reported and left untouched).
#include "fwi/gather.hpp"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "cli_runner.hpp"

using fwi::test::file_bytes;
using fwi::test::fwi_cli;
using fwi::test::json_of;
using Run = fwi::test::CliRun;

class TestCliCommands : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString project_;

    QString path(const char* name) const { return dir_.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        project_ = path("layered.fwi");
        Run r = fwi::test::new_layered_project(project_, {.receivers = 20, .duration_s = 0.8, .pml = 10});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", project_, "--store-observed", "--out", path("observed.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFile::exists(path("observed.npy")));
        for (const char* name : {"observed.h5", "observed.segy"}) {
            r = fwi_cli({"-q", "forward", project_, "--out", path(name)});
            QVERIFY2(r.code == 0, r.err.constData());
        }
        // The three formats hold the same samples.
        const auto h5 = fwi::read_gathers_hdf5(path("observed.h5").toStdString());
        const auto segy = fwi::read_gathers_segy(path("observed.segy").toStdString());
        QCOMPARE(int(h5.size()), 2);
        QCOMPARE(h5.size(), segy.size());
        for (std::size_t s = 0; s < h5.size(); ++s) {
            QCOMPARE(h5[s].traces, segy[s].traces);
            QCOMPARE(h5[s].receivers.size(), std::size_t(20));
        }
    }

    void info_reports_the_project() {
        const Run r = fwi_cli({"--json", "info", project_});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QVERIFY(j.contains("true_model"));
        QCOMPARE(j["true_model"].toObject()["nz"].toInt() > 0, true);
    }

    void demo_writes_every_output_it_lists() {
        // The main job's command (scripts/run.sh without a display), cut down to two short shots.
        const QString out = path("demo");
        const Run r = fwi_cli({"--json", "demo", "--out", out, "--shots", "2", "--duration", "1"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QVERIFY(QFileInfo(j["project"].toString()).size() > 0);
        const QJsonArray outputs = j["outputs"].toArray();
        QCOMPARE(outputs.size(), 11); // observed_shot1.png and wavefield.png too
        QVERIFY(outputs.contains("wavefield.png"));
        for (const auto& name : outputs)
            QVERIFY2(QFileInfo(out + "/" + name.toString()).size() > 0, qPrintable(name.toString()));
        QVERIFY(std::isfinite(j["misfit"].toDouble()) && j["misfit"].toDouble() > 0);
    }

    void checkpointed_gradients_equal_store_all_bit_for_bit() {
        Run r = fwi_cli({"--json", "gradient", project_, "--out", path("g_all.npy")});
        QVERIFY2(r.code == 0, r.err.constData());
        const double misfit = json_of(r)["misfit"].toDouble();
        QVERIFY(misfit > 0);
        r = fwi_cli({"--json", "gradient", project_, "--schedule", "revolve:3", "--compress", "zstd", "--out",
                     path("g_revolve.npy"), "--events", path("events.jsonl"), "--budget", "8M"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QCOMPARE(j["misfit"].toDouble(), misfit);
        QCOMPARE(j["schedule"].toString(), QString("revolve:3"));
        QVERIFY(j["recompute_steps"].toInt() > 0);
        QVERIFY(j["predicted_seconds"].toDouble() > 0);
        QVERIFY(j["peak_bytes_per_tier"].toArray()[0].toDouble() <= 8.0 * 1024 * 1024);
        QCOMPARE(file_bytes(path("g_revolve.npy")), file_bytes(path("g_all.npy")));
        // The event stream: one JSON object per line, with stores and loads of the checkpoints.
        const QList<QByteArray> lines = file_bytes(path("events.jsonl")).trimmed().split('\n');
        QVERIFY(lines.size() > 10);
        QSet<QString> types;
        for (const QByteArray& line : lines) {
            QJsonParseError e;
            const QJsonDocument d = QJsonDocument::fromJson(line, &e);
            QVERIFY2(e.error == QJsonParseError::NoError, line.constData());
            types.insert(d.object()["type"].toString());
        }
        QVERIFY2(types.contains("store") && types.contains("load"),
                 qPrintable(QStringList(types.values()).join(",")));
    }

    void plan_table_lists_schedules_and_auto() {
        Run r = fwi_cli({"--json", "plan", project_, "--budget", "4M", "--codecs", "none;lz4"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QSet<QString> schedules;
        for (const auto& row : j["rows"].toArray())
            schedules.insert(row.toObject()["schedule"].toString().section(':', 0, 0));
        for (const char* s : {"all", "uniform", "revolve", "online"})
            QVERIFY2(schedules.contains(s), s);
        QVERIFY(j["auto"].toObject().contains("schedule"));
        QVERIFY(j["disk_tier"].isNull()); // no disk tier: nothing measured
        // A scratch directory adds the disk tier, priced with its measured costs.
        r = fwi_cli({"--json", "plan", project_, "--budget", "4M", "--scratch", dir_.path()});
        QVERIFY2(r.code == 0, r.err.constData());
        const double write_bps = json_of(r)["disk_tier"].toObject()["write_bytes_per_second"].toDouble();
        QVERIFY2(write_bps > 1e6 && write_bps < 1e12, qPrintable(QString::number(write_bps)));
        // Human table on stdout without --json.
        r = fwi_cli({"plan", project_});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("revolve:"));
    }

    void bench_codecs_reports_cost_per_state() {
        const Run r = fwi_cli({"--json", "bench", "--codecs", "lz4,zfp-rate:8", "--nz", "64", "--nx", "72",
                               "--wavefield-steps", "40", "--codec-threads", "1,2", "--repeats", "1"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QCOMPARE(j["forward_step"].toArray().size(), 2);
        for (const auto& step : j["forward_step"].toArray())
            QVERIFY(step.toObject()["seconds"].toDouble() > 0);
        QVERIFY(j["quiet_fraction"].toDouble() < 0.9); // the pulses did spread
        // u, u_prev and two PML strips.
        QCOMPARE(j["fields"].toInt(), 4);
        const QJsonArray rows = j["codecs"].toArray();
        QCOMPARE(rows.size(), 4); // 2 codecs x 2 thread counts
        for (const auto& value : rows) {
            const QJsonObject row = value.toObject();
            const QString codec = row["codec"].toString();
            QVERIFY(row["compress_seconds"].toDouble() > 0 && row["decompress_seconds"].toDouble() > 0);
            QVERIFY(row["cost_in_forward_steps"].toDouble() > 0);
            if (codec == "lz4") {
                QCOMPARE(row["max_abs_error"].toDouble(), 0.0);
            } else {
                QCOMPARE(codec, QString("zfp-rate:8"));
                // 8 of 32 bits per value, less frame headers and chunk tables; a few % of the unit peak.
                QVERIFY2(row["ratio"].toDouble() > 3.5 && row["ratio"].toDouble() <= 4.0,
                         qPrintable(QString::number(row["ratio"].toDouble())));
                QVERIFY(row["max_abs_error"].toDouble() > 0 && row["max_abs_error"].toDouble() < 0.1);
            }
        }
        QCOMPARE(fwi_cli({"bench", "--codecs", "gzip", "--nz", "16", "--nx", "16"}).code, 2);
    }

    void bench_dims_3_reports_roofline_fractions() {
        const Run r = fwi_cli({"--json", "bench", "--dims", "3", "--nz", "16", "--ny", "12", "--nx", "20",
                               "--pml", "4", "--steps", "2", "--repeats", "1", "--orders", "2,8"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QCOMPARE(j["dims"].toInt(), 3);
        QCOMPARE(j["ny"].toInt(), 12);
        QVERIFY(j["triad_bytes_per_s"].toDouble() > 1e8);
        const QJsonArray rows = j["orders"].toArray();
        QCOMPARE(rows.size(), 2);
        for (const auto& value : rows) {
            const QJsonObject row = value.toObject();
            QCOMPARE(row["cells_per_step"].toInteger(), qint64(24 * 20 * 28)); // model + 2 x 4 PML per axis
            QVERIFY(row["forward_cell_updates_per_s"].toDouble() > 0 &&
                    row["adjoint_cell_updates_per_s"].toDouble() > 0);
            QVERIFY(row["forward_fraction_of_roofline"].toDouble() > 0);
        }
        QCOMPARE(fwi_cli({"bench", "--dims", "4"}).code, 2);
        QCOMPARE(fwi_cli({"bench", "--dims", "3", "--codecs", "lz4"}).code, 2);
    }

    void taylor_test_passes_on_a_marmousi2_project() {
        const QString project = path("marmousi2.fwi");
        Run r = fwi_cli({"-q", "new", project, "--model", "builtin:marmousi2", "--resample", "40", "--shots",
                         "3", "--receivers", "60", "--freq", "4", "--duration", "2", "--order", "8"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"-q", "forward", project, "--store-observed"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli(
            {"--json", "taylor", project, "--shots", "1", "--schedule", "revolve:8", "--compress", "lz4"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = json_of(r);
        QVERIFY(j["passed"].toBool());
        QVERIFY(std::abs(j["slope1"].toDouble() - 1) < 0.15);
        QVERIFY(std::abs(j["slope2"].toDouble() - 2) < 0.25);
    }

    void segy_data_with_noise_import_into_another_project() {
        Run r = fwi_cli({"-q", "forward", project_, "--out", path("noisy.segy"), "--snr", "20"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString other = path("other.fwi");
        r = fwi_cli({"-q",         "new",    other,     "--model", "builtin:layered",
                     "--resample", "25",     "--shots", "5",       "--receivers",
                     "7",          "--freq", "6",       "--dt",    "0.003",
                     "--duration", "0.5",    "--order", "4",       "--pml",
                     "10"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = fwi_cli({"--json", "import", other, path("noisy.segy")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["shots"].toInt(), 2);
        // What it replaced is said (it was silent): 5 shots of 7 receivers at 3 ms become the file's.
        QVERIFY(json_of(r)["acquisition_changed"].toBool() && json_of(r)["sampling_changed"].toBool());
        QVERIFY2(r.err.contains("acquisition is now the file's: 5 -> 2 shots, 35 -> 40 receivers") &&
                     r.err.contains("sampling is now the file's: dt 0.003 -> 0.004 s"),
                 r.err.constData());
        // The project now has the file's geometry and sampling, and its data are the noisy ones.
        const auto noisy = fwi::read_gathers_segy(path("noisy.segy").toStdString());
        const auto clean = fwi::read_gathers_hdf5(path("observed.h5").toStdString());
        QVERIFY(!(noisy[0].traces == clean[0].traces));
        r = fwi_cli({"--json", "gradient", other});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(json_of(r)["misfit"].toDouble() > 0);
        // A truncated file is refused with its name, and the project is untouched.
        const QByteArray before = file_bytes(other);
        QByteArray segy = file_bytes(path("noisy.segy"));
        segy.truncate(segy.size() - 1000);
        {
            QFile f(path("truncated.segy"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(segy);
        }
        r = fwi_cli({"import", other, path("truncated.segy")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("truncated.segy"), r.err.constData());
        QCOMPARE(file_bytes(other), before);
    }

    void an_impossible_budget_exits_3() {
        const Run r = fwi_cli({"gradient", project_, "--schedule", "all", "--budget", "100K"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("budget"), r.err.constData());
    }

    /// Without --budget a run is planned against three quarters of the machine's memory (here a machine of
    /// store-all's own peak, FWI_MACHINE_MEMORY): store-all is refused before anything is allocated (it was
    /// "cannot map N bytes" part-way, or the OOM killer), and auto picks a schedule that fits.
    void without_a_budget_the_machine_is_the_limit() {
        Run r = fwi_cli({"--json", "plan", project_});
        QVERIFY2(r.code == 0, r.err.constData());
        qint64 all_peak = 0;
        for (const QJsonValue row : json_of(r)["rows"].toArray())
            if (row["schedule"].toString() == "all" && row["codec"].toString() == "none")
                all_peak = row["peak_bytes_per_tier"].toArray()[0].toInteger();
        QVERIFY(all_peak > 1'000'000);
        const QByteArray memory = QByteArray::number(all_peak);
        qputenv("FWI_MACHINE_MEMORY", memory);
        const auto restore = qScopeGuard([] { qunsetenv("FWI_MACHINE_MEMORY"); });
        r = fwi_cli({"--json", "plan", project_});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json_of(r)["machine_checkpoint_bytes"].toInteger(), all_peak / 4 * 3);
        r = fwi_cli({"gradient", project_, "--schedule", "all"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("more than this machine can hold") && r.err.contains("--schedule auto"),
                 r.err.constData());
        r = fwi_cli({"--json", "gradient", project_, "--schedule", "auto"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(json_of(r)["schedule"].toString() != "all");
        QVERIFY(json_of(r)["peak_snapshot_bytes"].toInteger() <= all_peak / 4 * 3);
        qputenv("FWI_MACHINE_MEMORY", "lots");
        r = fwi_cli({"plan", project_});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("FWI_MACHINE_MEMORY: 'lots'"), r.err.constData());
    }

    /// 1000 shots of 6000^2 states (292 GB) were allocated one by one until the kernel killed the process.
    void a_bench_whose_states_cannot_fit_exits_3() {
        const Run r = fwi_cli(
            {"bench", "--shots", "1000", "--nz", "6000", "--nx", "6000", "--steps", "1", "--orders", "2"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("bench: 1000 shots hold 1000 states") && r.err.contains("fewer --shots"),
                 r.err.constData());
    }

    void bad_input_exits_2_with_a_message_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown builtin")
            << QStringList{"new", "x.fwi", "--model", "builtin:nothing"} << "nothing";
        QTest::newRow("source outside")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--source-x1", "1e7"} << "outside";
        QTest::newRow("bad schedule")
            << QStringList{"gradient", "@P", "--schedule", "revolve:zero"} << "revolve";
        QTest::newRow("bad codec") << QStringList{"gradient", "@P", "--compress", "gzip"} << "gzip";
        // Values that used to mean "not given" (a negative position) or passed to fail at the first run.
        QTest::newRow("source above the model")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--source-z", "-5"}
            << "z=-5 m) is outside";
        QTest::newRow("receiver left of the model")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--receiver-x0", "-1"}
            << "x=-1 m, z=20 m) is outside";
        QTest::newRow("reference velocity below the model's")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--max-velocity", "2000"}
            << "below the models' largest velocity 3000 m/s";
        QTest::newRow("reference velocity not a number")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--max-velocity", "nan"}
            << "not a finite";
        QTest::newRow("zero frequency")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--freq", "0"} << "source frequency";
        QTest::newRow("model smaller than the stencil")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--resample", "300"}
            << "must be at least 8 cells";
        QTest::newRow("zero duration (was the default)")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--duration", "0"} << "--duration 0";
        QTest::newRow("two record lengths")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--nt", "100", "--duration", "0.3"}
            << "excludes";
        QTest::newRow("negative velocity bound") << QStringList{"invert", "@P", "--vmin", "-5"} << "--vmin";
        QTest::newRow("offsets that keep no trace")
            << QStringList{"invert", "@P", "--min-offset", "1e9"} << "no receiver of any shot";
        QTest::newRow("tapers longer than the window")
            << QStringList{"invert", "@P", "--end-taper", "100"} << "tapers";
        QTest::newRow("mask that fixes every cell")
            << QStringList{"invert", "@P", "--water-depth", "1e9"} << "fix every cell";
        QTest::newRow("noise written nowhere")
            << QStringList{"forward", "@P", "--snr", "10"} << "neither is given";
        QTest::newRow("a seed without noise")
            << QStringList{"forward", "@P", "--seed", "5"} << "--seed requires --snr";
        QTest::newRow("a disk tier for a schedule in memory")
            << QStringList{"gradient", "@P", "--schedule", "revolve:3", "--scratch", "@D"}
            << "--scratch is for the disk tier of --schedule multilevel:R,D and auto";
        QTest::newRow("a Taylor step past the model's range")
            << QStringList{"taylor", "@P", "--h0", "1e300"} << "--h0 1e+300: at most 1";
        QTest::newRow("a Taylor direction past the model's range (was a failed test, exit 1)")
            << QStringList{"taylor", "@P", "--change", "1e9"} << "--change 1e+09 m/s: at most";
        QTest::newRow("a budget no row reads") << QStringList{"bench-checkpoints", "@P", "--budget", "1G"}
                                               << "--budget is for the auto and adaptive rows";
        QTest::newRow("noise that overflows")
            << QStringList{"forward", "@P", "--store-observed", "--snr", "-1e308"} << "signal-to-noise ratio";
        // Output files are checked before the work, not after it.
        QTest::newRow("gradient written as text")
            << QStringList{"gradient", "@P", "--out", "x.txt"} << "written as";
        QTest::newRow("report into a file")
            << QStringList{"invert", "@P", "--report", "@P"} << "not a directory";
        QTest::newRow("infinite source position")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--source-x0", "inf"}
            << "not a finite";
        QTest::newRow("shot -1 (was the middle one)")
            << QStringList{"bench-checkpoints", "@P", "--shot", "-1"} << "--shot -1";
        QTest::newRow("a shot twice") << QStringList{"taylor", "@P", "--shots", "0,0"} << "twice";
        QTest::newRow("snapshots that never come")
            << QStringList{"export", "@P", "wavefield", "-o", "x.png", "--every", "1000000"} << "no snapshot";
        QTest::newRow("a budget that wraps to none")
            << QStringList{"gradient", "@P", "--budget", "99999999999999999999"} << "more bytes than";
        QTest::newRow("a budget of nothing (0 meant no limit)")
            << QStringList{"gradient", "@P", "--budget", "0"} << "holds nothing";
        QTest::newRow("a disk budget of nothing")
            << QStringList{"plan", "@P", "--budget", "1G,0.4"} << "disk budget of 0.4 holds nothing";
        QTest::newRow("resampled coarser than the model")
            << QStringList{"new", "x.fwi", "--model", "builtin:layered", "--resample", "1e9"}
            << "coarser than the model and leaves 1 x 1 cells";
        QTest::newRow("gradient sampled once")
            << QStringList{"gradient", "@P", "--sampling-interval", "100000"} << "inner steps";
        QTest::newRow("gradient undersampled")
            << QStringList{"gradient", "@P", "--sampling-interval", "60"} << "undersamples the gradient";
        QTest::newRow("colour scale upside down")
            << QStringList{"plot", "@P", "model", "-o", "x.png", "--vmin", "5000", "--vmax", "1000"}
            << "colour scale";
    }
    void bad_input_exits_2_with_a_message() {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        for (QString& a : args)
            if (a == "@P")
                a = project_;
            else if (a == "@D")
                a = dir_.path();
            else if (a == "x.fwi" || a == "x.png")
                a = dir_.filePath(a);
        const QByteArray before = file_bytes(project_);
        const Run r = fwi_cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QCOMPARE(file_bytes(project_), before); // refused before anything was written
        QVERIFY(!QFile::exists(path("x.fwi")) && !QFile::exists(path("x.png")));
    }

    /// `fwi new` over an existing file (a project with data, or a model named by mistake) refuses unless
    /// --force; a directory is refused either way.
    void new_does_not_replace_a_file_unless_forced() {
        const QByteArray before = file_bytes(project_);
        Run r = fwi_cli({"-q", "new", project_, "--model", "builtin:layered"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("exists") && r.err.contains("--force"), r.err.constData());
        QCOMPARE(file_bytes(project_), before);
        r = fwi_cli({"-q", "new", dir_.path(), "--model", "builtin:layered", "--force"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is a directory"), r.err.constData());
        const QString other = path("replaced.fwi");
        QVERIFY(QFile::copy(project_, other));
        r = fwi_cli({"-q", "new", other, "--model", "builtin:layered", "--shots", "1", "--force"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(file_bytes(other) != before);
    }

    /// Settings that make useless data are made (they are not impossible) but said: on stderr and in --json.
    void new_warns_of_an_aliased_wavelet_and_a_record_that_ends_too_soon() {
        const QString out = path("warned.fwi");
        Run r = fwi_cli({"--json", "new", out, "--model", "builtin:layered", "--freq", "10", "--dt", "0.04",
                         "--nt", "4", "--force"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("warning: sampling: dt 0.04 s") && r.err.contains("aliased") &&
                     r.err.contains("warning: record length: 4 samples"),
                 r.err.constData());
        QCOMPARE(json_of(r)["warnings"].toArray().size(), 2);
        r = fwi_cli(
            {"--json", "new", out, "--model", "builtin:layered", "--freq", "10", "--dt", "0.004", "--force"});
        QVERIFY2(r.code == 0 && !r.err.contains("warning"), r.err.constData());
        QCOMPARE(json_of(r)["warnings"].toArray().size(), 0);
    }

    /// Data with a NaN would make every misfit NaN: refused at import, naming the shot, receiver and sample.
    void non_finite_data_are_refused_at_import() {
        auto gathers = fwi::read_gathers_hdf5(path("observed.h5").toStdString());
        gathers[1].traces[std::size_t(3 * gathers[1].samples + 7)] = std::nanf("");
        const QString bad = path("nan.segy");
        fwi::write_gathers_segy(bad.toStdString(), gathers);
        const QByteArray before = file_bytes(project_);
        const Run r = fwi_cli({"-q", "import", project_, bad});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("shot 1: receiver 3, sample 7 is nan"), r.err.constData());
        QCOMPARE(file_bytes(project_), before);
    }

    void an_output_into_a_missing_directory_is_refused_before_the_work() {
        const Run r = fwi_cli({"gradient", project_, "--out", path("missing/g.npy")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("No such file or directory") && !r.err.contains("misfit"), r.err.constData());
    }

    void an_export_with_nothing_to_write_makes_no_directory() {
        const Run r = fwi_cli({"export", project_, "history", "-o", path("history")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no inversion history"), r.err.constData());
        QVERIFY(!QFileInfo::exists(path("history")));
    }

    void a_missing_input_file_is_a_resource_error() {
        Run r = fwi_cli({"new", path("x.fwi"), "--model", "/nonexistent/m.npy"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("/nonexistent/m.npy"), r.err.constData());
        QVERIFY(!QFile::exists(path("x.fwi")));
        r = fwi_cli({"info", "/nonexistent/p.fwi"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("/nonexistent/p.fwi"), r.err.constData());
    }

    void a_corrupt_project_is_reported_and_left_alone() {
        const QString bad = path("corrupt.fwi");
        QByteArray bytes = file_bytes(project_);
        bytes.truncate(bytes.size() / 2);
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        const Run r = fwi_cli({"gradient", bad, "--store"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("corrupt.fwi"), r.err.constData());
        QCOMPARE(file_bytes(bad), bytes);
    }
};

QTEST_GUILESS_MAIN(TestCliCommands)
#include "tst_cli_commands.moc"
