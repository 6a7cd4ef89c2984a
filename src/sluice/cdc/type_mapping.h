// TypeMapping: the `--type_mapping` options of Java's CDC actions (Java TypeMapping): how source
// types become Paimon types. Parsed from Java's comma-separated option names.
//
// Thread safety: a value type.
#pragma once

#include <set>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

enum class TypeMappingMode : unsigned char {
  kTinyInt1NotBool,         // tinyint1-not-bool: MySQL TINYINT(1) stays TINYINT
  kToNullable,              // to-nullable: NOT NULL is dropped (primary keys excepted)
  kToString,                // to-string: every column is STRING
  kCharToString,            // char-to-string: CHAR / VARCHAR become STRING
  kLongtextToBytes,         // longtext-to-bytes: MySQL LONGTEXT becomes BYTES
  kDecimalNoChange,         // decimal-no-change: DECIMAL precision / scale are not widened
  kBigintUnsignedToBigint,  // bigint-unsigned-to-bigint: BIGINT UNSIGNED stays BIGINT
  kAllowNonStringToString,  // allow-non-string-to-string: a column may change to STRING
};

class TypeMapping {
 public:
  TypeMapping() = default;
  // "to-string,char-to-string"; InvalidArgument naming an unknown option (as Java: "Unsupported
  // type mapping option: X").
  static Result<TypeMapping> Parse(std::string_view text);

  bool Contains(TypeMappingMode mode) const { return modes_.count(mode) > 0; }
  TypeMapping& Add(TypeMappingMode mode) {
    modes_.insert(mode);
    return *this;
  }

 private:
  std::set<TypeMappingMode> modes_;
};

}  // namespace sluice
