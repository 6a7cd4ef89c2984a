// Helpers shared by the tests: where the compatibility corpus and the external conformance
// files are, and small file utilities.
#pragma once

#include <string>
#include <vector>

namespace sluice::testing {

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

}  // namespace sluice::testing
