// Credentials never appear in what `sluice` prints: a table option or an argument whose key names
// a secret, a token or a password (s3.secret-key, a JDBC password, a SASL JAAS config) shows as
// "******" in `sluice meta`, the $options / $schemas / sys.all_table_options system tables and
// every error, while the option itself is kept as given.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::RunSluiceMergingStderr;

constexpr const char* kSecret = "TOPSECRET42";

class SluiceSecretsCliTest : public ::testing::Test {
 protected:
  std::string wh() const { return " --warehouse " + temp_.path(); }
  test::TempDir temp_;
};

TEST_F(SluiceSecretsCliTest, TableOptionsShowMasked) {
  CommandResult r = RunSluiceMergingStderr("create-database shop" + wh());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunSluiceMergingStderr("create-table shop.t" + wh() +
                             " --column 'id INT' --option s3.secret-key=" + kSecret +
                             " --option jdbc.password=" + kSecret + " --option bucket=-1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // The schema keeps the value as given: Java reads it from there.
  nlohmann::json schema =
      nlohmann::json::parse(test::ReadFileOrFail(temp_.path() + "/shop.db/t/schema/schema-0"));
  EXPECT_EQ(schema["options"]["s3.secret-key"], kSecret);

  r = RunSluiceMergingStderr("meta " + temp_.path() + "/shop.db/t");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  nlohmann::json meta = nlohmann::json::parse(r.out);
  EXPECT_EQ(meta["schema"]["options"]["s3.secret-key"], "******") << r.out;
  EXPECT_EQ(meta["schema"]["options"]["jdbc.password"], "******") << r.out;
  EXPECT_EQ(meta["schema"]["options"]["bucket"], "-1") << r.out;

  for (const std::string query : {"read 'shop.t$options'", "read 'shop.t$schemas'",
                                  "sql \"SELECT * FROM sys.all_table_options\""}) {
    r = RunSluiceMergingStderr(query + wh());
    ASSERT_EQ(r.exit_code, 0) << query << ": " << r.out;
    EXPECT_EQ(r.out.find(kSecret), std::string::npos) << query << ": " << r.out;
    EXPECT_NE(r.out.find("******"), std::string::npos) << query << ": " << r.out;
    EXPECT_NE(r.out.find("s3.secret-key"), std::string::npos) << query << ": " << r.out;
  }
}

TEST_F(SluiceSecretsCliTest, ErrorsMaskArguments) {
  // CLI11 rejects the unexpected arguments and quotes them.
  CommandResult r =
      RunSluiceMergingStderr("read shop.t --bogus s3.secret-key=" + std::string(kSecret) + wh());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("s3.secret-key=******"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(kSecret), std::string::npos) << r.out;
  // An action's own argument errors.
  r = RunSluiceMergingStderr("action kafka_sync_table" + wh() +
                             " --database d --table t --kafka_conf 'properties.sasl.jaas.config=x "
                             "required password=\"" +
                             kSecret + "\";' --kafka_conf value.format=nonsense");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.find(kSecret), std::string::npos) << r.out;
  // A --kafka_conf that is not key=value is quoted masked when it names a secret.
  r = RunSluiceMergingStderr(
      "action kafka_sync_table" + wh() +
      " --database d --table t --kafka_conf properties.sasl.password:" + kSecret);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.find(kSecret), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("is not a key=value pair"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sluice
