// Automatic tags between Sluice and Java (issue #14): the same table (process-time, daily,
// `tag.default-time-retained` 1 d) written three times by Sluice and by Java; each engine's
// commits tag the first snapshot with the day before it (the same name unless the two first
// commits straddle midnight UTC), in a tag file that is the tagged snapshot's JSON plus
// tagCreateTime and the same tagTimeRetained; each engine reads the other's tag as its own.
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "interop/column_type.h"
#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

namespace fs = std::filesystem;

class AutoTagRun {
 public:
  explicit AutoTagRun(std::string warehouse)
      : warehouse_(std::move(warehouse)),
        columns_{{"id", DataType::BigInt(false)}, {"v", DataType::String()}} {}

  void Run() {
    if (Oracle() == nullptr) return;
    const nlohmann::json options = {{"bucket", "1"},
                                    {"tag.automatic-creation", "process-time"},
                                    {"tag.creation-period", "daily"},
                                    {"tag.default-time-retained", "1 d"}};
    // Sluice's table.
    std::string create = "create-table " + Where("at.sluice") +
                         " --column 'id BIGINT NOT NULL' --column 'v STRING' --primary-key id";
    for (auto it = options.begin(); it != options.end(); ++it) {
      create += " --option " + ShellQuote(it.key() + "=" + it.value().get<std::string>());
    }
    ASSERT_TRUE(SluiceOk(create, "auto tag create-table"));
    // Java's.
    nlohmann::json java_create = Command("create_table", "at.java");
    nlohmann::json fields = nlohmann::json::array();
    for (const Column& column : columns_) {
      fields.push_back({{"name", column.name}, {"type", PaimonJson(column.type)}});
    }
    java_create["fields"] = fields;
    java_create["primary_keys"] = {"id"};
    java_create["options"] = options;
    OracleAnswer answer = Oracle()->Call(java_create);
    ASSERT_TRUE(answer.ok()) << "Java create: " << answer.error();

    for (int round = 0; round < 3; ++round) {
      const std::string input = warehouse_ + "/auto-tag-input.jsonl";
      nlohmann::json rows = nlohmann::json::array();
      for (int64_t id = 0; id < 3; ++id) {
        rows.push_back({{"id", id + round}, {"v", "r" + std::to_string(round)}});
      }
      {
        std::ofstream out(input);
        for (const auto& row : rows) out << row.dump() << "\n";
      }
      ASSERT_TRUE(SluiceOk(
          "write " + Where("at.sluice") + " --input " + ShellQuote(input) + " --format jsonl",
          "auto tag sluice write"));
      nlohmann::json write = Command("write", "at.java");
      write["rows"] = rows;
      answer = Oracle()->Call(write);
      ASSERT_TRUE(answer.ok()) << "Java write: " << answer.error();
    }

    // Each engine names the tag by the day before its first commit (a run whose two first
    // commits straddle midnight gives two names, both right).
    const std::string sluice_name = DayBefore("sluice");
    const std::string java_name = DayBefore("java");
    ++Counts().files_compared;
    EXPECT_EQ(Tags("sluice"), std::vector<std::string>{sluice_name});
    EXPECT_EQ(Tags("java"), std::vector<std::string>{java_name});
    if (Tags("sluice") != std::vector<std::string>{sluice_name} ||
        Tags("java") != std::vector<std::string>{java_name}) {
      ++Counts().mismatches;
      return;
    }
    const nlohmann::json sluice_tag = TagJson("sluice", sluice_name);
    const nlohmann::json java_tag = TagJson("java", java_name);
    // Each engine's tag is its own snapshot's JSON (each writes the snapshot keys of its
    // version) with the two tag keys after them.
    for (const auto& [table, tag] :
         {std::pair{std::string("sluice"), sluice_tag}, std::pair{std::string("java"), java_tag}}) {
      nlohmann::json snapshot = Json(warehouse_ + "/at.db/" + table + "/snapshot/snapshot-1");
      ASSERT_TRUE(snapshot.is_object()) << table;
      snapshot["tagCreateTime"] = tag["tagCreateTime"];
      snapshot["tagTimeRetained"] = tag["tagTimeRetained"];
      EXPECT_EQ(tag, snapshot) << table << "'s tag is not its snapshot 1";
    }
    EXPECT_EQ(sluice_tag["tagTimeRetained"], java_tag["tagTimeRetained"]);
    EXPECT_TRUE(sluice_tag["tagCreateTime"].is_array());
    EXPECT_TRUE(java_tag["tagCreateTime"].is_array());

    // Each reads both tags as the other does.
    for (const auto& [table, name] : {std::pair{std::string("at.sluice"), sluice_name},
                                      std::pair{std::string("at.java"), java_name}}) {
      nlohmann::json read = Command("read", table);
      read["tag"] = name;
      SameRows("auto tag " + table, JavaRead(read, columns_),
               SluiceRead(Where(table) + " --tag " + ShellQuote(name), columns_), nullptr);
      ++Counts().reads_compared;
    }
    ++Counts().scenarios;
  }

 private:
  std::string Where(const std::string& table) const {
    return ShellQuote(table) + " --warehouse " + ShellQuote(warehouse_);
  }

  nlohmann::json Command(const std::string& cmd, const std::string& table) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", table}};
  }

  // "YYYY-MM-DD" of the UTC day before table at.<name>'s first snapshot: the daily tag its
  // first commit of a new day makes (`tag.period-formatter` with_dashes).
  std::string DayBefore(const std::string& table) const {
    const nlohmann::json snapshot = Json(warehouse_ + "/at.db/" + table + "/snapshot/snapshot-1");
    const std::time_t seconds =
        static_cast<std::time_t>(snapshot.value("timeMillis", int64_t{0}) / 1000 - 86400);
    std::tm day{};
    gmtime_r(&seconds, &day);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &day);
    return text;
  }

  // The tag names of table at.<name>, sorted.
  std::vector<std::string> Tags(const std::string& table) const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(warehouse_ + "/at.db/" + table + "/tag", ec)) {
      const std::string file = entry.path().filename().string();
      if (file.rfind("tag-", 0) == 0) out.push_back(file.substr(4));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  nlohmann::json TagJson(const std::string& table, const std::string& name) const {
    return Json(warehouse_ + "/at.db/" + table + "/tag/tag-" + name);
  }

  static nlohmann::json Json(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  }

  std::string warehouse_;
  std::vector<Column> columns_;
};

TEST(Interop, AutomaticTagsOfJavaAndSluiceAgree) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  ASSERT_TRUE(SluiceOk("create-database at --warehouse " + ShellQuote(warehouse.path()),
                       "auto tag create-database"));
  AutoTagRun(warehouse.path()).Run();
}

}  // namespace
}  // namespace sluice::test
