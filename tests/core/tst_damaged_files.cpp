// Damaged and forged project files (the mutations a fuzzer and a hostile file produce): every one is a
// FormatError naming the object, found from shapes, types and declared sizes before any allocation for it;
// files of the previous schema (variable-length strings) still load.
#include "fwi/error.hpp"
#include "fwi/isolated_read.hpp"
#include "fwi/project.hpp"

#include <hdf5.h>
#include <sys/resource.h>

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <functional>

using namespace fwi;

namespace {

Project small_project() {
    Project p;
    Model m;
    m.grid = Grid(20, 30, 10.0, 10.0);
    m.vp_mps.assign(std::size_t(m.grid.cells()), 2000.0f);
    p.experiment.true_model = p.experiment.initial_model = p.experiment.current_model = m;
    p.experiment.acquisition.shots = {{{10.0, 20.0}, {{10.0, 0.0}, {10.0, 10.0}, {10.0, 20.0}}},
                                      {{10.0, 200.0}, {{10.0, 100.0}, {10.0, 110.0}}}};
    p.experiment.gradient.schedule = "revolve:12";
    p.gradient.assign(std::size_t(m.grid.cells()), 0.5f);
    return p;
}

/// Opens the saved file for surgery and runs `edit` on it.
void edit_file(const std::string& path, const std::function<void(hid_t file)>& edit) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    QVERIFY(file >= 0);
    edit(file);
    QVERIFY(H5Fclose(file) >= 0);
}

/// Replaces dataset `name` by a float32 one declaring `dims`, chunked, with no chunk ever written.
void forge_unwritten_dataset(hid_t file, const char* name, std::vector<hsize_t> dims,
                             hid_t type = H5T_IEEE_F32LE) {
    H5Ldelete(file, name, H5P_DEFAULT);
    const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    std::vector<hsize_t> chunk;
    for (hsize_t d : dims)
        chunk.push_back(std::min<hsize_t>(d, 64));
    H5Pset_chunk(dcpl, int(chunk.size()), chunk.data());
    const hid_t d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    QVERIFY(d >= 0);
    const double spacing[2] = {10.0, 10.0};
    const hsize_t two = 2;
    const hid_t aspace = H5Screate_simple(1, &two, nullptr);
    const hid_t a = H5Acreate2(d, "spacing_m", H5T_IEEE_F64LE, aspace, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, spacing);
    H5Aclose(a);
    H5Sclose(aspace);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
}

