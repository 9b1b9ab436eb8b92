// Matrix Market (NIST) reading and writing: coordinate and array formats; real, complex,
// integer and pattern fields; general, symmetric, hermitian and skew-symmetric storage;
// plain or gzip-compressed files. Malformed input raises MatrixMarketError naming the file
// and line.
#pragma once

#include <complex>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/gpusolver/coo.hpp"

namespace pmom::io {

enum class MmFormat { coordinate, array };
enum class MmField { real, complex, integer, pattern };
enum class MmSymmetry { general, symmetric, hermitian, skew_symmetric };

struct MmHeader {
  MmFormat format = MmFormat::coordinate;
  MmField field = MmField::real;
  MmSymmetry symmetry = MmSymmetry::general;
};

// A matrix as read, with symmetric storage expanded to all entries (a_ji = a_ij, conj(a_ij)
// or -a_ij). Array-format files give every entry, zeros included, in column-major order.
// Indices in `entries` are 0-based; coordinate entries keep file order, each mirrored entry
// right after the stored one.
struct MatrixMarketMatrix {
  MmHeader header;
  Coo<std::complex<double>> entries;  // real, integer and pattern fields have zero imaginary
                                      // parts; pattern entries are 1
  std::size_t stored_entries = 0;     // entry lines in the file, before expansion
};

// what() reads "FILE:LINE: message", or "FILE: message" when line == 0. An error found at
// the end of the file (missing entries, no size line) names the line after the last one.
class MatrixMarketError : public std::runtime_error {
 public:
  // line == 0: the error concerns the whole file (cannot open, empty).
  MatrixMarketError(const std::filesystem::path& file, std::size_t line, const std::string& what);
  [[nodiscard]] std::size_t line() const { return line_; }

 private:
  std::size_t line_;
};

// Reads FILE (.mtx or .mtx.gz, detected by content). Rejects: a bad or unsupported banner,
// a bad size line, fewer or more entries than stated, indices out of range, duplicate
// entries, entries above the diagonal in symmetric/hermitian/skew storage, a diagonal entry
// in skew-symmetric storage, non-numeric or missing fields, NaN or Inf, trailing garbage.
MatrixMarketMatrix read_matrix_market(const std::filesystem::path& file);

// Writes coordinate general storage (real field if every imaginary part is zero and
// `complex_field` is false). Values are written with 17 significant digits, so a write-read
// round trip is exact. Each line of `comment` becomes a comment line after the banner. A
// name ending in .gz gives a gzip file. Throws std::runtime_error naming the file on I/O
// failure, std::invalid_argument on inconsistent input.
void write_matrix_market(const std::filesystem::path& file,
                         const Coo<std::complex<double>>& entries, bool complex_field,
                         const std::string& comment = "");
// Writes a dense rows x cols column-major block in array format.
void write_matrix_market_array(const std::filesystem::path& file, index_t rows, index_t cols,
                               const std::vector<std::complex<double>>& values,
                               bool complex_field, const std::string& comment = "");

}  // namespace pmom::io
