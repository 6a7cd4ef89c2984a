// `sluice meta` succeeds on every table of the corpus (Avro and ORC manifests), every branch,
// every snapshot.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "sluice/meta/table_metadata_json.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(TableMetadataJsonTest, EverySnapshotOfEveryCorpusTable) {
  namespace fs = std::filesystem;
  int documents = 0;
  for (const auto& entry : fs::recursive_directory_iterator(test::CompatTablesDir())) {
    if (!entry.is_directory() || entry.path().filename() != "snapshot") continue;
    fs::path table = entry.path().parent_path();
    if (table.parent_path().filename() == "branch") continue;
    std::vector<std::string> branches = {"main"};
    if (fs::exists(table / "branch")) {
      for (const auto& b : fs::directory_iterator(table / "branch")) {
        branches.push_back(b.path().filename().string().substr(7));  // "branch-<name>"
      }
    }
    for (const std::string& branch : branches) {
      fs::path snapshot_dir = branch == "main"
                                  ? table / "snapshot"
                                  : table / "branch" / ("branch-" + branch) / "snapshot";
      for (const auto& f : fs::directory_iterator(snapshot_dir)) {
        std::string name = f.path().filename().string();
        if (name.rfind("snapshot-", 0) != 0) continue;
        int64_t id = std::stoll(name.substr(9));
        auto doc = TableMetadataJson(LocalFileIO(), table.string(), id, branch);
        EXPECT_OK(doc) << table << " branch " << branch << " snapshot " << id;
        ++documents;
      }
    }
  }
  std::printf("sluice meta documents built: %d\n", documents);
  EXPECT_GT(documents, 250);
}

}  // namespace
}  // namespace sluice
