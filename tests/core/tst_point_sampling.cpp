// Recording and injecting at off-grid points (propagator/point_sampling.hpp, PointStencil): a recorded sample
// is the sum of weight x field over the Hicks box within float rounding, whether eight cells of a row can be
// read as lanes or the box ends at the padded grid's x end (and the two ways give the same bits); traces and
// injected residuals are the same bit for bit on one thread and two, and the residuals equal the serial
// receiver-by-receiver injection bit for bit, though the boxes of a dense survey overlap; a forward call's
// samples staged step-major reach the traces as recorded step by step; a point stencil is small enough for a
// survey's millions of receivers.
#include "fwi/propagator.hpp"
#include "propagator/point_sampling.hpp"

#include <omp.h>

#include <QtTest>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace fwi;

namespace {

struct Survey {
    PaddedGrid grid;
    std::vector<PointStencil> receivers;
    std::vector<float> field, scale;
};

/// A 3D grid with no PML and a halo of one cell (order 2), so that boxes at the model's last column end at
/// the padded grid's x end, and a dense areal grid of receivers off the grid on every axis but for one row on
/// the last model column.
Survey dense_survey(int per_axis) {
    Survey s;
    s.grid.model = Grid(20, 24, 28, 10, 10, 10);
    s.grid.order = 2;
    s.grid.pml = 0;
    s.grid.halo = 1;
    std::mt19937 random(7);
    std::uniform_real_distribution<float> value(-1, 1);
    for (int i = 0; i < per_axis; ++i)
        for (int j = 0; j < per_axis; ++j) {
            const double x = i == 0 ? 270.0 : 3 + 260.0 * i / per_axis;
            s.receivers.push_back(
                hicks_stencil(s.grid, Point{x, 33.3, 7 + 220.0 * j / per_axis}, "receiver"));
        }
    s.field.resize(std::size_t(s.grid.cells()));
    s.scale.resize(std::size_t(s.grid.cells()));
    for (std::size_t i = 0; i < s.field.size(); ++i) {
        s.field[i] = value(random);
        s.scale[i] = 0.5f + 0.25f * value(random);
    }
    return s;
}

std::vector<float> record(const Survey& s, int threads) {
    omp_set_num_threads(threads);
    std::vector<float> traces(s.receivers.size() * 3, -1.0f);
    record_points(s.receivers, s.field.data(), traces.data() + 1, 3);
    std::vector<float> samples;
    for (std::size_t r = 0; r < s.receivers.size(); ++r)
        samples.push_back(traces[r * 3 + 1]);
    return samples;
}

std::vector<float> inject(const Survey& s, const std::vector<float>& residual, int threads) {
    omp_set_num_threads(threads);
    std::vector<float> out(s.field.size(), 0.25f);
    inject_residuals(s.receivers, residual.data() + 1, 2, out.data(), s.scale.data());
    return out;
}

} // namespace

class TestPointSampling : public QObject {
    Q_OBJECT
    int threads_ = 1;

  private slots:
    void initTestCase() { threads_ = omp_get_max_threads(); }
    void cleanupTestCase() { omp_set_num_threads(threads_); }

    void a_sample_is_the_weighted_sum_over_the_box() {
        const Survey s = dense_survey(40);
        QVERIFY(std::int64_t(s.receivers.size()) * s.receivers[1].taps() > detail::parallel_taps);
        const std::vector<float> samples = record(s, 2);
        int at_the_x_end = 0;
        double worst = 0;
        for (std::size_t r = 0; r < s.receivers.size(); ++r) {
            const PointStencil& p = s.receivers[r];
            double exact = 0, scale = 0;
            p.for_each_tap([&](std::int64_t cell, float w) {
                exact += double(w) * s.field[std::size_t(cell)];
                scale += std::abs(double(w) * s.field[std::size_t(cell)]);
            });
            worst = std::max(worst, std::abs(samples[r] - exact) / scale);
            if (p.row_cells_from_corner < PointStencil::max_axis_taps) ++at_the_x_end;
        }
        qInfo("largest |sample - sum| / sum of |terms|: %.3g; %d boxes end at the padded x end", worst,
              at_the_x_end);
        QVERIFY(at_the_x_end >= 40); // the row of receivers on the last model column, at least
        QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    }

    void whole_lanes_give_the_bits_of_the_lane_by_lane_sum() {
        // The vector path (a row read as eight lanes) must not change a trace against the scalar path that
        // boxes at the grid's x end take: the same operations lane by lane.
        const Survey s = dense_survey(40);
        int wide = 0;
        for (const PointStencil& p : s.receivers) {
            if (p.row_cells_from_corner < PointStencil::max_axis_taps) continue;
            ++wide;
            const float lanes = detail::sample_point_wide(p, s.field.data());
            const float scalar = detail::sample_point_narrow(p, s.field.data(), PointStencil::max_axis_taps);
            QCOMPARE(std::bit_cast<std::uint32_t>(lanes), std::bit_cast<std::uint32_t>(scalar));
        }
        QVERIFY(wide > 1000);
    }

