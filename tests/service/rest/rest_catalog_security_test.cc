// The REST catalog server's refusals: requests without a valid bearer token (401, nothing done),
// tokens limited to databases (the others are 403 and unlisted), names that could reach outside
// the warehouse ('..', '/', '\', NUL, hidden or over-long names: 4xx naming the field, nothing
// created), and bodies over the size limit, too deep, malformed or with fields of the wrong type
// (4xx naming the field). Every error is Java's ErrorResponse JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "rest_test_util.h"
#include "sluice/base/json_reader.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr char kTable[] =
    R"({"identifier":{"database":"sales","object":"%s"},"schema":{"fields":[{"id":0,"name":"id",)"
    R"("type":"BIGINT"}],"partitionKeys":[],"primaryKeys":[],"options":%s,"comment":null}})";

std::string TableBody(const std::string& object, const std::string& options = "{}") {
  std::string body = kTable;
  body.replace(body.find("%s"), 2, object);
  body.replace(body.find("%s"), 2, options);
  return body;
}

NewTableSpec OneColumn() {
  NewTableSpec spec;
  spec.columns = {DataField{0, "id", DataType::BigInt(), std::nullopt, std::nullopt}};
  return spec;
}

class RestSecurityTest : public test::RestServerTest {
 protected:
  void SetUp() override {
    RestServerTest::SetUp();
    ASSERT_OK(Client().CreateDatabase("sales"));
    ASSERT_OK(Client().CreateDatabase("hr"));
  }

  // Every path under the scratch directory (the warehouse and beside it).
  std::set<std::string> Tree() const {
    std::set<std::string> paths;
    for (const auto& entry : fs::recursive_directory_iterator(dir_.path())) {
      paths.insert(entry.path().string());
    }
    return paths;
  }

  // Expects `response` to be Java's ErrorResponse with `code` and a message holding `words`.
  static void ExpectError(const rest::RestHttpResponse& response, int code,
                          const std::vector<std::string>& words) {
    EXPECT_EQ(response.status, code) << response.body;
    auto json = ParseJson(response.body);
    ASSERT_OK(json);
    EXPECT_EQ((*json)["code"], code);
    ASSERT_TRUE((*json)["message"].is_string()) << response.body;
    const std::string message = (*json)["message"].get<std::string>();
    for (const std::string& word : words) {
      EXPECT_NE(message.find(word), std::string::npos) << message << " lacks " << word;
    }
  }
};

TEST_F(RestSecurityTest, RequestsWithoutAValidTokenAreRefusedAndDoNothing) {
  const std::set<std::string> before = Tree();
  const std::vector<std::pair<std::string, std::string>> calls = {
      {"GET", "/v1/config"},
      {"GET", Api("/databases")},
      {"POST", Api("/databases")},
      {"GET", Api("/databases/sales")},
      {"DELETE", Api("/databases/sales")},
      {"POST", Api("/databases/sales/tables")},
      {"DELETE", Api("/databases/sales/tables/t")},
      {"POST", Api("/tables/rename")},
      {"GET", "/nowhere"},
  };
  for (const std::string& token : {std::string(), std::string("wrong-0123456789abcdef"),
                                   std::string(test::kAdminToken) + "x"}) {
    for (const auto& [method, path] : calls) {
      SCOPED_TRACE(method + " " + path + " token '" + token + "'");
      ExpectError(Raw(method, path, R"({"name":"evil"})", token), 401, {"Bearer"});
    }
  }
  // Another scheme with the right token is no bearer token.
  rest::RestHttpClient basic(server_->uri(),
                             {"Authorization: Basic " + std::string(test::kAdminToken)});
  EXPECT_EQ(basic.Send("GET", Api("/databases"), "")->status, 401);
  EXPECT_EQ(Tree(), before);
  // Sluice's client refuses to start without a token it can send.
  auto options = ClientOptions(test::kAdminToken);
  options.erase("token");
  EXPECT_TRUE(
      test::HasError(Catalog::Open(options).status(), StatusCode::kInvalidArgument, {"'token'"}));
  EXPECT_TRUE(test::HasError(Catalog::Open(ClientOptions("wrong-0123456789abcdef")).status(),
                             StatusCode::kIOError, {"401"}));
}

