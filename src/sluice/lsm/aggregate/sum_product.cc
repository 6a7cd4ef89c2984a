#include "sluice/lsm/aggregate/sum_product.h"

#include <limits>
#include <string>
#include <string_view>

#include "sluice/types/decimal_math.h"

namespace sluice {
namespace {

enum class ArithOp { kAdd, kSubtract, kMultiply, kDivide };

const char* OpSymbol(ArithOp op) {
  switch (op) {
    case ArithOp::kAdd:
      return "+";
    case ArithOp::kSubtract:
      return "-";
    case ArithOp::kMultiply:
      return "*";
    case ArithOp::kDivide:
      return "/";
  }
  return "?";
}

int128_t Abs128(int128_t v) { return v < 0 ? -v : v; }

int128_t Gcd(int128_t a, int128_t b) {
  a = Abs128(a);
  b = Abs128(b);
  while (b != 0) {
    int128_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Status Overflow(std::string_view type, const std::string& a, ArithOp op, const std::string& b) {
  return Status::OutOfRange(std::string(type) + " overflow: " + a + " " + OpSymbol(op) + " " + b);
}

template <typename T>
Result<T> ExactIntegral(T a, T b, ArithOp op, std::string_view type_name) {
  T r = 0;
  bool overflow = false;
  switch (op) {
    case ArithOp::kAdd:
      overflow = __builtin_add_overflow(a, b, &r);
      break;
    case ArithOp::kSubtract:
      overflow = __builtin_sub_overflow(a, b, &r);
      break;
    case ArithOp::kMultiply:
      overflow = __builtin_mul_overflow(a, b, &r);
      break;
    case ArithOp::kDivide:
      if (b == 0) return Status::InvalidArgument("division by zero: " + std::to_string(a) + " / 0");
      if (b == -1 && a == std::numeric_limits<T>::min()) {
        overflow = true;
      } else {
        r = static_cast<T>(a / b);
      }
      break;
  }
  if (overflow) return Overflow(type_name, std::to_string(a), op, std::to_string(b));
  return r;
}

Result<Value> DecimalArith(const Decimal& a, const Decimal& b, ArithOp op, const DataType& type) {
  const int32_t precision = type.precision();
  const int32_t scale = type.scale();
  int128_t r = 0;
  switch (op) {
    case ArithOp::kAdd:
      if (__builtin_add_overflow(a.unscaled, b.unscaled, &r)) return Value::Null();
      break;
    case ArithOp::kSubtract:
      if (__builtin_sub_overflow(a.unscaled, b.unscaled, &r)) return Value::Null();
      break;
    case ArithOp::kMultiply: {
      int128_t product = 0;
      if (__builtin_mul_overflow(a.unscaled, b.unscaled, &product)) {
        return Status::NotSupported("decimal product " + a.ToString() + " * " + b.ToString() +
                                    " needs more than 38 digits before rounding");
      }
      r = DivideHalfUp(product, Pow10(scale));
      break;
    }
    case ArithOp::kDivide: {
      if (b.unscaled == 0) {
        return Status::InvalidArgument("division by zero: " + a.ToString() + " / 0");
      }
      // BigDecimal.divide(divisor) without a MathContext fails on a non-terminating quotient.
      int128_t d = b.unscaled / Gcd(a.unscaled == 0 ? b.unscaled : a.unscaled, b.unscaled);
      d = Abs128(d);
      while (d % 2 == 0) d /= 2;
      while (d % 5 == 0) d /= 5;
      if (d != 1) {
        return Status::InvalidArgument("Non-terminating decimal expansion; no exact " +
                                       std::string("representable decimal result: ") +
                                       a.ToString() + " / " + b.ToString());
      }
      int128_t numerator = 0;
      if (__builtin_mul_overflow(a.unscaled, Pow10(scale), &numerator)) {
        return Status::NotSupported("decimal quotient " + a.ToString() + " / " + b.ToString() +
                                    " needs more than 38 digits before rounding");
      }
      r = DivideHalfUp(numerator, b.unscaled);
      break;
    }
  }
  if (Abs128(r) >= Pow10(precision)) return Value::Null();
  return Value::FromDecimal(Decimal{r, precision, scale});
}

// a op b for two non-null values of numeric `type`.
Result<Value> Arith(const Value& a, const Value& b, ArithOp op, const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kTinyInt: {
      SLUICE_ASSIGN_OR_RETURN(int8_t r,
                              ExactIntegral<int8_t>(static_cast<int8_t>(a.AsInt64()),
                                                    static_cast<int8_t>(b.AsInt64()), op, "byte"));
      return Value::Int8(r);
    }
    case TypeRoot::kSmallInt: {
      SLUICE_ASSIGN_OR_RETURN(
          int16_t r, ExactIntegral<int16_t>(static_cast<int16_t>(a.AsInt64()),
                                            static_cast<int16_t>(b.AsInt64()), op, "short"));
      return Value::Int16(r);
    }
    case TypeRoot::kInt: {
      SLUICE_ASSIGN_OR_RETURN(int32_t r,
                              ExactIntegral<int32_t>(static_cast<int32_t>(a.AsInt64()),
                                                     static_cast<int32_t>(b.AsInt64()), op, "int"));
      return Value::Int32(r);
    }
    case TypeRoot::kBigInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t r,
                              ExactIntegral<int64_t>(a.AsInt64(), b.AsInt64(), op, "long"));
      return Value::Int64(r);
    }
    case TypeRoot::kFloat: {
      float x = a.kind() == Value::Kind::kFloat ? a.float32() : static_cast<float>(a.float64());
      float y = b.kind() == Value::Kind::kFloat ? b.float32() : static_cast<float>(b.float64());
      switch (op) {
        case ArithOp::kAdd:
          return Value::Float(x + y);
        case ArithOp::kSubtract:
          return Value::Float(x - y);
        case ArithOp::kMultiply:
          return Value::Float(x * y);
        case ArithOp::kDivide:
          return Value::Float(x / y);
      }
      break;
    }
    case TypeRoot::kDouble: {
      double x = a.kind() == Value::Kind::kDouble ? a.float64() : a.float32();
      double y = b.kind() == Value::Kind::kDouble ? b.float64() : b.float32();
      switch (op) {
        case ArithOp::kAdd:
          return Value::Double(x + y);
        case ArithOp::kSubtract:
          return Value::Double(x - y);
        case ArithOp::kMultiply:
          return Value::Double(x * y);
        case ArithOp::kDivide:
          return Value::Double(x / y);
      }
      break;
    }
    case TypeRoot::kDecimal:
      return DecimalArith(a.decimal(), b.decimal(), op, type);
    default:
      break;
  }
  return Status::InvalidArgument("type " + type.ToString() + " is not numeric");
}

// -v for a non-null numeric value.
Result<Value> Negate(const Value& v, const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kFloat:
      return Value::Float(-v.float32());
    case TypeRoot::kDouble:
      return Value::Double(-v.float64());
    case TypeRoot::kDecimal: {
      Decimal d = v.decimal();
      d.unscaled = -d.unscaled;
      return Value::FromDecimal(d);
    }
    default: {
      // 0 - v with the integral overflow rule of the type (Math.negateExact).
      Value zero;
      switch (type.root()) {
        case TypeRoot::kTinyInt:
          zero = Value::Int8(0);
          break;
        case TypeRoot::kSmallInt:
          zero = Value::Int16(0);
          break;
        case TypeRoot::kInt:
          zero = Value::Int32(0);
          break;
        default:
          zero = Value::Int64(0);
          break;
      }
      return Arith(zero, v, ArithOp::kSubtract, type);
    }
  }
}

}  // namespace

Result<Value> FieldSumAgg::Agg(const Value& acc, const Value& in) {
  if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
  return Arith(acc, in, ArithOp::kAdd, *type());
}

Result<Value> FieldSumAgg::Retract(const Value& acc, const Value& in) {
  if (acc.is_null() || in.is_null()) {
    if (!acc.is_null()) return acc;
    if (in.is_null()) return Value::Null();
    return Negate(in, *type());
  }
  return Arith(acc, in, ArithOp::kSubtract, *type());
}

Result<Value> FieldProductAgg::Agg(const Value& acc, const Value& in) {
  if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
  return Arith(acc, in, ArithOp::kMultiply, *type());
}

Result<Value> FieldProductAgg::Retract(const Value& acc, const Value& in) {
  if (acc.is_null() || in.is_null()) return acc;
  return Arith(acc, in, ArithOp::kDivide, *type());
}

}  // namespace sluice
