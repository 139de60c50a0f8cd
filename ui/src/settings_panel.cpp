#include "fwi/ui/settings_panel.hpp"

#include "codec_spec.hpp"
#include "fwi/acquisition_check.hpp"
#include "fwi/error.hpp"
#include "fwi/inversion_project.hpp"
#include "fwi/project_tools.hpp"
#include "fwi/time_axis.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/prediction_panel.hpp"
#include "fwi/ui/project_document.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace fwi::ui {
namespace {

QDoubleSpinBox* double_box(QWidget* parent, const char* name, double lo, double hi, int decimals,
                           const QString& suffix) {
    auto* b = new QDoubleSpinBox(parent);
    b->setObjectName(name);
    b->setRange(lo, hi);
    b->setDecimals(decimals);
    b->setSuffix(suffix);
    b->setKeyboardTracking(false);
    return b;
}

QSpinBox* int_box(QWidget* parent, const char* name, int lo, int hi, const QString& suffix = {}) {
    auto* b = new QSpinBox(parent);
    b->setObjectName(name);
    b->setRange(lo, hi);
    b->setSuffix(suffix);
    b->setKeyboardTracking(false);
    return b;
}

constexpr double mb = 1e6;
const QStringList schedule_kinds = {"all", "uniform", "revolve", "multilevel", "online", "auto"};
const QStringList codec_kinds = {"none",         "zstd",          "lz4",      "blosc",
                                 "zfp-accuracy", "zfp-precision", "zfp-rate", "zfp-reversible"};

/// The project's run options over the defaults (the defaults alone when they are unreadable: the run itself
/// reports why).
InversionSetup saved_run_options(const Project& project) {
    InversionSetup options;
    try {
        load_run_options(project, options, /*stage_counts=*/false);
    } catch (const ConfigError&) {
        options = InversionSetup{};
    }
    return options;
}

/// Rows wrap (the field goes under its label) when the dock is too narrow for both side by side, so the
/// forms never need to scroll sideways: a sideways scroll hid the labels' first letters once a field took the
/// focus ("erations per stage").
QFormLayout* new_form(QWidget* box) {
    auto* form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return form;
}

bool codec_has_parameter(const QString& kind) {
    return kind == "zfp-accuracy" || kind == "zfp-precision" || kind == "zfp-rate";
}

} // namespace

SettingsPanel::SettingsPanel(ProjectDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    prediction_panel_ = new PredictionPanel(this);
    // The forms scroll; the prediction stays in sight below them.
    auto* forms = new QWidget(this);
    auto* forms_layout = new QVBoxLayout(forms);
    forms_layout->addWidget(build_propagation());
    forms_layout->addWidget(build_gradient());
    forms_layout->addWidget(build_inversion());
    forms_layout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(forms);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the forms wrap instead (new_form)
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll, 1);
    layout->addWidget(new QLabel(tr("<b>Prediction</b> (measured costs, performance model)"), this));
    layout->addWidget(prediction_panel_);
    connect(doc_, &ProjectDocument::changed, this, [this] {
        calibration_error_.clear(); // new settings: measure again if they need it
        load();
    });
    load();
}

