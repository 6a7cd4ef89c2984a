// RowKind: the change type of a row (Paimon org.apache.paimon.types.RowKind). Stored as the
// header byte of every BinaryRow and as the `_VALUE_KIND` column of primary-key data files.
//
// Thread safety: constants and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sluice {

enum class RowKind : uint8_t {
  kInsert = 0,        // +I
  kUpdateBefore = 1,  // -U
  kUpdateAfter = 2,   // +U
  kDelete = 3,        // -D
};

// The byte Java writes (RowKind.toByteValue).
inline uint8_t RowKindToByte(RowKind kind) { return static_cast<uint8_t>(kind); }

// The kind of a stored byte, or nullopt for a byte outside 0..3.
inline std::optional<RowKind> RowKindFromByte(int value) {
  if (value < 0 || value > 3) return std::nullopt;
  return static_cast<RowKind>(value);
}

// "+I", "-U", "+U", "-D" (RowKind.shortString).
inline std::string_view RowKindShortString(RowKind kind) {
  switch (kind) {
    case RowKind::kInsert:
      return "+I";
    case RowKind::kUpdateBefore:
      return "-U";
    case RowKind::kUpdateAfter:
      return "+U";
    case RowKind::kDelete:
      return "-D";
  }
  return "?";
}

inline std::optional<RowKind> RowKindFromShortString(std::string_view s) {
  if (s == "+I") return RowKind::kInsert;
  if (s == "-U") return RowKind::kUpdateBefore;
  if (s == "+U") return RowKind::kUpdateAfter;
  if (s == "-D") return RowKind::kDelete;
  return std::nullopt;
}

// UPDATE_BEFORE and DELETE retract a previous row (RowKind.isRetract).
inline bool IsRetract(RowKind kind) {
  return kind == RowKind::kUpdateBefore || kind == RowKind::kDelete;
}

}  // namespace sluice
