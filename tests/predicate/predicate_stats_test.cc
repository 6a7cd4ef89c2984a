// MightMatch: what statistics can prove, op by op.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "predicate/predicate_test_util.h"
#include "sluice/predicate/predicate.h"

namespace sluice {
namespace {

using Op = PredicateOp;

PredicatePtr IntLeaf(Op op, std::vector<Value> literals = {}) {
  return Predicate::Leaf(op, 0, "x", DataType::Int(), std::move(literals));
}
PredicatePtr IntLeaf(Op op, int32_t literal) { return IntLeaf(op, {Value::Int32(literal)}); }

ColumnStats IntStats(std::optional<int32_t> min, std::optional<int32_t> max,
                     std::optional<int64_t> nulls) {
  ColumnStats s;
  if (min) s.min = Value::Int32(*min);
  if (max) s.max = Value::Int32(*max);
  s.null_count = nulls;
  return s;
}

bool Might(const PredicatePtr& p, const ColumnStats& s, int64_t rows = 100) {
  std::vector<ColumnStats> stats = {s};
  return p->MightMatch(rows, stats);
}

TEST(PredicateStatsTest, Comparisons) {
  ColumnStats s = IntStats(10, 20, 0);
  struct Case {
    Op op;
    int32_t literal;
    bool might;
  } cases[] = {
      {Op::kEqual, 5, false},          {Op::kEqual, 10, true},
      {Op::kEqual, 15, true},          {Op::kEqual, 20, true},
      {Op::kEqual, 21, false},         {Op::kNotEqual, 15, true},
      {Op::kNotEqual, 10, true},       {Op::kLessThan, 10, false},
      {Op::kLessThan, 11, true},       {Op::kLessOrEqual, 9, false},
      {Op::kLessOrEqual, 10, true},    {Op::kGreaterThan, 20, false},
      {Op::kGreaterThan, 19, true},    {Op::kGreaterOrEqual, 21, false},
      {Op::kGreaterOrEqual, 20, true},
  };
  for (const Case& c : cases) {
    PredicatePtr p = IntLeaf(c.op, c.literal);
    EXPECT_EQ(Might(p, s), c.might) << p->ToString();
  }
  // A single-valued column: != prunes, even with nulls (null != 15 is not true).
  EXPECT_FALSE(Might(IntLeaf(Op::kNotEqual, 15), IntStats(15, 15, 0)));
  EXPECT_FALSE(Might(IntLeaf(Op::kNotEqual, 15), IntStats(15, 15, 40)));
  EXPECT_TRUE(Might(IntLeaf(Op::kNotEqual, 16), IntStats(15, 15, 0)));
  // Comparison with a null literal is never true.
  EXPECT_FALSE(Might(IntLeaf(Op::kEqual, {Value::Null()}), s));
  EXPECT_FALSE(Might(IntLeaf(Op::kNotEqual, {Value::Null()}), s));
}

TEST(PredicateStatsTest, NullCounts) {
  EXPECT_FALSE(Might(IntLeaf(Op::kIsNull), IntStats(10, 20, 0)));
  EXPECT_TRUE(Might(IntLeaf(Op::kIsNull), IntStats(10, 20, 1)));
  EXPECT_TRUE(Might(IntLeaf(Op::kIsNull), IntStats(10, 20, std::nullopt)));
  EXPECT_TRUE(Might(IntLeaf(Op::kIsNotNull), IntStats(10, 20, 99)));
  EXPECT_FALSE(Might(IntLeaf(Op::kIsNotNull), IntStats(std::nullopt, std::nullopt, 100)));
  EXPECT_TRUE(Might(IntLeaf(Op::kIsNotNull), IntStats(std::nullopt, std::nullopt, std::nullopt)));

  // An all-null column satisfies no value predicate, whatever min / max say.
  ColumnStats all_null = IntStats(std::nullopt, std::nullopt, 100);
  for (Op op : {Op::kEqual, Op::kNotEqual, Op::kLessThan, Op::kLessOrEqual, Op::kGreaterThan,
                Op::kGreaterOrEqual}) {
    EXPECT_FALSE(Might(IntLeaf(op, 1), all_null)) << IntLeaf(op, 1)->ToString();
  }
  EXPECT_FALSE(Might(IntLeaf(Op::kIn, {Value::Int32(1)}), all_null));
  EXPECT_FALSE(Might(IntLeaf(Op::kNotIn, {Value::Int32(1)}), all_null));
  EXPECT_TRUE(Might(IntLeaf(Op::kIsNull), all_null));
  // A negative row count is unknown, not "all null".
  EXPECT_TRUE(Might(IntLeaf(Op::kEqual, 1), IntStats(std::nullopt, std::nullopt, 0), -1));
  // No rows: nothing matches.
  EXPECT_FALSE(Might(IntLeaf(Op::kIsNull), IntStats(std::nullopt, std::nullopt, 0), 0));
}

TEST(PredicateStatsTest, AbsentStatsNeverPrune) {
  std::vector<ColumnStats> none;
  for (Op op :
       {Op::kEqual, Op::kNotEqual, Op::kLessThan, Op::kGreaterThan, Op::kIsNull, Op::kIsNotNull}) {
    EXPECT_TRUE(IntLeaf(op, 1)->MightMatch(10, none));
  }
  ColumnStats unknown;
  EXPECT_TRUE(Might(IntLeaf(Op::kEqual, 1), unknown));
  EXPECT_TRUE(Might(IntLeaf(Op::kIsNull), unknown));
  EXPECT_TRUE(Might(IntLeaf(Op::kIn, {Value::Int32(1)}), unknown));
  // One bound is enough for the ops that need only that bound.
  EXPECT_FALSE(Might(IntLeaf(Op::kLessThan, 5), IntStats(10, std::nullopt, 0)));
  EXPECT_TRUE(Might(IntLeaf(Op::kGreaterThan, 500), IntStats(10, std::nullopt, 0)));
  EXPECT_FALSE(Might(IntLeaf(Op::kGreaterThan, 500), IntStats(std::nullopt, 20, 0)));
  // Bounds of the wrong representation are ignored rather than misread.
  ColumnStats garbage;
  garbage.min = Value::String("zzz");
  garbage.max = Value::String("aaa");
  garbage.null_count = 0;
  EXPECT_TRUE(Might(IntLeaf(Op::kEqual, 15), garbage));
  // A field index past the stats is unknown.
  PredicatePtr far = Predicate::Leaf(Op::kEqual, 7, "y", DataType::Int(), {Value::Int32(1)});
  EXPECT_TRUE(Might(far, IntStats(10, 20, 0)));
}

TEST(PredicateStatsTest, InAndNotIn) {
  ColumnStats s = IntStats(10, 20, 0);
  EXPECT_FALSE(Might(IntLeaf(Op::kIn, {Value::Int32(1), Value::Int32(2), Value::Int32(30)}), s));
  EXPECT_TRUE(Might(IntLeaf(Op::kIn, {Value::Int32(1), Value::Int32(15)}), s));
  EXPECT_FALSE(Might(IntLeaf(Op::kIn, {Value::Null()}), s));
  EXPECT_FALSE(Might(IntLeaf(Op::kIn, {}), s));
  std::vector<Value> many;
  for (int i = 0; i < 1000; ++i) many.push_back(Value::Int32(100 + i));
  EXPECT_FALSE(Might(IntLeaf(Op::kIn, many), s));
  many.push_back(Value::Int32(20));
  EXPECT_TRUE(Might(IntLeaf(Op::kIn, many), s));

  ColumnStats single = IntStats(5, 5, 3);
  EXPECT_FALSE(Might(IntLeaf(Op::kNotIn, {Value::Int32(5), Value::Int32(6)}), single));
  EXPECT_TRUE(Might(IntLeaf(Op::kNotIn, {Value::Int32(6)}), single));
  EXPECT_TRUE(Might(IntLeaf(Op::kNotIn, {Value::Int32(5)}), s));
  // NOT IN with a null in the list is never true.
  EXPECT_FALSE(Might(IntLeaf(Op::kNotIn, {Value::Int32(6), Value::Null()}), s));
}

ColumnStats StringStats(std::string min, std::string max) {
  ColumnStats s;
  s.min = Value::String(std::move(min));
  s.max = Value::String(std::move(max));
  s.null_count = 0;
  return s;
}

PredicatePtr StringLeaf(Op op, std::string literal) {
  return Predicate::Leaf(op, 0, "s", DataType::String(), {Value::String(std::move(literal))});
}

TEST(PredicateStatsTest, StartsWithAndLike) {
  ColumnStats s = StringStats("apple", "banana");
  struct Case {
    std::string prefix;
    bool might;
  } cases[] = {{"", true},       {"a", true},        {"app", true}, {"apple", true},
               {"apples", true}, {"aa", false},      {"b", true},   {"ban", true},
               {"banana", true}, {"bananas", false}, {"c", false},  {"\xff", false}};
  for (const Case& c : cases) {
    EXPECT_EQ(Might(StringLeaf(Op::kStartsWith, c.prefix), s), c.might) << c.prefix;
  }
  // Unsigned bytes: a prefix above every ASCII string.
  EXPECT_TRUE(Might(StringLeaf(Op::kStartsWith, "\xc3"), StringStats("a", "\xc3\xa9")));
  // LIKE uses its fixed prefix only.
  EXPECT_FALSE(Might(StringLeaf(Op::kLike, "c%x"), s));
  EXPECT_TRUE(Might(StringLeaf(Op::kLike, "b%x"), s));
  EXPECT_TRUE(Might(StringLeaf(Op::kLike, "%zzz"), s));
  EXPECT_TRUE(Might(StringLeaf(Op::kLike, "_zzz"), s));
  // String comparisons.
  EXPECT_FALSE(Might(StringLeaf(Op::kEqual, "Apple"), s));  // 'A' < 'a'
  EXPECT_TRUE(Might(StringLeaf(Op::kEqual, "avocado"), s));
  EXPECT_FALSE(Might(StringLeaf(Op::kGreaterThan, "banana"), s));
}

TEST(PredicateStatsTest, NotIsPushedDownNotNegated) {
  ColumnStats s = IntStats(10, 20, 0);
  // x = 15 might match, and so might NOT (x = 15) (e.g. x = 11): negating "might" is wrong.
  EXPECT_TRUE(Might(Predicate::Not(IntLeaf(Op::kEqual, 15)), s));
  EXPECT_FALSE(Might(Predicate::Not(IntLeaf(Op::kEqual, 15)), IntStats(15, 15, 0)));
  EXPECT_TRUE(Might(Predicate::Not(IntLeaf(Op::kLessThan, 10)), s));         // x >= 10
  EXPECT_FALSE(Might(Predicate::Not(IntLeaf(Op::kLessThan, 30)), s));        // x >= 30
  EXPECT_FALSE(Might(Predicate::Not(IntLeaf(Op::kGreaterOrEqual, 10)), s));  // x < 10
  EXPECT_FALSE(Might(Predicate::Not(IntLeaf(Op::kIsNotNull)), s));           // x IS NULL, no nulls
  EXPECT_FALSE(
      Might(Predicate::Not(IntLeaf(Op::kIsNull)), IntStats(std::nullopt, std::nullopt, 100)));
  EXPECT_FALSE(Might(Predicate::Not(IntLeaf(Op::kIn, {Value::Int32(15)})), IntStats(15, 15, 0)));
  EXPECT_FALSE(Might(Predicate::Not(Predicate::Not(IntLeaf(Op::kEqual, 5))), s));
  // De Morgan: NOT (x < 30 AND x > 0) = x >= 30 OR x <= 0: prunable.
  PredicatePtr inner = Predicate::And({IntLeaf(Op::kLessThan, 30), IntLeaf(Op::kGreaterThan, 0)});
  EXPECT_FALSE(Might(Predicate::Not(inner), s));
  // NOT (x < 30 OR x = 5) = x >= 30 AND x != 5: prunable by the first conjunct.
  EXPECT_FALSE(Might(
      Predicate::Not(Predicate::Or({IntLeaf(Op::kLessThan, 30), IntLeaf(Op::kEqual, 5)})), s));
  EXPECT_TRUE(Might(
      Predicate::Not(Predicate::Or({IntLeaf(Op::kLessThan, 12), IntLeaf(Op::kEqual, 5)})), s));
  // NOT LIKE has no leaf inverse: unknown, unless every value is null.
  ColumnStats strings = StringStats("apple", "banana");
  EXPECT_TRUE(Might(Predicate::Not(StringLeaf(Op::kStartsWith, "c")), strings));
  EXPECT_TRUE(Might(Predicate::Not(StringLeaf(Op::kStartsWith, "a")), strings));
  ColumnStats null_strings;
  null_strings.null_count = 100;
  EXPECT_FALSE(Might(Predicate::Not(StringLeaf(Op::kLike, "%a%")), null_strings));
}

TEST(PredicateStatsTest, AndOrOverSeveralColumns) {
  std::vector<ColumnStats> stats = {IntStats(10, 20, 0), StringStats("a", "c")};
  PredicatePtr x15 = IntLeaf(Op::kEqual, 15);
  PredicatePtr x50 = IntLeaf(Op::kEqual, 50);
  PredicatePtr sb = Predicate::Leaf(Op::kEqual, 1, "s", DataType::String(), {Value::String("b")});
  PredicatePtr sz = Predicate::Leaf(Op::kEqual, 1, "s", DataType::String(), {Value::String("z")});
  EXPECT_TRUE(Predicate::And({x15, sb})->MightMatch(10, stats));
  EXPECT_FALSE(Predicate::And({x15, sz})->MightMatch(10, stats));
  EXPECT_TRUE(Predicate::Or({x50, sb})->MightMatch(10, stats));
  EXPECT_FALSE(Predicate::Or({x50, sz})->MightMatch(10, stats));
  EXPECT_TRUE(Predicate::And({})->MightMatch(10, stats));
  EXPECT_FALSE(Predicate::Or({})->MightMatch(10, stats));
}

TEST(PredicateStatsTest, FloatingDecimalAndTimestampStats) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnStats d;
  d.min = Value::Double(-1.0);
  d.max = Value::Double(nan);  // NaN is the greatest double
  d.null_count = 0;
  auto dleaf = [](Op op, double v) {
    return Predicate::Leaf(op, 0, "d", DataType::Double(), {Value::Double(v)});
  };
  std::vector<ColumnStats> ds = {d};
  EXPECT_TRUE(dleaf(Op::kGreaterThan, 1e308)->MightMatch(5, ds));
  EXPECT_TRUE(dleaf(Op::kEqual, nan)->MightMatch(5, ds));
  EXPECT_FALSE(dleaf(Op::kLessThan, -1.0)->MightMatch(5, ds));
  d.max = Value::Double(-0.0);
  ds = {d};
  // Zero bounds are widened to both signs: formats do not agree on the sign of a zero bound.
  EXPECT_TRUE(dleaf(Op::kGreaterOrEqual, 0.0)->MightMatch(5, ds));
  EXPECT_FALSE(dleaf(Op::kGreaterThan, 0.0)->MightMatch(5, ds));
  d.min = Value::Double(0.0);
  d.max = Value::Double(0.0);
  ds = {d};
  EXPECT_TRUE(dleaf(Op::kLessThan, 0.0)->MightMatch(5, ds));  // the column may hold -0.0
  EXPECT_FALSE(dleaf(Op::kLessThan, -0.0)->MightMatch(5, ds));

