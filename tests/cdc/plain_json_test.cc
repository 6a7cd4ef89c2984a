// PlainJson (the fast reading of plain messages) and debezium-json's fast path: a message read
// there gives exactly the records the JSON document gives (issue 31).
#include "sluice/cdc/format/plain_json.h"

#include <gtest/gtest.h>

#include "record_parser_test_util.h"
#include "sluice/cdc/format/cdc_json.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Describe;
using test::DescribeSchema;
using test::ParseMessage;

TEST(PlainJsonTest, LaysOutPlainJson) {
  PlainJson json;
  // The nodes point into the text: it outlives them.
  const std::string object = R"j( {"a": [1, -2.5e3, "x"], "b": {}, "c": null, "a": true} )j";
  ASSERT_TRUE(json.Scan(object));
  const PlainJson::Node& root = json.node(0);
  EXPECT_EQ(root.kind, PlainJson::Kind::kObject);
  const int64_t a = json.Find(0, "a");
  ASSERT_GE(a, 0);
  // The last of a repeated key.
  EXPECT_EQ(json.node(static_cast<uint32_t>(a)).kind, PlainJson::Kind::kTrue);
  const int64_t b = json.Find(0, "b");
  ASSERT_GE(b, 0);
  EXPECT_EQ(json.node(static_cast<uint32_t>(b)).kind, PlainJson::Kind::kObject);
  EXPECT_EQ(json.node(static_cast<uint32_t>(b)).end, static_cast<uint32_t>(b) + 1);
  EXPECT_EQ(json.Find(0, "z"), -1);
  const std::string array = R"j([1, -2.5e3, "x"])j";
  ASSERT_TRUE(json.Scan(array));
  EXPECT_EQ(json.node(1).kind, PlainJson::Kind::kInteger);
  EXPECT_EQ(json.node(2).kind, PlainJson::Kind::kFloat);
  EXPECT_EQ(json.node(2).text, "-2.5e3");
  EXPECT_EQ(json.node(3).text, "x");
}

TEST(PlainJsonTest, LeavesTheRestToTheFullParser) {
  PlainJson json;
  for (const std::string text :
       {R"j({"a": "x\"y"})j", "{\"a\": \"caf\xc3\xa9\"}", "{\"a\": \"t\tb\"}", R"j({"a": 01})j",
        R"j({"a": 1.})j", R"j({"a": 1e99999})j", R"j({"a": 1} x)j", R"j({"a" 1})j",
        R"j({"a": [1,]})j", R"j({"a": tru})j", R"j({"a": 1)j", ""}) {
    EXPECT_FALSE(json.Scan(text)) << text;
  }
  // The scanner reads the text's terminator as its end: a NUL byte within the text, or a text
  // cut in the middle of a token, is no plain JSON.
  for (const std::string& text :
       {std::string("{\"a\": 1}\0", 9), std::string("[1,\0 2]", 7), std::string("{\"a\0\": 1}", 9),
        std::string("nul"), std::string("[1"), std::string("-"), std::string("\"ab")}) {
    EXPECT_FALSE(json.Scan(text)) << text;
  }
  std::string deep(kMaxCdcJsonDepth, '[');
  deep += std::string(kMaxCdcJsonDepth, ']');
  EXPECT_TRUE(json.Scan(deep));
  const std::string deeper = "[" + deep + "]";
  EXPECT_FALSE(json.Scan(deeper));
}

// The records of `payload` with `key`, as text: through the fast path (a bare payload), and
// through the document (the same payload in an envelope without schema).
std::vector<std::string> BothWays(const std::string& payload, std::optional<std::string> key,
                                  std::vector<std::string>* document) {
  auto describe = [](const Result<std::vector<RichCdcMultiplexRecord>>& records) {
    std::vector<std::string> out;
    if (!records.ok()) {
      out.push_back("error: " + records.status().message());
      return out;
    }
    for (const RichCdcMultiplexRecord& record : *records) {
      out.push_back(Describe(record) + " " + DescribeSchema(*record.schema));
    }
    return out;
  };
  *document = describe(
      ParseMessage("debezium-json", R"j({"schema": null, "payload": )j" + payload + "}", key));
  return describe(ParseMessage("debezium-json", payload, key));
}

TEST(DebeziumPlainPathTest, GivesWhatTheDocumentGives) {
  const std::vector<std::string> payloads = {
      R"j({"before": null, "after": {"id": 1, "v": "a", "n": -0, "f": 1.50, "b": true},
           "source": {"db": "d", "table": "t"}, "op": "c"})j",
      R"j({"op": "r", "after": {"id": 2, "v": null, "id": 3}, "source": {"db": "d", "table": "t"}})j",
      R"j({"before": {"id": 1, "v": "a", "w": 0}, "after": {"id": 1, "v": "b"},
           "source": {"db": "d", "table": "t"}, "op": "u"})j",
      R"j({"before": {"id": 1, "v": "b"}, "after": null, "source": {"db": "d", "table": "t"},
           "op": "d"})j",
      R"j({"before": null, "after": {"id": 1, "j": {"x": [1, 2]}}, "source": null, "op": "c"})j",
      R"j({"before": null, "after": {"id": 1, "v": "\u00e9"}, "op": "c"})j",
      R"j({"before": null, "after": {"id": 1}, "op": "t"})j",
      R"j({"before": null, "after": {"id": 1}, "op": "x"})j",
      R"j({"before": null, "after": null, "op": "c"})j",
      R"j({"before": null, "after": [1], "op": "c"})j",
      R"j({"before": null, "after": {"id": 1}, "op": 1})j",
      R"j({"after": {"id": 1}, "source": {"db": 5, "table": "t"}, "op": "c"})j",
      R"j({"after": {"id": 1}, "pkNames": ["id"], "op": "c"})j",
      R"j({"after": {"id": 1}, "pkNames": null, "op": "u", "before": null})j",
  };
  const std::vector<std::optional<std::string>> keys = {
      std::nullopt,
      std::string(R"j({"id": 1, "v": 2, "id": 3})j"),
      std::string(R"j({"schema": {}, "payload": {"k": 1}})j"),
      std::string("plain-key"),
      std::string(R"j({"caf\u00e9": 1})j"),
      std::string("[1]")};
  for (const std::string& payload : payloads) {
    for (const std::optional<std::string>& key : keys) {
      std::vector<std::string> document;
      EXPECT_EQ(BothWays(payload, key, &document), document)
          << payload << " key " << key.value_or("(none)");
    }
  }
}

}  // namespace
}  // namespace sluice