void replace_int64_dataset(hid_t file, const char* name, const std::vector<std::int64_t>& values) {
    H5Ldelete(file, name, H5P_DEFAULT);
    const hsize_t n = values.size();
    const hid_t space = H5Screate_simple(1, &n, nullptr);
    const hid_t d = H5Dcreate2(file, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(d);
    H5Sclose(space);
}

void replace_attribute(hid_t file, const char* object, const char* name, hid_t type, const void* value) {
    const hid_t o = H5Oopen(file, object, H5P_DEFAULT);
    H5Adelete(o, name);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(o, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    QVERIFY(a >= 0);
    QVERIFY(H5Awrite(a, type, value) >= 0);
    H5Aclose(a);
    H5Sclose(space);
    H5Oclose(o);
}

long peak_rss_kib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/// load_project must refuse the file with a FormatError whose text has every one of `says`.
void expect_refused(const std::string& path, std::initializer_list<const char*> says) {
    try {
        load_project(path);
        QFAIL("a damaged file was accepted");
    } catch (const FormatError& e) {
        const std::string text = e.what();
        for (const char* s : says)
            QVERIFY2(text.find(s) != std::string::npos, e.what());
    }
}

} // namespace

class TestDamagedFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int count_ = 0;

    std::string fresh() {
        const std::string path = dir_.filePath(QString("p%1.fwi").arg(++count_)).toStdString();
        save_project(path, small_project());
        return path;
    }

  private slots:
    void offsets_are_checked_before_any_is_used() {
        const std::string path = fresh();
        // 5 receivers; the middle offset points far past them, the last one is right.
        edit_file(path, [](hid_t f) {
            replace_int64_dataset(f, "/acquisition/receiver_offsets", {0, 100, 5});
        });
        expect_refused(path, {"receiver_offsets", "decrease"});
        edit_file(path, [](hid_t f) { replace_int64_dataset(f, "/acquisition/receiver_offsets", {0, 3}); });
        expect_refused(path, {"receiver_offsets", "(3,)"}); // the shape is checked first
    }

    void absurd_counts_are_refused() {
        const std::string path = fresh();
        const std::int64_t huge = 1'000'000'000;
        edit_file(path, [&](hid_t f) {
            replace_attribute(f, "/acquisition", "shot_count", H5T_NATIVE_INT64, &huge);
        });
        expect_refused(path, {"shot_count"});
    }

    void declared_sizes_beyond_the_stored_bytes_are_refused_without_allocating() {
        for (const char* name : {"/models/true", "/results/gradient"}) {
            const std::string path = fresh();
            // 2^40 cells (4 TiB) in a file of a few kilobytes: chunks declared, never written.
            edit_file(path, [&](hid_t f) { forge_unwritten_dataset(f, name, {1048576, 1048576}); });
            const long before = peak_rss_kib();
            expect_refused(path, {name + 1});
            QVERIFY2(peak_rss_kib() - before < 200 * 1024, "memory was allocated for the declared size");
            // 46341 x 46341 is just past 2^31 values; 40000 x 40000 under it: the stored bytes refuse both.
            edit_file(path, [&](hid_t f) { forge_unwritten_dataset(f, name, {40000, 40000}); });
            expect_refused(path, {"stores only"});
            QVERIFY2(peak_rss_kib() - before < 200 * 1024, "memory was allocated for the declared size");
        }
    }

    void unusual_number_types_are_refused() {
        const std::string path = fresh();
        edit_file(path, [](hid_t f) {
            const hid_t odd = H5Tcopy(H5T_STD_I32LE);
            H5Tset_precision(odd, 24);
            H5Tset_offset(odd, 3);
            forge_unwritten_dataset(f, "/models/initial", {20, 30}, odd);
            H5Tclose(odd);
        });
        expect_refused(path, {"/models/initial", "unsupported number type"});
    }

    void strings_are_written_fixed_length() {
        const std::string path = fresh();
        edit_file(path, [](hid_t f) {
            for (const char* name : {"schedule", "compression", "scratch_dir"}) {
                const hid_t a = H5Aopen_by_name(f, "/settings/gradient", name, H5P_DEFAULT, H5P_DEFAULT);
                QVERIFY(a >= 0);
                const hid_t t = H5Aget_type(a);
                QCOMPARE(H5Tis_variable_str(t), 0); // read back without variable-length conversion
                H5Tclose(t);
                H5Aclose(a);
            }
        });
        QCOMPARE(load_project(path).experiment.gradient.schedule, std::string("revolve:12"));
        QCOMPARE(load_project(path).experiment.gradient.scratch_dir, std::string()); // the empty text
    }

    void a_variable_length_string_in_a_schema_2_file_is_never_converted() {
        const std::string path = fresh();
        edit_file(path, [](hid_t f) {
            const hid_t vlen = H5Tcopy(H5T_C_S1);
            H5Tset_size(vlen, H5T_VARIABLE);
            const char* text = "online:7";
            replace_attribute(f, "/settings/gradient", "schedule", vlen, &text);
            H5Tclose(vlen);
        });
        expect_refused(path, {"schedule", "variable-length"});
    }

    void schema_1_files_with_variable_length_strings_still_load() {
        const std::string path = fresh();
        edit_file(path, [](hid_t f) {
            const std::int64_t one = 1;
            replace_attribute(f, "/", "fwi_studio_schema", H5T_NATIVE_INT64, &one);
            const hid_t vlen = H5Tcopy(H5T_C_S1);
            H5Tset_size(vlen, H5T_VARIABLE);
            H5Tset_cset(vlen, H5T_CSET_UTF8);
            const char* text = "online:7";
            replace_attribute(f, "/settings/gradient", "schedule", vlen, &text);
            H5Tclose(vlen);
        });
        const Project p = load_project(path);
        QCOMPARE(p.experiment.gradient.schedule, std::string("online:7"));
        QCOMPARE(p.experiment.acquisition.shots.size(), std::size_t(2));
    }
    void a_file_read_through_an_external_link_is_never_remembered_as_safe() {
        // Another file can change while this one does not: a project reading its models from another file is
        // checked in a child on every read (fwi/isolated_read.hpp, IsolatedReadSettings::checked_files).
        const std::string own = fresh(), linked = fresh();
        edit_file(linked, [&](hid_t f) {
            H5Ldelete(f, "/models", H5P_DEFAULT);
            QVERIFY(H5Lcreate_external(own.c_str(), "/models", f, "models", H5P_DEFAULT, H5P_DEFAULT) >= 0);
        });
        const std::string record = dir_.filePath("checked-files").toStdString();
        IsolatedReadSettings settings;
        settings.enabled = true;
        settings.checked_files = record;
        settings.checked_files_min_age_s = 0;
        set_isolated_reads(settings);
        const auto lines = [&] {
            std::ifstream in(record);
            std::size_t n = 0;
            for (std::string line; std::getline(in, line);)
                ++n;
            return n;
        };
        const Project through_link = load_project(linked); // read, in a child first
        QCOMPARE(through_link.experiment.true_model.vp_mps.size(), std::size_t(20 * 30));
        QCOMPARE(lines(), std::size_t(0));
        (void)load_project(own);
        QCOMPARE(lines(), std::size_t(1)); // a file that holds its own models is remembered
        (void)load_project(linked);
        QCOMPARE(lines(), std::size_t(1));
        set_isolated_reads({});
    }
};

QTEST_GUILESS_MAIN(TestDamagedFiles)
#include "tst_damaged_files.moc"
