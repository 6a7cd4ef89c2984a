// ActionArguments: the command line of one of Java Paimon's actions, read as Java reads it
// (Flink's MultipleParameterTool behind Paimon's MultipleParameterToolAdapter): `--key value`
// pairs, a key given several times keeps every value (`--kafka_conf a=1 --kafka_conf b=2`), a
// key followed by another key or by nothing has no value. `-key` is read as `--key`, as Flink
// does.
//
// Values of keys naming a secret (password, secret, token, sasl.jaas) never appear in errors:
// MaskedOptionValue (base/secret_mask.h) replaces them.
//
// Thread safety: a value type.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/result.h"

namespace sluice {

class ActionArguments {
 public:
  // InvalidArgument for an argument that is not a key where a key is due (a stray value).
  static Result<ActionArguments> Parse(const std::vector<std::string>& args);

  bool Has(std::string_view key) const;
  // The value of a key given once; nullopt when absent. InvalidArgument when the key is given
  // several times ("--database is given 2 times, once is allowed") or without a value.
  Result<std::optional<std::string>> Get(std::string_view key) const;
  // As Get, InvalidArgument naming the key when it is absent.
  Result<std::string> Required(std::string_view key) const;
  // Every value of the key, in order (none when absent).
  std::vector<std::string> GetMulti(std::string_view key) const;
  // The `k=v` values of a repeated key (`--kafka_conf`, `--table_conf`, ...) in order, split at
  // the first '='. InvalidArgument naming the key and the (masked) value without '='.
  Result<std::vector<std::pair<std::string, std::string>>> ConfigMap(std::string_view key) const;

  // The keys given that are not in `known`, in order of first appearance.
  std::vector<std::string> UnknownKeys(const std::vector<std::string_view>& known) const;

 private:
  // Each key with its values (nullopt: given without a value), in order of first appearance.
  std::vector<std::pair<std::string, std::vector<std::optional<std::string>>>> entries_;
};

// The catalog options of an action (Java ActionFactory.catalogConfigMap): every
// `--catalog_conf KEY=VALUE`, with `warehouse` from `--warehouse W` unless --catalog_conf gives
// it (which wins, as in Java). The options other than warehouse and metastore configure the
// warehouse's file system (s3.endpoint, ...) or the metastore (CreateCatalog, which refuses what
// it cannot open). InvalidArgument when no warehouse is given.
Result<std::map<std::string, std::string>> ReadActionCatalogOptions(const ActionArguments& args);

// InvalidArgument "<action> does not take --a, --b" naming every key given that is not in
// `known`; OK otherwise. Java's actions ignore unknown keys; Sluice refuses them, so that a
// misspelt argument is not silently dropped.
Status CheckActionKeys(std::string_view action, const ActionArguments& args,
                       const std::vector<std::string_view>& known);

// The value of a Java boolean argument as Java reads it (Boolean.parseBoolean: "true" in any
// case is true, any other text false); nullopt when absent. InvalidArgument as Get.
Result<std::optional<bool>> ReadJavaBoolean(const ActionArguments& args, std::string_view key);

}  // namespace sluice