    void traces_do_not_depend_on_the_thread_count() {
        const Survey s = dense_survey(40);
        QVERIFY(record(s, 1) == record(s, 2));
    }

    void residuals_are_injected_in_the_serial_order_on_any_thread_count() {
        Survey s = dense_survey(40); // boxes 8 wide, receivers 6.5-5.5 m apart: heavy overlap
        // Points in the halo (no taps) first and last: the others' residuals all the same, on the team.
        s.receivers.insert(s.receivers.begin(), PointStencil{});
        s.receivers.push_back(PointStencil{});
        std::vector<float> residual(s.receivers.size() * 2);
        for (std::size_t i = 0; i < residual.size(); ++i)
            residual[i] = std::sin(0.37f * float(i)) * (i % 2 ? 1.0f : 0.0f);
        std::vector<float> serial(s.field.size(), 0.25f);
        for (std::size_t r = 0; r < s.receivers.size(); ++r)
            inject_point(s.receivers[r], residual[r * 2 + 1], serial.data(), s.scale.data());
        const std::vector<float> one = inject(s, residual, 1), two = inject(s, residual, 2);
        QVERIFY(one == serial);
        QVERIFY(two == serial);
        QVERIFY(!(serial == std::vector<float>(s.field.size(), 0.25f))); // something was injected
    }

    void a_forward_call_records_through_its_stage_as_step_by_step() {
        // Blocks of two steps, the call's last step past the trace's end, and traces of other steps
        // untouched.
        const Survey s = dense_survey(40);
        const auto nrec = std::int64_t(s.receivers.size());
        const std::int64_t trace_length = 9, first = 3, count = 7; // steps 3..8 recorded, step 9 not
        std::mt19937 random(11);
        std::uniform_real_distribution<float> value(-1, 1);
        std::vector<std::vector<float>> fields(std::size_t(count), s.field);
        for (auto& f : fields)
            for (float& v : f)
                v = value(random);
        omp_set_num_threads(2);
        std::vector<float> expected(std::size_t(nrec * trace_length), -1.0f), got = expected, stage;
        for (std::int64_t k = 0; k + first < trace_length; ++k)
            record_points(s.receivers, fields[std::size_t(k)].data(), expected.data() + first + k,
                          trace_length);
        std::int64_t step = 0;
        forward_recording(
            s.receivers, got.data(), trace_length, first, count, stage,
            [&] { return fields[std::size_t(step)].data(); }, [&] { ++step; }, 2 * nrec);
        QCOMPARE(step, count);
        QVERIFY(stage.size() == std::size_t(2 * nrec)); // staged, two steps a block
        QVERIFY(got == expected);
    }

    void an_adjoint_sweep_reads_its_residual_through_the_stage() {
        // Blocks of three steps over a descending sweep, then a second sweep over another residual of the
        // same shape, and a sweep restarted over the same one after its contents changed: every amount is the
        // residual's own sample.
        const std::int64_t receivers = 100, trace_length = 8;
        std::vector<float> first(std::size_t(receivers * trace_length)), second(first.size());
        for (std::size_t i = 0; i < first.size(); ++i) {
            first[i] = float(i);
            second[i] = -float(i);
        }
        ResidualStage stage;
        const auto sweep = [&](const std::vector<float>& residual) {
            for (std::int64_t n = trace_length - 1; n >= 0; --n) {
                std::int64_t stride = 0;
                const float* amounts =
                    residual_amounts(stage, residual, trace_length, n, receivers, stride, 3 * receivers);
                QCOMPARE(stride, std::int64_t(1));
                for (std::int64_t r = 0; r < receivers; ++r)
                    QCOMPARE(amounts[r], residual[std::size_t(r * trace_length + n)]);
            }
            QVERIFY(stage.rows.size() <= std::size_t(3 * receivers));
        };
        sweep(first);
        sweep(second);
        for (float& v : first)
            v += 0.5f;
        sweep(first);
        std::int64_t stride = 0; // a sparse survey reads the residual itself
        QCOMPARE(residual_amounts(stage, first, trace_length, 5, 10, stride), first.data() + 5);
        QCOMPARE(stride, trace_length);
    }

    void a_point_stencil_is_small() {
        // A million receivers over a survey's shots held 6 GB of 3D stencils as lists of cells and weights.
        QVERIFY2(sizeof(PointStencil) <= 160, qPrintable(QString::number(sizeof(PointStencil))));
    }
};

QTEST_APPLESS_MAIN(TestPointSampling)
#include "tst_point_sampling.moc"