QWidget* SettingsPanel::build_propagation() {
    auto* box = new QGroupBox(tr("Propagation"), this);
    QFormLayout* form = new_form(box);
    freq_ = double_box(box, "freq_hz", 0.1, 500, 2, " Hz");
    duration_ = double_box(box, "duration_s", 0.001, 1000, 3, " s");
    dt_ms_ = double_box(box, "dt_ms", 0.001, 1000, 3, " ms");
    order_ = new QComboBox(box);
    order_->setObjectName("order");
    order_->addItems({"2", "4", "6", "8"});
    pml_ = int_box(box, "pml_width", 0, 1000, tr(" cells"));
    free_surface_ = new QCheckBox(tr("free surface"), box);
    free_surface_->setObjectName("free_surface");
    free_surface_->setToolTip(tr("A pressure-free top (z = 0) instead of an absorbing one: surface "
                                 "reflections and ghosts. Sources and receivers must lie below it."));
    cfl_ = double_box(box, "cfl_number", 0.05, 1.0, 2, "");
    vmax_ = double_box(box, "max_velocity", 0, 20000, 0, " m/s");
    vmax_->setSpecialValueText(tr("model maximum"));
    time_info_ = new QLabel(box);
    time_info_->setObjectName("time_info");
    time_info_->setWordWrap(true);
    form->addRow(tr("Peak frequency"), freq_);
    form->addRow(tr("Duration"), duration_);
    form->addRow(tr("Sample interval"), dt_ms_);
    form->addRow(tr("Space order"), order_);
    form->addRow(tr("PML width"), pml_);
    form->addRow(tr("Top"), free_surface_);
    form->addRow(tr("CFL number"), cfl_);
    form->addRow(tr("Reference velocity"), vmax_);
    form->addRow(time_info_);
    for (QDoubleSpinBox* b : {freq_, duration_, dt_ms_, cfl_, vmax_})
        connect(b, &QDoubleSpinBox::editingFinished, this, &SettingsPanel::commit_propagation);
    connect(pml_, &QSpinBox::editingFinished, this, &SettingsPanel::commit_propagation);
    connect(free_surface_, &QCheckBox::toggled, this, &SettingsPanel::commit_propagation);
    connect(order_, &QComboBox::activated, this, &SettingsPanel::commit_propagation);
    return box;
}

QWidget* SettingsPanel::build_gradient() {
    auto* box = new QGroupBox(tr("Gradient and checkpointing"), this);
    QFormLayout* form = new_form(box);
    schedule_ = new QComboBox(box);
    schedule_->setObjectName("schedule");
    schedule_->addItems(schedule_kinds);
    schedule_n_ = int_box(box, "schedule_slots", 1, 1000000, tr(" slots"));
    schedule_d_ = int_box(box, "schedule_disk_slots", 0, 1000000, tr(" disk slots"));
    codec_ = new QComboBox(box);
    codec_->setObjectName("codec");
    codec_->addItems(codec_kinds);
    codec_param_ = new QLineEdit(box);
    codec_param_->setObjectName("codec_parameter");
    codec_param_->setPlaceholderText(tr("tolerance or bits"));
    budget_mb_ = double_box(box, "budget_mb", 0, 1e9, 0, " MB");
    // No budget: runs are planned against three quarters of this machine's memory (machine_checkpoint_bytes).
    budget_mb_->setSpecialValueText(tr("this machine's"));
    budget_mb_->setToolTip(tr("0: what this machine can hold (three quarters of its memory)"));
    disk_budget_mb_ = double_box(box, "disk_budget_mb", 0, 1e10, 0, " MB");
    disk_budget_mb_->setSpecialValueText(tr("unlimited"));
    interval_ = int_box(box, "sampling_interval", 1, 100000, tr(" steps"));
    form->addRow(tr("Schedule"), schedule_);
    form->addRow(tr("Slots (RAM)"), schedule_n_);
    form->addRow(tr("Slots (disk)"), schedule_d_);
    form->addRow(tr("Memory budget"), budget_mb_);
    form->addRow(tr("Disk budget"), disk_budget_mb_);
    form->addRow(tr("Compression"), codec_);
    form->addRow(tr("Codec parameter"), codec_param_);
    form->addRow(tr("Snapshot every"), interval_);
    connect(schedule_, &QComboBox::activated, this, &SettingsPanel::commit_gradient);
    connect(codec_, &QComboBox::activated, this, [this] {
        // A parameterised codec needs a value: offer a sensible one rather than refusing the switch.
        const QString kind = codec_->currentText();
        if (codec_has_parameter(kind) && codec_param_->text().trimmed().isEmpty())
            codec_param_->setText(kind == "zfp-accuracy" ? "1e-5" : kind == "zfp-rate" ? "8" : "16");
        commit_gradient();
    });
    connect(codec_param_, &QLineEdit::editingFinished, this, &SettingsPanel::commit_gradient);
    for (QSpinBox* b : {schedule_n_, schedule_d_, interval_})
        connect(b, &QSpinBox::editingFinished, this, &SettingsPanel::commit_gradient);
    for (QDoubleSpinBox* b : {budget_mb_, disk_budget_mb_})
        connect(b, &QDoubleSpinBox::editingFinished, this, &SettingsPanel::commit_gradient);
    return box;
}

