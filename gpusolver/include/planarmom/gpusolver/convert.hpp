// Conversions between storage formats and the structural queries the solvers need
// (transposes, diagonal, symmetry). All work on the host.
#pragma once

#include <vector>

#include "planarmom/gpusolver/coo.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/hyb.hpp"

namespace pmom {

// Sorts by (row, column) and sums duplicate entries. Throws on out-of-range indices.
template <class T> Csr<T> to_csr(const Coo<T>& coo);
template <class T> Coo<T> to_coo(const Csr<T>& csr);

template <class T> Csr<T> transpose(const Csr<T>& a);
template <class T> Csr<T> conj_transpose(const Csr<T>& a);

// ELL width from the row-length histogram (Bell & Garland's rule, see HybOptions).
template <class T> index_t hyb_ell_width(const Csr<T>& a, const HybOptions& options = {});
template <class T> Hyb<T> to_hyb(const Csr<T>& a, const HybOptions& options = {});
template <class T> Hyb<T> to_hyb(const Csr<T>& a, index_t ell_width);

// The stored diagonal (zero where a row has no diagonal entry); size min(rows, cols).
template <class T> std::vector<T> diagonal(const Csr<T>& a);

// Exact structural and value equality with the (conjugate) transpose. For real T both agree.
template <class T> bool is_symmetric(const Csr<T>& a);
template <class T> bool is_hermitian(const Csr<T>& a);

// Converts the value type; complex -> real throws if any imaginary part is non-zero.
template <class To, class From> Csr<To> convert_values(const Csr<From>& a);

}  // namespace pmom
