#include "interop/table_model.h"

#include <algorithm>
#include <set>

namespace sluice::test {

namespace {

// Orders two JSON values of one column type: numbers by value, decimals by their numeric
// value, dates / timestamps (fixed-width text) as text.
int Compare(const nlohmann::json& a, const nlohmann::json& b, const DataTypePtr& type) {
  if (type->root() == TypeRoot::kDecimal) {
    const long double x = std::stold(a.get<std::string>());
    const long double y = std::stold(b.get<std::string>());
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.is_number_integer() && b.is_number_integer()) {
    const int64_t x = a.get<int64_t>();
    const int64_t y = b.get<int64_t>();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>();
    const double y = b.get<double>();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

}  // namespace

const Column* TableShape::Find(const std::string& name) const {
  for (const Column& column : columns) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

std::string TableModel::KeyOf(const nlohmann::json& row) const {
  nlohmann::json key = nlohmann::json::array();
  for (const std::string& k : shape_.primary_keys) key.push_back(row.value(k, nlohmann::json()));
  return key.dump();
}

std::string TableModel::PartitionOf(const nlohmann::json& row) const {
  nlohmann::json key = nlohmann::json::array();
  for (const std::string& k : shape_.partition_keys) {
    key.push_back(row.value(k, nlohmann::json()));
  }
  return key.dump();
}

void TableModel::Merge(const nlohmann::json& input,
                       std::map<std::string, nlohmann::json>* keyed) const {
  nlohmann::json row = input;
  const std::string kind = row.value("_ROW_KIND", std::string("+I"));
  row.erase("_ROW_KIND");
  for (const Column& column : shape_.columns) {
    if (!row.contains(column.name)) row[column.name] = nullptr;
  }
  const std::string key = KeyOf(row);
  auto it = keyed->find(key);
  const bool retract = kind == "-D" || kind == "-U";
  const std::string& engine = shape_.merge_engine;
  if (engine == "deduplicate") {
    if (!shape_.sequence_field.empty() && it != keyed->end()) {
      const Column* seq = shape_.Find(shape_.sequence_field);
      const nlohmann::json& old_seq = it->second[shape_.sequence_field];
      const nlohmann::json& new_seq = row[shape_.sequence_field];
      // Nulls order first; a tie goes to the later record.
      const bool older = new_seq.is_null()
                             ? !old_seq.is_null()
                             : (!old_seq.is_null() && Compare(new_seq, old_seq, seq->type) < 0);
      if (older) return;
    }
    if (retract) {
      if (it != keyed->end()) keyed->erase(it);
      return;
    }
    (*keyed)[key] = row;
    return;
  }
  if (engine == "first-row") {
    if (!retract && it == keyed->end()) (*keyed)[key] = row;
    return;
  }
  if (it == keyed->end()) {
    if (engine == "partial-update") {
      // The first record of a key is the row, whatever its sequence groups hold.
      (*keyed)[key] = row;
      return;
    }
    // Aggregation starts from an all-null row holding the key.
    nlohmann::json fresh = nlohmann::json::object();
    for (const Column& column : shape_.columns) fresh[column.name] = nullptr;
    for (const std::string& k : shape_.primary_keys) fresh[k] = row[k];
    it = keyed->emplace(key, fresh).first;
  }
  nlohmann::json& acc = it->second;
  if (engine == "partial-update") {
    std::set<std::string> grouped;
    for (const auto& [seq, fields] : shape_.sequence_groups) {
      grouped.insert(seq);
      grouped.insert(fields.begin(), fields.end());
      if (row[seq].is_null()) continue;
      const Column* seq_column = shape_.Find(seq);
      if (!acc[seq].is_null() && Compare(row[seq], acc[seq], seq_column->type) < 0) continue;
      acc[seq] = row[seq];
      for (const std::string& f : fields) acc[f] = row[f];
    }
    for (const Column& column : shape_.columns) {
      if (grouped.count(column.name) != 0) continue;
      if (!row[column.name].is_null()) acc[column.name] = row[column.name];
    }
    return;
  }
  // aggregation
  for (const Column& column : shape_.columns) {
    const std::string& name = column.name;
    if (std::find(shape_.primary_keys.begin(), shape_.primary_keys.end(), name) !=
        shape_.primary_keys.end()) {
      continue;
    }
    auto fn_it = shape_.aggregate_functions.find(name);
    const std::string fn =
        fn_it == shape_.aggregate_functions.end() ? "last_non_null_value" : fn_it->second;
    const nlohmann::json& in = row[name];
    nlohmann::json& out = acc[name];
    if (fn == "last_value") {
      out = in;
    } else if (fn == "last_non_null_value") {
      if (!in.is_null()) out = in;
    } else if (fn == "first_non_null_value") {
      if (out.is_null()) out = in;
    } else if (in.is_null()) {
      continue;
    } else if (out.is_null()) {
      out = in;
    } else if (fn == "sum") {
      if (column.type->root() == TypeRoot::kDouble) {
        out = out.get<double>() + in.get<double>();
      } else {
        // Java's long arithmetic wraps.
        out = static_cast<int64_t>(static_cast<uint64_t>(out.get<int64_t>()) +
                                   static_cast<uint64_t>(in.get<int64_t>()));
      }
    } else if (fn == "max") {
      if (Compare(in, out, column.type) > 0) out = in;
    } else if (fn == "min") {
      if (Compare(in, out, column.type) < 0) out = in;
    }
  }
}

void TableModel::Apply(const std::vector<nlohmann::json>& rows, bool overwrite) {
  if (overwrite) {
    std::set<std::string> partitions;
    for (const nlohmann::json& row : rows) partitions.insert(PartitionOf(row));
    std::erase_if(appended_,
                  [&](const nlohmann::json& r) { return partitions.count(PartitionOf(r)) != 0; });
    std::erase_if(keyed_,
                  [&](const auto& e) { return partitions.count(PartitionOf(e.second)) != 0; });
  }
  for (const nlohmann::json& row : rows) {
    if (shape_.primary_keys.empty()) {
      nlohmann::json copy = row;
      copy.erase("_ROW_KIND");
      appended_.push_back(std::move(copy));
    } else {
      Merge(row, &keyed_);
    }
  }
}

template <typename F>
void TableModel::ForEachRow(F f) {
  for (nlohmann::json& row : appended_) f(row);
  for (auto& [key, row] : keyed_) f(row);
}

void TableModel::AddColumn(const Column& column) {
  shape_.columns.push_back(column);
  ForEachRow([&](nlohmann::json& row) { row[column.name] = nullptr; });
}

void TableModel::RenameColumn(const std::string& from, const std::string& to) {
  for (Column& column : shape_.columns) {
    if (column.name == from) column.name = to;
  }
  ForEachRow([&](nlohmann::json& row) {
    row[to] = row.value(from, nlohmann::json());
    row.erase(from);
  });
}

void TableModel::DropColumn(const std::string& name) {
  std::erase_if(shape_.columns, [&](const Column& c) { return c.name == name; });
  ForEachRow([&](nlohmann::json& row) { row.erase(name); });
}

void TableModel::ChangeColumnType(const std::string& name, const DataTypePtr& type) {
  for (Column& column : shape_.columns) {
    if (column.name == name) column.type = type;
  }
}

std::vector<std::string> TableModel::Rows() const {
  std::vector<std::string> out;
  for (const nlohmann::json& row : appended_) out.push_back(NormalizeRow(row, shape_.columns));
  for (const auto& [key, row] : keyed_) out.push_back(NormalizeRow(row, shape_.columns));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sluice::test
