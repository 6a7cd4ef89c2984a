#include "sluice/predicate/predicate_parser.h"

#include <cctype>
#include <string>
#include <vector>

#include "sluice/predicate/like_pattern.h"
#include "sluice/predicate/literal.h"

namespace sluice {

namespace {

// Deeper nesting is refused instead of risking the stack.
constexpr int kMaxDepth = 256;

struct Token {
  enum class Kind : unsigned char { kEnd, kWord, kQuotedName, kNumber, kString, kSymbol };
  Kind kind = Kind::kEnd;
  std::string text;  // word, name, number, string content (quotes resolved) or symbol
  size_t pos = 0;    // 0-based offset of the first character
  size_t end = 0;    // 0-based offset just past the token
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) !=
        std::toupper(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool IsWordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool IsWordChar(char c) {
  return IsWordStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$';
}

bool IsDigit(std::string_view s, size_t i) {
  return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
}

// Words that can never name a column unless backquoted.
bool IsReserved(std::string_view word) {
  static constexpr std::string_view kReserved[] = {"AND", "OR",      "NOT",  "IS",   "NULL",
                                                   "IN",  "BETWEEN", "LIKE", "TRUE", "FALSE"};
  for (std::string_view r : kReserved) {
    if (EqualsIgnoreCase(word, r)) return true;
  }
  return false;
}

std::optional<PredicateOp> ComparisonOp(const Token& t) {
  if (t.kind != Token::Kind::kSymbol) return std::nullopt;
  if (t.text == "=" || t.text == "==") return PredicateOp::kEqual;
  if (t.text == "!=" || t.text == "<>") return PredicateOp::kNotEqual;
  if (t.text == "<") return PredicateOp::kLessThan;
  if (t.text == "<=") return PredicateOp::kLessOrEqual;
  if (t.text == ">") return PredicateOp::kGreaterThan;
  if (t.text == ">=") return PredicateOp::kGreaterOrEqual;
  return std::nullopt;
}

// `literal op column` is `column Mirror(op) literal`.
PredicateOp Mirror(PredicateOp op) {
  switch (op) {
    case PredicateOp::kLessThan:
      return PredicateOp::kGreaterThan;
    case PredicateOp::kLessOrEqual:
      return PredicateOp::kGreaterOrEqual;
    case PredicateOp::kGreaterThan:
      return PredicateOp::kLessThan;
    case PredicateOp::kGreaterOrEqual:
      return PredicateOp::kLessOrEqual;
    default:
      return op;
  }
}

class Parser {
 public:
  Parser(std::string_view text, const DataType& row_type) : text_(text), row_type_(row_type) {}

  Result<PredicatePtr> Parse() {
    SLUICE_RETURN_NOT_OK(Tokenize());
    SLUICE_ASSIGN_OR_RETURN(PredicatePtr p, ParseOr(0));
    if (Peek().kind != Token::Kind::kEnd) {
      return Error(Peek().pos, "unexpected " + Describe(Peek()));
    }
    return p;
  }

 private:
  // --- Errors ---

  Status Error(size_t pos, const std::string& message) const {
    return Status::InvalidArgument(message + " at position " + std::to_string(pos + 1) +
                                   " in: " + std::string(text_));
  }

  static std::string Describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::kEnd:
        return "end of expression";
      case Token::Kind::kString:
        return "string '" + t.text + "'";
      case Token::Kind::kQuotedName:
        return "`" + t.text + "`";
      default:
        return "'" + t.text + "'";
    }
  }

  // --- Tokens ---