  auto dec = DataType::Decimal(10, 2);
  ColumnStats m;
  m.min = Value::FromDecimal({100, 10, 2});  // 1.00
  m.max = Value::FromDecimal({200, 10, 2});  // 2.00
  m.null_count = 0;
  std::vector<ColumnStats> ms = {m};
  auto mleaf = [&](Op op, Decimal v) {
    return Predicate::Leaf(op, 0, "m", dec, {Value::FromDecimal(v)});
  };
  EXPECT_TRUE(mleaf(Op::kEqual, {1005, 4, 3})->MightMatch(5, ms));
  EXPECT_FALSE(mleaf(Op::kEqual, {2005, 4, 3})->MightMatch(5, ms));
  EXPECT_FALSE(mleaf(Op::kGreaterThan, {2, 1, 0})->MightMatch(5, ms));
  EXPECT_TRUE(mleaf(Op::kGreaterOrEqual, {2, 1, 0})->MightMatch(5, ms));

  ColumnStats t;
  t.min = Value::FromTimestamp({1000, 5});
  t.max = Value::FromTimestamp({2000, 0});
  t.null_count = 1;
  std::vector<ColumnStats> ts = {t};
  auto tleaf = [](Op op, Timestamp v) {
    return Predicate::Leaf(op, 0, "t", DataType::Timestamp(9), {Value::FromTimestamp(v)});
  };
  EXPECT_FALSE(tleaf(Op::kLessThan, {1000, 5})->MightMatch(5, ts));
  EXPECT_TRUE(tleaf(Op::kLessThan, {1000, 6})->MightMatch(5, ts));
  EXPECT_FALSE(tleaf(Op::kGreaterThan, {2000, 0})->MightMatch(5, ts));
}

TEST(PredicateStatsTest, RemapForPruningDropsOnlyConjuncts) {
  auto leaf = [](Op op, int field, int32_t v) {
    return Predicate::Leaf(op, field, "f" + std::to_string(field), DataType::Int(),
                           {Value::Int32(v)});
  };
  // Field 1 (say a partition column) is not in the file.
  std::vector<int> mapping = {0, -1, 1};
  PredicatePtr p =
      Predicate::Or({Predicate::And({leaf(Op::kGreaterThan, 0, 1), leaf(Op::kEqual, 1, 2)}),
                     leaf(Op::kLessThan, 0, 0)});
  PredicatePtr weaker = p->RemapForPruning(mapping);
  ASSERT_NE(weaker, nullptr);
  EXPECT_EQ(weaker->ToString(), "(f0 > 1 OR f0 < 0)");
  EXPECT_EQ(p->Remap(mapping), nullptr);
  // A disjunct on an unmapped field cannot be dropped.
  EXPECT_EQ(
      Predicate::Or({leaf(Op::kEqual, 0, 1), leaf(Op::kEqual, 1, 1)})->RemapForPruning(mapping),
      nullptr);
  // Nor can anything under NOT.
  EXPECT_EQ(Predicate::Not(Predicate::And({leaf(Op::kEqual, 0, 1), leaf(Op::kEqual, 1, 1)}))
                ->RemapForPruning(mapping),
            nullptr);
  PredicatePtr both = Predicate::And({leaf(Op::kEqual, 1, 1), leaf(Op::kEqual, 2, 7)});
  EXPECT_EQ(both->RemapForPruning(mapping)->ToString(), "f2 = 7");
  EXPECT_EQ(both->RemapForPruning(mapping)->field_index(), 1);
  EXPECT_EQ(leaf(Op::kEqual, 1, 1)->RemapForPruning(mapping), nullptr);

  EXPECT_EQ(p->ReferencedFields(), (std::vector<int>{0, 1}));
  EXPECT_EQ(both->ReferencedFields(), (std::vector<int>{1, 2}));
}

TEST(PredicateStatsTest, RemapKeepsMeaning) {
  PredicatePtr p = Predicate::And(
      {IntLeaf(Op::kEqual, 15), Predicate::Leaf(Op::kIsNull, 2, "z", DataType::Int())});
  std::vector<int> mapping = {1, -1, 0};
  PredicatePtr m = p->Remap(mapping);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->children()[0]->field_index(), 1);
  EXPECT_EQ(m->children()[1]->field_index(), 0);
  EXPECT_EQ(m->ToString(), p->ToString());
  std::vector<ColumnStats> stats = {IntStats(0, 0, 5), IntStats(10, 20, 0)};
  EXPECT_TRUE(m->MightMatch(10, stats));
  std::vector<int> drops_x = {-1, 0, 1};
  EXPECT_EQ(p->Remap(drops_x), nullptr);
  std::vector<int> too_short = {0};
  EXPECT_EQ(p->Remap(too_short), nullptr);
}

}  // namespace
}  // namespace sluice
