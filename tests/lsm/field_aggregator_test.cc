#include "sluice/lsm/aggregate/field_aggregator_factory.h"

#include <gtest/gtest.h>
#include <roaring/roaring.h>

#include "lsm_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

Value N() { return Value::Null(); }
Value Int(int32_t v) { return Value::Int32(v); }
Value Str(const char* s) { return Value::String(s); }
Value Dec(int64_t unscaled, int32_t p, int32_t s) {
  return Value::FromDecimal(Decimal{unscaled, p, s});
}

std::unique_ptr<FieldAggregator> Make(const DataTypePtr& type, const char* function,
                                      TableOptions options = {}) {
  Result<CoreOptions> o = CoreOptions::Make(options);
  EXPECT_OK(o);
  auto agg = CreateFieldAggregator(type, "f", function, *o);
  EXPECT_OK(agg) << function;
  return agg.ok() ? std::move(agg).value() : nullptr;
}

Status MakeError(const DataTypePtr& type, const char* function, TableOptions options = {}) {
  Result<CoreOptions> o = CoreOptions::Make(options);
  EXPECT_OK(o);
  return CreateFieldAggregator(type, "f", function, *o).status();
}

// Folds inputs with Agg (starting from null) and returns the debug rendering.
std::string Fold(FieldAggregator* agg, const ValueList& inputs) {
  agg->Reset();
  Value acc;
  for (const Value& v : inputs) {
    Result<Value> r = agg->Agg(acc, v);
    if (!r.ok()) return "error: " + r.status().ToString();
    acc = *r;
  }
  return acc.DebugString();
}

std::string Str(const Result<Value>& r) {
  return r.ok() ? r->DebugString() : "error: " + r.status().ToString();
}

TEST(FieldAggregatorTest, Sum) {
  auto agg = Make(DataType::Int(), "sum");
  EXPECT_EQ(Fold(agg.get(), {Int(1), N(), Int(2), Int(-5)}), "-2");
  EXPECT_EQ(Fold(agg.get(), {N(), N()}), "null");
  EXPECT_EQ(Str(agg->Retract(Int(10), Int(3))), "7");
  EXPECT_EQ(Str(agg->Retract(N(), Int(3))), "-3");
  EXPECT_EQ(Str(agg->Retract(Int(4), N())), "4");
  EXPECT_EQ(Str(agg->Retract(N(), N())), "null");
  EXPECT_TRUE(test::HasError(agg->Agg(Int(2147483647), Int(1)), StatusCode::kOutOfRange,
                             {"int overflow: 2147483647 + 1"}));
  EXPECT_TRUE(test::HasError(agg->Retract(N(), Int(-2147483647 - 1)), StatusCode::kOutOfRange,
                             {"int overflow", "-2147483648"}))
      << "negateExact overflows";

  auto tiny = Make(DataType::TinyInt(), "sum");
  EXPECT_EQ(Str(tiny->Agg(Value::Int8(100), Value::Int8(27))), "127");
  EXPECT_TRUE(test::HasError(tiny->Agg(Value::Int8(100), Value::Int8(28)), StatusCode::kOutOfRange,
                             {"byte overflow: 100 + 28"}));
  auto small = Make(DataType::SmallInt(), "sum");
  EXPECT_EQ(tiny->Agg(Value::Int8(1), Value::Int8(2))->kind(), Value::Kind::kInt8);
  EXPECT_EQ(Str(small->Retract(Value::Int16(-32768), Value::Int16(1))).substr(0, 6), "error:");
  auto big = Make(DataType::BigInt(), "sum");
  EXPECT_EQ(Str(big->Agg(Value::Int64(1LL << 40), Value::Int64(1))), "1099511627777");
  auto dbl = Make(DataType::Double(), "sum");
  EXPECT_EQ(dbl->Agg(Value::Double(1.5), Value::Double(2.25))->float64(), 3.75);
  EXPECT_EQ(dbl->Retract(N(), Value::Double(2.5))->float64(), -2.5);
  auto flt = Make(DataType::Float(), "sum");
  EXPECT_EQ(flt->Agg(Value::Float(1.5f), Value::Float(2.0f))->float32(), 3.5f);

  auto dec = Make(DataType::Decimal(4, 2), "sum");
  EXPECT_EQ(Str(dec->Agg(Dec(1050, 4, 2), Dec(25, 4, 2))), Dec(1075, 4, 2).DebugString());
  EXPECT_TRUE(dec->Agg(Dec(9999, 4, 2), Dec(1, 4, 2))->is_null()) << "precision overflow is null";
  EXPECT_EQ(Str(dec->Retract(N(), Dec(25, 4, 2))), Dec(-25, 4, 2).DebugString());
  EXPECT_EQ(Str(dec->Retract(Dec(100, 4, 2), Dec(25, 4, 2))), Dec(75, 4, 2).DebugString());
}

