// Result<T>: a value or the Status that explains why there is none.
#pragma once

#include <cassert>
#include <optional>
#include <utility>

#include "sluice/status.h"

namespace sluice {

template <typename T>
class [[nodiscard]] Result {
 public:
  // REQUIRES: !status.ok()
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok());
    if (status_.ok()) status_ = Status::Internal("Result constructed from an OK status");
  }
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U&&, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Status> &&
                                                    !std::is_same_v<std::decay_t<U>, T>>>
  Result(U&& value) : value_(std::forward<U>(value)) {}  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T& operator*() const& { return *value_; }
  T& operator*() & { return *value_; }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }

  T ValueOr(T fallback) && { return ok() ? std::move(*value_) : std::move(fallback); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace sluice

// Evaluates `rexpr` (a Result<T>); on error returns its Status, else moves the value into `lhs`
// (which may be a declaration such as `auto x`).
#define SLUICE_ASSIGN_OR_RETURN(lhs, rexpr) \
  SLUICE_ASSIGN_OR_RETURN_IMPL(SLUICE_CONCAT(_sluice_res_, __LINE__), lhs, rexpr)

#define SLUICE_ASSIGN_OR_RETURN_IMPL(res, lhs, rexpr) \
  auto res = (rexpr);                                 \
  if (!res.ok()) return res.status();                 \
  lhs = std::move(res).value()
