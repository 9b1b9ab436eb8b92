// Matrix Market writer: coordinate and array formats, general storage, plain or gzip output
// through one zlib code path ("wT" writes a plain file).
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "planarmom/io/matrix_market.hpp"

namespace pmom::io {

namespace {

namespace fs = std::filesystem;
using Complex = std::complex<double>;

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzHandle = std::unique_ptr<gzFile_s, GzCloser>;

// Buffered output; the buffer turns many short lines into few gzwrite calls.
class Output {
 public:
  explicit Output(const fs::path& file) : file_(file) {
    const bool gzip = file.extension() == ".gz";
    errno = 0;
    gz_.reset(gzopen(file.c_str(), gzip ? "wb" : "wT"));
    if (!gz_) fail("cannot open for writing", errno);
    buffer_.reserve(kFlushAt + 256);
  }

  std::string& buffer() { return buffer_; }

  // Call after each line; writes out once enough text has accumulated.
  void line_done() {
    buffer_.push_back('\n');
    if (buffer_.size() >= kFlushAt) flush();
  }

  void close() {
    flush();
    errno = 0;
    const int code = gzclose(gz_.release());
    if (code != Z_OK) fail("cannot finish writing", code == Z_ERRNO ? errno : EIO);
  }

 private:
  static constexpr std::size_t kFlushAt = std::size_t{1} << 20;

  void flush() {
    if (buffer_.empty()) return;
    errno = 0;
    const int written = gzwrite(gz_.get(), buffer_.data(), static_cast<unsigned>(buffer_.size()));
    if (written <= 0 || static_cast<std::size_t>(written) != buffer_.size()) {
      int code = Z_OK;
      const char* message = gzerror(gz_.get(), &code);
      if (code == Z_ERRNO) fail("cannot write", errno);
      fail("cannot write", message);
    }
    buffer_.clear();
  }

  [[noreturn]] void fail(const char* action, int errnum) const {
    fail(action, std::generic_category().message(errnum != 0 ? errnum : EIO));
  }
  [[noreturn]] void fail(const char* action, std::string_view reason) const {
    std::ostringstream message;
    message << action << ' ' << file_.string() << ": " << reason;
    throw std::runtime_error(message.str());
  }

  fs::path file_;
  GzHandle gz_;
  std::string buffer_;
};

void append_index(std::string& out, std::int64_t value) {
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  out.append(text, end);
}

// Same text as printf's %.17g, but independent of the C locale's decimal point.
void append_value(std::string& out, double value) {
  char text[32];
  const auto end =
      std::to_chars(text, text + sizeof text, value, std::chars_format::general, 17).ptr;
  out.append(text, end);
}

void append_entry_value(std::string& out, Complex value, bool complex_field) {
  append_value(out, value.real());
  if (!complex_field) return;
  out.push_back(' ');
  append_value(out, value.imag());
}

bool use_complex_field(const std::vector<Complex>& values, bool complex_field) {
  return complex_field ||
         std::any_of(values.begin(), values.end(), [](Complex v) { return v.imag() != 0.0; });
}

void write_header(Output& out, const char* format, bool complex_field,
                  const std::string& comment) {
  std::string& text = out.buffer();
  text += "%%MatrixMarket matrix ";
  text += format;
  text += complex_field ? " complex general" : " real general";
  out.line_done();
  std::string_view rest = comment;
  while (!rest.empty()) {
    const auto newline = rest.find('\n');
    text += '%';
    text += rest.substr(0, newline);
    out.line_done();
    rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
  }
}

void check_coordinate(const Coo<Complex>& entries) {
  if (entries.row_idx.size() != entries.values.size() ||
      entries.col_idx.size() != entries.values.size())
    throw std::invalid_argument("write_matrix_market: index and value arrays differ in length");
  for (std::size_t e = 0; e < entries.nnz(); ++e) {
    if (entries.row_idx[e] < 0 || entries.row_idx[e] >= entries.rows ||
        entries.col_idx[e] < 0 || entries.col_idx[e] >= entries.cols) {
      std::ostringstream message;
      message << "write_matrix_market: entry " << e << " (" << entries.row_idx[e] << ", "
              << entries.col_idx[e] << ") lies outside the " << entries.rows << " x "
              << entries.cols << " matrix";
      throw std::invalid_argument(message.str());
    }
  }
}

}  // namespace

void write_matrix_market(const std::filesystem::path& file, const Coo<Complex>& entries,
                         bool complex_field, const std::string& comment) {
  check_coordinate(entries);
  const bool complex_values = use_complex_field(entries.values, complex_field);
  Output out(file);
  write_header(out, "coordinate", complex_values, comment);
  std::string& text = out.buffer();
  append_index(text, entries.rows);
  text += ' ';
  append_index(text, entries.cols);
  text += ' ';
  append_index(text, static_cast<std::int64_t>(entries.nnz()));
  out.line_done();
  for (std::size_t e = 0; e < entries.nnz(); ++e) {
    append_index(text, std::int64_t{entries.row_idx[e]} + 1);
    text += ' ';
    append_index(text, std::int64_t{entries.col_idx[e]} + 1);
    text += ' ';
    append_entry_value(text, entries.values[e], complex_values);
    out.line_done();
  }
  out.close();
}

void write_matrix_market_array(const std::filesystem::path& file, index_t rows, index_t cols,
                               const std::vector<Complex>& values, bool complex_field,
                               const std::string& comment) {
  if (rows < 0 || cols < 0 ||
      values.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols)) {
    std::ostringstream message;
    message << "write_matrix_market_array: " << values.size() << " values for a " << rows
            << " x " << cols << " block";
    throw std::invalid_argument(message.str());
  }
  const bool complex_values = use_complex_field(values, complex_field);
  Output out(file);
  write_header(out, "array", complex_values, comment);
  std::string& text = out.buffer();
  append_index(text, rows);
  text += ' ';
  append_index(text, cols);
  out.line_done();
  for (const Complex& value : values) {
    append_entry_value(text, value, complex_values);
    out.line_done();
  }
  out.close();
}

}  // namespace pmom::io
