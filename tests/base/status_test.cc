#include "sluice/status.h"

#include <gtest/gtest.h>

#include "sluice/base/coding.h"
#include "sluice/result.h"
#include "test_util.h"

namespace sluice {
namespace {

Result<int> Half(int v) {
  if (v % 2 != 0) return Status::InvalidArgument("odd value " + std::to_string(v));
  return v / 2;
}

Status Quarter(int v, int* out) {
  SLUICE_ASSIGN_OR_RETURN(int h, Half(v));
  SLUICE_ASSIGN_OR_RETURN(*out, Half(h));
  return Status::OK();
}

TEST(StatusTest, OkAndErrors) {
  EXPECT_OK(Status::OK());
  Status st = Status::Corruption("bad magic");
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"bad magic"}));
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_EQ(st.ToString(), "Corruption: bad magic");
  EXPECT_EQ(st.WithContext("/t/a.avro").ToString(), "Corruption: /t/a.avro: bad magic");
  EXPECT_OK(Status::OK().WithContext("x"));
}

TEST(StatusTest, ResultPropagation) {
  int out = 0;
  EXPECT_OK(Quarter(8, &out));
  EXPECT_EQ(out, 2);
  Status st = Quarter(6, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "odd value 3");
}

// The value of an error Result is a programming error: the process dies naming the status
// instead of reading an empty optional (undefined behaviour).
TEST(ResultDeathTest, ValueOfAnErrorAbortsNamingTheStatus) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Result<int> odd = Half(3);
  EXPECT_DEATH((void)odd.value(), "Result::value\\(\\) on an error: Invalid argument: odd value 3");
  EXPECT_DEATH((void)*odd, "odd value 3");
  Result<std::string> missing = Status::NotFound("no such file /t/x");
  EXPECT_DEATH((void)missing->size(), "Not found: no such file /t/x");
  EXPECT_DEATH((void)std::move(missing).value(), "no such file /t/x");
  Result<int> even = Half(4);
  EXPECT_EQ(even.value(), 2);
}

TEST(CodingTest, VarintRoundTripAndTruncation) {
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 1ull << 35, ~0ull}) {
    std::string buf;
    PutVarint64(&buf, v);
    const uint8_t* p = reinterpret_cast<const uint8_t*>(buf.data());
    uint64_t got = 0;
    ASSERT_TRUE(GetVarint64(&p, p + buf.size(), &got));
    EXPECT_EQ(got, v);
    const uint8_t* q = reinterpret_cast<const uint8_t*>(buf.data());
    if (buf.size() > 1) {
      EXPECT_FALSE(GetVarint64(&q, q + buf.size() - 1, &got));
    }
  }
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, INT64_MIN, INT64_MAX}) {
    EXPECT_EQ(ZigZagDecode64(ZigZagEncode64(v)), v);
  }
}

}  // namespace
}  // namespace sluice