  Status Tokenize() {
    size_t i = 0;
    while (true) {
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      Token t;
      t.pos = i;
      if (i >= text_.size()) {
        t.end = i;
        tokens_.push_back(std::move(t));
        return Status::OK();
      }
      char c = text_[i];
      if (IsWordStart(c)) {
        t.kind = Token::Kind::kWord;
        while (i < text_.size() && IsWordChar(text_[i])) ++i;
        t.text = std::string(text_.substr(t.pos, i - t.pos));
      } else if (c == '`' || c == '\'') {
        t.kind = c == '`' ? Token::Kind::kQuotedName : Token::Kind::kString;
        ++i;
        bool closed = false;
        while (i < text_.size()) {
          if (text_[i] == c) {
            if (i + 1 < text_.size() && text_[i + 1] == c) {
              t.text.push_back(c);
              i += 2;
              continue;
            }
            ++i;
            closed = true;
            break;
          }
          t.text.push_back(text_[i++]);
        }
        if (!closed) {
          return Error(t.pos, c == '`' ? "unterminated quoted name" : "unterminated string");
        }
      } else if (IsDigit(text_, i) || (c == '.' && IsDigit(text_, i + 1))) {
        t.kind = Token::Kind::kNumber;
        while (IsDigit(text_, i)) ++i;
        if (i < text_.size() && text_[i] == '.') {
          ++i;
          while (IsDigit(text_, i)) ++i;
        }
        if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
          size_t j = i + 1;
          if (j < text_.size() && (text_[j] == '+' || text_[j] == '-')) ++j;
          if (IsDigit(text_, j)) {
            i = j;
            while (IsDigit(text_, i)) ++i;
          }
        }
        if (i < text_.size() && IsWordChar(text_[i])) {
          return Error(
              t.pos, "malformed number '" + std::string(text_.substr(t.pos, i + 1 - t.pos)) + "'");
        }
        t.text = std::string(text_.substr(t.pos, i - t.pos));
      } else {
        static constexpr std::string_view kSymbols[] = {"<=", ">=", "<>", "!=", "==", "=", "<",
                                                        ">",  "(",  ")",  ",",  "-",  "+"};
        t.kind = Token::Kind::kSymbol;
        for (std::string_view s : kSymbols) {
          if (text_.substr(i, s.size()) == s) {
            t.text = std::string(s);
            break;
          }
        }
        if (t.text.empty()) {
          return Error(i, "unexpected character '" + std::string(1, c) + "'");
        }
        i += t.text.size();
      }
      t.end = i;
      tokens_.push_back(std::move(t));
    }
  }

