#include "sluice/lsm/merge_function_factory.h"

#include "sluice/lsm/aggregate/field_aggregator_factory.h"
#include "sluice/lsm/aggregate_merge_function.h"
#include "sluice/lsm/deduplicate_merge_function.h"
#include "sluice/lsm/first_row_merge_function.h"
#include "sluice/lsm/lookup_merge_function.h"
#include "sluice/lsm/partial_update_merge_function.h"

namespace sluice {
namespace {

Result<std::unique_ptr<MergeFunction>> CreateEngine(const TableSchema& schema,
                                                    const CoreOptions& options) {
  switch (options.merge_engine()) {
    case MergeEngine::kDeduplicate:
      return std::unique_ptr<MergeFunction>(
          std::make_unique<DeduplicateMergeFunction>(options.ignore_delete()));
    case MergeEngine::kFirstRow:
      return std::unique_ptr<MergeFunction>(
          std::make_unique<FirstRowMergeFunction>(options.ignore_delete()));
    case MergeEngine::kPartialUpdate: {
      SLUICE_ASSIGN_OR_RETURN(auto f, PartialUpdateMergeFunction::Make(schema, options));
      return std::unique_ptr<MergeFunction>(std::move(f));
    }
    case MergeEngine::kAggregation: {
      SLUICE_ASSIGN_OR_RETURN(auto f, AggregateMergeFunction::Make(schema, options));
      return std::unique_ptr<MergeFunction>(std::move(f));
    }
  }
  return Status::Internal("unknown merge engine");
}

}  // namespace

Result<std::unique_ptr<MergeFunction>> CreateMergeFunction(const TableSchema& schema,
                                                           const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> engine, CreateEngine(schema, options));
  // Java PrimaryKeyFileStoreTable wraps the engine of a table that needs lookup (first-row is
  // one, and picks its record as it is).
  const bool need_lookup = options.changelog_producer() == ChangelogProducer::kLookup ||
                           options.deletion_vectors_enabled() || options.force_lookup();
  if (need_lookup && !engine->picks_record()) {
    return std::unique_ptr<MergeFunction>(std::make_unique<LookupMergeFunction>(std::move(engine)));
  }
  return engine;
}

Status ValidateMergeFunction(const TableSchema& schema) {
  if (schema.primary_keys().empty()) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(const CoreOptions options, CoreOptions::FromSchema(schema));
  const MergeEngine engine = options.merge_engine();
  // validateMergeFunction: the factories of deduplicate, first-row and aggregation check
  // nothing; partial-update's checks its sequence groups.
  if (engine == MergeEngine::kPartialUpdate) {
    SLUICE_RETURN_NOT_OK(PartialUpdateMergeFunction::Validate(schema, options));
  }
  if (engine == MergeEngine::kDeduplicate || engine == MergeEngine::kFirstRow) {
    return Status::OK();
  }
  // validateMergeFunctionFactory: each column's function is discovered by name.
  for (const DataField& field : schema.fields()) {
    std::string key = "fields." + field.name + ".aggregate-function";
    std::optional<std::string> function = options.FieldAggregateFunction(field.name);
    if (!function) {
      function = options.fields_default_aggregate_function();
      key = "fields.default-aggregate-function";
    }
    if (!function || IsAggregateFunctionName(*function)) continue;
    return Status::InvalidArgument(
        "Could not find any factory for identifier '" + *function +
        "' that implements 'FieldAggregatorFactory' (option '" + key + "' = '" + *function +
        "', column '" + field.name +
        "'). Available factory identifiers are: " + AggregateFunctionNames());
  }
  return Status::OK();
}

}  // namespace sluice
