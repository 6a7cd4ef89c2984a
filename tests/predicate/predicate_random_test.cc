// Randomized checks over small random batches and random predicates:
//   - Filter and Evaluate agree with a plain row-by-row three-valued evaluator built on
//     CompareValues;
//   - NOT keeps exactly the rows where its child is false;
//   - MightMatch is sound: never false on the batch's true stats (or on weaker stats) when
//     Filter keeps a row.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <random>

#include "predicate/predicate_test_util.h"
#include "sluice/predicate/like_pattern.h"
#include "sluice/predicate/predicate.h"

namespace sluice {
namespace {

using Op = PredicateOp;
using Truth = std::optional<bool>;  // nullopt: unknown

class RandomPredicates {
 public:
  explicit RandomPredicates(uint32_t seed) : rng_(seed) {
    schema_ = test::RowOf({
        {"i", DataType::Int()},
        {"l", DataType::BigInt()},
        {"d", DataType::Double()},
        {"s", DataType::String()},
        {"m", DataType::Decimal(10, 2)},
        {"w", DataType::Decimal(25, 3)},
        {"t", DataType::Timestamp(9)},
        {"b", DataType::Boolean()},
        {"dt", DataType::Date()},
        {"bin", DataType::Bytes()},
    });
  }

  const DataTypePtr& schema() const { return schema_; }

