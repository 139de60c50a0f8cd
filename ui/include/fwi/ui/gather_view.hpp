#pragma once
// Shot gathers side by side: observed, modelled and their difference, receivers across and time down, on one
// symmetric colour range (so amplitudes compare). Any panel may be empty.
#include "fwi/gather.hpp"

#include <QWidget>

#include <optional>

class QLabel;
class QSpinBox;

namespace fwi::ui {

class ImageView;

class GatherView : public QWidget {
    Q_OBJECT
  public:
    explicit GatherView(QWidget* parent = nullptr);
    /// Observed and modelled gathers of every shot (either list may be empty).
    void set_gathers(std::vector<Gather> observed, std::vector<Gather> modelled);
    void set_shot(int shot);
    int shot() const;
    ImageView* observed_view() const;
    ImageView* modelled_view() const;
    ImageView* residual_view() const;

  signals:
    void cursor_info(const QString& text);

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void refresh();
    std::vector<Gather> observed_, modelled_;
    QSpinBox* shot_;
    QLabel* info_;
    ImageView *observed_view_, *modelled_view_, *residual_view_;
};

} // namespace fwi::ui
