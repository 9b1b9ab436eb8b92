// Number formatting for messages: shortest readable form ("0.115", "-1", "1e-05").
#pragma once

#include <sstream>
#include <string>

namespace pmom::geometry::detail {

inline std::string num(double value) {
  std::ostringstream out;
  out.precision(10);
  out << value;
  return out.str();
}

}  // namespace pmom::geometry::detail
