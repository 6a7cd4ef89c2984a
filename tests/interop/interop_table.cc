#include "interop/interop_table.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <system_error>

#include "interop/interop_harness.h"

namespace sluice::test {

namespace {

// The values of `fields` of `row`, as one JSON array's text.
std::string FieldsText(const nlohmann::json& row, const std::vector<std::string>& fields) {
  nlohmann::json values = nlohmann::json::array();
  for (const std::string& field : fields) values.push_back(row.value(field, nlohmann::json()));
  return values.dump();
}

}  // namespace

InteropTable::InteropTable(std::string warehouse, std::string name, TableShape shape)
    : warehouse_(std::move(warehouse)), name_(std::move(name)), model_(std::move(shape)) {}

bool InteropTable::Create(const std::string& create_args) {
  return SluiceOk("create-database interop_db --warehouse " + ShellQuote(warehouse_),
                  name_ + " create-database") &&
         SluiceOk("create-table " + Where() + " " + create_args, name_ + " create-table");
}

std::string InteropTable::Where() const {
  return ShellQuote("interop_db." + name_) + " --warehouse " + ShellQuote(warehouse_);
}

std::string InteropTable::Dir() const { return warehouse_ + "/interop_db.db/" + name_; }

nlohmann::json InteropTable::JavaCommand(const std::string& cmd) const {
  return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", "interop_db." + name_}};
}

bool InteropTable::SluiceWrite(const std::vector<nlohmann::json>& rows) {
  const std::string input = warehouse_ + "/" + name_ + "-input.jsonl";
  {
    std::ofstream out(input);
    for (const nlohmann::json& row : rows) out << row.dump() << "\n";
  }
  if (!SluiceOk("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl",
                name_ + " sluice write")) {
    return false;
  }
  model_.Apply(rows, /*overwrite=*/false);
  return true;
}

bool InteropTable::JavaWrite(const std::vector<nlohmann::json>& rows) {
  nlohmann::json write = JavaCommand("write");
  write["rows"] = rows;
  OracleAnswer answer = Oracle()->Call(write);
  if (!answer.ok()) {
    ++Counts().mismatches;
    ADD_FAILURE() << name_ << ": Java write failed: " << answer.error();
    return false;
  }
  model_.Apply(rows, /*overwrite=*/false);
  return true;
}

void InteropTable::CompareLatest(const std::string& what,
                                 const std::vector<std::string>& expected) {
  SameRows(name_ + " " + what, JavaRead(JavaCommand("read"), columns()),
           SluiceRead(Where(), columns()), &expected);
  ++Counts().reads_compared;
  SluiceOk("check " + ShellQuote(Dir()), name_ + " check after " + what);
}

void InteropTable::VerifySnapshots() {
  for (int64_t id : SnapshotIds(Dir())) {
    nlohmann::json command = JavaCommand("read");
    command["snapshot"] = id;
    SameRows(name_ + " snapshot " + std::to_string(id), JavaRead(command, columns()),
             SluiceRead(Where() + " --snapshot " + std::to_string(id), columns()), nullptr);
    ++Counts().snapshots_compared;
  }
  Counts().files_compared += DataFileCount(Dir());
}

std::set<int32_t> InteropTable::BucketFolders() const {
  std::set<int32_t> buckets;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(Dir(), ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && name.rfind("bucket-", 0) == 0) {
      buckets.insert(std::stoi(name.substr(7)));
    }
  }
  return buckets;
}

std::map<std::string, std::set<std::pair<std::string, int32_t>>> InteropTable::KeyPlaces() {
  std::map<std::string, std::set<std::pair<std::string, int32_t>>> places;
  const TableShape& shape = model_.shape();
  for (int32_t bucket : BucketFolders()) {
    ReadRows rows = SluiceRead(Where() + " --bucket " + std::to_string(bucket), columns());
    if (!rows.rows) {
      ADD_FAILURE() << name_ << ": sluice read --bucket " << bucket << ": " << rows.error;
      return places;
    }
    for (const std::string& line : *rows.rows) {
      const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
      if (!row.is_object()) continue;
      places[FieldsText(row, shape.primary_keys)].insert(
          {FieldsText(row, shape.partition_keys), bucket});
    }
  }
  return places;
}

void InteropTable::ExpectOnePlacePerKey(const std::string& what) {
  for (const auto& [key, places] : KeyPlaces()) {
    if (places.size() != 1) {
      ++Counts().mismatches;
      ADD_FAILURE() << name_ << " after " << what << ": key " << key << " is read from "
                    << places.size() << " places";
    }
  }
}

}  // namespace sluice::test
