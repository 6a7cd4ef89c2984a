#include "sluice/secret_mask.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(SecretMaskTest, KeysThatNameACredential) {
  for (const char* key : {"s3.secret-key", "S3.SECRET-KEY", "fs.s3a.secret.key", "password",
                          "jdbc.password", "s3.session-token", "token", "gcs.credentials",
                          "properties.sasl.jaas.config", "apikey", "service-key"}) {
    EXPECT_TRUE(IsSecretOptionKey(key)) << key;
  }
  for (const char* key : {"s3.access-key", "s3.endpoint", "bucket", "user", "metastore"}) {
    EXPECT_FALSE(IsSecretOptionKey(key)) << key;
  }
  EXPECT_EQ(MaskedOptionValue("s3.secret-key", "abc"), kMaskedSecret);
  EXPECT_EQ(MaskedOptionValue("s3.endpoint", "http://h:1"), "http://h:1");
  auto masked = MaskSecretOptions({{"s3.secret-key", "abc"}, {"bucket", "1"}});
  EXPECT_EQ(masked["s3.secret-key"], kMaskedSecret);
  EXPECT_EQ(masked["bucket"], "1");
}

TEST(SecretMaskTest, TextKeepsEverythingButTheSecretValues) {
  EXPECT_EQ(MaskSecrets("unknown argument 's3.secret-key=abc/+x'"),
            "unknown argument 's3.secret-key=******'");
  EXPECT_EQ(MaskSecrets("--catalog_conf s3.secret-key=abc --catalog_conf s3.endpoint=http://h:9"),
            "--catalog_conf s3.secret-key=****** --catalog_conf s3.endpoint=http://h:9");
  EXPECT_EQ(MaskSecrets(R"({"s3.secret-key" : "a\"b", "bucket":"2"})"),
            R"({"s3.secret-key" : "******", "bucket":"2"})");
  EXPECT_EQ(MaskSecrets("password: hunter2\nuser: me"), "password: ******\nuser: me");
  EXPECT_EQ(MaskSecrets("sasl.jaas.config=org.X required username=\"u\" password=\"p\";"),
            "sasl.jaas.config=****** required username=\"u\" password=\"******\";");
  EXPECT_EQ(MaskSecrets("no secret here: a=b"), "no secret here: a=b");
  EXPECT_EQ(MaskSecrets("no S3 credentials: set s3.access-key"),
            "no S3 credentials: set s3.access-key");
  EXPECT_EQ(MaskSecrets("s3.session-token: abc"), "s3.session-token: ******");
  EXPECT_EQ(MaskSecrets("password="), "password=");
  EXPECT_EQ(MaskSecrets("token='unterminated"), "token='******");
}

}  // namespace
}  // namespace sluice
