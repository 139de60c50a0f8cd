#pragma once
// An observer that keeps one forward-wavefield snapshot: the first the engine offers at or after a step (it
// offers them at the ends of its chunks). Used by fwi plot and fwi demo for wavefield pictures of one shot.
#include "fwi/events.hpp"

#include <cstdint>
#include <vector>

namespace fwi::cli {

class SnapshotAt final : public Observer {
  public:
    explicit SnapshotAt(std::int64_t step) : target_(step) {}
    bool wants_field(FieldKind kind, std::int64_t step) override {
        return kind == FieldKind::ForwardWavefield && step_ < 0 && step >= target_;
    }
    void on_field(FieldKind, std::int64_t step, ConstFieldView field) override {
        if (step_ >= 0) return;
        step_ = step;
        pressure_.assign(field.data, field.data + field.size());
    }
    std::int64_t step() const { return step_; }
    const std::vector<float>& pressure() const { return pressure_; }

  private:
    std::int64_t target_, step_ = -1;
    std::vector<float> pressure_;
};

} // namespace fwi::cli
