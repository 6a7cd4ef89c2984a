// Status: the outcome of an operation that returns no value.
//
// Thread safety: a Status is a value; distinct objects may be used from distinct threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace sluice {

enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalidArgument,
  kNotFound,
  kAlreadyExists,
  kCorruption,
  kIOError,
  kNotSupported,
  kConflict,
  kOutOfRange,
  kInternal,
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) {
    return Status(StatusCode::kInvalidArgument, std::move(msg));
  }
  static Status NotFound(std::string msg) { return Status(StatusCode::kNotFound, std::move(msg)); }
  static Status AlreadyExists(std::string msg) {
    return Status(StatusCode::kAlreadyExists, std::move(msg));
  }
  static Status Corruption(std::string msg) {
    return Status(StatusCode::kCorruption, std::move(msg));
  }
  static Status IOError(std::string msg) { return Status(StatusCode::kIOError, std::move(msg)); }
  static Status NotSupported(std::string msg) {
    return Status(StatusCode::kNotSupported, std::move(msg));
  }
  static Status Conflict(std::string msg) { return Status(StatusCode::kConflict, std::move(msg)); }
  static Status OutOfRange(std::string msg) {
    return Status(StatusCode::kOutOfRange, std::move(msg));
  }
  static Status Internal(std::string msg) { return Status(StatusCode::kInternal, std::move(msg)); }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  const std::string& message() const;

  bool IsNotFound() const { return code() == StatusCode::kNotFound; }
  bool IsCorruption() const { return code() == StatusCode::kCorruption; }
  bool IsAlreadyExists() const { return code() == StatusCode::kAlreadyExists; }
  bool IsConflict() const { return code() == StatusCode::kConflict; }

  // "Corruption: <message>", or "OK".
  std::string ToString() const;

  // Returns a copy whose message is "<context>: <message>"; OK stays OK. Used to add the file
  // name (or field, or column) at the layer that knows it.
  Status WithContext(std::string_view context) const;

  // Marks an error as deliberately ignored (the call site says why, in a comment). The one way
  // to drop a Status, not `(void)`; a Result's is dropped as `.status().IgnoreError()`.
  void IgnoreError() const {}

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  std::shared_ptr<const State> state_;
};

}  // namespace sluice

#define SLUICE_CONCAT_INNER(a, b) a##b
#define SLUICE_CONCAT(a, b) SLUICE_CONCAT_INNER(a, b)

// Returns from the enclosing function if `expr` (a Status) is not OK.
#define SLUICE_RETURN_NOT_OK(expr)           \
  do {                                       \
    ::sluice::Status _sluice_st = (expr);    \
    if (!_sluice_st.ok()) return _sluice_st; \
  } while (false)

// Like SLUICE_RETURN_NOT_OK, prefixing the message with `context` (a string expression that is
// evaluated only on failure).
#define SLUICE_RETURN_NOT_OK_CTX(expr, context)                   \
  do {                                                            \
    ::sluice::Status _sluice_st = (expr);                         \
    if (!_sluice_st.ok()) return _sluice_st.WithContext(context); \
  } while (false)
