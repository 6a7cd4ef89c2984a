// Signature V4 against AWS's published examples: the generic test suite's get-vanilla cases
// (service "service") and the S3 documentation's GET object, PUT object, GET bucket lifecycle
// and list objects examples (header-based auth, "Signature Calculations for the Authorization
// Header"). A signature that differs in one byte is refused by S3, so these pin every step:
// encoding, sorting, trimming, the key derivation.

#include "sluice/fs/s3/aws_sigv4.h"

#include <gtest/gtest.h>

#include <chrono>

namespace sluice {
namespace {

constexpr std::string_view kSuiteAccessKey = "AKIDEXAMPLE";
constexpr std::string_view kSuiteSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
constexpr std::string_view kS3AccessKey = "AKIAIOSFODNN7EXAMPLE";
constexpr std::string_view kS3Secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

TEST(AwsSigV4Test, SuiteGetVanilla) {
  SigV4Request request{"GET",
                       "/",
                       {},
                       {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}},
                       std::string(kEmptySha256)};
  EXPECT_EQ(CanonicalRequest(request),
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "host;x-amz-date\n" +
                std::string(kEmptySha256));
  EXPECT_EQ(SigV4Authorization(request, kSuiteAccessKey, kSuiteSecret, "us-east-1", "service",
                               "20150830T123600Z"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
            "SignedHeaders=host;x-amz-date,"
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(AwsSigV4Test, SuiteGetVanillaQueryOrderKeyCase) {
  SigV4Request request{"GET",
                       "/",
                       {{"Param2", "value2"}, {"Param1", "value1"}},
                       {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}},
                       std::string(kEmptySha256)};
  EXPECT_EQ(CanonicalQueryString(request.query), "Param1=value1&Param2=value2");
  EXPECT_TRUE(
      SigV4Authorization(request, kSuiteAccessKey, kSuiteSecret, "us-east-1", "service",
                         "20150830T123600Z")
          .ends_with("Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"));
}

TEST(AwsSigV4Test, S3GetObjectWithRange) {
  SigV4Request request{"GET",
                       "/test.txt",
                       {},
                       {{"Host", "examplebucket.s3.amazonaws.com"},
                        {"Range", "bytes=0-9"},
                        {"x-amz-content-sha256", std::string(kEmptySha256)},
                        {"x-amz-date", "20130524T000000Z"}},
                       std::string(kEmptySha256)};
  EXPECT_EQ(
      SigV4Authorization(request, kS3AccessKey, kS3Secret, "us-east-1", "s3", "20130524T000000Z"),
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
      "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
      "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(AwsSigV4Test, S3PutObjectWithEncodedKeyAndPayload) {
  const std::string payload_hash = Sha256Hex("Welcome to Amazon S3.");
  EXPECT_EQ(payload_hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  SigV4Request request{"PUT",
                       "/" + UriEncode("test$file.text", false),
                       {},
                       {{"Host", "examplebucket.s3.amazonaws.com"},
                        {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                        {"x-amz-date", "20130524T000000Z"},
                        {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                        {"x-amz-content-sha256", payload_hash}},
                       payload_hash};
  EXPECT_EQ(request.encoded_path, "/test%24file.text");
  EXPECT_TRUE(
      SigV4Authorization(request, kS3AccessKey, kS3Secret, "us-east-1", "s3", "20130524T000000Z")
          .ends_with("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,"
                     "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"));
}

TEST(AwsSigV4Test, S3GetBucketLifecycleWithValuelessQuery) {
  SigV4Request request{"GET",
                       "/",
                       {{"lifecycle", ""}},
                       {{"Host", "examplebucket.s3.amazonaws.com"},
                        {"x-amz-content-sha256", std::string(kEmptySha256)},
                        {"x-amz-date", "20130524T000000Z"}},
                       std::string(kEmptySha256)};
  EXPECT_EQ(CanonicalQueryString(request.query), "lifecycle=");
  EXPECT_TRUE(
      SigV4Authorization(request, kS3AccessKey, kS3Secret, "us-east-1", "s3", "20130524T000000Z")
          .ends_with("Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"));
}

TEST(AwsSigV4Test, S3ListObjectsWithSortedQuery) {
  SigV4Request request{"GET",
                       "/",
                       {{"max-keys", "2"}, {"prefix", "J"}},
                       {{"Host", "examplebucket.s3.amazonaws.com"},
                        {"x-amz-content-sha256", std::string(kEmptySha256)},
                        {"x-amz-date", "20130524T000000Z"}},
                       std::string(kEmptySha256)};
  EXPECT_TRUE(
      SigV4Authorization(request, kS3AccessKey, kS3Secret, "us-east-1", "s3", "20130524T000000Z")
          .ends_with("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"));
}

TEST(AwsSigV4Test, HeaderValuesAreTrimmedAndFolded) {
  SigV4Request request{"GET", "/", {}, {{"My-Header", "  a   b  c "}, {"host", "h"}}, "x"};
  EXPECT_EQ(CanonicalRequest(request), "GET\n/\n\nhost:h\nmy-header:a b c\n\nhost;my-header\nx");
}

TEST(AwsSigV4Test, UriEncodingKeepsUnreservedAndSlashes) {
  EXPECT_EQ(UriEncode("a b/ü+=&~-_.", false), "a%20b/%C3%BC%2B%3D%26~-_.");
  EXPECT_EQ(UriEncode("a/b", true), "a%2Fb");
  EXPECT_EQ(CanonicalQueryString({{"prefix", "dir/sub dir/"}, {"list-type", "2"}}),
            "list-type=2&prefix=dir%2Fsub%20dir%2F");
}

TEST(AwsSigV4Test, DigestsAndDate) {
  EXPECT_EQ(Sha256Hex(""), kEmptySha256);
  // RFC 2104 / 4231 test case 2.
  std::string hex;
  for (unsigned char c : HmacSha256("Jefe", "what do ya want for nothing?")) {
    hex += "0123456789abcdef"[c >> 4];
    hex += "0123456789abcdef"[c & 0xF];
  }
  EXPECT_EQ(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(Md5Base64(""), "1B2M2Y8AsgTpgAmY7PhCfg==");
  EXPECT_EQ(AmzDate(std::chrono::system_clock::time_point(std::chrono::seconds(1369353600))),
            "20130524T000000Z");
}

}  // namespace
}  // namespace sluice
