// Sluice's REST catalog client against Sluice's REST catalog server, in process: databases and
// tables created, listed (paged), altered, renamed and dropped through the public Catalog with
// `metastore = rest`; rows written and read through tables the server hands out; the config,
// snapshot and commit endpoints as Java's RESTCatalog uses them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "api/api_test_util.h"
#include "rest_test_util.h"
#include "sluice/base/json_reader.h"
#include "sluice/write_builder.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

DataField Column(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

NewTableSpec OrdersSpec() {
  NewTableSpec spec;
  spec.columns = {Column(0, "id", DataType::BigInt(false)), Column(1, "v", DataType::String())};
  spec.primary_keys = {"id"};
  spec.options = {{"bucket", "2"}};
  spec.comment = "orders";
  return spec;
}

ColumnBatch Rows(const DataTypePtr& type,
                 const std::vector<std::pair<int64_t, const char*>>& rows) {
  ColumnBatch batch(type);
  for (const auto& [id, v] : rows) {
    EXPECT_OK(batch.AppendRow({Value::Int64(id), Value::String(v)}));
  }
  return batch;
}

Status WriteRows(const Table& table, const std::vector<std::pair<int64_t, const char*>>& rows,
                 int64_t identifier) {
  WriteBuilder builder = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(auto write, builder.NewWrite());
  SLUICE_RETURN_NOT_OK(write->Write(Rows(write->input_type(), rows)));
  SLUICE_ASSIGN_OR_RETURN(auto messages, write->PrepareCommit(identifier));
  SLUICE_ASSIGN_OR_RETURN(auto commit, builder.NewCommit());
  return commit->Commit(std::move(messages), identifier).status();
}

Json ParsedBody(const rest::RestHttpResponse& response) {
  auto json = ParseJson(response.body);
  EXPECT_OK(json);
  return json.ok() ? *json : Json();
}

class RestCatalogTest : public test::RestServerTest {};

TEST_F(RestCatalogTest, DatabasesAndTablesThroughTheServer) {
  Catalog client = Client();
  ASSERT_OK(client.CreateDatabase("sales"));
  ASSERT_OK(client.CreateDatabase("hr"));
  EXPECT_TRUE(fs::is_directory(warehouse() + "/sales.db"));
  EXPECT_TRUE(test::HasError(client.CreateDatabase("sales"), StatusCode::kAlreadyExists,
                             {"database 'sales' already exists"}));
  EXPECT_OK(client.CreateDatabase("sales", /*ignore_if_exists=*/true));
  EXPECT_EQ(*client.ListDatabases(), (std::vector<std::string>{"hr", "sales"}));

  ASSERT_OK(client.CreateTable("sales.orders", OrdersSpec()));
  EXPECT_TRUE(test::HasError(client.CreateTable("sales.orders", OrdersSpec()),
                             StatusCode::kAlreadyExists, {"sales.orders already exists"}));
  EXPECT_TRUE(test::HasError(client.CreateTable("nope.orders", OrdersSpec()), StatusCode::kNotFound,
                             {"database 'nope' does not exist"}));
  EXPECT_EQ(*client.ListTables("sales"), std::vector<std::string>{"orders"});
  auto table = client.GetTable("sales.orders");
  ASSERT_OK(table);
  EXPECT_EQ(table->path(), warehouse() + "/sales.db/orders");
  EXPECT_EQ(table->primary_keys(), std::vector<std::string>{"id"});
  EXPECT_EQ(table->comment(), "orders");

  auto altered = client.AlterTable("sales.orders",
                                   {SchemaChange::AddColumn({"note"}, DataType::String(), "a note"),
                                    SchemaChange::SetOption("snapshot.num-retained.max", "50")});
  ASSERT_OK(altered);
  EXPECT_EQ(altered->schema_id(), 1);
  EXPECT_EQ(altered->row_type()->fields().back().name, "note");
  EXPECT_TRUE(test::HasError(
      client.AlterTable("sales.orders", {SchemaChange::DropColumn({"missing"})}).status(),
      StatusCode::kNotFound, {"missing"}));
  EXPECT_TRUE(test::HasError(client.AlterTable("sales.gone", {}).status(), StatusCode::kNotFound,
                             {"sales.gone"}));

  ASSERT_OK(client.RenameTable("sales.orders", "hr.orders2"));
  EXPECT_EQ(*client.ListTables("sales"), std::vector<std::string>{});
  EXPECT_EQ(*client.ListTables("hr"), std::vector<std::string>{"orders2"});
  EXPECT_TRUE(fs::is_directory(warehouse() + "/hr.db/orders2/schema"));
  EXPECT_TRUE(test::HasError(client.RenameTable("sales.orders", "hr.x"), StatusCode::kNotFound,
                             {"sales.orders"}));
  EXPECT_OK(client.RenameTable("sales.orders", "hr.x", /*ignore_if_not_exists=*/true));

  EXPECT_TRUE(test::HasError(client.DropDatabase("hr"), StatusCode::kInvalidArgument,
                             {"not empty", "orders2"}));
  ASSERT_OK(client.DropTable("hr.orders2"));
  EXPECT_TRUE(
      test::HasError(client.DropTable("hr.orders2"), StatusCode::kNotFound, {"hr.orders2"}));
  EXPECT_OK(client.DropTable("hr.orders2", /*ignore_if_not_exists=*/true));
  ASSERT_OK(client.DropDatabase("hr"));
  ASSERT_OK(client.DropDatabase("sales", false, /*cascade=*/true));
  EXPECT_EQ(*client.ListDatabases(), std::vector<std::string>{});
  EXPECT_TRUE(test::HasError(client.DropDatabase("sales"), StatusCode::kNotFound, {"sales"}));
  EXPECT_OK(client.DropDatabase("sales", /*ignore_if_not_exists=*/true));
}

TEST_F(RestCatalogTest, RowsWrittenThroughTheClientReadBackAndLandInTheWarehouse) {
  Catalog client = Client();
  ASSERT_OK(client.CreateDatabase("sales"));
  ASSERT_OK(client.CreateTable("sales.orders", OrdersSpec()));
  auto table = client.GetTable("sales.orders");
  ASSERT_OK(table);
  ASSERT_OK(WriteRows(*table, {{1, "a"}, {2, "b"}}, 1));
  ASSERT_OK(WriteRows(*table, {{2, "b2"}, {3, "c"}}, 2));

  // Read back through the server, and straight from the warehouse.
  for (const Catalog& reader : {Client(), Catalog::Filesystem(warehouse())}) {
    auto loaded = reader.GetTable("sales.orders");
    ASSERT_OK(loaded);
    auto rows = test::SortedJsonRows(loaded->NewReadBuilder());
    ASSERT_OK(rows);
    EXPECT_EQ(*rows, (std::vector<std::string>{R"({"id": 1, "v": "a"})", R"({"id": 2, "v": "b2"})",
                                               R"({"id": 3, "v": "c"})"}));
  }
  EXPECT_EQ(client.GetTable("sales.orders")->Snapshots()->size(), 2u);
  // Both commits went through the server, as Java's do.
  EXPECT_EQ(server_->RequestCount(rest::RestOperation::kCommitTable), 2);
}

TEST_F(RestCatalogTest, ATableDroppedAndCreatedAgainRefusesAnOldHandlesCommit) {
  Catalog client = Client();
  ASSERT_OK(client.CreateDatabase("sales"));
  // The committer takes a refusal for an outcome it cannot know, and retries: once, quickly.
  NewTableSpec spec = OrdersSpec();
  spec.options.push_back({"commit.max-retries", "1"});
  spec.options.push_back({"commit.max-retry-wait", "10 ms"});
  ASSERT_OK(client.CreateTable("sales.orders", spec));
  auto old_handle = client.GetTable("sales.orders");
  ASSERT_OK(old_handle);
  ASSERT_OK(client.DropTable("sales.orders"));
  // Another creation millisecond: the new incarnation's id differs.
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_OK(client.CreateTable("sales.orders", spec));
  Status stale = WriteRows(*old_handle, {{1, "stale"}}, 1);
  EXPECT_TRUE(test::HasError(stale, StatusCode::kConflict,
                             {"is not the table of id", "dropped and created again"}));
  auto rows = test::SortedJsonRows(client.GetTable("sales.orders")->NewReadBuilder());
  ASSERT_OK(rows);
  EXPECT_TRUE(rows->empty());
  ASSERT_OK(WriteRows(*client.GetTable("sales.orders"), {{2, "fresh"}}, 1));
}

TEST_F(RestCatalogTest, TheServersDataTokenOpensTheTablesFiles) {
  // Without a data token the server does not advertise one, and its endpoint is 501.
  Catalog client = Client();
  ASSERT_OK(client.CreateDatabase("sales"));
  ASSERT_OK(client.CreateTable("sales.orders", OrdersSpec()));
  EXPECT_FALSE(ParsedBody(Raw("GET", "/v1/config"))["defaults"].contains("data-token.enabled"));
  EXPECT_EQ(Raw("GET", Api("/databases/sales/tables/orders/token")).status, 501);
  const int64_t asked = server_->RequestCount(rest::RestOperation::kLoadTableToken);
  ASSERT_OK(client.GetTable("sales.orders"));
  EXPECT_EQ(server_->RequestCount(rest::RestOperation::kLoadTableToken), asked);

  // With one (a local warehouse's files open with any options; an object store's with these).
  StartServer({}, {{"s3.path.style.access", "true"}});
  Json config = ParsedBody(Raw("GET", "/v1/config"));
  EXPECT_EQ(config["defaults"]["data-token.enabled"], "true");
  Json token = ParsedBody(Raw("GET", Api("/databases/sales/tables/orders/token")));
  EXPECT_EQ(token["token"], Json::parse(R"({"s3.path.style.access": "true"})"));
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  EXPECT_GT(token["expiresAtMillis"].get<int64_t>(), now + 3600 * 1000);
  EXPECT_EQ(Raw("GET", Api("/databases/sales/tables/none/token")).status, 404);
  EXPECT_EQ(Raw("GET", Api("/databases/sales/tables/orders/token"), "", test::kSalesToken).status,
            200);
  EXPECT_EQ(Raw("GET", Api("/databases/hr/tables/orders/token"), "", test::kSalesToken).status,
            403);
  // Sluice's client asks for the token as it loads the table, and writes with it.
  Catalog with_token = Client();
  const int64_t before = server_->RequestCount(rest::RestOperation::kLoadTableToken);
  auto table = with_token.GetTable("sales.orders");
  ASSERT_OK(table);
  EXPECT_EQ(server_->RequestCount(rest::RestOperation::kLoadTableToken), before + 1);
  ASSERT_OK(WriteRows(*table, {{1, "a"}}, 1));
}

TEST_F(RestCatalogTest, ListsArePagedAndTheClientFollowsThePages) {
  rest::RestLimits limits;
  limits.max_page_size = 2;
  StartServer(limits);
  Catalog client = Client();
  for (const char* name : {"d1", "d2", "d3", "d4", "d5"}) ASSERT_OK(client.CreateDatabase(name));
  for (const char* name : {"t1", "t2", "t3"}) {
    ASSERT_OK(client.CreateTable(std::string("d1.") + name, OrdersSpec()));
  }
  EXPECT_EQ(*client.ListDatabases(), (std::vector<std::string>{"d1", "d2", "d3", "d4", "d5"}));
  EXPECT_EQ(*client.ListTables("d1"), (std::vector<std::string>{"t1", "t2", "t3"}));

  Json first = ParsedBody(Raw("GET", Api("/databases?maxResults=2")));
  EXPECT_EQ(first["databases"], Json(std::vector<std::string>{"d1", "d2"}));
  EXPECT_EQ(first["nextPageToken"], "d2");
  Json next = ParsedBody(Raw("GET", Api("/databases?maxResults=2&pageToken=d2")));
  EXPECT_EQ(next["databases"], Json(std::vector<std::string>{"d3", "d4"}));
  Json last = ParsedBody(Raw("GET", Api("/databases?pageToken=d4")));
  EXPECT_EQ(last["databases"], Json(std::vector<std::string>{"d5"}));
  EXPECT_TRUE(last["nextPageToken"].is_null());
}

TEST_F(RestCatalogTest, ConfigTableSnapshotAndCommitAnswerAsJavasClientExpects) {
  Json config = ParsedBody(Raw("GET", "/v1/config?warehouse=wh"));
  EXPECT_EQ(config["defaults"]["prefix"], test::kPrefix);

  Catalog client = Client();
  ASSERT_OK(client.CreateDatabase("sales"));
  ASSERT_OK(client.CreateTable("sales.orders", OrdersSpec()));
  Json table = ParsedBody(Raw("GET", Api("/databases/sales/tables/orders")));
  EXPECT_EQ(table["name"], "orders");
  EXPECT_EQ(table["path"], warehouse() + "/sales.db/orders");
  EXPECT_EQ(table["schemaId"], 0);
  EXPECT_EQ(table["isExternal"], false);
  EXPECT_EQ(table["schema"]["primaryKeys"], Json(std::vector<std::string>{"id"}));
  EXPECT_EQ(table["schema"]["fields"][0]["type"], "BIGINT NOT NULL");
  const std::string id = table["id"].get<std::string>();
  EXPECT_TRUE(id.starts_with("sales.orders.")) << id;

  auto no_snapshot = Raw("GET", Api("/databases/sales/tables/orders/snapshot"));
  EXPECT_EQ(no_snapshot.status, 404);
  EXPECT_EQ(ParsedBody(no_snapshot)["resourceType"], "SNAPSHOT");

  ASSERT_OK(WriteRows(*client.GetTable("sales.orders"), {{1, "a"}}, 1));
  Json latest = ParsedBody(Raw("GET", Api("/databases/sales/tables/orders/snapshot")));
  Json snapshot = latest["snapshot"]["snapshot"];
  EXPECT_EQ(snapshot["id"], 1);
  EXPECT_EQ(latest["snapshot"]["recordCount"], 1);

  // A commit of a taken id fails without error; the next id lands as snapshot-2.
  Json commit = Json::object();
  commit["tableId"] = id;
  commit["snapshot"] = snapshot;
  commit["statistics"] = Json::array();
  auto taken = Raw("POST", Api("/databases/sales/tables/orders/commit"), commit.dump());
  EXPECT_EQ(taken.status, 200);
  EXPECT_EQ(ParsedBody(taken)["success"], false);
  commit["snapshot"]["id"] = 2;
  auto landed = Raw("POST", Api("/databases/sales/tables/orders/commit"), commit.dump());
  EXPECT_EQ(ParsedBody(landed)["success"], true) << landed.body;
  EXPECT_TRUE(fs::exists(warehouse() + "/sales.db/orders/snapshot/snapshot-2"));
  EXPECT_EQ(
      ParsedBody(
          Raw("GET", Api("/databases/sales/tables/orders/snapshot")))["snapshot"]["snapshot"]["id"],
      2);
  // The id of another incarnation of the table is refused.
  commit["tableId"] = "sales.orders.1";
  commit["snapshot"]["id"] = 3;
  auto stale = Raw("POST", Api("/databases/sales/tables/orders/commit"), commit.dump());
  EXPECT_EQ(stale.status, 404);
  EXPECT_FALSE(fs::exists(warehouse() + "/sales.db/orders/snapshot/snapshot-3"));

  // The filesystem catalog keeps no database properties: Java's behaviour.
  Json db = ParsedBody(Raw("GET", Api("/databases/sales")));
  EXPECT_EQ(db["location"], warehouse() + "/sales.db");
  EXPECT_EQ(Raw("POST", Api("/databases/sales"), R"({"removals":[],"updates":{"a":"b"}})").status,
            501);
  // Views and functions: none.
  EXPECT_EQ(ParsedBody(Raw("GET", Api("/databases/sales/views")))["views"], Json::array());
  EXPECT_EQ(Raw("GET", Api("/databases/sales/tables/orders/branches")).status, 501);
}

TEST_F(RestCatalogTest, ConcurrentClientsRaceAndExactlyOneWins) {
  Catalog client = Client();
  ASSERT_OK(client.CreateDatabase("sales"));
  constexpr int kClients = 8;
  // Eight clients create the same table at once: one creates it, the others are told it exists.
  std::atomic<int> created{0};
  std::atomic<int> exists{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&] {
      Status status = Client().CreateTable("sales.orders", OrdersSpec());
      if (status.ok()) created++;
      if (status.IsAlreadyExists()) exists++;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(created.load(), 1);
  EXPECT_EQ(exists.load(), kClients - 1);

  // Eight commits of the same next snapshot through the server: exactly one lands.
  ASSERT_OK(WriteRows(*client.GetTable("sales.orders"), {{1, "a"}}, 1));
  Json latest = ParsedBody(Raw("GET", Api("/databases/sales/tables/orders/snapshot")));
  Json commit = Json::object();
  commit["snapshot"] = latest["snapshot"]["snapshot"];
  commit["snapshot"]["id"] = 2;
  const std::string body = commit.dump();
  std::atomic<int> landed{0};
  std::atomic<int> lost{0};
  threads.clear();
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&] {
      rest::RestHttpClient http(server_->uri(),
                                {std::string("Authorization: Bearer ") + test::kAdminToken});
      auto response = http.Send("POST", Api("/databases/sales/tables/orders/commit"), body);
      if (!response.ok() || response->status != 200) return;
      auto json = ParseJson(response->body);
      if (json.ok() && (*json)["success"] == true) landed++;
      if (json.ok() && (*json)["success"] == false) lost++;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(landed.load(), 1);
  EXPECT_EQ(lost.load(), kClients - 1);
  EXPECT_EQ(client.GetTable("sales.orders")->Snapshots()->size(), 2u);
}

}  // namespace
}  // namespace sluice
