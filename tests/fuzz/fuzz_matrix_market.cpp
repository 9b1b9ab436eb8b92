// Fuzz target: the Matrix Market reader (plain or gzip bytes). Contract: a MatrixMarketError
// naming the file, or a matrix whose entries are in range, finite and as many as the header says.
#include <cmath>
#include <cstdint>
#include <string>

#include "harness.hpp"
#include "planarmom/io/matrix_market.hpp"

namespace {

using namespace pmom;

void check(const io::MatrixMarketMatrix& m) {
  const auto& e = m.entries;
  fuzz::expect(e.rows >= 0 && e.cols >= 0, "negative dimensions");
  fuzz::expect(e.row_idx.size() == e.values.size() && e.col_idx.size() == e.values.size(),
               "index and value arrays of different lengths");
  for (std::size_t k = 0; k < e.values.size(); ++k) {
    if (e.row_idx[k] < 0 || e.row_idx[k] >= e.rows || e.col_idx[k] < 0 || e.col_idx[k] >= e.cols)
      fuzz::fail("entry " + std::to_string(k) + " out of range");
    if (!std::isfinite(e.values[k].real()) || !std::isfinite(e.values[k].imag()))
      fuzz::fail("entry " + std::to_string(k) + " is not finite");
  }
  if (m.header.format == io::MmFormat::array) {
    fuzz::expect(e.values.size() == static_cast<std::size_t>(e.rows) *
                                        static_cast<std::size_t>(e.cols),
                 "an array-format matrix without every entry");
  } else {
    const bool general = m.header.symmetry == io::MmSymmetry::general;
    fuzz::expect(general ? e.values.size() == m.stored_entries
                         : e.values.size() >= m.stored_entries &&
                               e.values.size() <= 2 * m.stored_entries,
                 "entry count disagrees with the size line");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = fuzz::write_input("input.mtx", data, size);
  try {
    check(io::read_matrix_market(file));
  } catch (const io::MatrixMarketError& error) {
    fuzz::expect_names_file(error.what(), file);
  }
  return 0;
}
