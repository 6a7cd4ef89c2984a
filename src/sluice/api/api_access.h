// ApiAccess: the one door between the public handles of include/sluice/ and the internals
// they hide (LevelDB's Rep): makes a handle from an internal object and hands the internal
// object back. For the library and its tests only; engines never see it.
//
// Thread safety: stateless functions.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "sluice/catalog.h"
#include "sluice/catalog/catalog_backend.h"
#include "sluice/commit_message.h"
#include "sluice/io/commit_message_impl.h"
#include "sluice/split.h"
#include "sluice/table.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"

namespace sluice {

struct Split::Rep {
  DataSplit split;
};

struct CommitMessage::Rep {
  CommitMessageImpl message;
};

struct ApiAccess {
  static const std::shared_ptr<const CatalogBackend>& BackendOf(const Catalog& catalog) {
    return catalog.catalog_;
  }
  static Table MakeTable(std::string name, std::shared_ptr<FileStoreTable> table) {
    return Table(std::move(name), std::move(table));
  }
  static const std::shared_ptr<FileStoreTable>& FileStoreTableOf(const Table& table) {
    return table.table_;
  }

  static Split MakeSplit(DataSplit split) {
    return Split(std::make_shared<const Split::Rep>(Split::Rep{std::move(split)}));
  }
  static const DataSplit& DataSplitOf(const Split& split) { return split.rep_->split; }

  static CommitMessage MakeCommitMessage(CommitMessageImpl message) {
    return CommitMessage(
        std::make_shared<const CommitMessage::Rep>(CommitMessage::Rep{std::move(message)}));
  }
  static const CommitMessageImpl& ImplOf(const CommitMessage& message) {
    return message.rep_->message;
  }
};

}  // namespace sluice