  const Token& Peek(size_t ahead = 0) const {
    size_t i = next_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Advance() {
    const Token& t = Peek();
    if (next_ + 1 < tokens_.size()) ++next_;
    return t;
  }
  bool IsKeyword(const Token& t, std::string_view keyword) const {
    return t.kind == Token::Kind::kWord && EqualsIgnoreCase(t.text, keyword);
  }
  bool IsSymbol(const Token& t, std::string_view symbol) const {
    return t.kind == Token::Kind::kSymbol && t.text == symbol;
  }
  Status Expect(std::string_view what, bool ok) {
    if (ok) {
      Advance();
      return Status::OK();
    }
    return Error(Peek().pos, "expected " + std::string(what) + " but found " + Describe(Peek()));
  }

  // --- Boolean structure ---

  Result<PredicatePtr> ParseOr(int depth) {
    if (depth > kMaxDepth) return Error(Peek().pos, "expression nested too deeply");
    std::vector<PredicatePtr> children;
    SLUICE_ASSIGN_OR_RETURN(PredicatePtr first, ParseAnd(depth));
    children.push_back(std::move(first));
    while (IsKeyword(Peek(), "OR")) {
      Advance();
      SLUICE_ASSIGN_OR_RETURN(PredicatePtr next, ParseAnd(depth));
      children.push_back(std::move(next));
    }
    return Predicate::Or(std::move(children));
  }

  Result<PredicatePtr> ParseAnd(int depth) {
    std::vector<PredicatePtr> children;
    SLUICE_ASSIGN_OR_RETURN(PredicatePtr first, ParseNot(depth));
    children.push_back(std::move(first));
    while (IsKeyword(Peek(), "AND")) {
      Advance();
      SLUICE_ASSIGN_OR_RETURN(PredicatePtr next, ParseNot(depth));
      children.push_back(std::move(next));
    }
    return Predicate::And(std::move(children));
  }

  Result<PredicatePtr> ParseNot(int depth) {
    if (IsKeyword(Peek(), "NOT")) {
      if (depth > kMaxDepth) return Error(Peek().pos, "expression nested too deeply");
      Advance();
      SLUICE_ASSIGN_OR_RETURN(PredicatePtr child, ParseNot(depth + 1));
      return Predicate::Not(std::move(child));
    }
    return ParsePrimary(depth);
  }

  Result<PredicatePtr> ParsePrimary(int depth) {
    if (IsSymbol(Peek(), "(")) {
      Advance();
      SLUICE_ASSIGN_OR_RETURN(PredicatePtr inner, ParseOr(depth + 1));
      SLUICE_RETURN_NOT_OK(Expect("')'", IsSymbol(Peek(), ")")));
      return inner;
    }
    if (AtLiteral()) {
      // literal op column
      SLUICE_ASSIGN_OR_RETURN(PositionedLiteral literal, ParseLiteral());
      std::optional<PredicateOp> op = ComparisonOp(Peek());
      if (!op.has_value()) {
        return Error(Peek().pos, "expected a comparison after " + literal.literal.ToString() +
                                     " but found " + Describe(Peek()));
      }
      Advance();
      SLUICE_ASSIGN_OR_RETURN(int field, ParseColumn());
      return MakeLeaf(Mirror(*op), field, {std::move(literal)});
    }
    size_t column_pos = Peek().pos;
    SLUICE_ASSIGN_OR_RETURN(int field, ParseColumn());
    return ParseColumnTail(field, column_pos);
  }

  // --- Leaves ---

  Result<int> ParseColumn() {
    const Token& t = Peek();
    if (t.kind != Token::Kind::kQuotedName &&
        (t.kind != Token::Kind::kWord || IsReserved(t.text))) {
      return Error(t.pos, "expected a column but found " + Describe(t));
    }
    int index = row_type_.FieldIndex(t.text);
    if (index < 0) {
      std::string message = "unknown column '" + t.text + "'";
      for (const DataField& f : row_type_.fields()) {
        if (EqualsIgnoreCase(f.name, t.text)) {
          message += " (did you mean '" + f.name + "'? names are case-sensitive)";
          break;
        }
      }
      return Error(t.pos, message);
    }
    Advance();
    return index;
  }

  Result<PredicatePtr> ParseColumnTail(int field, size_t column_pos) {
    const DataField& f = row_type_.fields()[static_cast<size_t>(field)];
    if (std::optional<PredicateOp> op = ComparisonOp(Peek())) {
      Advance();
      SLUICE_ASSIGN_OR_RETURN(PositionedLiteral literal, ParseLiteral());
      return MakeLeaf(*op, field, {std::move(literal)});
    }
    if (IsKeyword(Peek(), "IS")) {
      Advance();
      bool negated = IsKeyword(Peek(), "NOT");
      if (negated) Advance();
      SLUICE_RETURN_NOT_OK(Expect("NULL", IsKeyword(Peek(), "NULL")));
      return MakeLeaf(negated ? PredicateOp::kIsNotNull : PredicateOp::kIsNull, field, {});
    }
    bool negated = false;
    if (IsKeyword(Peek(), "NOT")) {
      negated = true;
      Advance();
      if (!IsKeyword(Peek(), "IN") && !IsKeyword(Peek(), "BETWEEN") && !IsKeyword(Peek(), "LIKE")) {
        return Error(Peek().pos,
                     "expected IN, BETWEEN or LIKE after NOT but found " + Describe(Peek()));
      }
    }
    if (IsKeyword(Peek(), "IN")) {
      Advance();
      SLUICE_RETURN_NOT_OK(Expect("'(' after IN", IsSymbol(Peek(), "(")));
      std::vector<PositionedLiteral> literals;
      while (true) {
        SLUICE_ASSIGN_OR_RETURN(PositionedLiteral literal, ParseLiteral());
        literals.push_back(std::move(literal));
        if (IsSymbol(Peek(), ",")) {
          Advance();
          continue;
        }
        SLUICE_RETURN_NOT_OK(Expect("',' or ')'", IsSymbol(Peek(), ")")));
        break;
      }
      return MakeLeaf(negated ? PredicateOp::kNotIn : PredicateOp::kIn, field, std::move(literals));
    }
    if (IsKeyword(Peek(), "BETWEEN")) {
      Advance();
      SLUICE_ASSIGN_OR_RETURN(PositionedLiteral low, ParseLiteral());
      SLUICE_RETURN_NOT_OK(Expect("AND in BETWEEN", IsKeyword(Peek(), "AND")));
      SLUICE_ASSIGN_OR_RETURN(PositionedLiteral high, ParseLiteral());
      if (negated) {
        SLUICE_ASSIGN_OR_RETURN(PredicatePtr below,
                                MakeLeaf(PredicateOp::kLessThan, field, {std::move(low)}));
        SLUICE_ASSIGN_OR_RETURN(PredicatePtr above,
                                MakeLeaf(PredicateOp::kGreaterThan, field, {std::move(high)}));
        return Predicate::Or({std::move(below), std::move(above)});
      }
      SLUICE_ASSIGN_OR_RETURN(PredicatePtr from,
                              MakeLeaf(PredicateOp::kGreaterOrEqual, field, {std::move(low)}));
      SLUICE_ASSIGN_OR_RETURN(PredicatePtr to,
                              MakeLeaf(PredicateOp::kLessOrEqual, field, {std::move(high)}));
      return Predicate::And({std::move(from), std::move(to)});
    }
    if (IsKeyword(Peek(), "LIKE")) {
      Advance();
      SLUICE_ASSIGN_OR_RETURN(PredicatePtr like, ParseLike(field, column_pos));
      return negated ? Predicate::Not(std::move(like)) : like;
    }
    if (f.type->root() == TypeRoot::kBoolean && EndsPrimary(Peek())) {
      // A bare BOOLEAN column is a test for TRUE.
      return Predicate::Leaf(PredicateOp::kEqual, field, f.name, f.type, {Value::Boolean(true)});
    }
    return Error(Peek().pos, "expected an operator after column '" + f.name + "' but found " +
                                 Describe(Peek()));
  }

  bool EndsPrimary(const Token& t) const {
    return t.kind == Token::Kind::kEnd || IsSymbol(t, ")") || IsKeyword(t, "AND") ||
           IsKeyword(t, "OR");
  }

  Result<PredicatePtr> ParseLike(int field, size_t column_pos) {
    const DataField& f = row_type_.fields()[static_cast<size_t>(field)];
    if (!f.type->IsString() && !f.type->IsBinary()) {
      return Error(column_pos,
                   "LIKE needs a string column but '" + f.name + "' is " + f.type->ToString());
    }
    const Token& t = Peek();
    if (IsKeyword(t, "NULL")) {
      Advance();
      return Predicate::Leaf(PredicateOp::kLike, field, f.name, f.type, {Value::Null()});
    }
    if (t.kind != Token::Kind::kString) {
      return Error(t.pos, "expected a quoted pattern after LIKE but found " + Describe(t));
    }
    std::string pattern = Advance().text;
    auto bytes = [&](std::string s) {
      return f.type->IsString() ? Value::String(std::move(s)) : Value::Binary(std::move(s));
    };
    LikePattern compiled = LikePattern::Compile(pattern);
    if (compiled.is_exact()) {
      return Predicate::Leaf(PredicateOp::kEqual, field, f.name, f.type,
                             {bytes(compiled.fixed_prefix())});
    }
    if (compiled.is_prefix()) {
      return Predicate::Leaf(PredicateOp::kStartsWith, field, f.name, f.type,
                             {bytes(compiled.fixed_prefix())});
    }
    return Predicate::Leaf(PredicateOp::kLike, field, f.name, f.type, {bytes(pattern)});
  }

  // --- Literals ---

  struct PositionedLiteral {
    Literal literal;
    size_t pos = 0;
  };

  bool IsTypedLiteralWord(const Token& t) const {
    return IsKeyword(t, "DATE") || IsKeyword(t, "TIME") || IsKeyword(t, "TIMESTAMP");
  }
  bool IsHexPrefix(const Token& t, const Token& next) const {
    return IsKeyword(t, "X") && next.kind == Token::Kind::kString && next.pos == t.end;
  }

  bool AtLiteral() const {
    const Token& t = Peek();
    const Token& next = Peek(1);
    switch (t.kind) {
      case Token::Kind::kNumber:
      case Token::Kind::kString:
        return true;
      case Token::Kind::kSymbol:
        return (t.text == "-" || t.text == "+") && next.kind == Token::Kind::kNumber;
      case Token::Kind::kWord:
        return IsKeyword(t, "TRUE") || IsKeyword(t, "FALSE") || IsKeyword(t, "NULL") ||
               (IsTypedLiteralWord(t) && next.kind == Token::Kind::kString) || IsHexPrefix(t, next);
      default:
        return false;
    }
  }

  Result<PositionedLiteral> ParseLiteral() {
    if (!AtLiteral()) {
      return Error(Peek().pos, "expected a literal but found " + Describe(Peek()));
    }
    PositionedLiteral out;
    out.pos = Peek().pos;
    Literal& lit = out.literal;
    const Token t = Advance();
    switch (t.kind) {
      case Token::Kind::kNumber:
        lit.kind = Literal::Kind::kNumber;
        lit.text = t.text;
        return out;
      case Token::Kind::kString:
        lit.kind = Literal::Kind::kString;
        lit.text = t.text;
        return out;
      case Token::Kind::kSymbol:
        lit.kind = Literal::Kind::kNumber;
        lit.text = t.text + Advance().text;
        return out;
      default:
        break;
    }
    if (IsKeyword(t, "TRUE") || IsKeyword(t, "FALSE")) {
      lit.kind = Literal::Kind::kBoolean;
      lit.boolean = IsKeyword(t, "TRUE");
      return out;
    }
    if (IsKeyword(t, "NULL")) {
      lit.kind = Literal::Kind::kNull;
      return out;
    }
    const Token& content = Advance();
    lit.text = content.text;
    if (IsKeyword(t, "DATE")) {
      lit.kind = Literal::Kind::kDate;
    } else if (IsKeyword(t, "TIME")) {
      lit.kind = Literal::Kind::kTime;
    } else if (IsKeyword(t, "TIMESTAMP")) {
      lit.kind = Literal::Kind::kTimestamp;
    } else {
      lit.kind = Literal::Kind::kBinary;
      SLUICE_ASSIGN_OR_RETURN(lit.text, DecodeHex(content.text, out.pos));
    }
    return out;
  }

  Result<std::string> DecodeHex(std::string_view hex, size_t pos) const {
    auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    if (hex.size() % 2 != 0) return Error(pos, "binary literal needs an even number of hex digits");
    std::string out;
    for (size_t i = 0; i < hex.size(); i += 2) {
      int hi = nibble(hex[i]);
      int lo = nibble(hex[i + 1]);
      if (hi < 0 || lo < 0) return Error(pos, "binary literal has a non-hex digit");
      out.push_back(static_cast<char>(hi * 16 + lo));
    }
    return out;
  }

  Result<PredicatePtr> MakeLeaf(PredicateOp op, int field,
                                std::vector<PositionedLiteral> literals) {
    const DataField& f = row_type_.fields()[static_cast<size_t>(field)];
    std::vector<Value> values;
    values.reserve(literals.size());
    for (const PositionedLiteral& l : literals) {
      Result<Value> v = ConvertLiteral(l.literal, *f.type);
      if (!v.ok()) return Error(l.pos, v.status().message() + " (column '" + f.name + "')");
      values.push_back(std::move(v).value());
    }
    return Predicate::Leaf(op, field, f.name, f.type, std::move(values));
  }

  std::string_view text_;
  const DataType& row_type_;
  std::vector<Token> tokens_;
  size_t next_ = 0;
};

}  // namespace

Result<PredicatePtr> ParsePredicate(std::string_view text, const DataType& row_type) {
  if (row_type.root() != TypeRoot::kRow) {
    return Status::InvalidArgument("a predicate needs a ROW type, not " + row_type.ToString());
  }
  return Parser(text, row_type).Parse();
}

}  // namespace sluice
