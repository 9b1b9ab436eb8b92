// Conversion to DIA (plain or periodic offsets), refusing matrices whose diagonals would cost
// far more storage than their entries, and the explicit instantiations of its storage.
#include "planarmom/gpusolver/dia.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace pmom {

namespace {

// The diagonal of A(i, j): j - i, or with periodic offsets (j - i) mod cols as the residue of
// smallest magnitude, ties to the positive one.
std::int64_t offset_of(index_t i, index_t j, index_t cols, bool periodic) {
  const std::int64_t d = static_cast<std::int64_t>(j) - i;
  if (!periodic) return d;
  const std::int64_t r = (d % cols + cols) % cols;
  return 2 * r > cols ? r - cols : r;
}

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

template <class T> Dia<T> to_dia(const Csr<T>& a, const DiaOptions& options) {
  if (!(options.max_fill > 0))
    throw std::invalid_argument("DIA: max_fill must be positive, got " + fixed(options.max_fill));
  Dia<T> m;
  m.rows = a.rows;
  m.cols = a.cols;
  m.periodic = options.periodic;

  // Which diagonals are occupied, indexed by offset + shift: offsets lie in (-rows, cols),
  // periodic ones in (-cols / 2, cols / 2].
  const std::int64_t shift = std::max(a.rows, a.cols);
  std::vector<index_t> slot(static_cast<std::size_t>(shift) + a.cols + 1, -1);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      slot[offset_of(i, a.col_idx[k], a.cols, m.periodic) + shift] = 0;
  for (std::size_t s = 0; s < slot.size(); ++s)
    if (slot[s] == 0) {
      slot[s] = m.diagonals();
      m.offset.push_back(static_cast<index_t>(static_cast<std::int64_t>(s) - shift));
    }

  const double stored = static_cast<double>(a.rows) * m.diagonals();
  if (stored > options.max_fill * a.nnz())
    throw std::invalid_argument(
        "DIA: the " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " matrix has " +
        std::to_string(m.diagonals()) + (m.periodic ? " periodic" : "") +
        " diagonals, so DIA would store " + fixed(stored / a.nnz()) + " values per entry (" +
        std::to_string(a.nnz()) + " entries), more than max_fill = " + fixed(options.max_fill) +
        "; use csr, sellp or hyb for it, or raise DiaOptions::max_fill (--dia-max-fill)");

  m.values.assign(static_cast<std::size_t>(a.rows) * m.offset.size(), T(0));
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t d = slot[offset_of(i, a.col_idx[k], a.cols, m.periodic) + shift];
      m.values[static_cast<std::size_t>(d) * a.rows + i] = a.values[k];
    }
  return m;
}

#define PMOM_INSTANTIATE(T) template struct Dia<T>; \
 template Dia<T> to_dia(const Csr<T>&, const DiaOptions&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
