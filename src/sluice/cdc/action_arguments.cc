#include "sluice/cdc/action_arguments.h"

#include <algorithm>
#include <cctype>

#include "sluice/secret_mask.h"

namespace sluice {

namespace {

// A key starts with '-' or "--" and is not a negative number (Flink's rule: "-1" is a value).
bool IsKey(std::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-') return false;
  return !(std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.');
}

}  // namespace

Result<ActionArguments> ActionArguments::Parse(const std::vector<std::string>& args) {
  ActionArguments parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!IsKey(arg)) {
      return Status::InvalidArgument("argument " + std::to_string(i + 1) + " ('" +
                                     MaskSecrets(arg) +
                                     "') is not a key: arguments are --key value pairs");
    }
    std::string key = arg.substr(arg[1] == '-' ? 2 : 1);
    if (key.empty()) {
      return Status::InvalidArgument("argument " + std::to_string(i + 1) + " is an empty key");
    }
    std::optional<std::string> value;
    if (i + 1 < args.size() && !IsKey(args[i + 1])) value = args[++i];
    auto it = std::find_if(parsed.entries_.begin(), parsed.entries_.end(),
                           [&](const auto& e) { return e.first == key; });
    if (it == parsed.entries_.end()) {
      parsed.entries_.emplace_back(std::move(key), std::vector<std::optional<std::string>>{});
      it = parsed.entries_.end() - 1;
    }
    it->second.push_back(std::move(value));
  }
  return parsed;
}

bool ActionArguments::Has(std::string_view key) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const auto& e) { return e.first == key; });
}

Result<std::optional<std::string>> ActionArguments::Get(std::string_view key) const {
  for (const auto& [name, values] : entries_) {
    if (name != key) continue;
    if (values.size() > 1) {
      return Status::InvalidArgument("--" + name + " is given " + std::to_string(values.size()) +
                                     " times, once is allowed");
    }
    if (!values[0]) return Status::InvalidArgument("--" + name + " needs a value");
    return values[0];
  }
  return std::optional<std::string>();
}

Result<std::string> ActionArguments::Required(std::string_view key) const {
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> value, Get(key));
  if (!value) return Status::InvalidArgument("argument --" + std::string(key) + " is required");
  return std::move(*value);
}

std::vector<std::string> ActionArguments::GetMulti(std::string_view key) const {
  std::vector<std::string> out;
  for (const auto& [name, values] : entries_) {
    if (name != key) continue;
    for (const auto& value : values) {
      if (value) out.push_back(*value);
    }
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> ActionArguments::ConfigMap(
    std::string_view key) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& value : GetMulti(key)) {
    size_t eq = value.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument("--" + std::string(key) + " value '" +
                                     MaskedOptionValue(value, value) + "' is not a key=value pair");
    }
    out.emplace_back(value.substr(0, eq), value.substr(eq + 1));
  }
  return out;
}

std::vector<std::string> ActionArguments::UnknownKeys(
    const std::vector<std::string_view>& known) const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) {
    if (std::find(known.begin(), known.end(), entry.first) == known.end()) {
      out.push_back(entry.first);
    }
  }
  return out;
}

Result<std::map<std::string, std::string>> ReadActionCatalogOptions(const ActionArguments& args) {
  SLUICE_ASSIGN_OR_RETURN(auto catalog_conf, args.ConfigMap("catalog_conf"));
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> warehouse, args.Get("warehouse"));
  std::map<std::string, std::string> options;
  if (warehouse) options["warehouse"] = *warehouse;
  // As Java: a `warehouse` in --catalog_conf wins over --warehouse.
  for (const auto& [key, value] : catalog_conf) options[key] = value;
  if (options["warehouse"].empty()) {
    return Status::InvalidArgument(
        "argument --warehouse (or --catalog_conf warehouse=...) is required");
  }
  return options;
}

Status CheckActionKeys(std::string_view action, const ActionArguments& args,
                       const std::vector<std::string_view>& known) {
  std::vector<std::string> unknown = args.UnknownKeys(known);
  if (unknown.empty()) return Status::OK();
  std::string list;
  for (const std::string& key : unknown) list += (list.empty() ? "--" : ", --") + key;
  return Status::InvalidArgument(std::string(action) + " does not take " + list);
}

Result<std::optional<bool>> ReadJavaBoolean(const ActionArguments& args, std::string_view key) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> value, args.Get(key));
  if (!value) return std::optional<bool>();
  std::string lower = *value;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::optional<bool>(lower == "true");
}

}  // namespace sluice
