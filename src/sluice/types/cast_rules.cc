#include "sluice/types/cast_rules.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "sluice/types/data_type_family.h"

namespace sluice {

namespace {

using F = TypeFamily;
using R = TypeRoot;

// A set of roots as a bit mask.
using RootSet = uint32_t;
using FamilySet = uint16_t;

constexpr RootSet Roots(std::initializer_list<R> roots) {
  RootSet s = 0;
  for (R r : roots) s |= RootSet{1} << static_cast<int>(r);
  return s;
}

constexpr FamilySet Families(std::initializer_list<F> families) {
  FamilySet s = 0;
  for (F f : families) s |= static_cast<FamilySet>(1u << static_cast<int>(f));
  return s;
}

bool InRoots(RootSet s, R r) { return (s >> static_cast<int>(r)) & 1; }
bool InFamilies(FamilySet s, F f) { return (s >> static_cast<int>(f)) & 1; }

constexpr R kAllRoots[] = {
    R::kBoolean,  R::kTinyInt, R::kSmallInt,  R::kInt,          R::kBigInt, R::kFloat,
    R::kDouble,   R::kDecimal, R::kChar,      R::kVarChar,      R::kBinary, R::kVarBinary,
    R::kDate,     R::kTime,    R::kTimestamp, R::kTimestampLtz, R::kArray,  R::kMap,
    R::kMultiset, R::kRow,     R::kVariant,   R::kBlob,         R::kVector,
};

// The roots of any of `families`.
RootSet RootsOf(FamilySet families) {
  RootSet s = 0;
  for (R r : kAllRoots) {
    for (int f = 0; f < kNumTypeFamilies; ++f) {
      if (InFamilies(families, static_cast<F>(f)) && HasFamily(r, static_cast<F>(f))) {
        s |= Roots({r});
      }
    }
  }
  return s;
}

// ---- DataTypeCasts ---------------------------------------------------------------------------

struct CastSources {
  RootSet implicit_from;
  RootSet explicit_from;
};

// DataTypeCasts' static block: castTo(target).implicitFrom(...).explicitFrom(...). Targets it
// does not list keep the identity rule only.
CastSources CastSourcesOf(R target) {
  const RootSet cs = RootsOf(Families({F::kCharacterString}));
  const RootSet numeric = RootsOf(Families({F::kNumeric}));
  const RootSet to_number = numeric | cs | Roots({R::kBoolean, R::kTimestamp, R::kTimestampLtz});
  switch (target) {
    case R::kChar:
      return {Roots({R::kChar}), RootsOf(Families({F::kPredefined, F::kConstructed}))};
    case R::kVarChar:
      return {cs, RootsOf(Families({F::kPredefined, F::kConstructed}))};
    case R::kBoolean:
      return {Roots({R::kBoolean}), cs | RootsOf(Families({F::kIntegerNumeric}))};
    case R::kBinary:
      return {Roots({R::kBinary}), cs | Roots({R::kVarBinary})};
    case R::kVarBinary:
      return {RootsOf(Families({F::kBinaryString})), cs | Roots({R::kBinary})};
    case R::kDecimal:
      return {numeric, cs | Roots({R::kBoolean, R::kTimestamp, R::kTimestampLtz})};
    case R::kTinyInt:
      return {Roots({R::kTinyInt}), to_number};
    case R::kSmallInt:
      return {Roots({R::kTinyInt, R::kSmallInt}), to_number};
    case R::kInt:
      return {Roots({R::kTinyInt, R::kSmallInt, R::kInt}), to_number};
    case R::kBigInt:
      return {Roots({R::kTinyInt, R::kSmallInt, R::kInt, R::kBigInt}), to_number};
    case R::kFloat:
      return {Roots({R::kTinyInt, R::kSmallInt, R::kInt, R::kBigInt, R::kFloat, R::kDecimal}),
              to_number};
    case R::kDouble:
      return {numeric, cs | Roots({R::kBoolean, R::kTimestamp, R::kTimestampLtz})};
    case R::kDate:
      return {Roots({R::kDate, R::kTimestamp}), RootsOf(Families({F::kTimestamp})) | cs};
    case R::kTime:
      return {Roots({R::kTime, R::kTimestamp}), RootsOf(Families({F::kTime, F::kTimestamp})) | cs};
    case R::kTimestamp:
      return {Roots({R::kTimestamp, R::kTimestampLtz}),
              RootsOf(Families({F::kDatetime})) | cs | numeric};
    case R::kTimestampLtz:
      return {Roots({R::kTimestampLtz, R::kTimestamp}),
              RootsOf(Families({F::kDatetime})) | cs | numeric};
    default:
      return {Roots({target}), 0};
  }
}

// ---- CastExecutors ---------------------------------------------------------------------------

// One rule's CastRulePredicate: the inputs and targets it is registered under.
struct RulePredicate {
  CastRule rule;
  RootSet input_roots;
  FamilySet input_families;
  bool target_string_type;  // registered for VarCharType.STRING_TYPE itself
  RootSet target_roots;
  FamilySet target_families;
};

// CastExecutors' static block, in registration order.
const std::array<RulePredicate, 34>& Registry() {
  const RootSet ts = Roots({R::kTimestamp, R::kTimestampLtz});
  const FamilySet primitive = Families({F::kIntegerNumeric, F::kApproximateNumeric});
  const FamilySet cs = Families({F::kCharacterString});
  static const std::array<RulePredicate, 34> registry = {{
      {CastRule::kDecimalToDecimal, Roots({R::kDecimal}), 0, false, Roots({R::kDecimal}), 0},
      {CastRule::kNumericPrimitiveToDecimal, 0, primitive, false, Roots({R::kDecimal}), 0},
      {CastRule::kDecimalToNumericPrimitive, Roots({R::kDecimal}), 0, false, 0, primitive},
      {CastRule::kNumericPrimitive, 0, primitive, false, 0, primitive},
      {CastRule::kNumericPrimitiveToTimestamp, 0, Families({F::kNumeric}), false, ts, 0},
      {CastRule::kBooleanToNumeric, Roots({R::kBoolean}), 0, false, 0, Families({F::kNumeric})},
      {CastRule::kNumericToBoolean, 0, Families({F::kIntegerNumeric}), false, Roots({R::kBoolean}),
       0},
      {CastRule::kNumericToString, 0, Families({F::kNumeric}), false, 0, cs},
      {CastRule::kBooleanToString, Roots({R::kBoolean}), 0, false, 0, cs},
      {CastRule::kTimestampToString, 0, Families({F::kTimestamp}), true, 0, 0},
      {CastRule::kTimeToString, Roots({R::kTime}), 0, true, 0, 0},
      {CastRule::kDateToString, Roots({R::kDate}), 0, true, 0, 0},
      {CastRule::kStringToString, 0, cs, false, 0, cs},
      {CastRule::kArrayToString, Roots({R::kArray}), 0, false, 0, cs},
      {CastRule::kMapToString, Roots({R::kMap}), 0, false, 0, cs},
      {CastRule::kRowToString, Roots({R::kRow}), 0, false, 0, cs},
      {CastRule::kStringToBoolean, 0, cs, false, Roots({R::kBoolean}), 0},
      {CastRule::kStringToDecimal, 0, cs, false, Roots({R::kDecimal}), 0},
      {CastRule::kStringToNumericPrimitive, 0, cs, false, 0, primitive},
      {CastRule::kStringToDate, 0, cs, false, Roots({R::kDate}), 0},
      {CastRule::kStringToTime, 0, cs, false, Roots({R::kTime}), 0},
      {CastRule::kStringToTimestamp, 0, cs, false, 0, Families({F::kTimestamp})},
      {CastRule::kStringToBinary, 0, cs, false, 0, Families({F::kBinaryString})},
      {CastRule::kStringToArray, 0, cs, false, Roots({R::kArray}), 0},
      {CastRule::kStringToMap, 0, cs, false, Roots({R::kMap}), 0},
      {CastRule::kStringToRow, 0, cs, false, Roots({R::kRow}), 0},
      {CastRule::kTimestampToTimestamp, ts, 0, false, ts, 0},
      {CastRule::kTimestampToDate, ts, 0, false, Roots({R::kDate}), 0},
      {CastRule::kTimestampToTime, ts, 0, false, Roots({R::kTime}), 0},
      {CastRule::kDateToTimestamp, Roots({R::kDate}), 0, false, ts, 0},
      {CastRule::kTimeToTimestamp, Roots({R::kTime}), 0, false, ts, 0},
      {CastRule::kTimestampToNumericPrimitive, ts, 0, false, Roots({R::kBigInt, R::kInt}), 0},
      {CastRule::kBinaryToBinary, 0, Families({F::kBinaryString}), false, 0,
       Families({F::kBinaryString})},
      {CastRule::kBinaryToString, 0, Families({F::kBinaryString}), false, 0, cs},
  }};
  return registry;
}

// A key of CastExecutors' rule maps: a DataType (only STRING_TYPE is ever registered), a root
// or a family.
struct Key {
  enum class Kind : unsigned char { kStringType, kRoot, kFamily } kind;
  R root = R::kBoolean;
  F family = F::kPredefined;
};

bool Targets(const RulePredicate& p, const Key& k) {
  switch (k.kind) {
    case Key::Kind::kStringType:
      return p.target_string_type;
    case Key::Kind::kRoot:
      return InRoots(p.target_roots, k.root);
    case Key::Kind::kFamily:
      return InFamilies(p.target_families, k.family);
  }
  return false;
}

bool Inputs(const RulePredicate& p, const Key& k) {
  return k.kind == Key::Kind::kRoot ? InRoots(p.input_roots, k.root)
                                    : InFamilies(p.input_families, k.family);
}

// The root, then its families in declaration order (Java's EnumSet iteration).
void AppendRootAndFamilies(R root, std::vector<Key>* keys) {
  keys->push_back({Key::Kind::kRoot, root, F::kPredefined});
  for (int f = 0; f < kNumTypeFamilies; ++f) {
    if (HasFamily(root, static_cast<F>(f))) {
      keys->push_back({Key::Kind::kFamily, root, static_cast<F>(f)});
    }
  }
}

bool IsStringType(const DataType& t) {
  return t.root() == R::kVarChar && t.length() == DataType::kMaxLength && t.nullable();
}

// False where Java's rule.create() returns null for these types.
bool Creates(CastRule rule, const DataType& from) {
  if (rule == CastRule::kNumericPrimitiveToTimestamp) {
    return from.root() == R::kInt || from.root() == R::kBigInt;
  }
  return true;
}

}  // namespace

std::string_view CastRuleName(CastRule rule) {
  switch (rule) {
    case CastRule::kDecimalToDecimal:
      return "DecimalToDecimalCastRule";
    case CastRule::kNumericPrimitiveToDecimal:
      return "NumericPrimitiveToDecimalCastRule";
    case CastRule::kDecimalToNumericPrimitive:
      return "DecimalToNumericPrimitiveCastRule";
    case CastRule::kNumericPrimitive:
      return "NumericPrimitiveCastRule";
    case CastRule::kNumericPrimitiveToTimestamp:
      return "NumericPrimitiveToTimestamp";
    case CastRule::kBooleanToNumeric:
      return "BooleanToNumericCastRule";
    case CastRule::kNumericToBoolean:
      return "NumericToBooleanCastRule";
    case CastRule::kNumericToString:
      return "NumericToStringCastRule";
    case CastRule::kBooleanToString:
      return "BooleanToStringCastRule";
    case CastRule::kTimestampToString:
      return "TimestampToStringCastRule";
    case CastRule::kTimeToString:
      return "TimeToStringCastRule";
    case CastRule::kDateToString:
      return "DateToStringCastRule";
    case CastRule::kStringToString:
      return "StringToStringCastRule";
    case CastRule::kArrayToString:
      return "ArrayToStringCastRule";
    case CastRule::kMapToString:
      return "MapToStringCastRule";
    case CastRule::kRowToString:
      return "RowToStringCastRule";
    case CastRule::kStringToBoolean:
      return "StringToBooleanCastRule";
    case CastRule::kStringToDecimal:
      return "StringToDecimalCastRule";
    case CastRule::kStringToNumericPrimitive:
      return "StringToNumericPrimitiveCastRule";
    case CastRule::kStringToDate:
      return "StringToDateCastRule";
    case CastRule::kStringToTime:
      return "StringToTimeCastRule";
    case CastRule::kStringToTimestamp:
      return "StringToTimestampCastRule";
    case CastRule::kStringToBinary:
      return "StringToBinaryCastRule";
    case CastRule::kStringToArray:
      return "StringToArrayCastRule";
    case CastRule::kStringToMap:
      return "StringToMapCastRule";
    case CastRule::kStringToRow:
      return "StringToRowCastRule";
    case CastRule::kTimestampToTimestamp:
      return "TimestampToTimestampCastRule";
    case CastRule::kTimestampToDate:
      return "TimestampToDateCastRule";
    case CastRule::kTimestampToTime:
      return "TimestampToTimeCastRule";
    case CastRule::kDateToTimestamp:
      return "DateToTimestampCastRule";
    case CastRule::kTimeToTimestamp:
      return "TimeToTimestampCastRule";
    case CastRule::kTimestampToNumericPrimitive:
      return "TimestampToNumericPrimitiveCastRule";
    case CastRule::kBinaryToBinary:
      return "BinaryToBinaryCastRule";
    case CastRule::kBinaryToString:
      return "BinaryToStringCastRule";
  }
  return "?";
}

bool SupportsCast(const DataType& from, const DataType& to, bool allow_explicit) {
  // A NOT NULL type cannot hold a NULL, unless the caller knows the data.
  if (from.nullable() && !to.nullable() && !allow_explicit) return false;
  if (from.EqualsIgnoreNullable(to)) return true;
  const CastSources sources = CastSourcesOf(to.root());
  if (InRoots(sources.implicit_from, from.root())) return true;
  return allow_explicit && InRoots(sources.explicit_from, from.root());
}

std::optional<CastRule> ResolveCastRule(const DataType& from, const DataType& to) {
  std::vector<Key> target_keys;
  if (IsStringType(to)) target_keys.push_back({Key::Kind::kStringType});
  AppendRootAndFamilies(to.root(), &target_keys);
  std::vector<Key> input_keys;
  AppendRootAndFamilies(from.root(), &input_keys);
  const auto& registry = Registry();
  for (const Key& target : target_keys) {
    for (const Key& input : input_keys) {
      // The map holds the last rule registered under both keys.
      for (auto it = registry.rbegin(); it != registry.rend(); ++it) {
        if (Targets(*it, target) && Inputs(*it, input)) {
          if (!Creates(it->rule, from)) return std::nullopt;
          return it->rule;
        }
      }
    }
  }
  return std::nullopt;
}

bool SupportsSchemaTypeChange(const DataType& from, const DataType& to, bool allow_explicit) {
  return SupportsCast(from, to, allow_explicit) && ResolveCastRule(from, to).has_value();
}

}  // namespace sluice
