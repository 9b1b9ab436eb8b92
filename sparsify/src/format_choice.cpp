// suggest_format(): the row-length spread rule stated in format_choice.hpp.
#include "planarmom/sparsify/format_choice.hpp"

#include <algorithm>

namespace pmom::sparsify {

Format suggest_format(const Csr<std::complex<double>>& a) {
  if (a.rows == 0) return Format::csr;
  index_t longest = 0;
  for (index_t i = 0; i < a.rows; ++i) longest = std::max(longest, a.row_length(i));
  const double mean = static_cast<double>(a.nnz()) / static_cast<double>(a.rows);
  return static_cast<double>(longest) > 2 * mean ? Format::hyb : Format::csr;
}

}  // namespace pmom::sparsify