TEST_F(RestSecurityTest, ATokenLimitedToDatabasesSeesOnlyThose) {
  Catalog sales = Client(test::kSalesToken);
  EXPECT_EQ(*sales.ListDatabases(), std::vector<std::string>{"sales"});
  ASSERT_OK(sales.CreateTable("sales.orders", OneColumn()));
  EXPECT_TRUE(test::HasError(sales.ListTables("hr").status(), StatusCode::kIOError, {"403"}));
  EXPECT_TRUE(test::HasError(sales.CreateDatabase("finance"), StatusCode::kIOError, {"403"}));
  EXPECT_TRUE(test::HasError(sales.RenameTable("sales.orders", "hr.orders"), StatusCode::kIOError,
                             {"403"}));
  EXPECT_TRUE(test::HasError(sales.DropDatabase("hr", false, true), StatusCode::kIOError, {"403"}));
  const std::set<std::string> before = Tree();
  for (const auto& [method, path, body] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"GET", Api("/databases/hr"), ""},
           {"DELETE", Api("/databases/hr"), ""},
           {"GET", Api("/databases/hr/tables"), ""},
           {"POST", Api("/databases/hr/tables"),
            R"({"identifier":{"database":"hr","object":"t"},"schema":{"fields":[{"id":0,)"
            R"("name":"id","type":"INT"}]}})"},
           {"GET", Api("/databases/hr/tables/t"), ""},
           {"GET", Api("/databases/hr/tables/t/branches"), ""},
           {"POST", Api("/databases"), R"({"name":"finance","options":{}})"},
           {"POST", Api("/tables/rename"),
            R"({"source":{"database":"sales","object":"orders"},)"
            R"("destination":{"database":"hr","object":"orders"}})"},
       }) {
    SCOPED_TRACE(method + " " + path);
    auto response = Raw(method, path, body, test::kSalesToken);
    ExpectError(response, 403, {});
    EXPECT_EQ(ParseJson(response.body)->at("resourceType"), "DATABASE");
  }
  EXPECT_EQ(Tree(), before);
  // The admin token sees both.
  EXPECT_EQ(*Client().ListDatabases(), (std::vector<std::string>{"hr", "sales"}));
}

