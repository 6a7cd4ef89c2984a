// Result<T>: a value or the Status that explains why there is none.
//
// Reading the value of an error Result (value(), *, ->) is a programming error: it prints the
// status to stderr and aborts the process, so the bug shows where it happens instead of as
// undefined behaviour further on.
#pragma once

#include <cassert>
#include <optional>
#include <utility>

#include "sluice/status.h"

namespace sluice {

namespace internal {
// Prints "Result::value() on an error: <status>" to stderr and aborts.
[[noreturn]] void DieOnErrorResultAccess(const Status& status);
}  // namespace internal

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

  // REQUIRES: ok(); otherwise the process aborts, printing the status.
  const T& value() const& { return CheckedValue(); }
  T& value() & { return CheckedValue(); }
  T&& value() && { return std::move(CheckedValue()); }
  const T& operator*() const& { return CheckedValue(); }
  T& operator*() & { return CheckedValue(); }
  const T* operator->() const { return &CheckedValue(); }
  T* operator->() { return &CheckedValue(); }

  T ValueOr(T fallback) && { return ok() ? std::move(*value_) : std::move(fallback); }

 private:
  const T& CheckedValue() const {
    if (!value_.has_value()) [[unlikely]]
      internal::DieOnErrorResultAccess(status_);
    return *value_;
  }
  T& CheckedValue() {
    if (!value_.has_value()) [[unlikely]]
      internal::DieOnErrorResultAccess(status_);
    return *value_;
  }

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
