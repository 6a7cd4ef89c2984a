#include "sluice/base/metric.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sluice {

void Histogram::Update(double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (values_.size() < static_cast<size_t>(window_)) {
    values_.push_back(value);
  } else {
    values_[next_] = value;
    next_ = (next_ + 1) % values_.size();
  }
  ++count_;
  sum_ += value;
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    out.window = values_;
    out.count = count_;
    out.sum = sum_;
  }
  std::sort(out.window.begin(), out.window.end());
  return out;
}

double Histogram::Quantile(const std::vector<double>& values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  double rank = q * static_cast<double>(values.size() - 1);
  size_t below = static_cast<size_t>(std::floor(rank));
  size_t above = std::min(below + 1, values.size() - 1);
  double fraction = rank - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

}  // namespace sluice
