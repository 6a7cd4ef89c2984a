#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace sluice::test {

namespace fs = std::filesystem;

namespace {
std::string EnvOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return (v != nullptr && *v != '\0') ? std::string(v) : std::string(fallback);
}
}  // namespace

std::string CompatDir() { return EnvOr("SLUICE_COMPAT_DIR", SLUICE_DEFAULT_COMPAT_DIR); }
std::string CompatTablesDir() { return CompatDir() + "/tables"; }
std::string ExternalDir() { return EnvOr("SLUICE_EXTERNAL_DIR", SLUICE_DEFAULT_EXTERNAL_DIR); }
std::string SourceDir() { return SLUICE_SOURCE_DIR; }
std::string BinaryDir() { return SLUICE_BINARY_DIR; }

std::vector<std::string> ListFilesRecursive(const std::string& dir,
                                            bool (*filter)(const std::string& path)) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string p = it->path().string();
    if (filter == nullptr || filter(p)) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReadFileOrFail(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TempDir::TempDir() {
  std::random_device rd;
  fs::path p = fs::temp_directory_path() /
               ("sluice-test-" + std::to_string(rd()) + "-" + std::to_string(rd()));
  fs::create_directories(p);
  path_ = p.string();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

::testing::AssertionResult IsOk(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.ToString();
}

::testing::AssertionResult HasError(const Status& status, StatusCode code,
                                    std::initializer_list<std::string_view> words) {
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "expected " << StatusCodeName(code) << ", got " << status.ToString();
  }
  const std::string text = status.ToString();
  for (std::string_view word : words) {
    if (text.find(word) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << word << "' not in: " << text;
    }
  }
  return ::testing::AssertionSuccess();
}

ScopedEnv::ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
  if (const char* old = std::getenv(name_.c_str())) old_ = old;
  setenv(name_.c_str(), value.c_str(), /*overwrite=*/1);
}

ScopedEnv::~ScopedEnv() {
  if (old_) {
    setenv(name_.c_str(), old_->c_str(), /*overwrite=*/1);
  } else {
    unsetenv(name_.c_str());
  }
}

}  // namespace sluice::test