TEST(FieldAggregatorTest, Product) {
  auto agg = Make(DataType::Int(), "product");
  EXPECT_EQ(Fold(agg.get(), {Int(2), N(), Int(3), Int(-4)}), "-24");
  EXPECT_EQ(Str(agg->Retract(Int(24), Int(4))), "6");
  EXPECT_EQ(Str(agg->Retract(Int(7), Int(2))), "3");
  EXPECT_EQ(Str(agg->Retract(N(), Int(2))), "null");
  EXPECT_EQ(Str(agg->Retract(Int(5), N())), "5");
  EXPECT_TRUE(test::HasError(agg->Retract(Int(5), Int(0)), StatusCode::kInvalidArgument,
                             {"division by zero: 5 / 0"}));
  EXPECT_TRUE(test::HasError(agg->Agg(Int(65536), Int(65536)), StatusCode::kOutOfRange,
                             {"int overflow: 65536 * 65536"}));
  auto dbl = Make(DataType::Double(), "product");
  EXPECT_EQ(dbl->Retract(Value::Double(3.0), Value::Double(2.0))->float64(), 1.5);

  auto dec = Make(DataType::Decimal(6, 2), "product");
  // 1.25 * 1.25 = 1.5625 -> 1.56 (HALF_UP); 1.15 * 1.5 = 1.725 -> 1.73
  EXPECT_EQ(Str(dec->Agg(Dec(125, 6, 2), Dec(125, 6, 2))), Dec(156, 6, 2).DebugString());
  EXPECT_EQ(Str(dec->Agg(Dec(115, 6, 2), Dec(150, 6, 2))), Dec(173, 6, 2).DebugString());
  EXPECT_TRUE(dec->Agg(Dec(999999, 6, 2), Dec(1000, 6, 2))->is_null());
  // 1.00 / 4.00 = 0.25 exactly; 1.00 / 3.00 does not terminate (Java ArithmeticException).
  EXPECT_EQ(Str(dec->Retract(Dec(100, 6, 2), Dec(400, 6, 2))), Dec(25, 6, 2).DebugString());
  EXPECT_EQ(Str(dec->Retract(Dec(100, 6, 2), Dec(800, 6, 2))), Dec(13, 6, 2).DebugString());
  EXPECT_TRUE(test::HasError(dec->Retract(Dec(100, 6, 2), Dec(300, 6, 2)),
                             StatusCode::kInvalidArgument,
                             {"Non-terminating decimal expansion", "1.00 / 3.00"}));
  EXPECT_TRUE(test::HasError(dec->Retract(Dec(100, 6, 2), Dec(0, 6, 2)),
                             StatusCode::kInvalidArgument, {"division by zero: 1.00 / 0"}));
}

