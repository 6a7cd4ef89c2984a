// pyarrow reads Sluice's data files where Sluice wrote them, in the S3-compatible server of the
// `s3` fixture (scripts/s3.sh; SLUICE_S3_ENDPOINT), through pyarrow.fs.S3FileSystem: Arrow
// C++'s own S3 client and Parquet reader, so the objects Sluice uploads (single PUTs) are whole,
// readable Parquet files to another S3 client (issue 36).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "interop_values.h"
#include "test_util.h"

namespace sluice::test {
namespace {

using Json = nlohmann::json;

std::string Endpoint() {
  const char* env = std::getenv("SLUICE_S3_ENDPOINT");
  return env != nullptr && *env != '\0' ? env : "http://127.0.0.1:19400";
}

std::vector<Json> JsonLines(const std::string& text) {
  std::vector<Json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(Json::parse(line));
  }
  return out;
}

TEST(ArrowS3InteropTest, SluiceParquetFilesReadThroughPyarrowsS3FileSystem) {
  std::random_device random;
  const std::string warehouse =
      "s3://sluice/arrow-" + std::to_string(random()) + std::to_string(random());
  const std::string conf = " --warehouse " + warehouse +
                           " --catalog_conf s3.endpoint=" + Endpoint() +
                           " --catalog_conf s3.access-key=sluice-test --catalog_conf "
                           "s3.secret-key=sluice-test-secret --catalog_conf "
                           "s3.path.style.access=true";
  CommandResult r = RunSluiceMergingStderr("create-database db" + conf);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunSluiceMergingStderr(
      "create-table db.t" + conf +
      " --column 'id BIGINT NOT NULL' --column 'name STRING' --column 'score DOUBLE'"
      " --option bucket=2 --option bucket-key=id --option file.format=parquet");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  TempDir dir;
  std::vector<std::string> expected;
  for (int commit = 0; commit < 2; ++commit) {
    const std::string input = dir.path() + "/rows" + std::to_string(commit) + ".jsonl";
    std::ofstream out(input);
    for (int i = 0; i < 10; ++i) {
      const int id = commit * 10 + i;
      Json row = {{"id", id},
                  {"name", id % 4 == 0 ? Json() : Json("n" + std::to_string(id))},
                  {"score", id * 0.5}};
      out << row.dump() << "\n";
      expected.push_back(row.dump());
    }
    out.close();
    r = RunSluiceMergingStderr("write db.t --input " + input + conf);
    ASSERT_EQ(r.exit_code, 0) << r.out;
  }

  r = RunSluice("read 'db.t$files' --format jsonl" + conf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> args = {Endpoint(), "sluice-test", "sluice-test-secret",
                                   dir.path() + "/out.jsonl"};
  std::map<std::string, int64_t> record_counts;
  for (const Json& file : JsonLines(r.out)) {
    const std::string path = file["file_path"].get<std::string>();
    EXPECT_EQ(path.rfind(warehouse + "/db.db/t/bucket-", 0), 0u) << path;
    record_counts[path] = file["record_count"].get<int64_t>();
    args.push_back(path);
  }
  ASSERT_GE(record_counts.size(), 2u) << r.out;
  RunPythonScript(PythonOf("arrow", "SLUICE_ARROW_PYTHON"), "arrow_s3_read.py", args);

  std::ifstream results(dir.path() + "/out.jsonl");
  std::stringstream text;
  text << results.rdbuf();
  std::vector<std::string> rows;
  for (const Json& record : JsonLines(text.str())) {
    const std::string file = record["file"].get<std::string>();
    ASSERT_FALSE(record.contains("error")) << file << ": " << record["error"];
    EXPECT_EQ(record["columns"], Json({"id", "name", "score"})) << file;
    EXPECT_EQ(static_cast<int64_t>(record["rows"].size()), record_counts[file]) << file;
    for (const Json& row : record["rows"]) rows.push_back(row.dump());
  }
  std::sort(rows.begin(), rows.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rows, expected);
}

}  // namespace
}  // namespace sluice::test
