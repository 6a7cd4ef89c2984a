// Helpers shared by the tests: status assertions that print the status, an error matcher,
// where the compatibility corpus and the external conformance files are, and small file
// utilities. Namespace sluice::test, so that gtest's ::testing stays unshadowed.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sluice/result.h"
#include "sluice/status.h"

namespace sluice::test {

// Success when OK; else a failure showing the status.
::testing::AssertionResult IsOk(const Status& status);
template <typename T>
::testing::AssertionResult IsOk(const Result<T>& result) {
  return IsOk(result.status());
}
// Anything else with an ok() (a stream, a reader of a test's own): no status to show.
template <typename T, typename = std::enable_if_t<!std::is_convertible_v<const T&, const Status&>>>
::testing::AssertionResult IsOk(const T& value) {
  if (value.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "not ok";
}

// Success when `status` has `code` and its text (ToString) contains every one of `words`;
// the failure message shows the status. `EXPECT_TRUE(HasError(st, StatusCode::kNotFound,
// {"snapshot-7"}))`.
::testing::AssertionResult HasError(const Status& status, StatusCode code,
                                    std::initializer_list<std::string_view> words = {});
template <typename T>
::testing::AssertionResult HasError(const Result<T>& result, StatusCode code,
                                    std::initializer_list<std::string_view> words = {}) {
  if (result.ok()) return ::testing::AssertionFailure() << "expected an error, got a value";
  return HasError(result.status(), code, words);
}

// ../shared/compat, or $SLUICE_COMPAT_DIR when set.
std::string CompatDir();
// ../shared/compat/tables
std::string CompatTablesDir();
// ../shared/external, or $SLUICE_EXTERNAL_DIR when set.
std::string ExternalDir();
// The source tree and the build tree of this build.
std::string SourceDir();
std::string BinaryDir();

// Every regular file under `dir` (recursively) whose name satisfies `filter`, sorted.
std::vector<std::string> ListFilesRecursive(const std::string& dir,
                                            bool (*filter)(const std::string& path) = nullptr);

// The whole content of a file; fails the current test (and returns "") if it cannot be read.
std::string ReadFileOrFail(const std::string& path);

// A fresh empty directory under the system temp dir, removed when the object is destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Sets environment variable `name` to `value` for its lifetime, then restores the old value
// (or unsets it). Tests that use it must not run threads that read the environment meanwhile.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace sluice::test

// Assert / expect that a Status or Result<T> is OK, printing the status when it is not; more
// context may be streamed as with ASSERT_TRUE (`ASSERT_OK(st) << path;`).
#define ASSERT_OK(expr) ASSERT_TRUE(::sluice::test::IsOk(expr))
#define EXPECT_OK(expr) EXPECT_TRUE(::sluice::test::IsOk(expr))

// Evaluates `rexpr` (a Result<T>); fails the test printing the status on error, else moves the
// value into `lhs` (which may be a declaration such as `auto x`).
#define ASSERT_OK_AND_ASSIGN(lhs, rexpr) \
  SLUICE_TEST_ASSIGN_IMPL(SLUICE_CONCAT(_sluice_test_res_, __LINE__), lhs, rexpr)
#define SLUICE_TEST_ASSIGN_IMPL(res, lhs, rexpr)                      \
  auto res = (rexpr);                                                 \
  ASSERT_TRUE(res.ok()) << #rexpr << ": " << res.status().ToString(); \
  lhs = std::move(res).value()