TEST(FieldAggregatorTest, MaxAndMin) {
  auto max = Make(DataType::Int(), "max");
  auto min = Make(DataType::Int(), "min");
  EXPECT_EQ(Fold(max.get(), {Int(3), N(), Int(7), Int(5)}), "7");
  EXPECT_EQ(Fold(min.get(), {N(), Int(3), Int(7), Int(-5)}), "-5");
  auto smax = Make(DataType::String(), "max");
  EXPECT_EQ(Fold(smax.get(), {Str("apple"), Str("banana"), Str("b")}), "'banana'");
  auto ts = Make(DataType::Timestamp(6), "min");
  EXPECT_EQ(ts->Agg(Value::FromTimestamp({5, 1}), Value::FromTimestamp({5, 0}))
                ->timestamp()
                .nano_of_millisecond,
            0);
  EXPECT_TRUE(
      test::HasError(max->Retract(Int(1), Int(1)), StatusCode::kNotSupported,
                     {"Aggregate function 'max' does not support retraction", "ignore-retract"}));
  EXPECT_EQ(MakeError(DataType::Array(DataType::Int()), "max").code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeError(DataType::Map(DataType::Int(), DataType::Int()), "min").code(),
            StatusCode::kInvalidArgument);
}

TEST(FieldAggregatorTest, LastValues) {
  auto last = Make(DataType::Int(), "last_value");
  EXPECT_EQ(Fold(last.get(), {Int(3), Int(4), N()}), "null");
  EXPECT_EQ(Str(last->Retract(Int(3), Int(4))), "null");
  auto nonnull = Make(DataType::Int(), "last_non_null_value");
  EXPECT_EQ(Fold(nonnull.get(), {Int(3), Int(4), N()}), "4");
  EXPECT_EQ(Str(nonnull->Retract(Int(3), Int(4))), "null");
  EXPECT_EQ(Str(nonnull->Retract(Int(3), N())), "3");
}

TEST(FieldAggregatorTest, FirstValues) {
  auto first = Make(DataType::Int(), "first_value");
  EXPECT_EQ(Fold(first.get(), {N(), Int(4), Int(5)}), "null");
  EXPECT_EQ(Fold(first.get(), {Int(4), Int(5)}), "4") << "Reset starts over";
  EXPECT_TRUE(test::HasError(first->Retract(Int(1), Int(1)), StatusCode::kNotSupported,
                             {"does not support retraction"}));
  for (const char* name : {"first_non_null_value", "first_not_null_value"}) {
    auto agg = Make(DataType::Int(), name);
    EXPECT_EQ(Fold(agg.get(), {N(), Int(4), Int(5)}), "4") << name;
    EXPECT_TRUE(test::HasError(agg->Retract(Int(1), Int(1)), StatusCode::kNotSupported,
                               {"does not support retraction"}));
  }
  // Older input through AggReversed (partial-update sequence groups) is Agg(input, acc): on
  // the first call first_value takes its "input", the accumulator.
  auto rev = Make(DataType::Int(), "first_value");
  rev->Reset();
  EXPECT_EQ(Str(rev->AggReversed(Int(9), Int(1))), "9");
}

TEST(FieldAggregatorTest, Listagg) {
  auto agg = Make(DataType::String(), "listagg");
  EXPECT_EQ(Fold(agg.get(), {Str("a"), N(), Str(" "), Str("b"), Str("a")}), "'a,b,a'");
  EXPECT_EQ(Fold(agg.get(), {Str(""), Str("x")}), "'x'");
  auto semi = Make(DataType::String(), "listagg", {{"fields.f.list-agg-delimiter", "; "}});
  EXPECT_EQ(Fold(semi.get(), {Str("a"), Str("b")}), "'a; b'");
  auto distinct = Make(DataType::String(), "listagg", {{"fields.f.distinct", "true"}});
  EXPECT_EQ(Fold(distinct.get(), {Str("a,b"), Str("b,c, ,a"), Str("d")}), "'a,b,c,d'");
  EXPECT_TRUE(test::HasError(agg->Retract(Str("a"), Str("a")), StatusCode::kNotSupported,
                             {"does not support retraction"}));
  EXPECT_EQ(MakeError(DataType::VarChar(10), "listagg").code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      test::HasError(MakeError(DataType::Int(), "listagg"), StatusCode::kInvalidArgument,
                     {"Data type for list agg column must be 'VarCharType' but was 'INT'."}));
}

