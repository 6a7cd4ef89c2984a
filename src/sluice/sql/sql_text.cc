#include "sluice/sql/sql_text.h"

#include <cctype>

namespace sluice::sql {

namespace {

bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsWordPart(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// The end of the quoted run starting at `pos` (the opening quote), doubled quotes inside; npos
// when it does not end.
size_t QuotedEnd(std::string_view text, size_t pos) {
  char quote = text[pos];
  for (size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] != quote) continue;
    if (i + 1 < text.size() && text[i + 1] == quote) {
      ++i;
      continue;
    }
    return i + 1;
  }
  return std::string_view::npos;
}

// The end of the comment starting at `pos`, or `pos` when none starts there; npos when a block
// comment does not end.
size_t CommentEnd(std::string_view text, size_t pos) {
  if (text.compare(pos, 2, "--") == 0) {
    size_t end = text.find('\n', pos);
    return end == std::string_view::npos ? text.size() : end + 1;
  }
  if (text.compare(pos, 2, "/*") == 0) {
    size_t end = text.find("*/", pos + 2);
    return end == std::string_view::npos ? end : end + 2;
  }
  return pos;
}

std::string Unquote(std::string_view quoted) {
  char quote = quoted.front();
  std::string out;
  for (size_t i = 1; i + 1 < quoted.size(); ++i) {
    out += quoted[i];
    if (quoted[i] == quote) ++i;
  }
  return out;
}

std::string Trim(std::string_view text) {
  size_t b = 0;
  size_t e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

}  // namespace

bool Token::Is(std::string_view keyword) const {
  if (kind == Kind::kSymbol) return text == keyword;
  if (kind != Kind::kWord || text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(keyword[i]))) {
      return false;
    }
  }
  return true;
}

std::vector<std::string> SplitStatements(std::string_view sql) {
  std::vector<std::string> out;
  size_t start = 0;
  size_t i = 0;
  // Only whitespace and comments since `start`: a statement of comments alone is dropped.
  bool blank = true;
  while (i < sql.size()) {
    char c = sql[i];
    size_t comment = CommentEnd(sql, i);
    if (comment != i) {
      i = comment == std::string_view::npos ? sql.size() : comment;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      size_t end = QuotedEnd(sql, i);
      i = end == std::string_view::npos ? sql.size() : end;
      blank = false;
      continue;
    }
    if (c == ';') {
      if (!blank) out.push_back(Trim(sql.substr(start, i - start)));
      start = i + 1;
      blank = true;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      blank = false;
    }
    ++i;
  }
  if (!blank) out.push_back(Trim(sql.substr(start)));
  return out;
}

Result<std::vector<Token>> Tokenize(std::string_view statement) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < statement.size()) {
    char c = statement[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    size_t comment = CommentEnd(statement, i);
    if (comment == std::string_view::npos) {
      return Status::InvalidArgument("unterminated comment at position " + std::to_string(i + 1));
    }
    if (comment != i) {
      i = comment;
      continue;
    }
    Token token;
    token.begin = i;
    if (c == '\'' || c == '"' || c == '`') {
      size_t end = QuotedEnd(statement, i);
      if (end == std::string_view::npos) {
        return Status::InvalidArgument(
            std::string(c == '\'' ? "unterminated string" : "unterminated identifier") +
            " at position " + std::to_string(i + 1));
      }
      token.kind = c == '\'' ? Token::Kind::kString : Token::Kind::kQuoted;
      token.text = Unquote(statement.substr(i, end - i));
      i = end;
    } else if (IsWordStart(c)) {
      size_t end = i + 1;
      while (end < statement.size() && IsWordPart(statement[end])) ++end;
      token.kind = Token::Kind::kWord;
      token.text = std::string(statement.substr(i, end - i));
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i + 1;
      while (end < statement.size() &&
             (std::isalnum(static_cast<unsigned char>(statement[end])) || statement[end] == '.')) {
        ++end;
      }
      token.kind = Token::Kind::kNumber;
      token.text = std::string(statement.substr(i, end - i));
      i = end;
    } else {
      static constexpr std::string_view kTwoCharSymbols[] = {"=>", ">=", "<=", "<>", "!=", "::"};
      token.kind = Token::Kind::kSymbol;
      token.text = std::string(1, c);
      for (std::string_view symbol : kTwoCharSymbols) {
        if (statement.compare(i, 2, symbol) == 0) token.text = std::string(symbol);
      }
      i += token.text.size();
    }
    token.end = i;
    tokens.push_back(std::move(token));
  }
  return tokens;
}

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"') out += c;
  }
  return out + "\"";
}

std::string QuoteString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += c;
  }
  return out + "'";
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace sluice::sql
