#include "fwi/ui/welcome_page.hpp"

#include "fwi/ui/demo_projects.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace fwi::ui {
namespace {
constexpr const char* key = "welcome/show";

QString demo_blurb(const QString& name) {
    if (name == "toy")
        return QObject::tr(
            "A layered model, 3 shots: model the data, compute a gradient and invert in seconds.");
    if (name == "marmousi2")
        return QObject::tr("The Marmousi-II benchmark from a smooth start: the classic teaching inversion "
                           "(minutes per iteration).");
    if (name == "checkpointing")
        return QObject::tr(
            "One shot, Revolve in an 8 MB budget with ZFP: watch the timeline recompute and the "
            "memory stay under the budget line.");
    return {};
}
} // namespace

WelcomePage::WelcomePage(QWidget* parent) : QDialog(parent) {
    setObjectName("welcome_page");
    setWindowTitle(tr("Welcome to FWI Studio"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("<h2>Welcome to FWI Studio</h2>"
           "<p>Full-waveform inversion in 2D: lay out sources and receivers on a velocity model, model the "
           "data, compute gradients with checkpointing and compression inside a memory budget, and invert, "
           "watching the wavefield, the gradient, the memory and the schedule as they happen.</p>"
           "<p>Start with a demo project (press <b>F5</b> to model its data, <b>F6</b> for a gradient, "
           "<b>F7</b> to invert):</p>"),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    for (const QString& name : demo_names()) {
        auto* row = new QHBoxLayout;
        auto* button = new QPushButton(demo_title(name), this);
        button->setObjectName("welcome_" + name);
        button->setMinimumWidth(260);
        auto* blurb = new QLabel(demo_blurb(name), this);
        blurb->setWordWrap(true);
        row->addWidget(button);
        row->addWidget(blurb, 1);
        layout->addLayout(row);
        connect(button, &QPushButton::clicked, this, [this, name] { pick(name); });
    }
    auto* others = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open a project…"), this);
    open->setObjectName("welcome_open");
    auto* empty = new QPushButton(tr("Empty project"), this);
    empty->setObjectName("welcome_empty");
    others->addWidget(open);
    others->addWidget(empty);
    others->addStretch(1);
    layout->addSpacing(8);
    layout->addLayout(others);
    connect(open, &QPushButton::clicked, this, [this] { pick("open"); });
    connect(empty, &QPushButton::clicked, this, [this] { pick("empty"); });
    again_ = new QCheckBox(tr("Show this page at start-up"), this);
    again_->setObjectName("welcome_again");
    again_->setChecked(show_at_startup());
    connect(again_, &QCheckBox::toggled, this, [](bool on) { QSettings().setValue(key, on); });
    layout->addWidget(again_);
    resize(720, sizeHint().height());
}

QString WelcomePage::choice() const {
    return choice_;
}

bool WelcomePage::show_at_startup() {
    return QSettings().value(key, true).toBool();
}

void WelcomePage::pick(const QString& choice) {
    choice_ = choice;
    accept();
}

} // namespace fwi::ui
