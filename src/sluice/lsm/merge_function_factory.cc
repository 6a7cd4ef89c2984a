#include "sluice/lsm/merge_function_factory.h"

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

}  // namespace sluice
