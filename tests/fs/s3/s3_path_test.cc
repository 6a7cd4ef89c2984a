// S3Path (s3://, s3a://, s3n:// paths to bucket and key) and the XML subset of S3's answers.

#include "sluice/fs/s3/s3_path.h"

#include <gtest/gtest.h>

#include "sluice/fs/s3/s3_xml.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(S3PathTest, SchemesBucketAndKey) {
  ASSERT_OK_AND_ASSIGN(S3Path path, S3Path::Parse("s3a://bucket//warehouse/db.db/t/"));
  EXPECT_EQ(path.root, "s3a://bucket");
  EXPECT_EQ(path.bucket, "bucket");
  EXPECT_EQ(path.key, "warehouse/db.db/t");
  EXPECT_EQ(path.ToString(), "s3a://bucket/warehouse/db.db/t");
  EXPECT_EQ(path.DirPrefix(), "warehouse/db.db/t/");
  ASSERT_OK_AND_ASSIGN(S3Path root, S3Path::Parse("S3://bucket"));
  EXPECT_EQ(root.root, "s3://bucket");
  EXPECT_EQ(root.key, "");
  EXPECT_EQ(root.DirPrefix(), "");
  EXPECT_EQ(S3Path::Parse("s3n://b/k")->ToString(), "s3n://b/k");
  EXPECT_TRUE(test::HasError(S3Path::Parse("/local/path"), StatusCode::kInvalidArgument,
                             {"/local/path", "s3://bucket/key"}));
  EXPECT_TRUE(
      test::HasError(S3Path::Parse("s3:///key"), StatusCode::kInvalidArgument, {"no bucket"}));
}

TEST(S3XmlTest, ElementsByNameAndEntities) {
  const std::string xml =
      "<ListBucketResult><Name>b</Name><KeyCount>2</KeyCount>"
      "<Contents><Key>a&amp;b &lt;1&gt;</Key><Size>3</Size></Contents>"
      "<Contents><Key>caf&#233;&#x21;</Key><Size>0</Size></Contents>"
      "<CommonPrefixes><Prefix>d/</Prefix></CommonPrefixes><Prefix/></ListBucketResult>";
  auto contents = XmlElements(xml, "Contents");
  ASSERT_EQ(contents.size(), 2u);
  EXPECT_EQ(XmlText(contents[0], "Key"), "a&b <1>");
  EXPECT_EQ(XmlText(contents[1], "Key"), "caf\xC3\xA9!");
  EXPECT_EQ(XmlText(xml, "Key"), "a&b <1>") << "not <KeyCount>";
  EXPECT_EQ(XmlText(xml, "KeyCount"), "2");
  EXPECT_EQ(XmlText(xml, "Missing"), "");
  EXPECT_EQ(XmlEscape("<a href='x'>&\"</a>"), "&lt;a href=&apos;x&apos;&gt;&amp;&quot;&lt;/a&gt;");
}

}  // namespace
}  // namespace sluice
