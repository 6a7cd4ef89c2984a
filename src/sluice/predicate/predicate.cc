#include "sluice/predicate/predicate.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "sluice/predicate/like_pattern.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

bool IsKeyword(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {"AND",  "OR",      "NOT",       "IS",   "NULL",
                                                   "IN",   "BETWEEN", "LIKE",      "TRUE", "FALSE",
                                                   "DATE", "TIME",    "TIMESTAMP", "X"};
  for (std::string_view k : kKeywords) {
    if (word.size() == k.size() &&
        std::equal(word.begin(), word.end(), k.begin(), [](char a, char b) {
          return std::toupper(static_cast<unsigned char>(a)) == b;
        })) {
      return true;
    }
  }
  return false;
}

std::string QuoteIdentifier(const std::string& name) {
  bool plain =
      !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) && !IsKeyword(name);
  for (char c : name) {
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$');
  }
  if (plain) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  return out + "`";
}

std::string QuoteString(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return out + "'";
}

std::string FormatFloating(double v, bool is_float) {
  if (std::isnan(v)) return "'NaN'";
  if (std::isinf(v)) return v > 0 ? "'Infinity'" : "'-Infinity'";
  char buf[64];
  auto res = is_float ? std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v))
                      : std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

std::string TrimFraction(std::string s) {
  // "12:00:00.120000000" -> "12:00:00.12"; "12:00:00.000000000" -> "12:00:00".
  size_t dot = s.rfind('.');
  if (dot == std::string::npos) return s;
  size_t end = s.find_last_not_of('0');
  s.erase(end == dot ? dot : end + 1);
  return s;
}

std::string FormatLiteral(const Value& v, const DataType& type) {
  if (v.is_null()) return "NULL";
  if (!ValueFitsType(v, type)) return v.DebugString();
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return v.boolean() ? "TRUE" : "FALSE";
    case TypeRoot::kDate:
      return "DATE '" + FormatDate(static_cast<int32_t>(v.AsInt64())) + "'";
    case TypeRoot::kTime: {
      int64_t millis = v.AsInt64();
      char buf[32];
      std::snprintf(
          buf, sizeof(buf), "%02lld:%02lld:%02lld.%03lld", static_cast<long long>(millis / 3600000),
          static_cast<long long>(millis / 60000 % 60), static_cast<long long>(millis / 1000 % 60),
          static_cast<long long>(millis % 1000));
      return "TIME '" + TrimFraction(buf) + "'";
    }
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return std::to_string(v.AsInt64());
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return v.kind() == Value::Kind::kFloat ? FormatFloating(v.float32(), true)
                                             : FormatFloating(v.float64(), false);
    case TypeRoot::kDecimal:
      return v.decimal().ToString();
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return QuoteString(v.bytes());
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : v.bytes()) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
      return out + "'";
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return "TIMESTAMP '" + TrimFraction(v.timestamp().ToString(9)) + "'";
    default:
      return v.DebugString();
  }
}

std::string_view ComparisonSymbol(PredicateOp op) {
  switch (op) {
    case PredicateOp::kEqual:
      return "=";
    case PredicateOp::kNotEqual:
      return "!=";
    case PredicateOp::kLessThan:
      return "<";
    case PredicateOp::kLessOrEqual:
      return "<=";
    case PredicateOp::kGreaterThan:
      return ">";
    case PredicateOp::kGreaterOrEqual:
      return ">=";
    default:
      return "?";
  }
}

}  // namespace

PredicatePtr Predicate::Leaf(PredicateOp op, int field_index, std::string field_name,
                             DataTypePtr field_type, std::vector<Value> literals) {
  assert(op < PredicateOp::kAnd);
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = op;
  p->field_index_ = field_index;
  p->field_name_ = std::move(field_name);
  p->field_type_ = std::move(field_type);
  p->literals_ = std::move(literals);
  return p;
}

PredicatePtr Predicate::Compound(PredicateOp op, std::vector<PredicatePtr> children) {
  if (children.size() == 1) return std::move(children[0]);
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = op;
  for (PredicatePtr& child : children) {
    // (a AND b) AND c is a AND b AND c: one node, so evaluation makes one pass per leaf.
    if (child->op_ == op) {
      p->children_.insert(p->children_.end(), child->children_.begin(), child->children_.end());
    } else {
      p->children_.push_back(std::move(child));
    }
  }
  return p;
}

PredicatePtr Predicate::And(std::vector<PredicatePtr> children) {
  return Compound(PredicateOp::kAnd, std::move(children));
}

PredicatePtr Predicate::Or(std::vector<PredicatePtr> children) {
  return Compound(PredicateOp::kOr, std::move(children));
}

