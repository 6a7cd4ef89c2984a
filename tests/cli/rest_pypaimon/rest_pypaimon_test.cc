// pypaimon's REST catalog (build/pyenv/pypaimon, the version scripts/setup.sh pins) and Sluice's
// REST client on one Sluice REST catalog server, in process and as `sluice serve`: pypaimon lists
// and reads what Sluice created and wrote; creates, writes, alters and renames a table that Sluice
// then lists, reads and writes to; reads Sluice's rows and drops the table and its database, which
// Sluice no longer lists. pypaimon's commit goes through the server's commit endpoint. A token the
// server does not know is refused to pypaimon (NotAuthorizedException).
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/serve/serve_test_util.h"
#include "service/rest/rest_test_util.h"
#include "sluice/value_json.h"
#include "sluice/write_builder.h"

namespace sluice {
namespace {

std::string Python() {
  const char* env = std::getenv("SLUICE_PYPAIMON_PYTHON");
  return env != nullptr && *env != '\0' ? env
                                        : test::SourceDir() + "/build/pyenv/pypaimon/bin/python";
}

// Runs the pypaimon side in `mode`; its last line of output, parsed.
nlohmann::json RunPypaimon(const std::string& uri, const std::string& token,
                           const std::string& mode) {
  const std::string python = Python();
  EXPECT_TRUE(std::filesystem::exists(python))
      << python << " is missing: scripts/setup.sh creates pypaimon's environment";
  const std::string command = "'" + python + "' '" + test::SourceDir() +
                              "/tests/cli/rest_pypaimon/pypaimon_rest.py' '" + uri + "' '" + token +
                              "' " + mode + " 2>&1";
  std::string out;
  if (std::FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
    EXPECT_EQ(::pclose(pipe), 0) << command << ":\n" << out;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  const std::string last =
      out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
  nlohmann::json seen = nlohmann::json::parse(last, nullptr, /*allow_exceptions=*/false);
  EXPECT_TRUE(seen.is_object()) << out;
  return seen;
}

Status Write(const Table& table, int64_t id, const char* v) {
  WriteBuilder builder = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(auto write, builder.NewWrite());
  ColumnBatch batch(write->input_type());
  std::vector<Value> row = {Value::Int64(id), Value::String(v)};
  while (row.size() < static_cast<size_t>(batch.schema()->num_fields()))
    row.push_back(Value::Null());
  SLUICE_RETURN_NOT_OK(batch.AppendRow(row));
  SLUICE_RETURN_NOT_OK(write->Write(batch));
  SLUICE_ASSIGN_OR_RETURN(auto messages, write->PrepareCommit(1));
  SLUICE_ASSIGN_OR_RETURN(auto commit, builder.NewCommit());
  return commit->Commit(std::move(messages), 1).status();
}

// The scenario on the server at `uri`; `server` (the in-process one, else null) counts the
// commits it took.
void PypaimonAndSluiceShare(const std::string& uri, const rest::RestCatalogServer* server) {
  auto opened = Catalog::Open({{"metastore", "rest"},
                               {"uri", uri},
                               {"token.provider", "bear"},
                               {"token", test::kAdminToken},
                               {"warehouse", "wh"}});
  ASSERT_OK(opened);
  Catalog sluice = *opened;
  ASSERT_OK(sluice.CreateDatabase("sales"));
  NewTableSpec spec;
  spec.columns = {DataField{0, "id", DataType::BigInt(false), std::nullopt, std::nullopt},
                  DataField{1, "v", DataType::String(), std::nullopt, std::nullopt}};
  spec.primary_keys = {"id"};
  spec.options = {{"bucket", "1"}};
  ASSERT_OK(sluice.CreateTable("sales.orders", spec));
  ASSERT_OK(Write(*sluice.GetTable("sales.orders"), 1, "a"));

  // Sluice's commit went through the server too.
  const int64_t commits =
      server != nullptr ? server->RequestCount(rest::RestOperation::kCommitTable) : 1;
  EXPECT_EQ(commits, 1);
  nlohmann::json shared = RunPypaimon(uri, test::kAdminToken, "share");
  EXPECT_EQ(shared["databases"], nlohmann::json({"sales"}));
  EXPECT_EQ(shared["orders"], nlohmann::json::parse(R"([{"id": 1, "v": "a"}])"));
  EXPECT_EQ(shared["py_tables"], nlohmann::json({"items2"}));
  // pypaimon commits through the server, as Java does.
  if (server != nullptr) {
    EXPECT_EQ(server->RequestCount(rest::RestOperation::kCommitTable), commits + 1);
  }

  EXPECT_EQ(*sluice.ListTables("py"), std::vector<std::string>{"items2"});
  auto items = sluice.GetTable("py.items2");
  ASSERT_OK(items);
  EXPECT_EQ(items->schema_id(), 1);
  EXPECT_EQ(items->row_type()->fields().back().name, "note");
  ASSERT_OK(Write(*items, 11, "sluice"));

  nlohmann::json dropped = RunPypaimon(uri, test::kAdminToken, "drop");
  EXPECT_EQ(dropped["items"], nlohmann::json::parse(
                                  R"([{"id": 10, "v": "py", "note": null},
                                      {"id": 11, "v": "sluice", "note": null}])"));
  EXPECT_EQ(dropped["databases"], nlohmann::json({"sales"}));
  EXPECT_EQ(*sluice.ListDatabases(), std::vector<std::string>{"sales"});

  nlohmann::json refused = RunPypaimon(uri, "not-a-token-0123456789", "refused");
  EXPECT_EQ(refused["refused"], true) << refused.dump();
  EXPECT_NE(refused.value("error", "").find("NotAuthorizedException"), std::string::npos)
      << refused.dump();
}

class RestPypaimonTest : public test::RestServerTest {};

TEST_F(RestPypaimonTest, PypaimonAndSluiceShareTablesThroughTheServer) {
  PypaimonAndSluiceShare(server_->uri(), server_.get());
}

// The same against `sluice serve`'s rest_catalog section, as a deployment runs it.
TEST(RestPypaimonServeTest, PypaimonAndSluiceShareTablesThroughSluiceServe) {
  test::TempDir dir;
  std::ofstream(dir.path() + "/tokens") << test::kAdminToken << "\n";
  std::ofstream(dir.path() + "/sluice.yaml")
      << "rest_catalog:\n  port: 0\n  tokens_file: " << dir.path()
      << "/tokens\n  catalog: {metastore: filesystem, warehouse: " << dir.path() << "/wh}\n";
  test::ServeProcess serve(dir.path() + "/sluice.yaml", dir.path() + "/log");
  const std::string uri = serve.RestCatalogUri();
  ASSERT_FALSE(uri.empty());
  PypaimonAndSluiceShare(uri, nullptr);
  EXPECT_EQ(serve.Stop(SIGTERM, std::chrono::seconds(60)), 0) << serve.Log();
}

}  // namespace
}  // namespace sluice
