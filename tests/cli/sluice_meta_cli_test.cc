// Drives the `sluice` binary: `sluice meta` prints the document the library builds, and errors
// go to stderr with a non-zero exit status.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::RunSluiceMergingStderr;

const std::string kTable = "/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv";

TEST(SluiceMetaCliTest, PrintsTheDocumentOfASnapshot) {
  CommandResult r =
      RunSluiceMergingStderr("meta " + test::CompatTablesDir() + kTable + " --snapshot 4");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["snapshot"]["id"], 4);
  EXPECT_EQ(doc["snapshot"]["commitKind"], "COMPACT");
  EXPECT_EQ(doc["schema"]["primaryKeys"], nlohmann::json::parse(R"(["f0","f1","f2"])"));
  ASSERT_TRUE(doc["index_manifest"].is_object());
  int deletion_vectors = 0;
  for (const auto& e : doc["index_manifest"]["entries"]) {
    EXPECT_EQ(e["index_type"], "DELETION_VECTORS");
    deletion_vectors += static_cast<int>(e["deletion_vectors"].size());
  }
  EXPECT_GT(deletion_vectors, 0);
}

TEST(SluiceMetaCliTest, OrcManifestsAndBranches) {
  CommandResult r = RunSluiceMergingStderr("meta " + test::CompatTablesDir() +
                                           "/orc/append_table_with_append_pt_branch.db/"
                                           "append_table_with_append_pt_branch --branch test");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["branch"], "test");
  EXPECT_FALSE(doc["manifests"].empty());
}

TEST(SluiceMetaCliTest, ErrorsNameWhatIsMissing) {
  CommandResult r =
      RunSluiceMergingStderr("meta " + test::CompatTablesDir() + kTable + " --snapshot 42");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("snapshot-42"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("meta /nonexistent/table");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("/nonexistent/table"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("meta");
  EXPECT_NE(r.exit_code, 0);
}

}  // namespace
}  // namespace sluice
