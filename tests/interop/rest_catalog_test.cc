// Java's RESTCatalog (paimon-bundle 1.4.2) and Sluice's REST client on one Sluice REST catalog
// server (issue 35), started in process over a filesystem warehouse: each side creates, lists,
// alters, renames and drops what the other sees; Java's commits go through the server's commit
// endpoint (Java's RESTCatalog manages versions), and so do Sluice's; Java's reads find the latest
// snapshot through the server's snapshot endpoint. Rows written by each are read by the other.
// Tokens: a wrong token is refused (Java's NotAuthorizedException), a database-limited token
// lists only its databases. A server with a data token hands it to Java's RESTTokenFileIO.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cli/serve/serve_test_util.h"
#include "interop/interop_harness.h"
#include "sluice/catalog.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/rest/rest_catalog_server.h"
#include "sluice/read_builder.h"
#include "sluice/table_read.h"
#include "sluice/table_scan.h"
#include "sluice/value_json.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice::test {
namespace {

namespace fs = std::filesystem;

constexpr char kToken[] = "interop-rest-0123456789";
constexpr char kSalesToken[] = "interop-sales-0123456789";

// Where the scenario's REST catalog server runs: in this process (RestCatalogServer, whose
// request counts the scenario can check), or as `sluice serve` with a `rest_catalog` section.
enum class RestServerKind { kInProcess, kSluiceServe };

class RestInterop {
 public:
  // `data_token`: the server's data token (none: the server hands out none).
  explicit RestInterop(std::map<std::string, std::string> data_token = {},
                       RestServerKind kind = RestServerKind::kInProcess) {
    std::random_device random;
    // The oracle keeps a catalog per warehouse name: a fresh name per scenario.
    name_ = "rest-" + std::to_string(random()) + std::to_string(random());
    const std::string tokens_text = std::string(kToken) + "\n" + kSalesToken + " databases=sales\n";
    if (kind == RestServerKind::kSluiceServe) {
      ServeRestCatalog(tokens_text, data_token);
      return;
    }
    auto tokens = rest::RestTokens::Parse(tokens_text, "tokens");
    EXPECT_OK(tokens);
    auto backing = CreateCatalog({{"warehouse", warehouse()}});
    EXPECT_OK(backing);
    rest::RestCatalogServerOptions options;
    options.port = 0;
    options.data_token = std::move(data_token);
    // Java's client keeps its connections: the server's stop waits at most this for them.
    options.idle_connection_seconds = 1;
    auto server = rest::RestCatalogServer::Start(*backing, std::move(*tokens), options);
    EXPECT_OK(server);
    server_ = std::move(*server);
    uri_ = server_->uri();
  }

  // A served catalog's service is stopped with SIGTERM and must exit cleanly.
  ~RestInterop() {
    if (serve_ != nullptr) {
      EXPECT_EQ(serve_->Stop(SIGTERM, std::chrono::seconds(60)), 0) << serve_->Log();
    }
  }

  // The in-process server; null when the catalog is served by `sluice serve`.
  const rest::RestCatalogServer* server() const { return server_.get(); }
  const std::string& uri() const { return uri_; }

  std::string warehouse() const { return dir_.path() + "/wh"; }

  // A Java oracle command on this catalog, as `token`.
  nlohmann::json Java(const std::string& cmd, const std::string& token = kToken) const {
    return {{"cmd", cmd},
            {"warehouse", name_ + (token == kToken ? "" : "-" + token)},
            {"catalog_options",
             {{"metastore", "rest"}, {"uri", uri_}, {"token.provider", "bear"}, {"token", token}}}};
  }
  nlohmann::json JavaOp(const std::string& op) const {
    nlohmann::json command = Java("catalog");
    command["op"] = op;
    return command;
  }

  Catalog Sluice() const {
    auto catalog = Catalog::Open({{"metastore", "rest"},
                                  {"uri", uri_},
                                  {"token.provider", "bear"},
                                  {"token", kToken},
                                  {"warehouse", name_}});
    EXPECT_OK(catalog);
    return catalog.ok() ? *catalog : Catalog::Filesystem("/nonexistent");
  }