TEST_F(RestSecurityTest, NamesThatCouldLeaveTheWarehouseAreRefusedAndCreateNothing) {
  const std::set<std::string> before = Tree();
  const std::string long_name(300, 'a');
  struct Case {
    std::string name_json;  // as written in a JSON body
    std::string reason;
  };
  const std::vector<Case> names = {
      {"..", "'..'"},           {"../escape", "'/'"},          {"a/b", "'/'"},
      {"a\\\\b", "'\\'"},       {"a\\u0000b", "control"},      {".hidden", "starts with '.'"},
      {"x..y", "'..'"},         {long_name, "over the limit"}, {"", "empty"},
      {"tab\\tname", "control"}};
  for (const Case& c : names) {
    SCOPED_TRACE(c.name_json);
    ExpectError(Raw("POST", Api("/databases"), R"({"name":")" + c.name_json + R"("})"), 400,
                {"field 'name'", c.reason});
    ExpectError(Raw("POST", Api("/databases/sales/tables"), TableBody(c.name_json)), 400,
                {"field 'identifier.object'", c.reason});
    ExpectError(Raw("POST", Api("/tables/rename"),
                    R"({"source":{"database":"sales","object":"t"},"destination":{"database":")" +
                        c.name_json + R"(","object":"t"}})"),
                400, {"field 'destination.database'", c.reason});
  }
  // In the path, encoded as Java encodes names.
  for (const std::string& segment :
       {std::string(".."), std::string("%2E%2E"), std::string("..%2Fescape"), std::string("a%2Fb"),
        std::string("a%00b"), std::string("a%5Cb"), long_name}) {
    SCOPED_TRACE(segment);
    ExpectError(Raw("GET", Api("/databases/" + segment)), 400, {"field 'database'"});
    ExpectError(Raw("DELETE", Api("/databases/" + segment)), 400, {"field 'database'"});
    ExpectError(Raw("DELETE", Api("/databases/sales/tables/" + segment)), 400, {"field 'table'"});
    ExpectError(Raw("POST", Api("/databases/" + segment + "/tables"), TableBody("t")), 400,
                {"field 'database'"});
  }
  // A branch name is a folder name too; system tables are not served.
  ExpectError(Raw("GET", Api("/databases/sales/tables/t%24branch_..")), 400, {"field 'branch'"});
  ExpectError(Raw("GET", Api("/databases/sales/tables/t%24snapshots")), 400, {"system table"});
  ExpectError(Raw("POST", Api("/databases/sales/tables"), TableBody("t$snapshots")), 400,
              {"identifier.object"});
  // Options that would put files outside the warehouse.
  ExpectError(Raw("POST", Api("/databases/sales/tables"), TableBody("t", R"({"path":"/tmp/x"})")),
              400, {"schema.options.path"});
  ExpectError(Raw("POST", Api("/databases/sales/tables"),
                  TableBody("t", R"({"data-file.external-paths":"file:///tmp/x"})")),
              400, {"schema.options.data-file.external-paths"});
  ExpectError(Raw("POST", Api("/databases"), R"({"name":"x","options":{"location":"/tmp"}})"), 400,
              {"options.location"});
  EXPECT_EQ(Tree(), before);
  // Sluice's client sends names encoded: the server, not the URL, refuses them.
  EXPECT_TRUE(test::HasError(Client().ListTables("../sales").status(), StatusCode::kInvalidArgument,
                             {"field 'database'", "'/'"}));
}

TEST_F(RestSecurityTest, TheTokensFileIsChecked) {
  auto tokens = rest::RestTokens::Parse("# comment\n\nlong-enough-token-1\n", "f");
  ASSERT_OK(tokens);
  EXPECT_TRUE(tokens->Find("Bearer long-enough-token-1").has_value());
  EXPECT_FALSE(tokens->Find("Bearer long-enough-token-").has_value());
  EXPECT_FALSE(tokens->Find("long-enough-token-1").has_value());
  EXPECT_TRUE(test::HasError(rest::RestTokens::Parse("short\n", "f").status(),
                             StatusCode::kInvalidArgument, {"f:1", "at least 16"}));
  EXPECT_TRUE(test::HasError(
      rest::RestTokens::Parse("long-enough-token-1\nlong-enough-token-1\n", "f").status(),
      StatusCode::kInvalidArgument, {"f:2", "twice"}));
  EXPECT_TRUE(
      test::HasError(rest::RestTokens::Parse("long-enough-token-1 tables=a\n", "f").status(),
                     StatusCode::kInvalidArgument, {"f:1", "databases="}));
  EXPECT_TRUE(
      test::HasError(rest::RestTokens::Parse("long-enough-token-1 databases=\n", "f").status(),
                     StatusCode::kInvalidArgument, {"lists no database"}));
  EXPECT_TRUE(test::HasError(rest::RestTokens::Load(dir_.path() + "/none").status(),
                             StatusCode::kIOError, {"tokens file"}));
}

TEST_F(RestSecurityTest, BodiesAreLimitedAndCheckedFieldByField) {
  rest::RestLimits limits;
  limits.max_body_bytes = 4096;
  StartServer(limits);
  const std::set<std::string> before = Tree();
  const std::string big = R"({"name":"big","options":{"k":")" + std::string(5000, 'x') + R"("}})";
  ExpectError(Raw("POST", Api("/databases"), big), 413, {"limit"});
  // A chunked body (no Content-Length) is refused before it is read.
  rest::RestHttpClient chunked(
      server_->uri(),
      {std::string("Authorization: Bearer ") + test::kAdminToken, "Transfer-Encoding: chunked"});
  auto refused = chunked.Send("POST", Api("/databases"), R"({"name":"chunked"})");
  ASSERT_OK(refused);
  ExpectError(*refused, 411, {"Content-Length"});
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "[";
  ExpectError(Raw("POST", Api("/databases"), R"({"name":"d","options":)" + deep + "}"), 400,
              {"nested deeper"});
  for (const auto& [body, words] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"{not json", {"request body", "not valid JSON"}},
           {"[1,2]", {"expected a JSON object"}},
           {R"({"name":5})", {"field 'name'", "expected a string"}},
           {R"({"options":{}})", {"field 'name'", "missing"}},
           {R"({"name":"ok","options":{"k":1}})", {"field 'options.k'"}},
       }) {
    SCOPED_TRACE(body);
    ExpectError(Raw("POST", Api("/databases"), body), 400, words);
  }
  for (const auto& [body, words] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {R"({"identifier":{"database":"sales","object":"t"}})", {"field 'schema'"}},
           {R"({"identifier":{"database":"sales","object":"t"},"schema":{"fields":[]}})",
            {"schema.fields", "a table needs a column"}},
           {R"({"identifier":{"database":"sales","object":"t"},"schema":{"fields":[{"id":0,)"
            R"("name":"a","type":"NOT A TYPE"}]}})",
            {"schema.fields"}},
           {R"({"identifier":{"database":"sales","object":"t"},"schema":{"fields":[{"id":0,)"
            R"("name":"a","type":"INT"}],"primaryKeys":"a"}})",
            {"schema.primaryKeys"}},
           {R"({"identifier":{"database":"hr","object":"t"},"schema":{"fields":[{"id":0,)"
            R"("name":"a","type":"INT"}]}})",
            {"identifier.database", "not the database of the path"}},
       }) {
    SCOPED_TRACE(body);
    ExpectError(Raw("POST", Api("/databases/sales/tables"), body), 400, words);
  }
  ASSERT_OK(Client().CreateTable("sales.t", OneColumn()));
  const std::set<std::string> with_table = Tree();
  ExpectError(Raw("POST", Api("/databases/sales/tables/t"), R"({"changes":[{"action":"nope"}]})"),
              400, {"changes[0].action", "unknown schema change"});
  ExpectError(Raw("POST", Api("/databases/sales/tables/t"),
                  R"({"changes":[{"action":"setOption","key":"path","value":"/tmp"}]})"),
              400, {"path"});
  ExpectError(Raw("POST", Api("/databases/sales/tables/t/commit"), R"({"snapshot":{"id":"x"}})"),
              400, {"snapshot"});
  // A snapshot whose files would lead out of the table.
  const std::string snapshot =
      R"({"version":3,"id":1,"schemaId":0,"baseManifestList":"../../../x","deltaManifestList":)"
      R"("manifest-list-1","commitUser":"u","commitIdentifier":1,"commitKind":"APPEND",)"
      R"("timeMillis":1,"totalRecordCount":0,"deltaRecordCount":0})";
  ExpectError(Raw("POST", Api("/databases/sales/tables/t/commit"),
                  R"({"tableId":null,"snapshot":)" + snapshot + "}"),
              400, {"snapshot.baseManifestList", "'/'"});
  ExpectError(Raw("GET", Api("/databases?maxResults=lots")), 400, {"field 'maxResults'"});
  ExpectError(Raw("GET", Api("/databases/sales/nowhere")), 404, {"no such resource"});
  ExpectError(Raw("DELETE", Api("/tables/rename")), 405, {"not allowed"});
  EXPECT_EQ(Tree(), with_table);
}

}  // namespace
}  // namespace sluice