PredicatePtr Predicate::Not(PredicatePtr child) {
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = PredicateOp::kNot;
  p->children_.push_back(std::move(child));
  return p;
}

PredicatePtr Predicate::Remap(std::span<const int> mapping) const {
  if (is_leaf()) {
    if (field_index_ < 0 || static_cast<size_t>(field_index_) >= mapping.size() ||
        mapping[static_cast<size_t>(field_index_)] < 0) {
      return nullptr;
    }
    return Leaf(op_, mapping[static_cast<size_t>(field_index_)], field_name_, field_type_,
                literals_);
  }
  std::vector<PredicatePtr> children;
  children.reserve(children_.size());
  for (const PredicatePtr& child : children_) {
    PredicatePtr mapped = child->Remap(mapping);
    if (mapped == nullptr) return nullptr;
    children.push_back(std::move(mapped));
  }
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = op_;
  p->children_ = std::move(children);
  return p;
}

namespace {

// A weaker predicate over the mapped fields (see RemapForPruning), or null.
PredicatePtr RemapWeaker(const Predicate& node, std::span<const int> mapping) {
  switch (node.op()) {
    case PredicateOp::kAnd: {
      std::vector<PredicatePtr> kept;
      for (const PredicatePtr& child : node.children()) {
        PredicatePtr mapped = RemapWeaker(*child, mapping);
        if (mapped != nullptr) kept.push_back(std::move(mapped));
      }
      if (kept.empty() && !node.children().empty()) return nullptr;
      return Predicate::And(std::move(kept));
    }
    case PredicateOp::kOr: {
      // Dropping a disjunct would make the predicate stronger: all must map.
      std::vector<PredicatePtr> mapped_children;
      for (const PredicatePtr& child : node.children()) {
        PredicatePtr mapped = RemapWeaker(*child, mapping);
        if (mapped == nullptr) return nullptr;
        mapped_children.push_back(std::move(mapped));
      }
      return Predicate::Or(std::move(mapped_children));
    }
    default:
      // Under NOT a weaker child would make a stronger predicate: map exactly.
      return node.Remap(mapping);
  }
}

void CollectFields(const Predicate& node, std::vector<int>* out) {
  if (node.is_leaf()) {
    out->push_back(node.field_index());
    return;
  }
  for (const PredicatePtr& child : node.children()) CollectFields(*child, out);
}

}  // namespace

PredicatePtr Predicate::RemapForPruning(std::span<const int> mapping) const {
  return RemapWeaker(*this, mapping);
}

std::vector<int> Predicate::ReferencedFields() const {
  std::vector<int> fields;
  CollectFields(*this, &fields);
  std::sort(fields.begin(), fields.end());
  fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
  return fields;
}

std::string Predicate::ToString() const {
  switch (op_) {
    case PredicateOp::kAnd:
    case PredicateOp::kOr: {
      if (children_.empty()) return op_ == PredicateOp::kAnd ? "TRUE" : "FALSE";
      std::string s = "(";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i > 0) s += op_ == PredicateOp::kAnd ? " AND " : " OR ";
        s += children_[i]->ToString();
      }
      return s + ")";
    }
    case PredicateOp::kNot: {
      if (children_.empty()) return "NOT NULL";
      const Predicate& child = *children_[0];
      return child.is_leaf() ? "NOT (" + child.ToString() + ")" : "NOT " + child.ToString();
    }
    default:
      break;
  }
  std::string s = QuoteIdentifier(field_name_);
  const DataType& type = *field_type_;
  auto literal = [&](size_t i) {
    return i < literals_.size() ? FormatLiteral(literals_[i], type) : std::string("NULL");
  };
  switch (op_) {
    case PredicateOp::kIsNull:
      return s + " IS NULL";
    case PredicateOp::kIsNotNull:
      return s + " IS NOT NULL";
    case PredicateOp::kIn:
    case PredicateOp::kNotIn: {
      s += op_ == PredicateOp::kIn ? " IN (" : " NOT IN (";
      for (size_t i = 0; i < literals_.size(); ++i) {
        if (i > 0) s += ", ";
        s += literal(i);
      }
      return s + ")";
    }
    case PredicateOp::kStartsWith:
      if (literals_.empty() || literals_[0].is_null()) return s + " LIKE NULL";
      return s + " LIKE " + QuoteString(LikePattern::Escape(literals_[0].bytes()) + "%");
    case PredicateOp::kLike:
      if (literals_.empty() || literals_[0].is_null()) return s + " LIKE NULL";
      return s + " LIKE " + QuoteString(literals_[0].bytes());
    default:
      return s + " " + std::string(ComparisonSymbol(op_)) + " " + literal(0);
  }
}

}  // namespace sluice