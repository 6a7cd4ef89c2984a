// Helpers of the lsm tests: schemas and KeyValues in few words.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice::test {

inline TableSchema MakeSchema(std::vector<DataField> fields, std::vector<std::string> pks,
                              TableOptions options) {
  int32_t highest = static_cast<int32_t>(fields.size()) - 1;
  Result<TableSchema> schema = TableSchema::Make(
      3, 0, std::move(fields), highest, {}, std::move(pks), std::move(options), std::nullopt, 0);
  EXPECT_OK(schema);
  return std::move(schema).value();
}

inline Result<std::unique_ptr<MergeFunction>> MakeMergeFunction(const TableSchema& schema) {
  SLUICE_ASSIGN_OR_RETURN(CoreOptions options, CoreOptions::FromSchema(schema));
  return CreateMergeFunction(schema, options);
}

inline KeyValue KV(int64_t seq, RowKind kind, ValueList value, int key_fields = 1) {
  KeyValue kv;
  kv.key.assign(value.begin(), value.begin() + key_fields);
  kv.sequence_number = seq;
  kv.kind = kind;
  kv.value = std::move(value);
  return kv;
}

// Reset, add every record, return GetResult() (the read view). Fails the test on an Add error.
inline std::optional<KeyValue> Merge(MergeFunction* f, const std::vector<KeyValue>& records) {
  f->Reset();
  for (const KeyValue& kv : records) {
    Status st = f->Add(kv);
    EXPECT_OK(st);
    if (!st.ok()) return std::nullopt;
  }
  return f->GetResult();
}

// The Status of the first failing Add, or OK.
inline Status MergeStatus(MergeFunction* f, const std::vector<KeyValue>& records) {
  f->Reset();
  for (const KeyValue& kv : records) SLUICE_RETURN_NOT_OK(f->Add(kv));
  return Status::OK();
}

inline std::string Render(const ValueList& row) {
  std::string out = "(";
  for (size_t i = 0; i < row.size(); ++i) out += (i ? ", " : "") + row[i].DebugString();
  return out + ")";
}

}  // namespace sluice::test