QWidget* SettingsPanel::build_inversion() {
    auto* box = new QGroupBox(tr("Inversion"), this);
    QFormLayout* form = new_form(box);
    iterations_ = int_box(box, "iterations", 1, 100000);
    stages_ = new QLineEdit(box);
    stages_->setObjectName("stages");
    stages_->setPlaceholderText(tr("e.g. 3, 5, 8 (Hz); empty = one unfiltered stage"));
    vmin_bound_ = double_box(box, "min_velocity", 1, 20000, 0, " m/s");
    vmax_bound_ = double_box(box, "max_velocity_bound", 1, 20000, 0, " m/s");
    optimizer_ = new QComboBox(box);
    optimizer_->setObjectName("optimizer");
    optimizer_->addItems({"lbfgs", "cg", "gradient-descent"});
    misfit_ = new QComboBox(box);
    misfit_->setObjectName("misfit");
    misfit_->addItems({"l2", "normalized"});
    form->addRow(tr("Iterations per stage"), iterations_);
    form->addRow(tr("Frequency stages"), stages_);
    form->addRow(tr("Lowest velocity"), vmin_bound_);
    form->addRow(tr("Highest velocity"), vmax_bound_);
    form->addRow(tr("Optimizer"), optimizer_);
    form->addRow(tr("Misfit"), misfit_);
    // Conditioning (the project's run options, as `fwi invert` keeps them).
    illumination_ = new QCheckBox(tr("source illumination"), box);
    illumination_->setToolTip(tr("Precondition the gradient with the source illumination"));
    illumination_->setObjectName("illumination");
    smoothing_m_ = double_box(box, "smoothing", 0, 100000, 0, " m");
    smoothing_m_->setSpecialValueText(tr("none"));
    smoothing_m_->setToolTip(tr("Gaussian smoothing of the update (sigma)"));
    water_velocity_ = double_box(box, "water_velocity", 0, 20000, 0, " m/s");
    water_velocity_->setSpecialValueText(tr("none"));
    water_velocity_->setToolTip(tr("Cells of the initial model at or below this velocity never move"));
    lbfgs_memory_ = int_box(box, "lbfgs_memory", 1, 1000, tr(" pairs"));
    form->addRow(tr("Precondition"), illumination_);
    form->addRow(tr("Smoothing"), smoothing_m_);
    form->addRow(tr("Fixed water below"), water_velocity_);
    form->addRow(tr("L-BFGS memory"), lbfgs_memory_);
    connect(illumination_, &QCheckBox::toggled, this, &SettingsPanel::commit_run_options);
    for (QDoubleSpinBox* b : {smoothing_m_, water_velocity_})
        connect(b, &QDoubleSpinBox::editingFinished, this, &SettingsPanel::commit_run_options);
    connect(lbfgs_memory_, &QSpinBox::editingFinished, this, &SettingsPanel::commit_run_options);
    connect(iterations_, &QSpinBox::editingFinished, this, &SettingsPanel::commit_inversion);
    connect(stages_, &QLineEdit::editingFinished, this, &SettingsPanel::commit_inversion);
    for (QDoubleSpinBox* b : {vmin_bound_, vmax_bound_})
        connect(b, &QDoubleSpinBox::editingFinished, this, &SettingsPanel::commit_inversion);
    connect(optimizer_, &QComboBox::activated, this, &SettingsPanel::commit_inversion);
    connect(misfit_, &QComboBox::activated, this, &SettingsPanel::commit_inversion);
    return box;
}

