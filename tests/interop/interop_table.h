// InteropTable: one table of an interop scenario that both sides write. It is created with
// `sluice create-table`, written with `sluice write` (JSON lines) and the oracle's `write`, its
// rows kept by a TableModel, and it makes the comparisons every such scenario makes: the latest
// rows in Java, Sluice and the model; a clean `sluice check`; every snapshot the same in Java
// and Sluice; the places (partition, bucket) each key is read from.
//
// Thread safety: not thread-safe (as the harness).
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "interop/table_model.h"

namespace sluice::test {

class InteropTable {
 public:
  // Table `name` of database interop_db in `warehouse`, of `shape`.
  InteropTable(std::string warehouse, std::string name, TableShape shape);

  // create-database interop_db, then `create-table <table> <create_args>` (columns, keys,
  // options as the CLI takes them). False, with the test failed, when either fails.
  bool Create(const std::string& create_args);

  // The CLI's table arguments, the table folder, and an oracle command on the table.
  std::string Where() const;
  std::string Dir() const;
  nlohmann::json JavaCommand(const std::string& cmd) const;
  const std::string& name() const { return name_; }
  const std::vector<Column>& columns() const { return model_.shape().columns; }

  // Writes `rows` (objects by column name, `_ROW_KIND` optional) through `sluice write` or the
  // oracle's write, then applies them to the model. False, with the test failed, on failure.
  bool SluiceWrite(const std::vector<nlohmann::json>& rows);
  bool JavaWrite(const std::vector<nlohmann::json>& rows);

  // The model's rows (NormalizeRow'd, sorted).
  std::vector<std::string> ModelRows() const { return model_.Rows(); }

  // Java's latest rows, Sluice's and `expected` agree (labelled `what`), and `sluice check` is
  // clean.
  void CompareLatest(const std::string& what, const std::vector<std::string>& expected);
  // Every snapshot reads the same in Java and Sluice; the table's files are counted.
  void VerifySnapshots();

  // Key (the primary key fields' values, as JSON text) -> the (partition values, bucket)
  // places Sluice reads it from (`sluice read --bucket b` for each bucket folder of the table).
  std::map<std::string, std::set<std::pair<std::string, int32_t>>> KeyPlaces();
  // Every key of the latest rows is read from exactly one place; a key in several counts a
  // mismatch and fails the test naming it (`what` says when).
  void ExpectOnePlacePerKey(const std::string& what);

 private:
  // The bucket numbers of the table's bucket-N folders, in any partition.
  std::set<int32_t> BucketFolders() const;

  std::string warehouse_;
  std::string name_;
  TableModel model_;
};

}  // namespace sluice::test