TEST(FieldAggregatorTest, BoolAndOr) {
  auto band = Make(DataType::Boolean(), "bool_and");
  auto bor = Make(DataType::Boolean(), "bool_or");
  EXPECT_EQ(Fold(band.get(), {Value::Boolean(true), N(), Value::Boolean(false)}), "false");
  EXPECT_EQ(Fold(band.get(), {Value::Boolean(true), Value::Boolean(true)}), "true");
  EXPECT_EQ(Fold(bor.get(), {Value::Boolean(false), N(), Value::Boolean(true)}), "true");
  EXPECT_EQ(Fold(bor.get(), {N()}), "null");
  EXPECT_TRUE(test::HasError(band->Retract(Value::Boolean(true), Value::Boolean(true)),
                             StatusCode::kNotSupported, {"does not support retraction"}));
  EXPECT_TRUE(
      test::HasError(MakeError(DataType::Int(), "bool_or"), StatusCode::kInvalidArgument,
                     {"Data type for bool_or column must be 'BooleanType' but was 'INT'."}));
}

Value Arr(ValueList v) { return Value::Array(std::move(v)); }

TEST(FieldAggregatorTest, Collect) {
  auto type = DataType::Array(DataType::String());
  auto agg = Make(type, "collect");
  EXPECT_EQ(Fold(agg.get(), {Arr({Str("a"), Str("b")}), N(), Arr({Str("a")})}), "['a', 'b', 'a']");
  auto distinct = Make(type, "collect", {{"fields.f.distinct", "true"}});
  EXPECT_EQ(Fold(distinct.get(), {Arr({Str("a"), Str("a"), N()}), Arr({Str("b"), N(), Str("a")})}),
            "['a', null, 'b']");
  // Retraction removes one element per retracted element.
  EXPECT_EQ(Str(agg->Retract(Arr({Str("a"), Str("b"), Str("a")}), Arr({Str("a"), Str("c")}))),
            "['b', 'a']");
  EXPECT_EQ(Str(agg->Retract(N(), Arr({Str("a")}))), "null");
  EXPECT_EQ(Str(agg->Retract(Arr({Str("a")}), N())), "['a']");
  EXPECT_EQ(Str(agg->Retract(Arr({Str("a")}), Arr({}))), "['a']");
  EXPECT_TRUE(test::HasError(MakeError(DataType::String(), "collect"), StatusCode::kInvalidArgument,
                             {"Data type for collect column must be 'Array' but was 'STRING'."}));
}

Value MapOf(ValuePairs pairs) { return Value::Map(std::move(pairs)); }

TEST(FieldAggregatorTest, MergeMap) {
  auto type = DataType::Map(DataType::Int(), DataType::String());
  auto agg = Make(type, "merge_map");
  Value a = MapOf({{Int(1), Str("a")}, {Int(2), Str("b")}});
  Value b = MapOf({{Int(2), Str("B")}, {Int(3), Str("c")}});
  Result<Value> merged = agg->Agg(a, b);
  ASSERT_OK(merged);
  EXPECT_EQ(*merged, MapOf({{Int(1), Str("a")}, {Int(2), Str("B")}, {Int(3), Str("c")}}));
  EXPECT_EQ(*agg->Agg(N(), b), b);
  EXPECT_EQ(*agg->Agg(a, N()), a);
  EXPECT_EQ(*agg->Retract(a, MapOf({{Int(1), N()}})), MapOf({{Int(2), Str("b")}}));
  EXPECT_TRUE(agg->Retract(N(), a)->is_null());
  EXPECT_EQ(*agg->Retract(a, N()), a);
  EXPECT_TRUE(test::HasError(MakeError(DataType::Int(), "merge_map"), StatusCode::kInvalidArgument,
                             {"Data type for merge_map column must be 'MAP' but was 'INT'."}));
}

