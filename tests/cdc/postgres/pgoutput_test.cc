#include "sluice/cdc/postgres/pgoutput.h"

#include <gtest/gtest.h>

#include <string>

#include "sluice/cdc/postgres/postgres_type_utils.h"
#include "test_util.h"

namespace sluice {
namespace {

std::string BigEndian(uint64_t value, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>(value >> (8 * i)));
  return out;
}

std::string Text(const std::string& value) { return "t" + BigEndian(value.size(), 4) + value; }

std::string Relation() {
  return "R" + BigEndian(7, 4) + std::string("public\0t\0d", 10) + BigEndian(2, 2) + "\1id" +
         std::string(1, '\0') + BigEndian(23, 4) + BigEndian(0xFFFFFFFF, 4) + std::string(1, '\0') +
         "v" + std::string(1, '\0') + BigEndian(1043, 4) + BigEndian(24, 4);
}

TEST(PgOutputTest, DecodesTheMessagesOfATransaction) {
  ASSERT_OK_AND_ASSIGN(PgMessage begin, DecodePgOutput("B" + BigEndian(0x10, 8) + BigEndian(5, 8) +
                                                       BigEndian(9, 4)));
  EXPECT_EQ(std::get<PgBegin>(begin).final_lsn, 0x10u);
  EXPECT_EQ(std::get<PgBegin>(begin).xid, 9u);

  ASSERT_OK_AND_ASSIGN(PgMessage relation, DecodePgOutput(Relation()));
  const PgRelation& r = std::get<PgRelation>(relation);
  EXPECT_EQ(r.id, 7u);
  EXPECT_EQ(r.schema, "public");
  EXPECT_EQ(r.name, "t");
  ASSERT_EQ(r.columns.size(), 2u);
  EXPECT_TRUE(r.columns[0].key);
  EXPECT_EQ(r.columns[0].type_oid, 23u);
  EXPECT_EQ(r.columns[0].type_modifier, -1);
  EXPECT_FALSE(r.columns[1].key);
  EXPECT_EQ(r.columns[1].name, "v");
  EXPECT_EQ(r.columns[1].type_modifier, 24);

  ASSERT_OK_AND_ASSIGN(PgMessage insert, DecodePgOutput("I" + BigEndian(7, 4) + "N" +
                                                        BigEndian(2, 2) + Text("1") + "n"));
  const PgChange& i = std::get<PgChange>(insert);
  EXPECT_EQ(i.kind, PgChange::Kind::kInsert);
  EXPECT_FALSE(i.old_tuple.has_value());
  ASSERT_EQ(i.new_tuple->values.size(), 2u);
  EXPECT_EQ(i.new_tuple->values[0], "1");
  EXPECT_FALSE(i.new_tuple->values[1].has_value());

  // An update of the key: the old key, then the new row with an unchanged TOASTed value.
  ASSERT_OK_AND_ASSIGN(PgMessage update,
                       DecodePgOutput("U" + BigEndian(7, 4) + "K" + BigEndian(2, 2) + Text("1") +
                                      "n" + "N" + BigEndian(2, 2) + Text("2") + "u"));
  const PgChange& u = std::get<PgChange>(update);
  EXPECT_EQ(u.old_tuple->values[0], "1");
  EXPECT_EQ(u.new_tuple->values[0], "2");
  EXPECT_TRUE(u.new_tuple->unchanged[1]);

  ASSERT_OK_AND_ASSIGN(PgMessage erase, DecodePgOutput("D" + BigEndian(7, 4) + "K" +
                                                       BigEndian(2, 2) + Text("2") + "n"));
  EXPECT_EQ(std::get<PgChange>(erase).kind, PgChange::Kind::kDelete);
  EXPECT_FALSE(std::get<PgChange>(erase).new_tuple.has_value());

  ASSERT_OK_AND_ASSIGN(PgMessage commit,
                       DecodePgOutput("C" + std::string(1, '\0') + BigEndian(0x10, 8) +
                                      BigEndian(0x18, 8) + BigEndian(5, 8)));
  EXPECT_EQ(std::get<PgCommit>(commit).commit_lsn, 0x10u);
  EXPECT_EQ(std::get<PgCommit>(commit).end_lsn, 0x18u);
}

TEST(PgOutputTest, EveryCutMessageIsCorruption) {
  const std::string messages[] = {
      "B" + BigEndian(1, 8) + BigEndian(2, 8) + BigEndian(3, 4),
      Relation(),
      "I" + BigEndian(7, 4) + "N" + BigEndian(2, 2) + Text("12") + Text("x"),
      "U" + BigEndian(7, 4) + "O" + BigEndian(1, 2) + Text("1") + "N" + BigEndian(1, 2) + Text("2"),
      "D" + BigEndian(7, 4) + "K" + BigEndian(1, 2) + Text("1"),
      "C" + std::string(1, '\0') + BigEndian(1, 8) + BigEndian(2, 8) + BigEndian(3, 8)};
  for (const std::string& message : messages) {
    ASSERT_OK(DecodePgOutput(message).status());
    for (size_t cut = 0; cut < message.size(); ++cut) {
      Status status = DecodePgOutput(message.substr(0, cut)).status();
      EXPECT_TRUE(status.IsCorruption())
          << message[0] << " cut at " << cut << ": " << status.ToString();
    }
  }
  EXPECT_TRUE(DecodePgOutput("Z").status().IsCorruption());
  EXPECT_TRUE(
      DecodePgOutput("I" + BigEndian(7, 4) + "N" + BigEndian(1, 2) + "b").status().IsCorruption());
}

TEST(PgOutputTest, FramesAndPositions) {
  const std::string frame = "w" + BigEndian(1, 8) + BigEndian(2, 8) + BigEndian(3, 8) + "B";
  ASSERT_OK_AND_ASSIGN(PgReplicationFrame data, DecodeReplicationFrame(frame));
  EXPECT_EQ(std::get<PgXLogData>(data).payload, "B");
  ASSERT_OK_AND_ASSIGN(PgReplicationFrame keepalive,
                       DecodeReplicationFrame("k" + BigEndian(0x20, 8) + BigEndian(0, 8) + "\1"));
  EXPECT_EQ(std::get<PgKeepalive>(keepalive).end_lsn, 0x20u);
  EXPECT_TRUE(std::get<PgKeepalive>(keepalive).reply_requested);
  EXPECT_TRUE(DecodeReplicationFrame("w" + BigEndian(1, 8)).status().IsCorruption());
  const std::string status = StandbyStatusUpdate(0x30, 0x30, 0x30, true);
  ASSERT_EQ(status.size(), 34u);
  EXPECT_EQ(status.substr(0, 9), "r" + BigEndian(0x30, 8));
  ASSERT_OK_AND_ASSIGN(uint64_t lsn, ParseLsn("16/B374D848"));
  EXPECT_EQ(lsn, (uint64_t{0x16} << 32) | 0xB374D848);
  EXPECT_EQ(FormatLsn(lsn), "16/B374D848");
  EXPECT_TRUE(test::HasError(ParseLsn("16-B3").status(), StatusCode::kInvalidArgument,
                             {"16-B3", "not an LSN"}));
}

TEST(PostgresTypeUtilsTest, TypesAndValueTexts) {
  TypeMapping mapping;
  auto type = [&](std::string name, int32_t modifier) {
    auto result = PostgresTypeToDataType(PostgresType{std::move(name), false, modifier}, mapping);
    return result.ok() ? (*result)->ToString() : result.status().ToString();
  };
  EXPECT_EQ(type("numeric", ((10 << 16) | 2) + 4), "DECIMAL(10, 2)");
  EXPECT_EQ(type("numeric", -1), "DECIMAL(38, 18)");
  EXPECT_EQ(type("varchar", 24), "VARCHAR(20)");
  EXPECT_EQ(type("bpchar", 8), "CHAR(4)");
  EXPECT_EQ(type("timestamp", 3), "TIMESTAMP(3)");
  EXPECT_EQ(type("timestamptz", -1), "TIMESTAMP(6) WITH LOCAL TIME ZONE");
  EXPECT_EQ(type("bit", 1), "BOOLEAN");
  EXPECT_EQ(type("bit", 12), "BINARY(2)");
  EXPECT_EQ(type("_int4", -1), "ARRAY<INT>");
  EXPECT_EQ(type("jsonb", -1), "STRING");
  EXPECT_NE(type("point", -1).find("not supported"), std::string::npos);

  auto text = [&](std::string name, int32_t modifier, std::string value) {
    PostgresType t{std::move(name), false, modifier};
    auto data_type = PostgresTypeToDataType(t, mapping);
    auto result = PostgresValueText(t, **data_type, std::move(value));
    return result.ok() ? *result : result.status().ToString();
  };
  EXPECT_EQ(text("_text", -1, R"({1,NULL,"a b","c,d","\"q\"",""})"),
            R"(["1",null,"a b","c,d","\"q\"",""])");
  EXPECT_EQ(text("_int4", -1, "{}"), "[]");
  EXPECT_EQ(text("bytea", -1, "\\x0aff"), "\n\xff");
  EXPECT_NE(text("bytea", -1, "\\x0g").find("Corruption"), std::string::npos);
  EXPECT_EQ(text("bit", 12, "101010101010"), "qqA=");
  EXPECT_EQ(text("bit", 1, "1"), "1");
  EXPECT_EQ(text("timestamptz", 6, "2024-01-02 03:04:05.5+00"), "2024-01-02 03:04:05.5");
  EXPECT_NE(text("_int4", -1, "{{1},{2}}").find("multi-dimensional"), std::string::npos);
}

}  // namespace
}  // namespace sluice
