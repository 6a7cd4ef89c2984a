#include "sluice/sql/statement_parser.h"

#include "sluice/sql/sql_text.h"

namespace sluice::sql {

namespace {

// Walks the tokens of one statement; errors name the position in the statement.
class Cursor {
 public:
  Cursor(std::string_view statement, std::vector<Token> tokens)
      : statement_(statement), tokens_(std::move(tokens)) {}

  bool AtEnd() const { return pos_ >= tokens_.size(); }
  void Advance(size_t tokens) { pos_ += tokens; }
  const Token* Peek(size_t ahead = 0) const {
    return pos_ + ahead < tokens_.size() ? &tokens_[pos_ + ahead] : nullptr;
  }
  bool PeekIs(std::string_view keyword, size_t ahead = 0) const {
    const Token* t = Peek(ahead);
    return t != nullptr && t->Is(keyword);
  }
  // Takes the next token when it is `keyword`.
  bool Accept(std::string_view keyword) {
    if (!PeekIs(keyword)) return false;
    ++pos_;
    return true;
  }
  bool AcceptAll(std::initializer_list<std::string_view> keywords) {
    for (size_t i = 0; i < keywords.size(); ++i) {
      if (!PeekIs(*(keywords.begin() + i), i)) return false;
    }
    pos_ += keywords.size();
    return true;
  }
  Status Expect(std::string_view keyword) {
    if (Accept(keyword)) return Status::OK();
    return Error("expected " + std::string(keyword));
  }
  Result<std::string> Identifier(std::string_view what) {
    const Token* t = Peek();
    if (t == nullptr || !t->IsIdentifier()) return Error("expected " + std::string(what));
    ++pos_;
    return t->text;
  }
  // A string, number or TRUE / FALSE, as text.
  Result<std::string> Literal(std::string_view what) {
    const Token* t = Peek();
    if (t != nullptr && t->Is("-") && Peek(1) != nullptr && Peek(1)->kind == Token::Kind::kNumber) {
      std::string text = "-" + Peek(1)->text;
      pos_ += 2;
      return text;
    }
    if (t == nullptr || !(t->kind == Token::Kind::kString || t->kind == Token::Kind::kNumber ||
                          t->Is("true") || t->Is("false"))) {
      return Error("expected " + std::string(what) + " (a string or number)");
    }
    ++pos_;
    return t->kind == Token::Kind::kWord ? Lower(t->text) : t->text;
  }
  // `(a, b, ...)`
  Result<std::vector<std::string>> IdentifierList(std::string_view what) {
    std::vector<std::string> out;
    SLUICE_RETURN_NOT_OK(Expect("("));
    do {
      SLUICE_ASSIGN_OR_RETURN(std::string name, Identifier(what));
      out.push_back(std::move(name));
    } while (Accept(","));
    SLUICE_RETURN_NOT_OK(Expect(")"));
    return out;
  }
  // `(k = v, ...)` with `=` or `=>` between a key (identifier or string) and a literal.
  Result<std::vector<std::pair<std::string, std::string>>> Assignments(std::string_view what) {
    std::vector<std::pair<std::string, std::string>> out;
    SLUICE_RETURN_NOT_OK(Expect("("));
    if (Accept(")")) return out;
    do {
      const Token* key = Peek();
      if (key == nullptr || !(key->IsIdentifier() || key->kind == Token::Kind::kString)) {
        return Error("expected " + std::string(what) + " name");
      }
      std::string name = key->text;
      ++pos_;
      if (!Accept("=") && !Accept("=>")) return Error("expected = after " + name);
      SLUICE_ASSIGN_OR_RETURN(std::string value, Literal(std::string(what) + " value"));
      out.emplace_back(std::move(name), std::move(value));
    } while (Accept(","));
    SLUICE_RETURN_NOT_OK(Expect(")"));
    return out;
  }
  // Skips a parenthesised run starting at the current `(`; returns the text inside, without
  // the runs of words in `drop`.
  Result<std::string> Parenthesised(
      const std::vector<std::initializer_list<std::string_view>>& drop) {
    SLUICE_RETURN_NOT_OK(Expect("("));
    size_t open = tokens_[pos_ - 1].end;
    std::string out;
    size_t copied = open;
    int depth = 1;
    while (!AtEnd()) {
      for (const auto& words : drop) {
        size_t first = pos_;
        if (AcceptAll(words)) {
          out += statement_.substr(copied, tokens_[first].begin - copied);
          copied = tokens_[pos_ - 1].end;
        }
      }
      if (AtEnd()) break;
      const Token& t = tokens_[pos_++];
      if (t.Is("(")) ++depth;
      if (t.Is(")") && --depth == 0) {
        out += statement_.substr(copied, t.begin - copied);
        return out;
      }
    }
    return Error("unbalanced parentheses");
  }
  // The text from the current token to the end.
  std::string Rest() const { return AtEnd() ? "" : std::string(statement_.substr(Peek()->begin)); }

