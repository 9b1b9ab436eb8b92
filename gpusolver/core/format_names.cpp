// Names of the storage formats, as the command line and the benchmark reports spell them.
#include <stdexcept>

#include "planarmom/gpusolver/operator.hpp"

namespace pmom {

std::string to_string(Format f) {
  switch (f) {
    case Format::csr: return "csr";
    case Format::hyb: return "hyb";
    case Format::ellr: return "ellr";
    case Format::sellp: return "sellp";
    case Format::dia: return "dia";
    case Format::function: return "function";
  }
  return "?";
}

Format parse_format(const std::string& name) {
  std::string known;
  for (const Format f : all_formats) {
    if (to_string(f) == name) return f;
    known += (known.empty() ? "" : ", ") + to_string(f);
  }
  throw std::invalid_argument("unknown sparse format '" + name + "' (choose " + known + ")");
}

}  // namespace pmom
