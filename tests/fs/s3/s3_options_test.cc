// S3Options::FromOptions: Java Paimon's option names, the AWS tools' fallbacks (environment,
// ~/.aws/credentials and ~/.aws/config, AWS_PROFILE), and errors that never show a secret.

#include "sluice/fs/s3/s3_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace sluice {
namespace {

// No AWS_* variable of the machine running the tests leaks in; HOME is an empty directory.
class S3OptionsTest : public ::testing::Test {
 protected:
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(home_.path() + "/.aws/" + name) << text;
  }

  test::TempDir home_;
  test::ScopedEnv home_env_{"HOME", home_.path()};
  test::ScopedEnv access_{"AWS_ACCESS_KEY_ID", ""};
  test::ScopedEnv secret_{"AWS_SECRET_ACCESS_KEY", ""};
  test::ScopedEnv token_{"AWS_SESSION_TOKEN", ""};
  test::ScopedEnv region_{"AWS_REGION", ""};
  test::ScopedEnv default_region_{"AWS_DEFAULT_REGION", ""};
  test::ScopedEnv profile_{"AWS_PROFILE", ""};
  test::ScopedEnv credentials_file_{"AWS_SHARED_CREDENTIALS_FILE", ""};
  test::ScopedEnv config_file_{"AWS_CONFIG_FILE", ""};
};

TEST_F(S3OptionsTest, JavaOptionNames) {
  ASSERT_OK_AND_ASSIGN(S3Options options,
                       S3Options::FromOptions({{"s3.endpoint", "http://127.0.0.1:9000"},
                                               {"s3.access-key", "AK"},
                                               {"s3.secret-key", "SK"},
                                               {"s3.path.style.access", "true"},
                                               {"s3.region", "eu-west-1"},
                                               {"s3.multipart.size", "16m"},
                                               {"s3.paging.maximum", "7"},
                                               {"s3.attempts.maximum", "3"},
                                               {"s3.connection.timeout", "30s"},
                                               {"s3.connection.establish.timeout", "500"}}));
  EXPECT_EQ(options.endpoint, "http://127.0.0.1:9000");
  EXPECT_EQ(options.access_key, "AK");
  EXPECT_EQ(options.secret_key, "SK");
  EXPECT_TRUE(options.path_style_access);
  EXPECT_EQ(options.region, "eu-west-1");
  EXPECT_EQ(options.multipart_size, 16 << 20);
  EXPECT_EQ(options.list_page_size, 7);
  EXPECT_EQ(options.max_attempts, 3);
  EXPECT_EQ(options.request_timeout_ms, 30000);
  EXPECT_EQ(options.connect_timeout_ms, 500);
}

TEST_F(S3OptionsTest, EnvironmentThenCredentialsFileThenConfigRegion) {
  std::filesystem::create_directories(home_.path() + "/.aws");
  Write("credentials",
        "[default]\naws_access_key_id = FILE_AK\naws_secret_access_key = FILE_SK\n"
        "[ci]\naws_access_key_id=CI_AK\naws_secret_access_key=CI_SK\naws_session_token=CI_TOKEN\n");
  Write("config", "[default]\nregion = ap-south-1\n[profile ci]\nregion=sa-east-1\n");
  ASSERT_OK_AND_ASSIGN(S3Options from_file, S3Options::FromOptions({}));
  EXPECT_EQ(from_file.access_key, "FILE_AK");
  EXPECT_EQ(from_file.secret_key, "FILE_SK");
  EXPECT_EQ(from_file.region, "ap-south-1");
  {
    test::ScopedEnv profile("AWS_PROFILE", "ci");
    ASSERT_OK_AND_ASSIGN(S3Options from_profile, S3Options::FromOptions({}));
    EXPECT_EQ(from_profile.access_key, "CI_AK");
    EXPECT_EQ(from_profile.session_token, "CI_TOKEN");
    EXPECT_EQ(from_profile.region, "sa-east-1");
  }
  {
    test::ScopedEnv access("AWS_ACCESS_KEY_ID", "ENV_AK");
    test::ScopedEnv secret("AWS_SECRET_ACCESS_KEY", "ENV_SK");
    test::ScopedEnv region("AWS_REGION", "us-west-2");
    ASSERT_OK_AND_ASSIGN(S3Options from_env, S3Options::FromOptions({}));
    EXPECT_EQ(from_env.access_key, "ENV_AK");
    EXPECT_EQ(from_env.secret_key, "ENV_SK");
    EXPECT_EQ(from_env.region, "us-west-2");
    // The options come first.
    ASSERT_OK_AND_ASSIGN(S3Options from_options,
                         S3Options::FromOptions({{"s3.access-key", "OPT_AK"},
                                                 {"s3.secret-key", "OPT_SK"},
                                                 {"s3.region", "eu-north-1"}}));
    EXPECT_EQ(from_options.access_key, "OPT_AK");
    EXPECT_EQ(from_options.region, "eu-north-1");
  }
}

TEST_F(S3OptionsTest, ErrorsNameTheOptionButNeverTheSecret) {
  EXPECT_TRUE(test::HasError(S3Options::FromOptions({}), StatusCode::kInvalidArgument,
                             {"no S3 credentials", "s3.access-key", "AWS_ACCESS_KEY_ID"}));
  Status half = S3Options::FromOptions({{"s3.secret-key", "TOP-SECRET-VALUE"}}).status();
  EXPECT_TRUE(test::HasError(half, StatusCode::kInvalidArgument, {"s3.access-key"}));
  EXPECT_EQ(half.ToString().find("TOP-SECRET-VALUE"), std::string::npos) << half.ToString();
  const std::map<std::string, std::string> keys = {{"s3.access-key", "AK"},
                                                   {"s3.secret-key", "TOP-SECRET-VALUE"}};
  auto with = [&](const char* key, const char* value) {
    auto options = keys;
    options[key] = value;
    return S3Options::FromOptions(options).status();
  };
  EXPECT_TRUE(test::HasError(with("s3.multipart.size", "1m"), StatusCode::kInvalidArgument,
                             {"s3.multipart.size", "5 MiB"}));
  EXPECT_TRUE(test::HasError(with("s3.paging.maximum", "5000"), StatusCode::kInvalidArgument,
                             {"s3.paging.maximum", "1 to 1000"}));
  EXPECT_TRUE(test::HasError(with("s3.path.style.access", "yes"), StatusCode::kInvalidArgument,
                             {"s3.path.style.access"}));
  EXPECT_TRUE(test::HasError(with("s3.connection.timeout", "soon"), StatusCode::kInvalidArgument,
                             {"s3.connection.timeout", "soon"}));
  EXPECT_EQ(with("s3.connection.timeout", "soon").ToString().find("TOP-SECRET"), std::string::npos);
}

}  // namespace
}  // namespace sluice