 private:
  // Starts `sluice serve` on a config whose `rest_catalog` section serves the warehouse.
  void ServeRestCatalog(const std::string& tokens_text,
                        const std::map<std::string, std::string>& data_token) {
    std::ofstream(dir_.path() + "/tokens") << tokens_text;
    std::string yaml = "rest_catalog:\n  port: 0\n  tokens_file: " + dir_.path() +
                       "/tokens\n  catalog: {metastore: filesystem, warehouse: " + warehouse() +
                       "}\n";
    if (!data_token.empty()) {
      yaml += "  data_token:\n";
      for (const auto& [key, value] : data_token) yaml += "    " + key + ": '" + value + "'\n";
    }
    std::ofstream(dir_.path() + "/sluice.yaml") << yaml;
    serve_ = std::make_unique<ServeProcess>(dir_.path() + "/sluice.yaml", dir_.path() + "/log");
    uri_ = serve_->RestCatalogUri();
  }

  TempDir dir_;
  std::string name_;
  std::string uri_;
  std::unique_ptr<rest::RestCatalogServer> server_;
  std::unique_ptr<ServeProcess> serve_;
};

// Answers the oracle's command; fails the test on an error answer.
OracleAnswer CallOk(const nlohmann::json& command) {
  JavaOracle* java = Oracle();
  if (java == nullptr) return {};
  OracleAnswer answer = java->Call(command);
  EXPECT_TRUE(answer.ok()) << command.dump() << ": " << answer.error();
  return answer;
}

std::vector<std::string> Names(const OracleAnswer& answer) {
  std::vector<std::string> names;
  if (answer.head.contains("names")) {
    for (const auto& name : answer.head["names"]) names.push_back(name.get<std::string>());
  }
  return names;
}

// Rows as sorted JSON dumps, from Java's answer lines.
std::vector<std::string> JavaRows(const OracleAnswer& answer) {
  std::vector<std::string> rows;
  for (const std::string& line : answer.rows) rows.push_back(nlohmann::json::parse(line).dump());
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<std::string> SluiceRows(const Table& table) {
  std::vector<std::string> rows;
  auto scan = table.NewReadBuilder().NewScan();
  EXPECT_OK(scan);
  if (!scan.ok()) return rows;
  auto plan = scan->Plan();
  auto read = table.NewReadBuilder().NewRead();
  EXPECT_OK(plan);
  EXPECT_OK(read);
  if (!plan.ok() || !read.ok()) return rows;
  auto reader = read->CreateReader(std::move(plan->splits));
  EXPECT_OK(reader);
  if (!reader.ok()) return rows;
  ColumnBatch batch((*reader)->output_type());
  while (true) {
    auto more = (*reader)->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      rows.push_back(nlohmann::json::parse(ValueToJson(batch.GetRow(r), *batch.schema())).dump());
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

Status SluiceWrite(const Table& table, const std::vector<std::pair<int64_t, std::string>>& rows) {
  WriteBuilder builder = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(auto write, builder.NewWrite());
  ColumnBatch batch(write->input_type());
  for (const auto& [id, v] : rows) {
    std::vector<Value> values = {Value::Int64(id), Value::String(v)};
    while (values.size() < static_cast<size_t>(batch.schema()->num_fields())) {
      values.push_back(Value::Null());
    }
    SLUICE_RETURN_NOT_OK(batch.AppendRow(values));
  }
  SLUICE_RETURN_NOT_OK(write->Write(batch));
  SLUICE_ASSIGN_OR_RETURN(auto messages, write->PrepareCommit(1));
  SLUICE_ASSIGN_OR_RETURN(auto commit, builder.NewCommit());
  return commit->Commit(std::move(messages), 1).status();
}

std::string Row(int64_t id, const char* v) { return nlohmann::json{{"id", id}, {"v", v}}.dump(); }

// Java and Sluice each create, list, alter, write, read, rename and drop through the server.
void JavaAndSluiceShareTheRestCatalog(const RestInterop& rest) {
  Counts().scenarios++;
  if (Oracle() == nullptr) return;

  // Java creates a database and a primary-key table, and commits through the server.
  nlohmann::json create = rest.JavaOp("create_database");
  create["database"] = "jdb";
  CallOk(create);
  nlohmann::json table = rest.Java("create_table");
  table["table"] = "jdb.orders";
  table["fields"] = {{{"name", "id"}, {"type", "BIGINT NOT NULL"}},
                     {{"name", "v"}, {"type", "STRING"}}};
  table["primary_keys"] = {"id"};
  table["options"] = {{"bucket", "2"}};
  CallOk(table);
  nlohmann::json write = rest.Java("write");
  write["table"] = "jdb.orders";
  write["rows"] = {{{"id", 1}, {"v", "a"}}, {{"id", 2}, {"v", "b"}}};
  CallOk(write);
  EXPECT_TRUE(fs::exists(rest.warehouse() + "/jdb.db/orders/snapshot/snapshot-1"));
  if (rest.server() != nullptr) {
    EXPECT_EQ(rest.server()->RequestCount(rest::RestOperation::kCommitTable), 1);
  }

  // Sluice sees and reads it, then writes to it.
  Catalog sluice = rest.Sluice();
  EXPECT_EQ(*sluice.ListDatabases(), std::vector<std::string>{"jdb"});
  EXPECT_EQ(*sluice.ListTables("jdb"), std::vector<std::string>{"orders"});
  auto orders = sluice.GetTable("jdb.orders");
  ASSERT_OK(orders);
  EXPECT_EQ(SluiceRows(*orders), (std::vector<std::string>{Row(1, "a"), Row(2, "b")}));
  ASSERT_OK(SluiceWrite(*orders, {{2, "b2"}, {3, "c"}}));
  // Sluice's commit goes through the server as well.
  if (rest.server() != nullptr) {
    EXPECT_EQ(rest.server()->RequestCount(rest::RestOperation::kCommitTable), 2);
  }

  // Java reads Sluice's commit (its latest snapshot comes from the server).
  nlohmann::json read = rest.Java("read");
  read["table"] = "jdb.orders";
  const std::vector<std::string> expected = {Row(1, "a"), Row(2, "b2"), Row(3, "c")};
  EXPECT_EQ(JavaRows(CallOk(read)), expected);
  Counts().reads_compared++;

  // Java alters; Sluice sees the new schema. Sluice creates a table; Java lists and writes it.
  nlohmann::json alter = rest.JavaOp("alter_table");
  alter["table"] = "jdb.orders";
  alter["changes"] = {{{"add_column", "note"}, {"type", "STRING"}},
                      {{"set_option", "snapshot.num-retained.max"}, {"value", "20"}}};
  CallOk(alter);
  auto altered = sluice.GetTable("jdb.orders");
  ASSERT_OK(altered);
  EXPECT_EQ(altered->schema_id(), 1);
  EXPECT_EQ(altered->row_type()->fields().back().name, "note");

  ASSERT_OK(sluice.CreateDatabase("sdb"));
  NewTableSpec spec;
  spec.columns = {DataField{0, "id", DataType::BigInt(), std::nullopt, std::nullopt},
                  DataField{1, "v", DataType::String(), std::nullopt, std::nullopt}};
  ASSERT_OK(sluice.CreateTable("sdb.items", spec));
  nlohmann::json list = rest.JavaOp("list_databases");
  EXPECT_EQ(Names(CallOk(list)), (std::vector<std::string>{"jdb", "sdb"}));
  nlohmann::json tables = rest.JavaOp("list_tables");
  tables["database"] = "sdb";
  EXPECT_EQ(Names(CallOk(tables)), std::vector<std::string>{"items"});
  nlohmann::json get = rest.JavaOp("get_table");
  get["table"] = "sdb.items";
  OracleAnswer got = CallOk(get);
  EXPECT_EQ(got.head.value("path", ""), rest.warehouse() + "/sdb.db/items");
  nlohmann::json items = rest.Java("write");
  items["table"] = "sdb.items";
  items["rows"] = {{{"id", 7}, {"v", "java"}}};
  CallOk(items);
  ASSERT_OK(SluiceWrite(*sluice.GetTable("sdb.items"), {{8, "sluice"}}));
  nlohmann::json read_items = rest.Java("read");
  read_items["table"] = "sdb.items";
  const std::vector<std::string> both = {Row(7, "java"), Row(8, "sluice")};
  EXPECT_EQ(JavaRows(CallOk(read_items)), both);
  EXPECT_EQ(SluiceRows(*sluice.GetTable("sdb.items")), both);
  Counts().reads_compared += 2;

  // Java renames; Sluice reads the renamed table. Java drops; Sluice no longer lists.
  nlohmann::json rename = rest.JavaOp("rename_table");
  rename["table"] = "jdb.orders";
  rename["to"] = "jdb.orders2";
  CallOk(rename);
  EXPECT_EQ(*sluice.ListTables("jdb"), std::vector<std::string>{"orders2"});
  auto renamed = sluice.GetTable("jdb.orders2");
  ASSERT_OK(renamed);
  EXPECT_EQ(SluiceRows(*renamed).size(), 3u);
  nlohmann::json drop = rest.JavaOp("drop_table");
  drop["table"] = "jdb.orders2";
  CallOk(drop);
  EXPECT_EQ(*sluice.ListTables("jdb"), std::vector<std::string>{});
  nlohmann::json drop_db = rest.JavaOp("drop_database");
  drop_db["database"] = "jdb";
  CallOk(drop_db);
  // Sluice renames and drops; Java sees it.
  ASSERT_OK(sluice.RenameTable("sdb.items", "sdb.items2"));
  EXPECT_EQ(Names(CallOk(tables)), std::vector<std::string>{"items2"});
  ASSERT_OK(sluice.DropTable("sdb.items2"));
  EXPECT_EQ(Names(CallOk(tables)), std::vector<std::string>{});
  EXPECT_EQ(Names(CallOk(list)), std::vector<std::string>{"sdb"});
}

TEST(Interop, RestCatalogJavaAndSluiceOnSluicesServer) {
  JavaAndSluiceShareTheRestCatalog(RestInterop());
}

// The same through `sluice serve`'s rest_catalog section, as a deployment runs it.
TEST(Interop, RestCatalogJavaAndSluiceOnSluiceServe) {
  JavaAndSluiceShareTheRestCatalog(RestInterop({}, RestServerKind::kSluiceServe));
}

// Java's RESTTokenFileIO on the server's data token: Java asks for it (the server advertises
// data-token.enabled) and writes and reads the table's files with it.
TEST(Interop, RestCatalogDataTokenOpensJavasFiles) {
  Counts().scenarios++;
  RestInterop rest(std::map<std::string, std::string>{{"s3.path.style.access", "true"}});
  if (Oracle() == nullptr) return;
  nlohmann::json table = rest.Java("create_table");
  table["table"] = "tok.t";
  table["fields"] = {{{"name", "id"}, {"type", "BIGINT"}}, {{"name", "v"}, {"type", "STRING"}}};
  CallOk(table);
  nlohmann::json write = rest.Java("write");
  write["table"] = "tok.t";
  write["rows"] = {{{"id", 5}, {"v", "token"}}};
  CallOk(write);
  nlohmann::json read = rest.Java("read");
  read["table"] = "tok.t";
  EXPECT_EQ(JavaRows(CallOk(read)), std::vector<std::string>{Row(5, "token")});
  EXPECT_GE(rest.server()->RequestCount(rest::RestOperation::kLoadTableToken), 1);
  auto sluice = rest.Sluice().GetTable("tok.t");
  ASSERT_OK(sluice);
  EXPECT_EQ(SluiceRows(*sluice), std::vector<std::string>{Row(5, "token")});
  Counts().reads_compared++;
}

TEST(Interop, RestCatalogRefusesJavaWithoutAValidToken) {
  Counts().scenarios++;
  RestInterop rest;
  JavaOracle* java = Oracle();
  if (java == nullptr) return;
  Catalog sluice = rest.Sluice();
  ASSERT_OK(sluice.CreateDatabase("sales"));
  ASSERT_OK(sluice.CreateDatabase("hr"));
  nlohmann::json wrong = rest.Java("catalog", "wrong-token-0123456789");
  wrong["op"] = "list_databases";
  OracleAnswer refused = java->Call(wrong);
  EXPECT_NE(refused.error().find("NotAuthorized"), std::string::npos) << refused.error();
  nlohmann::json sales = rest.Java("catalog", kSalesToken);
  sales["op"] = "list_databases";
  EXPECT_EQ(Names(CallOk(sales)), std::vector<std::string>{"sales"});
  sales["op"] = "list_tables";
  sales["database"] = "hr";
  OracleAnswer forbidden = java->Call(sales);
  EXPECT_NE(forbidden.error().find("NoPermission"), std::string::npos) << forbidden.error();
}

}  // namespace
}  // namespace sluice::test