  Status Error(const std::string& what) const {
    size_t at = AtEnd() ? statement_.size() : Peek()->begin;
    return Status::InvalidArgument(what + " at position " + std::to_string(at + 1) +
                                   " in: " + std::string(statement_));
  }

 private:
  std::string_view statement_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

// DuckDB's own databases: a table there is DuckDB's, not the warehouse's.
bool IsDuckDbDatabase(std::string_view database) {
  std::string lower = Lower(database);
  return lower == "main" || lower == "temp" || lower == "memory" || lower == "system";
}

// `db.t` when the cursor is at a two-part name of a Sluice table; the cursor stays otherwise.
std::optional<TableName> SluiceTableName(Cursor* c) {
  const Token* db = c->Peek();
  const Token* dot = c->Peek(1);
  const Token* table = c->Peek(2);
  if (db == nullptr || !db->IsIdentifier() || dot == nullptr || !dot->Is(".") || table == nullptr ||
      !table->IsIdentifier() || IsDuckDbDatabase(db->text) || c->PeekIs(".", 3)) {
    return std::nullopt;
  }
  TableName name{db->text, table->text};
  c->Advance(3);
  return name;
}

Result<SluiceStatement> ParseCreateTable(Cursor* c, TableName name, bool if_not_exists) {
  CreateTableStatement out;
  out.name = std::move(name);
  out.if_not_exists = if_not_exists;
  if (c->PeekIs("(")) {
    SLUICE_ASSIGN_OR_RETURN(out.columns_sql, c->Parenthesised({{"not", "enforced"}}));
  }
  while (!c->AtEnd()) {
    if (c->Accept("as")) {
      if (!out.columns_sql.empty()) {
        return c->Error("CREATE TABLE ... AS takes its columns from the query, not a list");
      }
      if (c->AtEnd()) return c->Error("expected a query after AS");
      out.query = c->Rest();
      break;
    }
    if (c->AcceptAll({"partitioned", "by"})) {
      SLUICE_ASSIGN_OR_RETURN(out.partition_keys, c->IdentifierList("partition column"));
    } else if (c->Accept("comment")) {
      SLUICE_ASSIGN_OR_RETURN(std::string comment, c->Literal("comment"));
      out.comment = std::move(comment);
    } else if (c->Accept("with")) {
      SLUICE_ASSIGN_OR_RETURN(out.options, c->Assignments("option"));
    } else {
      return c->Error("expected PARTITIONED BY, COMMENT, WITH or AS");
    }
  }
  if (out.columns_sql.empty() && out.query.empty()) {
    return c->Error("expected a column list or AS query");
  }
  return SluiceStatement(std::move(out));
}

Result<SluiceStatement> ParseInsert(Cursor* c, bool overwrite) {
  c->Accept("table");
  std::optional<TableName> name = SluiceTableName(c);
  if (!name) return SluiceStatement();
  InsertStatement out;
  out.name = std::move(*name);
  out.overwrite = overwrite;
  if (c->Accept("partition")) {
    SLUICE_ASSIGN_OR_RETURN(out.partition, c->Assignments("partition"));
  }
  bool column_list = c->PeekIs("(") && !c->PeekIs("select", 1) && !c->PeekIs("values", 1) &&
                     !c->PeekIs("with", 1) && !c->PeekIs("from", 1) && !c->PeekIs("(", 1);
  if (column_list) {
    SLUICE_ASSIGN_OR_RETURN(out.columns, c->IdentifierList("column"));
  }
  if (c->AtEnd()) return c->Error("expected a query (SELECT, VALUES, ...)");
  out.query = c->Rest();
  return SluiceStatement(std::move(out));
}

Result<SluiceStatement> ParseCall(Cursor* c) {
  SLUICE_RETURN_NOT_OK(c->Expect("."));
  CallStatement out;
  SLUICE_ASSIGN_OR_RETURN(out.procedure, c->Identifier("procedure name"));
  SLUICE_RETURN_NOT_OK(c->Expect("("));
  if (!c->Accept(")")) {
    do {
      const Token* name = c->Peek();
      if (name == nullptr || !name->IsIdentifier() || !c->PeekIs("=>", 1)) {
        return c->Error("expected a named argument (name => value; procedures.h lists them)");
      }
      std::string arg = name->text;
      c->Advance(2);
      SLUICE_ASSIGN_OR_RETURN(std::string value, c->Literal("value of " + arg));
      out.args.emplace_back(std::move(arg), std::move(value));
    } while (c->Accept(","));
    SLUICE_RETURN_NOT_OK(c->Expect(")"));
  }
  if (!c->AtEnd()) return c->Error("unexpected text after the call");
  return SluiceStatement(std::move(out));
}

}  // namespace

Result<SluiceStatement> ParseStatement(std::string_view statement) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(statement));
  Cursor c(statement, std::move(tokens));
  if (c.Accept("create")) {
    if (c.Accept("database") || c.Accept("schema")) {
      CreateDatabaseStatement out;
      out.if_not_exists = c.AcceptAll({"if", "not", "exists"});
      SLUICE_ASSIGN_OR_RETURN(out.database, c.Identifier("database name"));
      if (!c.AtEnd()) return c.Error("unexpected text after the database name");
      return SluiceStatement(std::move(out));
    }
    if (!c.Accept("table")) return SluiceStatement();
    bool if_not_exists = c.AcceptAll({"if", "not", "exists"});
    std::optional<TableName> name = SluiceTableName(&c);
    if (!name) return SluiceStatement();
    return ParseCreateTable(&c, std::move(*name), if_not_exists);
  }
  if (c.Accept("drop")) {
    if (c.Accept("database") || c.Accept("schema")) {
      DropDatabaseStatement out;
      out.if_exists = c.AcceptAll({"if", "exists"});
      SLUICE_ASSIGN_OR_RETURN(out.database, c.Identifier("database name"));
      out.cascade = c.Accept("cascade");
      if (!c.AtEnd()) return c.Error("unexpected text after the database name");
      return SluiceStatement(std::move(out));
    }
    if (!c.Accept("table")) return SluiceStatement();
    DropTableStatement out;
    out.if_exists = c.AcceptAll({"if", "exists"});
    std::optional<TableName> name = SluiceTableName(&c);
    if (!name) return SluiceStatement();
    out.name = std::move(*name);
    if (!c.AtEnd()) return c.Error("unexpected text after the table name");
    return SluiceStatement(std::move(out));
  }
  if (c.Accept("insert")) {
    if (c.Accept("into")) return ParseInsert(&c, false);
    if (c.Accept("overwrite")) return ParseInsert(&c, true);
    return SluiceStatement();
  }
  if (c.PeekIs("call") && c.PeekIs("sys", 1)) {
    c.Accept("call");
    c.Accept("sys");
    return ParseCall(&c);
  }
  return SluiceStatement();
}

}  // namespace sluice::sql