TEST(FieldAggregatorTest, MergeMapWithKeyTime) {
  auto row = DataType::Row(
      {test::Field(0, "v", DataType::Int()), test::Field(1, "ts", DataType::String())});
  auto type = DataType::Map(DataType::String(), row);
  auto agg = Make(type, "merge_map_with_keytime");
  auto R = [](int v, const char* ts) { return Value::Row({Int(v), ts ? Str(ts) : N()}); };
  Value acc = MapOf(
      {{Str("a"), R(1, "2024-01-02")}, {Str("b"), R(2, "2024-01-02")}, {Str("c"), R(3, "x")}});
  Value in = MapOf({{Str("a"), R(10, "2024-01-01")},  // older: kept 1
                    {Str("b"), R(20, "2024-01-03")},  // newer: 20
                    {Str("c"), N()},                  // null value: removed
                    {Str("d"), R(40, nullptr)},       // null ts: skipped
                    {Str("e"), R(50, "1")}});         // new key
  Result<Value> merged = agg->Agg(acc, in);
  ASSERT_OK(merged);
  EXPECT_EQ(*merged, MapOf({{Str("a"), R(1, "2024-01-02")},
                            {Str("b"), R(20, "2024-01-03")},
                            {Str("e"), R(50, "1")}}));
  auto named = Make(type, "merge_map_with_keytime", {{"fields.f.ts-field", "ts"}});
  EXPECT_NE(named, nullptr);
  EXPECT_EQ(MakeError(type, "merge_map_with_keytime", {{"fields.f.ts-field", "nope"}}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_TRUE(test::HasError(agg->Retract(acc, in), StatusCode::kNotSupported,
                             {"does not support retraction"}));
}

DataTypePtr NestedType() {
  return DataType::Array(DataType::Row({test::Field(0, "id", DataType::Int()),
                                        test::Field(1, "name", DataType::String()),
                                        test::Field(2, "seq", DataType::Int())}));
}

Value Row3(Value id, Value name, Value seq) {
  return Value::Row({std::move(id), std::move(name), std::move(seq)});
}

TEST(FieldAggregatorTest, NestedUpdateWithoutKeyAppends) {
  auto agg = Make(NestedType(), "nested_update");
  Value a = Arr({Row3(Int(1), Str("a"), N()), N()});
  Value b = Arr({Row3(Int(1), Str("a"), N()), Row3(Int(2), Str("b"), N())});
  EXPECT_EQ(*agg->Agg(a, b), Arr({Row3(Int(1), Str("a"), N()), Row3(Int(1), Str("a"), N()),
                                  Row3(Int(2), Str("b"), N())}));
  // Retraction removes every equal row.
  EXPECT_EQ(*agg->Retract(*agg->Agg(a, b), Arr({Row3(Int(1), Str("a"), N())})),
            Arr({Row3(Int(2), Str("b"), N())}));
  auto limited = Make(NestedType(), "nested_update", {{"fields.f.count-limit", "2"}});
  // An accumulator at the limit (nulls count) stays as it is.
  EXPECT_EQ(*limited->Agg(a, b), a);
  EXPECT_EQ(*limited->Agg(N(), b), b);
  EXPECT_EQ(*limited->Agg(Arr({Row3(Int(9), N(), N())}), b),
            Arr({Row3(Int(9), N(), N()), Row3(Int(1), Str("a"), N())}));
  EXPECT_EQ(MakeError(DataType::Array(DataType::Int()), "nested_update").code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(
      MakeError(NestedType(), "nested_update", {{"fields.f.nested-sequence-field", "seq"}}).code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      MakeError(NestedType(), "nested_update", {{"fields.f.nested-key-null-strategy", "ignore"}})
          .code(),
      StatusCode::kInvalidArgument);
}

TEST(FieldAggregatorTest, NestedUpdateWithKeyUpserts) {
  auto agg = Make(NestedType(), "nested_update", {{"fields.f.nested-key", "id"}});
  Value acc = Arr({Row3(Int(1), Str("a"), N()), Row3(Int(2), Str("b"), N())});
  Value in = Arr({Row3(Int(2), Str("B"), N()), Row3(Int(3), Str("c"), N())});
  EXPECT_EQ(*agg->Agg(acc, in), Arr({Row3(Int(1), Str("a"), N()), Row3(Int(2), Str("B"), N()),
                                     Row3(Int(3), Str("c"), N())}));
  EXPECT_EQ(*agg->Retract(acc, Arr({Row3(Int(1), Str("zzz"), N())})),
            Arr({Row3(Int(2), Str("b"), N())}));
  // nested-sequence-field: only a newer-or-equal sequence replaces.
  auto seq = Make(NestedType(), "nested_update",
                  {{"fields.f.nested-key", "id"}, {"fields.f.nested-sequence-field", "seq"}});
  Value s_acc = Arr({Row3(Int(1), Str("a"), Int(5))});
  EXPECT_EQ(*seq->Agg(s_acc, Arr({Row3(Int(1), Str("old"), Int(4))})), s_acc);
  EXPECT_EQ(*seq->Agg(s_acc, Arr({Row3(Int(1), Str("new"), Int(5))})),
            Arr({Row3(Int(1), Str("new"), Int(5))}));
  // count-limit caps new keys only.
  auto limited = Make(NestedType(), "nested_update",
                      {{"fields.f.nested-key", "id"}, {"fields.f.count-limit", "2"}});
  EXPECT_EQ(*limited->Agg(acc, in),
            Arr({Row3(Int(1), Str("a"), N()), Row3(Int(2), Str("B"), N())}));
  // Null keys per strategy.
  Value null_key = Arr({Row3(N(), Str("x"), N())});
  auto merge = Make(NestedType(), "nested_update", {{"fields.f.nested-key", "id"}});
  EXPECT_EQ(merge->Agg(acc, null_key)->list().size(), 3u);
  auto ignore =
      Make(NestedType(), "nested_update",
           {{"fields.f.nested-key", "id"}, {"fields.f.nested-key-null-strategy", "ignore"}});
  EXPECT_EQ(*ignore->Agg(acc, null_key), acc);
  auto error =
      Make(NestedType(), "nested_update",
           {{"fields.f.nested-key", "id"}, {"fields.f.nested-key-null-strategy", "error"}});
  EXPECT_TRUE(test::HasError(error->Agg(acc, null_key), StatusCode::kInvalidArgument,
                             {"Nested key contains null values"}));
}

TEST(FieldAggregatorTest, NestedPartialUpdate) {
  auto agg = Make(NestedType(), "nested_partial_update", {{"fields.f.nested-key", "id"}});
  Value acc = Arr({Row3(Int(1), Str("a"), Int(1)), Row3(Int(2), Str("b"), N())});
  Value in = Arr({Row3(Int(2), N(), Int(7)), Row3(Int(3), Str("c"), N()), N()});
  EXPECT_EQ(*agg->Agg(acc, in), Arr({Row3(Int(1), Str("a"), Int(1)), Row3(Int(2), Str("b"), Int(7)),
                                     Row3(Int(3), Str("c"), N())}));
  EXPECT_EQ(*agg->Agg(acc, N()), acc);
  EXPECT_EQ(MakeError(NestedType(), "nested_partial_update").code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(test::HasError(agg->Retract(acc, in), StatusCode::kNotSupported,
                             {"does not support retraction"}));
}

std::string PortableBitmap(std::initializer_list<uint32_t> values) {
  roaring_bitmap_t* r = roaring_bitmap_create();
  for (uint32_t v : values) roaring_bitmap_add(r, v);
  std::string out(roaring_bitmap_portable_size_in_bytes(r), '\0');
  roaring_bitmap_portable_serialize(r, out.data());
  roaring_bitmap_free(r);
  return out;
}

TEST(FieldAggregatorTest, RoaringBitmap32) {
  auto agg = Make(DataType::Bytes(), "rbm32");
  // Java RoaringBitmap.serialize of {1, 2, 3}: cookie 12346, 1 container, key 0, cardinality-1
  // 2, offset 16, then the values; all little-endian.
  const std::string java_123(
      "\x3a\x30\x00\x00\x01\x00\x00\x00\x00\x00\x02\x00\x10\x00\x00\x00"
      "\x01\x00\x02\x00\x03\x00",
      22);
  Result<Value> merged = agg->Agg(Value::Binary(java_123), Value::Binary(PortableBitmap({5})));
  ASSERT_OK(merged);
  const std::string java_1235(
      "\x3a\x30\x00\x00\x01\x00\x00\x00\x00\x00\x03\x00\x10\x00\x00\x00"
      "\x01\x00\x02\x00\x03\x00\x05\x00",
      24);
  EXPECT_EQ(merged->bytes(), java_1235);
  Result<Value> big =
      agg->Agg(Value::Binary(PortableBitmap({1, 70000})), Value::Binary(PortableBitmap({2})));
  ASSERT_OK(big);
  EXPECT_EQ(big->bytes(), PortableBitmap({1, 2, 70000}));
  EXPECT_EQ(agg->Agg(N(), Value::Binary(java_123))->bytes(), java_123);
  EXPECT_TRUE(test::HasError(agg->Agg(Value::Binary("garbage"), Value::Binary(java_123)),
                             StatusCode::kInvalidArgument,
                             {"rbm32: a value is not a serialized 32-bit roaring bitmap"}));
  EXPECT_TRUE(test::HasError(
      agg->Agg(Value::Binary(java_123.substr(0, 20)), Value::Binary(java_123)),
      StatusCode::kInvalidArgument, {"rbm32: a value is not a serialized 32-bit roaring bitmap"}));
  EXPECT_TRUE(test::HasError(agg->Retract(Value::Binary(java_123), Value::Binary(java_123)),
                             StatusCode::kNotSupported, {"does not support retraction"}));
  EXPECT_TRUE(
      test::HasError(MakeError(DataType::String(), "rbm32"), StatusCode::kInvalidArgument,
                     {"Data type for rbm32 column must be 'VarBinaryType' but was 'STRING'."}));
}

TEST(FieldAggregatorTest, UnsupportedAndUnknownFunctions) {
  for (const char* name : {"rbm64", "hll_sketch", "theta_sketch"}) {
    Status st = MakeError(DataType::Bytes(), name);
    EXPECT_EQ(st.code(), StatusCode::kNotSupported) << name;
    EXPECT_NE(st.message().find(name), std::string::npos);
  }
  Status unknown = MakeError(DataType::Int(), "count");
  EXPECT_EQ(unknown.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.message().find("count"), std::string::npos);
  EXPECT_TRUE(test::HasError(MakeError(DataType::String(), "sum"), StatusCode::kInvalidArgument,
                             {"Data type for sum column must be 'NumericType' but was 'STRING'."}));
  EXPECT_EQ(MakeError(DataType::Int(), "product",
                      {{"aggregation.remove-record-on-delete", "true"},
                       {"fields.f.ignore-retract", "true"}})
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(FieldAggregatorTest, PrimaryKeyAndIgnoreRetract) {
  auto pk = Make(DataType::Int(), "primary-key");
  EXPECT_EQ(Str(pk->Agg(Int(1), Int(2))), "2");
  EXPECT_EQ(Str(pk->Retract(Int(1), Int(3))), "3");
  auto ignoring = Make(DataType::Int(), "max", {{"fields.f.ignore-retract", "true"}});
  EXPECT_EQ(Str(ignoring->Retract(Int(4), Int(9))), "4");
  EXPECT_EQ(Str(ignoring->Agg(Int(4), Int(9))), "9");
  auto first = Make(DataType::Int(), "first_value", {{"fields.f.ignore-retract", "true"}});
  EXPECT_EQ(Fold(first.get(), {Int(1), Int(2)}), "1");
  EXPECT_EQ(Fold(first.get(), {Int(3), Int(2)}), "3") << "Reset reaches the wrapped function";
}

}  // namespace
}  // namespace sluice