void SettingsPanel::load() {
    loading_ = true;
    const Experiment& e = doc_->experiment();
    const PropagationSettings& p = e.propagation;
    freq_->setValue(p.freq_hz);
    dt_ms_->setValue(p.dt_s * 1000);
    duration_->setValue(double(std::max<std::int64_t>(p.nt - 1, 0)) * p.dt_s);
    order_->setCurrentText(QString::number(p.order));
    pml_->setValue(p.pml_width);
    free_surface_->setChecked(p.free_surface);
    cfl_->setValue(p.cfl_number);
    vmax_->setValue(p.max_velocity_mps);

    const GradientSettings& g = e.gradient;
    const QString spec = QString::fromStdString(g.schedule);
    const QString kind = spec.section(':', 0, 0);
    schedule_->setCurrentText(schedule_kinds.contains(kind) ? kind : "all");
    const QStringList numbers = spec.section(':', 1).split(',', Qt::SkipEmptyParts);
    if (!numbers.isEmpty()) schedule_n_->setValue(numbers[0].toInt());
    if (numbers.size() > 1) schedule_d_->setValue(numbers[1].toInt());
    const QString codec = QString::fromStdString(g.compression);
    codec_->setCurrentText(codec.section(':', 0, 0));
    codec_param_->setText(codec.section(':', 1));
    budget_mb_->setValue(double(g.budget_bytes) / mb);
    disk_budget_mb_->setValue(double(g.disk_budget_bytes) / mb);
    interval_->setValue(g.sampling_interval);

    const InversionSettings& inv = e.inversion;
    iterations_->setValue(inv.iterations);
    QStringList stages;
    for (double f : inv.stage_freqs_hz)
        stages << QString::number(f);
    stages_->setText(stages.join(", "));
    vmin_bound_->setValue(inv.min_velocity_mps);
    vmax_bound_->setValue(inv.max_velocity_mps);
    // Names the engine accepts but the lists lack (a project written by `fwi invert --optimizer gd`) are
    // added.
    for (auto [box, name] : {std::pair{optimizer_, &inv.optimizer}, std::pair{misfit_, &inv.misfit}}) {
        const QString text = QString::fromStdString(*name);
        if (box->findText(text) < 0) box->addItem(text);
        box->setCurrentText(text);
    }
    const InversionSetup options = saved_run_options(doc_->project());
    illumination_->setChecked(options.objective.illumination);
    smoothing_m_->setValue(options.objective.preconditioner.smoothing_x_m);
    water_velocity_->setValue(options.objective.mask.water_velocity_mps);
    lbfgs_memory_->setValue(options.optimizer.memory);
    loading_ = false;

    const QString k = schedule_->currentText();
    schedule_n_->setEnabled(k != "all" && k != "auto");
    schedule_d_->setEnabled(k == "multilevel");
    codec_param_->setEnabled(codec_has_parameter(codec_->currentText()));
    update_prediction();
}

QString SettingsPanel::read_propagation(PropagationSettings& p) const {
    p = doc_->experiment().propagation;
    p.freq_hz = freq_->value();
    p.dt_s = dt_ms_->value() / 1000;
    p.order = order_->currentText().toInt();
    p.pml_width = pml_->value();
    p.free_surface = free_surface_->isChecked();
    p.cfl_number = cfl_->value();
    p.max_velocity_mps = vmax_->value();
    if (duration_->value() < p.dt_s)
        return tr("The duration (%1 s) is shorter than one sample interval (%2 s).")
            .arg(duration_->value())
            .arg(p.dt_s);
    p.nt = std::int64_t(std::llround(duration_->value() / p.dt_s)) + 1;
    if (!p.wavelet.empty() && std::int64_t(p.wavelet.size()) != p.nt)
        p.wavelet
            .clear(); // a user wavelet no longer matches: fall back to the Ricker (said in the time label)
    try {
        Experiment e = doc_->experiment();
        e.propagation.max_velocity_mps = 0;
        const double models_max = working_model(e).grid.cells() > 0 ? reference_velocity(e) : 0;
        if (p.max_velocity_mps > 0 && p.max_velocity_mps < models_max)
            return tr("The reference velocity %1 m/s is below the models' largest velocity, %2 m/s: the time "
                      "step it fixes would violate the CFL condition. Give at least %2 m/s, or 0 for the "
                      "models' maximum.")
                .arg(p.max_velocity_mps)
                .arg(models_max);
        e.propagation = p;
        if (working_model(e).grid.cells() > 0)
            make_time_axis(working_model(e).grid, reference_velocity(e), p);
        if (p.free_surface && working_model(e).grid.cells() > 0)
            validate_points_below_free_surface(e.acquisition, working_model(e).grid);
    } catch (const ConfigError& err) {
        return QString::fromUtf8(err.what());
    }
    return {};
}

