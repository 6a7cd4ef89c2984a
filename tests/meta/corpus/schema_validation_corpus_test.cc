// Every schema Java wrote in the corpus passes ValidateTableSchema: Java validated each one when
// it committed it (SchemaValidation.validateTableSchema at CREATE and ALTER TABLE), so a
// refusal here is a rule Sluice applies that Java does not.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "sluice/meta/schema_validation.h"
#include "sluice/meta/table_schema.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(SchemaValidationCorpusTest, EveryJavaWrittenSchemaPasses) {
  namespace fs = std::filesystem;
  int schemas = 0;
  for (const auto& entry : fs::recursive_directory_iterator(test::CompatTablesDir())) {
    if (!entry.is_regular_file()) continue;
    const fs::path& path = entry.path();
    if (path.parent_path().filename() != "schema" ||
        path.filename().string().rfind("schema-", 0) != 0) {
      continue;
    }
    ASSERT_OK_AND_ASSIGN(TableSchema schema,
                         TableSchema::FromJson(test::ReadFileOrFail(path.string())));
    EXPECT_OK(ValidateTableSchema(schema)) << path;
    ++schemas;
  }
  std::printf("corpus schemas validated: %d\n", schemas);
  EXPECT_GT(schemas, 100);
}

}  // namespace
}  // namespace sluice