  int Uniform(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // A non-null value of field f from a small domain, so that equalities happen.
  Value RandomValue(int f) {
    switch (f) {
      case 0:
        return Value::Int32(Uniform(7) - 3);
      case 1:
        return Value::Int64(Uniform(3) == 0 ? std::numeric_limits<int64_t>::min() + Uniform(2)
                                            : Uniform(5) - 2);
      case 2: {
        static const double kDoubles[] = {-1.5,
                                          -0.0,
                                          0.0,
                                          0.5,
                                          2.0,
                                          std::numeric_limits<double>::quiet_NaN(),
                                          std::numeric_limits<double>::infinity()};
        return Value::Double(kDoubles[Uniform(7)]);
      }
      case 3: {
        static const char* kStrings[] = {"", "a", "ab", "abc", "b", "ba", "\xc3\xa9", "A"};
        return Value::String(kStrings[Uniform(8)]);
      }
      case 4:
        return Value::FromDecimal(Decimal{Uniform(9) - 4, 10, 2});
      case 5:
        return Value::FromDecimal(
            Decimal{static_cast<int128_t>(Uniform(9) - 4) * 1000000000000LL, 25, 3});
      case 6:
        return Value::FromTimestamp(Timestamp{Uniform(3) - 1, Uniform(3)});
      case 7:
        return Value::Boolean(Uniform(2) == 1);
      case 8:
        return Value::Int32(Uniform(5) - 2);
      default: {
        static const char* kBytes[] = {"", "\x01", "\x7f", "\x80", "\xff", "\x80\x01"};
        return Value::Binary(kBytes[Uniform(6)]);
      }
    }
  }

  // A literal for field f: usually from the value domain, sometimes between or outside it
  // (decimals at another scale), sometimes null.
  Value RandomLiteral(int f) {
    if (Uniform(25) == 0) return Value::Null();
    if (f == 4 && Uniform(2) == 0) {
      return Value::FromDecimal(Decimal{Uniform(90) - 45, 4, 3});  // -0.045 .. 0.044
    }
    if (f == 5 && Uniform(2) == 0) {
      return Value::FromDecimal(
          Decimal{static_cast<int128_t>(Uniform(9) - 4) * 1000000000LL + (Uniform(3) - 1), 20, 0});
    }
    if (f == 0 && Uniform(4) == 0) return Value::Int32(Uniform(2) == 0 ? INT32_MIN : INT32_MAX);
    return RandomValue(f);
  }

  std::unique_ptr<ColumnBatch> RandomBatch() {
    int rows = Uniform(7);
    std::vector<ValueList> data;
    int null_percent = Uniform(4) * 20;
    for (int r = 0; r < rows; ++r) {
      ValueList row;
      for (int f = 0; f < schema_->num_fields(); ++f) {
        row.push_back(Uniform(100) < null_percent ? Value::Null() : RandomValue(f));
      }
      data.push_back(std::move(row));
    }
    return test::MakeBatch(schema_, data);
  }

  PredicatePtr RandomPredicate(int depth) {
    int choice = Uniform(depth <= 0 ? 1 : 4);
    if (choice == 1 || choice == 2) {
      std::vector<PredicatePtr> children;
      int n = 1 + Uniform(3);
      for (int c = 0; c < n; ++c) children.push_back(RandomPredicate(depth - 1));
      return choice == 1 ? Predicate::And(std::move(children)) : Predicate::Or(std::move(children));
    }
    if (choice == 3) return Predicate::Not(RandomPredicate(depth - 1));
    return RandomLeaf();
  }

  PredicatePtr RandomLeaf() {
    int f = Uniform(schema_->num_fields());
    const DataField& field = schema_->fields()[static_cast<size_t>(f)];
    bool bytes = field.type->IsString() || field.type->IsBinary();
    Op op = static_cast<Op>(Uniform(bytes ? 12 : 10));
    std::vector<Value> literals;
    switch (op) {
      case Op::kIsNull:
      case Op::kIsNotNull:
        break;
      case Op::kIn:
      case Op::kNotIn: {
        int n = Uniform(5);
        for (int k = 0; k < n; ++k) literals.push_back(RandomLiteral(f));
        break;
      }
      case Op::kStartsWith:
      case Op::kLike: {
        static const char* kPatterns[] = {"",   "a", "ab", "b",   "%",    "a%",
                                          "%b", "_", "a_", "%a%", "\xc3", "_b%"};
        std::string text = kPatterns[Uniform(12)];
        literals.push_back(field.type->IsString() ? Value::String(text) : Value::Binary(text));
        break;
      }
      default:
        literals.push_back(RandomLiteral(f));
        break;
    }
    return Predicate::Leaf(op, f, field.name, field.type, std::move(literals));
  }

 private:
  std::mt19937 rng_;
  DataTypePtr schema_;
};

// The reference: one row, one node, Values and CompareValues only.
Truth Reference(const Predicate& p, const ValueList& row) {
  switch (p.op()) {
    case Op::kAnd: {
      Truth out = true;
      for (const PredicatePtr& c : p.children()) {
        Truth t = Reference(*c, row);
        if (t == false) return false;
        if (!t.has_value()) out = std::nullopt;
      }
      return out;
    }
    case Op::kOr: {
      Truth out = false;
      for (const PredicatePtr& c : p.children()) {
        Truth t = Reference(*c, row);
        if (t == true) return true;
        if (!t.has_value()) out = std::nullopt;
      }
      return out;
    }
    case Op::kNot: {
      Truth t = Reference(*p.children()[0], row);
      return t.has_value() ? Truth(!*t) : std::nullopt;
    }
    default:
      break;
  }
  const Value& v = row[static_cast<size_t>(p.field_index())];
  const DataType& type = *p.field_type();
  if (p.op() == Op::kIsNull) return v.is_null();
  if (p.op() == Op::kIsNotNull) return !v.is_null();
  if (v.is_null()) return std::nullopt;
  if (p.op() == Op::kIn || p.op() == Op::kNotIn) {
    bool found = false;
    bool has_null = false;
    for (const Value& l : p.literals()) {
      if (l.is_null()) {
        has_null = true;
      } else if (CompareValues(v, l, type) == 0) {
        found = true;
      }
    }
    bool in = p.op() == Op::kIn;
    if (found) return in;
    if (has_null) return std::nullopt;
    return !in;
  }
  const Value& l = p.literals()[0];
  if (l.is_null()) return std::nullopt;
  if (p.op() == Op::kStartsWith) return std::string_view(v.bytes()).starts_with(l.bytes());
  if (p.op() == Op::kLike) return LikePattern::Compile(l.bytes()).Matches(v.bytes());
  int c = CompareValues(v, l, type);
  switch (p.op()) {
    case Op::kEqual:
      return c == 0;
    case Op::kNotEqual:
      return c != 0;
    case Op::kLessThan:
      return c < 0;
    case Op::kLessOrEqual:
      return c <= 0;
    case Op::kGreaterThan:
      return c > 0;
    default:
      return c >= 0;
  }
}

// Weaker stats stay valid bounds: drop pieces, or widen min / max to a smaller / larger value.
std::vector<ColumnStats> Weaken(std::vector<ColumnStats> stats, RandomPredicates& gen) {
  for (size_t f = 0; f < stats.size(); ++f) {
    ColumnStats& s = stats[f];
    const DataType& type = *gen.schema()->fields()[f].type;
    switch (gen.Uniform(5)) {
      case 0:
        s.min.reset();
        break;
      case 1:
        s.max.reset();
        break;
      case 2:
        s.null_count.reset();
        break;
      case 3: {
        Value v = gen.RandomValue(static_cast<int>(f));
        if (s.min && CompareValues(v, *s.min, type) < 0) s.min = v;
        if (s.max && CompareValues(v, *s.max, type) > 0) s.max = v;
        break;
      }
      default:
        break;
    }
  }
  return stats;
}

TEST(PredicateRandomTest, FilterMatchesReferenceAndMightMatchIsSound) {
  const uint32_t seed = 20261130;
  RandomPredicates gen(seed);
  int predicates = 0;
  int kept_rows = 0;
  int pruned = 0;
  for (int iteration = 0; iteration < 2500; ++iteration) {
    auto batch = gen.RandomBatch();
    PredicatePtr p = gen.RandomPredicate(3);
    ++predicates;
    std::vector<int> kept = test::Kept(*p, *batch);
    std::vector<int> not_kept = test::Kept(*Predicate::Not(p), *batch);
    std::vector<int> expected_true;
    std::vector<int> expected_false;
    for (int r = 0; r < batch->num_rows(); ++r) {
      Value row = batch->GetRow(r);
      Truth t = Reference(*p, row.list());
      ASSERT_EQ(p->Evaluate(row.list()), t) << "iteration " << iteration << ": " << p->ToString();
      if (t == true) expected_true.push_back(r);
      if (t == false) expected_false.push_back(r);
    }
    ASSERT_EQ(kept, expected_true) << "iteration " << iteration << ": " << p->ToString();
    ASSERT_EQ(not_kept, expected_false) << "iteration " << iteration << ": NOT " << p->ToString();
    kept_rows += static_cast<int>(kept.size());

    std::vector<ColumnStats> stats = test::StatsOf(*batch);
    bool might = p->MightMatch(batch->num_rows(), stats);
    if (!kept.empty()) {
      ASSERT_TRUE(might) << "iteration " << iteration << ": " << p->ToString();
      ASSERT_TRUE(p->MightMatch(batch->num_rows(), Weaken(stats, gen)))
          << "iteration " << iteration << " (weakened stats): " << p->ToString();
    } else if (!might) {
      ++pruned;
    }
    if (!not_kept.empty()) {
      ASSERT_TRUE(Predicate::Not(p)->MightMatch(batch->num_rows(), stats))
          << "iteration " << iteration << ": NOT " << p->ToString();
    }
    // Each row alone, with its own exact stats.
    for (int r : kept) {
      auto one = test::MakeBatch(gen.schema(), {batch->GetRow(r).list()});
      ASSERT_TRUE(p->MightMatch(1, test::StatsOf(*one)))
          << "iteration " << iteration << " row " << r << ": " << p->ToString();
    }
  }
  // The test must exercise both outcomes to mean anything.
  EXPECT_GT(kept_rows, 700);
  EXPECT_GT(pruned, 150);
  std::printf("random predicates: %d, rows kept: %d, batches pruned by stats: %d\n", predicates,
              kept_rows, pruned);
}

}  // namespace
}  // namespace sluice