QString SettingsPanel::read_gradient(GradientSettings& g) const {
    g = doc_->experiment().gradient;
    const QString kind = schedule_->currentText();
    if (kind == "all" || kind == "auto")
        g.schedule = kind.toStdString();
    else if (kind == "multilevel")
        g.schedule =
            QString("multilevel:%1,%2").arg(schedule_n_->value()).arg(schedule_d_->value()).toStdString();
    else
        g.schedule = QString("%1:%2").arg(kind).arg(schedule_n_->value()).toStdString();
    const QString codec = codec_->currentText();
    const QString param = codec_param_->text().trimmed();
    g.compression = (codec_has_parameter(codec) ? codec + ":" + param : codec).toStdString();
    if (const std::string error = codec_spec_error(g.compression); !error.empty())
        return QString::fromStdString(error);
    g.budget_bytes = std::uint64_t(std::llround(budget_mb_->value() * mb));
    g.disk_budget_bytes = std::uint64_t(std::llround(disk_budget_mb_->value() * mb));
    g.sampling_interval = interval_->value();
    return {};
}

QString SettingsPanel::read_inversion(InversionSettings& inv) const {
    inv = doc_->experiment().inversion;
    inv.iterations = iterations_->value();
    inv.stage_freqs_hz.clear();
    const QStringList parts = stages_->text().split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts);
    for (const QString& s : parts) {
        bool ok = false;
        const double f = s.toDouble(&ok);
        if (!ok || !(f > 0) || !std::isfinite(f))
            return tr("Frequency stage '%1' is not a positive number of hertz.").arg(s);
        if (!inv.stage_freqs_hz.empty() && f <= inv.stage_freqs_hz.back())
            return tr("Frequency stages must increase (low frequencies first): %1 Hz after %2 Hz.")
                .arg(f)
                .arg(inv.stage_freqs_hz.back());
        inv.stage_freqs_hz.push_back(f);
    }
    inv.min_velocity_mps = vmin_bound_->value();
    inv.max_velocity_mps = vmax_bound_->value();
    if (inv.min_velocity_mps >= inv.max_velocity_mps)
        return tr("The lowest velocity (%1 m/s) must be below the highest (%2 m/s).")
            .arg(inv.min_velocity_mps)
            .arg(inv.max_velocity_mps);
    inv.optimizer = optimizer_->currentText().toStdString();
    inv.misfit = misfit_->currentText().toStdString();
    return {};
}

std::string SettingsPanel::read_run_options() const {
    InversionSetup options = saved_run_options(doc_->project()); // with the panel's fields:
    options.objective.illumination = illumination_->isChecked();
    options.objective.preconditioner.smoothing_x_m = options.objective.preconditioner.smoothing_z_m =
        smoothing_m_->value();
    options.objective.mask.water_velocity_mps = water_velocity_->value();
    options.optimizer.memory = lbfgs_memory_->value();
    Project kept; // the saved entry, for the per-stage counts it holds
    kept.metadata[run_options_key] = doc_->run_options();
    save_run_options(kept, options, /*stage_counts=*/false);
    return kept.metadata[run_options_key];
}

void SettingsPanel::commit_run_options() {
    if (loading_) return;
    doc_->edit_run_options(read_run_options());
}

void SettingsPanel::refuse(const QString& title, const QString& reason) {
    show_error(this, title, reason);
    load(); // back to the document's values
}

void SettingsPanel::commit_propagation() {
    if (loading_) return;
    PropagationSettings p;
    const QString error = read_propagation(p);
    if (!error.isEmpty()) return refuse(tr("Propagation settings refused"), error);
    doc_->edit_propagation(p);
}

void SettingsPanel::commit_gradient() {
    if (loading_) return;
    GradientSettings g;
    const QString error = read_gradient(g);
    if (!error.isEmpty()) return refuse(tr("Gradient settings refused"), error);
    doc_->edit_gradient(g);
    load(); // enable/disable the dependent fields even when the value did not change
}

void SettingsPanel::commit_inversion() {
    if (loading_) return;
    InversionSettings inv;
    const QString error = read_inversion(inv);
    if (!error.isEmpty()) return refuse(tr("Inversion settings refused"), error);
    doc_->edit_inversion(inv);
}

} // namespace fwi::ui
