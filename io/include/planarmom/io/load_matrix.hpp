// Matrix Market files as solver-ready CSR matrices and dense blocks of a chosen value type.
#pragma once

#include <complex>
#include <filesystem>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/io/matrix_market.hpp"

namespace pmom::io {

// Compresses a read matrix; real, integer and pattern fields give T = double exactly,
// complex fields need T = std::complex<double> (asking for double throws, naming the file).
template <class T>
Csr<T> to_csr_matrix(const MatrixMarketMatrix& m, const std::filesystem::path& file);

// A dense rows x cols block (column-major) from an array- or coordinate-format file, for
// right-hand sides and initial guesses.
template <class T>
std::vector<T> to_dense_block(const MatrixMarketMatrix& m, const std::filesystem::path& file);

[[nodiscard]] inline bool is_complex_field(const MatrixMarketMatrix& m) {
  return m.header.field == MmField::complex;
}

}  // namespace pmom::io
