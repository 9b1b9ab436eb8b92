// Converts Matrix Market contents to the solver's formats and value types.
#include "planarmom/io/load_matrix.hpp"

#include "planarmom/gpusolver/convert.hpp"

namespace pmom::io {
namespace {

template <class T> T narrow(std::complex<double> v) {
  if constexpr (is_complex_v<T>) return v;
  else return v.real();
}

template <class T> void require_representable(const MatrixMarketMatrix& m,
                                              const std::filesystem::path& file) {
  if constexpr (!is_complex_v<T>)
    if (is_complex_field(m))
      throw MatrixMarketError(file, 0, "complex matrix where a real one is expected");
}

}  // namespace

template <class T>
Csr<T> to_csr_matrix(const MatrixMarketMatrix& m, const std::filesystem::path& file) {
  require_representable<T>(m, file);
  Coo<T> coo;
  coo.rows = m.entries.rows;
  coo.cols = m.entries.cols;
  coo.row_idx = m.entries.row_idx;
  coo.col_idx = m.entries.col_idx;
  coo.values.reserve(m.entries.values.size());
  for (const auto& v : m.entries.values) coo.values.push_back(narrow<T>(v));
  return to_csr(coo);
}

template <class T>
std::vector<T> to_dense_block(const MatrixMarketMatrix& m, const std::filesystem::path& file) {
  require_representable<T>(m, file);
  const auto rows = static_cast<std::size_t>(m.entries.rows);
  std::vector<T> dense(rows * static_cast<std::size_t>(m.entries.cols), T(0));
  for (std::size_t e = 0; e < m.entries.nnz(); ++e)
    dense[static_cast<std::size_t>(m.entries.col_idx[e]) * rows + m.entries.row_idx[e]] +=
        narrow<T>(m.entries.values[e]);
  return dense;
}

template Csr<double> to_csr_matrix(const MatrixMarketMatrix&, const std::filesystem::path&);
template Csr<std::complex<double>> to_csr_matrix(const MatrixMarketMatrix&,
                                                 const std::filesystem::path&);
template std::vector<double> to_dense_block(const MatrixMarketMatrix&,
                                            const std::filesystem::path&);
template std::vector<std::complex<double>> to_dense_block(const MatrixMarketMatrix&,
                                                          const std::filesystem::path&);

}  // namespace pmom::io
