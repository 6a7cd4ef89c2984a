#include "sluice/types/java_number_text.h"

#include <charconv>
#include <cmath>
#include <string_view>

namespace sluice {

namespace {

// A decimal d.ddd x 10^exponent: its significant digits and exponent.
struct Decimal10 {
  std::string digits;
  int exponent = 0;
};

// Parses to_chars' scientific text of a positive value ("1.2345e+07").
Decimal10 ParseScientific(std::string_view sci) {
  const size_t e = sci.find('e');
  Decimal10 d;
  d.digits.push_back(sci[0]);
  if (e > 1) d.digits.append(sci.substr(2, e - 2));
  std::string_view exp = sci.substr(e + 1);
  if (!exp.empty() && exp.front() == '+') exp.remove_prefix(1);
  std::from_chars(exp.data(), exp.data() + exp.size(), d.exponent);
  return d;
}

template <typename T>
Decimal10 ShortestDecimal(T magnitude) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), magnitude, std::chars_format::scientific);
  Decimal10 shortest = ParseScientific(std::string_view(buf, static_cast<size_t>(end - buf)));
  if (shortest.digits.size() != 1) return shortest;
  // Java: when one digit suffices, the closest to the value of the one- and two-digit decimals
  // that round back to it (Double.MIN_VALUE is "4.9E-324", not "5.0E-324").
  auto [end2, ec2] =
      std::to_chars(buf, buf + sizeof(buf), magnitude, std::chars_format::scientific, 1);
  Decimal10 two = ParseScientific(std::string_view(buf, static_cast<size_t>(end2 - buf)));
  T back = 0;
  std::from_chars(buf, end2, back);
  if (back != magnitude || two.digits[1] == '0') return shortest;
  return two;
}

// Java's layout of the decimal: plain for 1e-3 <= |v| < 1e7, else "d.dddE<exp>"; at least one
// digit after the point.
template <typename T>
std::string JavaFloatingToString(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  std::string out = value < 0 ? "-" : "";
  const T magnitude = std::fabs(value);
  Decimal10 d = ShortestDecimal(magnitude);
  std::string& digits = d.digits;
  const int exponent = d.exponent;
  if (magnitude >= static_cast<T>(1e-3) && magnitude < static_cast<T>(1e7)) {
    if (exponent >= 0) {
      if (static_cast<int>(digits.size()) <= exponent + 1) {
        digits.append(static_cast<size_t>(exponent + 1) - digits.size(), '0');
        out += digits + ".0";
      } else {
        out += digits.substr(0, static_cast<size_t>(exponent) + 1) + "." +
               digits.substr(static_cast<size_t>(exponent) + 1);
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
    return out;
  }
  out += digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0");
  return out + "E" + std::to_string(exponent);
}

}  // namespace

std::string JavaDoubleToString(double value) { return JavaFloatingToString(value); }

std::string JavaFloatToString(float value) { return JavaFloatingToString(value); }

}  // namespace sluice
