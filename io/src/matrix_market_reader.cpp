// Matrix Market reader: one pass over the lines of a plain or gzip file (zlib reads both),
// checking every line as it arrives so that each error names the line that caused it.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include "message_text.hpp"
#include "planarmom/io/matrix_market.hpp"

namespace pmom::io {

MatrixMarketError::MatrixMarketError(const std::filesystem::path& file, std::size_t line,
                                     const std::string& what)
    : std::runtime_error(locate(file, line) + what), line_(line) {}

namespace {

namespace fs = std::filesystem;
using Complex = std::complex<double>;

// A lying size line must not trigger a huge allocation before a single entry is read;
// beyond this many entries the vectors simply grow.
constexpr std::size_t kMaxReserve = std::size_t{1} << 22;

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzHandle = std::unique_ptr<gzFile_s, GzCloser>;

std::string os_reason(int errnum) { return std::generic_category().message(errnum); }

// Lines of the file without their terminators, numbered from 1.
class LineReader {
 public:
  explicit LineReader(const fs::path& file) : file_(file), buffer_(4096, '\0') {
    // zlib reports a directory only at the first read, as a bare errno.
    if (fs::is_directory(file)) fail_at(0, cat("cannot open: ", os_reason(EISDIR)));
    errno = 0;
    gz_.reset(gzopen(file.c_str(), "rb"));
    if (!gz_) fail_at(0, cat("cannot open: ", os_reason(errno != 0 ? errno : ENOMEM)));
    // A larger buffer than zlib's 8 KiB default cuts the read calls on big files.
    gzbuffer(gz_.get(), 1U << 18);
  }

  // The next line, or nullopt at the end of the file. The view lives until the next call.
  std::optional<std::string_view> next() {
    std::size_t length = 0;
    for (;;) {
      if (buffer_.size() - length < 2) buffer_.resize(buffer_.size() * 2);
      char* chunk = buffer_.data() + length;
      const auto room = static_cast<int>(
          std::min<std::size_t>(buffer_.size() - length, std::numeric_limits<int>::max()));
      if (gzgets(gz_.get(), chunk, room) == nullptr) {
        check_read_error();
        if (length == 0) return std::nullopt;
        break;
      }
      const std::size_t got = std::strlen(chunk);
      length += got;
      if (length > 0 && buffer_[length - 1] == '\n') {
        --length;
        break;
      }
      // A short read without a newline is the unterminated last line, or the data zlib
      // could recover before a cut-off gzip stream; the latter must not be parsed.
      if (got + 1 < static_cast<std::size_t>(room)) {
        check_read_error();
        break;
      }
    }
    ++line_;
    return std::string_view(buffer_.data(), length);
  }

  // Number of the line last returned (after the end: the number of lines in the file).
  [[nodiscard]] std::size_t line() const { return line_; }

  [[noreturn]] void fail(const std::string& message) const { fail_at(line_, message); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& message) const {
    throw MatrixMarketError(file_, line, message);
  }

 private:
  void check_read_error() const {
    int code = Z_OK;
    const char* message = gzerror(gz_.get(), &code);
    if (code == Z_ERRNO) fail_at(0, cat("read error: ", os_reason(errno)));
    if (code != Z_OK) fail_at(line_ + 1, cat("corrupt gzip data: ", message));
  }

  fs::path file_;
  GzHandle gz_;
  std::string buffer_;
  std::size_t line_ = 0;
};

// Whitespace-separated tokens of a line; `count` keeps counting past the stored ones so
// that "too many fields" can say how many there were.
struct Fields {
  std::array<std::string_view, 6> token;
  std::size_t count = 0;

  [[nodiscard]] bool blank() const { return count == 0; }
  [[nodiscard]] bool comment() const { return count > 0 && token[0].front() == '%'; }
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

Fields split_fields(std::string_view line) {
  Fields fields;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && is_space(line[pos])) ++pos;
    if (pos == line.size()) break;
    const std::size_t start = pos;
    while (pos < line.size() && !is_space(line[pos])) ++pos;
    if (fields.count < fields.token.size())
      fields.token[fields.count] = line.substr(start, pos - start);
    ++fields.count;
  }
  return fields;
}

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::string quoted(std::string_view token) { return cat("'", token, "'"); }

// from_chars rejects the leading '+' that C's strtod and Fortran writers allow.
std::string_view strip_plus(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+')
    token.remove_prefix(1);
  return token;
}

// An integer token; values beyond 64 bits saturate, so that range checks report them as
// out of range rather than as non-integers.
std::optional<std::int64_t> parse_int(std::string_view token) {
  token = strip_plus(token);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (end != token.data() + token.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range)
    return token.front() == '-' ? std::numeric_limits<std::int64_t>::min()
                                : std::numeric_limits<std::int64_t>::max();
  if (ec != std::errc{}) return std::nullopt;
  return value;
}

const char* field_name(MmField field) {
  switch (field) {
    case MmField::real: return "real";
    case MmField::complex: return "complex";
    case MmField::integer: return "integer";
    case MmField::pattern: return "pattern";
  }
  return "?";
}

const char* symmetry_name(MmSymmetry symmetry) {
  switch (symmetry) {
    case MmSymmetry::general: return "general";
    case MmSymmetry::symmetric: return "symmetric";
    case MmSymmetry::hermitian: return "hermitian";
    case MmSymmetry::skew_symmetric: return "skew-symmetric";
  }
  return "?";
}

MmFormat parse_format(const LineReader& in, std::string_view token) {
  if (iequals(token, "coordinate")) return MmFormat::coordinate;
  if (iequals(token, "array")) return MmFormat::array;
  in.fail(cat("unknown format ", quoted(token), " (expected coordinate or array)"));
}

MmField parse_field(const LineReader& in, std::string_view token) {
  for (auto field : {MmField::real, MmField::complex, MmField::integer, MmField::pattern})
    if (iequals(token, field_name(field))) return field;
  in.fail(cat("unknown field ", quoted(token), " (expected real, complex, integer or pattern)"));
}

MmSymmetry parse_symmetry(const LineReader& in, std::string_view token) {
  for (auto symmetry : {MmSymmetry::general, MmSymmetry::symmetric, MmSymmetry::hermitian,
                        MmSymmetry::skew_symmetric})
    if (iequals(token, symmetry_name(symmetry))) return symmetry;
  in.fail(cat("unknown symmetry ", quoted(token),
              " (expected general, symmetric, hermitian or skew-symmetric)"));
}

void check_combination(const LineReader& in, const MmHeader& h) {
  if (h.field == MmField::pattern && h.format == MmFormat::array)
    in.fail("the pattern field needs coordinate format, not array");
  if (h.symmetry == MmSymmetry::hermitian && h.field != MmField::complex)
    in.fail(cat("hermitian symmetry needs the complex field, not ", field_name(h.field)));
  if (h.symmetry == MmSymmetry::skew_symmetric && h.field == MmField::pattern)
    in.fail("skew-symmetric symmetry cannot be combined with the pattern field");
}

MmHeader read_banner(LineReader& in) {
  const auto line = in.next();
  if (!line) in.fail_at(0, "file is empty");
  const Fields f = split_fields(*line);
  constexpr std::string_view kMagic = "%%MatrixMarket";
  if (f.blank() || !iequals(f.token[0].substr(0, kMagic.size()), kMagic))
    in.fail("missing banner: the first line must start with '%%MatrixMarket matrix'");
  if (f.count != 5)
    in.fail(cat("banner needs 5 fields (%%MatrixMarket matrix format field symmetry), found ",
                f.count));
  if (!iequals(f.token[0], kMagic))
    in.fail(cat("banner must start with '%%MatrixMarket', found ", quoted(f.token[0])));
  if (!iequals(f.token[1], "matrix"))
    in.fail(cat("unsupported object ", quoted(f.token[1]), " (only 'matrix' is supported)"));
  MmHeader header;
  header.format = parse_format(in, f.token[2]);
  header.field = parse_field(in, f.token[3]);
  header.symmetry = parse_symmetry(in, f.token[4]);
  check_combination(in, header);
  return header;
}

struct SizeLine {
  index_t rows = 0;
  index_t cols = 0;
  std::size_t entries = 0;  // stated stored entries (coordinate) or implied (array)
};

std::int64_t parse_size(const LineReader& in, std::string_view token, const char* what,
                        std::int64_t limit) {
  const auto value = parse_int(token);
  if (!value) in.fail(cat("size line: ", what, " ", quoted(token), " is not an integer"));
  if (*value < 0) in.fail(cat("size line: ", what, " must not be negative, found ", token));
  if (*value > limit)
    in.fail(cat("size line: ", what, " ", token, " exceeds the supported maximum ", limit));
  return *value;
}

// Stored entries a rows x cols matrix can hold in the given storage.
std::uint64_t storable_entries(MmSymmetry symmetry, index_t rows, index_t cols) {
  const auto n = static_cast<std::uint64_t>(rows);
  switch (symmetry) {
    case MmSymmetry::general: return n * static_cast<std::uint64_t>(cols);
    case MmSymmetry::symmetric:
    case MmSymmetry::hermitian: return n * (n + 1) / 2;
    case MmSymmetry::skew_symmetric: return n == 0 ? 0 : n * (n - 1) / 2;
  }
  return 0;
}

std::string dims(index_t rows, index_t cols) {
  return cat(rows, " x ", cols);
}

// Skips comments and blank lines, then parses "rows cols [entries]".
SizeLine read_size_line(LineReader& in, const MmHeader& header) {
  Fields f;
  do {
    const auto line = in.next();
    if (!line) in.fail_at(in.line() + 1, "file ends before the size line");
    f = split_fields(*line);
  } while (f.blank() || f.comment());

  const bool coordinate = header.format == MmFormat::coordinate;
  const std::size_t expected = coordinate ? 3 : 2;
  if (f.count != expected)
    in.fail(cat("size line: expected ",
                coordinate ? "3 fields (rows cols entries)" : "2 fields (rows cols)", ", found ",
                f.count));
  constexpr auto kMaxDim = std::int64_t{std::numeric_limits<index_t>::max()};
  SizeLine size;
  size.rows = static_cast<index_t>(parse_size(in, f.token[0], "rows", kMaxDim));
  size.cols = static_cast<index_t>(parse_size(in, f.token[1], "columns", kMaxDim));
  if (header.symmetry != MmSymmetry::general && size.rows != size.cols)
    in.fail(cat(symmetry_name(header.symmetry), " storage needs a square matrix, the size line",
                " gives ", dims(size.rows, size.cols)));
  const std::uint64_t capacity = storable_entries(header.symmetry, size.rows, size.cols);
  if (!coordinate) {
    size.entries = capacity;
    return size;
  }
  size.entries = static_cast<std::size_t>(
      parse_size(in, f.token[2], "entries", std::numeric_limits<std::int64_t>::max()));
  if (size.entries > capacity)
    in.fail(cat("size line states ", size.entries, " entries, but a ", dims(size.rows, size.cols),
                " ", symmetry_name(header.symmetry), " matrix stores at most ", capacity));
  return size;
}

// Exponent of a decimal token, to tell underflow (harmless: the value is zero) from overflow.
bool has_negative_exponent(std::string_view token) {
  const auto e = token.find_first_of("eE");
  return e != std::string_view::npos && e + 1 < token.size() && token[e + 1] == '-';
}

double parse_real(const LineReader& in, std::string_view token, const char* what) {
  const std::string_view digits = strip_plus(token);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value,
                                         std::chars_format::general);
  if (end != digits.data() + digits.size() || (ec != std::errc{} &&
                                               ec != std::errc::result_out_of_range))
    in.fail(cat(what, " ", quoted(token), " is not a real number"));
  if (ec == std::errc::result_out_of_range) {
    if (!has_negative_exponent(digits))
      in.fail(cat(what, " ", quoted(token), " overflows to an infinite value"));
    value = digits.front() == '-' ? -0.0 : 0.0;
  }
  if (std::isnan(value)) in.fail(cat("NaN ", what));
  if (std::isinf(value)) in.fail(cat("infinite ", what));
  return value;
}

// Integer syntax, but the value as the nearest double: that is what the matrix stores, and
// it keeps integers beyond 64 bits meaningful.
double parse_integer_value(const LineReader& in, std::string_view token) {
  if (!parse_int(token))
    in.fail(cat("value ", quoted(token), " is not an integer (the field is integer)"));
  return parse_real(in, token, "value");
}

// Fields one entry line must have, and how the error message lists them.
struct EntryLayout {
  std::size_t count;
  const char* names;
};

EntryLayout entry_layout(const MmHeader& h) {
  const bool coordinate = h.format == MmFormat::coordinate;
  switch (h.field) {
    case MmField::complex:
      return coordinate ? EntryLayout{4, "4 fields (row col real imag)"}
                        : EntryLayout{2, "2 fields (real imag)"};
    case MmField::pattern: return EntryLayout{2, "2 fields (row col)"};
    case MmField::real:
    case MmField::integer: break;
  }
  return coordinate ? EntryLayout{3, "3 fields (row col value)"}
                    : EntryLayout{1, "1 field (value)"};
}

Complex mirrored(MmSymmetry symmetry, Complex v) {
  if (symmetry == MmSymmetry::hermitian) return std::conj(v);
  if (symmetry == MmSymmetry::skew_symmetric) return -v;
  return v;
}

class Parser {
 public:
  explicit Parser(const fs::path& file) : in_(file) {}

  MatrixMarketMatrix run() {
    result_.header = read_banner(in_);
    size_ = read_size_line(in_, result_.header);
    result_.entries.rows = size_.rows;
    result_.entries.cols = size_.cols;
    result_.stored_entries = size_.entries;
    if (result_.header.format == MmFormat::coordinate) read_coordinate_entries();
    else read_array_entries();
    expect_end();
    return std::move(result_);
  }

 private:
  [[nodiscard]] const MmHeader& header() const { return result_.header; }

  // The next non-blank line, checked to have the field count of an entry.
  Fields next_entry(std::size_t read) {
    for (;;) {
      const auto line = in_.next();
      if (!line)
        in_.fail_at(in_.line() + 1,
                    cat("file ends after ", read, " of ", size_.entries, " entries"));
      const Fields f = split_fields(*line);
      if (f.blank()) continue;
      if (f.comment()) in_.fail("comment among the entries (comments must precede the size line)");
      const EntryLayout layout = entry_layout(header());
      if (f.count != layout.count)
        in_.fail(cat("expected ", layout.names, ", found ", f.count));
      return f;
    }
  }

  // Value from the fields starting at `first`.
  Complex parse_value(const Fields& f, std::size_t first) const {
    switch (header().field) {
      case MmField::real: return {parse_real(in_, f.token[first], "value"), 0.0};
      case MmField::integer: return {parse_integer_value(in_, f.token[first]), 0.0};
      case MmField::complex:
        return {parse_real(in_, f.token[first], "real part"),
                parse_real(in_, f.token[first + 1], "imaginary part")};
      case MmField::pattern: break;
    }
    return {1.0, 0.0};
  }

  index_t parse_index(std::string_view token, const char* what, index_t limit) const {
    const auto value = parse_int(token);
    if (!value) in_.fail(cat(what, " index ", quoted(token), " is not an integer"));
    if (*value < 1 || *value > limit)
      in_.fail(cat(what, " index ", token, " out of range 1..", limit));
    return static_cast<index_t>(*value);
  }

  void check_triangle(index_t row, index_t col) const {
    const MmSymmetry symmetry = header().symmetry;
    if (symmetry == MmSymmetry::general) return;
    if (row < col)
      in_.fail(cat("entry (", row, ", ", col, ") is above the diagonal; ",
                   symmetry_name(symmetry), " storage lists only the lower triangle"));
    if (row == col && symmetry == MmSymmetry::skew_symmetric)
      in_.fail(cat("diagonal entry (", row, ", ", col,
                   ") in skew-symmetric storage (the diagonal is zero and not stored)"));
  }

  void check_duplicate(std::unordered_map<std::uint64_t, std::size_t>& seen, index_t row,
                       index_t col) const {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(row) << 32) | static_cast<std::uint32_t>(col);
    const auto [it, inserted] = seen.emplace(key, in_.line());
    if (!inserted)
      in_.fail(cat("duplicate entry (", row, ", ", col, "), first at line ", it->second));
  }

  void read_coordinate_entries() {
    const bool general = header().symmetry == MmSymmetry::general;
    const std::size_t reserve = std::min(size_.entries, kMaxReserve) * (general ? 1 : 2);
    auto& coo = result_.entries;
    coo.row_idx.reserve(reserve);
    coo.col_idx.reserve(reserve);
    coo.values.reserve(reserve);
    std::unordered_map<std::uint64_t, std::size_t> seen;  // (row, col) -> first line
    seen.reserve(std::min(size_.entries, kMaxReserve));
    for (std::size_t read = 0; read < size_.entries; ++read) {
      const Fields f = next_entry(read);
      const index_t row = parse_index(f.token[0], "row", size_.rows);
      const index_t col = parse_index(f.token[1], "column", size_.cols);
      check_triangle(row, col);
      check_duplicate(seen, row, col);
      const Complex value = parse_value(f, 2);
      coo.push_back(row - 1, col - 1, value);
      if (!general && row != col)
        coo.push_back(col - 1, row - 1, mirrored(header().symmetry, value));
    }
  }

  void read_array_entries() {
    std::vector<Complex> stored;
    stored.reserve(std::min(size_.entries, kMaxReserve));
    for (std::size_t read = 0; read < size_.entries; ++read)
      stored.push_back(parse_value(next_entry(read), 0));
    expand_array(stored);
  }

  // Emits every entry in column-major order; symmetric storage holds the lower triangle
  // column by column (without the diagonal when skew-symmetric).
  void expand_array(const std::vector<Complex>& stored) {
    // Without rows there is nothing to emit, and looping over up to 2^31 - 1 empty columns
    // would spend a long time finding that out.
    if (size_.rows == 0) return;
    auto& coo = result_.entries;
    const MmSymmetry symmetry = header().symmetry;
    const std::size_t n = static_cast<std::size_t>(size_.rows);
    const std::size_t total = n * static_cast<std::size_t>(size_.cols);
    coo.row_idx.reserve(total);
    coo.col_idx.reserve(total);
    coo.values.reserve(total);
    const bool skew = symmetry == MmSymmetry::skew_symmetric;
    // Position of stored (i, j), i >= j (i > j when skew), in the packed lower triangle:
    // the columns before j hold n - k (skew: n - k - 1) entries each, k = 0..j-1.
    const auto packed = [n, skew](std::size_t i, std::size_t j) {
      return skew ? j * (2 * n - j - 1) / 2 + (i - j - 1) : j * (2 * n - j + 1) / 2 + (i - j);
    };
    for (index_t j = 0; j < size_.cols; ++j) {
      for (index_t i = 0; i < size_.rows; ++i) {
        const auto r = static_cast<std::size_t>(i);
        const auto c = static_cast<std::size_t>(j);
        Complex value;
        if (symmetry == MmSymmetry::general) value = stored[c * n + r];
        else if (r == c && skew) value = 0.0;
        else if (r >= c) value = stored[packed(r, c)];
        else value = mirrored(symmetry, stored[packed(c, r)]);
        coo.push_back(i, j, value);
      }
    }
  }

  void expect_end() {
    while (const auto line = in_.next()) {
      if (!split_fields(*line).blank())
        in_.fail(cat("extra data after the last entry (the size line states ", size_.entries,
                     " entries)"));
    }
  }

  LineReader in_;
  SizeLine size_;
  MatrixMarketMatrix result_;
};

}  // namespace

MatrixMarketMatrix read_matrix_market(const std::filesystem::path& file) {
  return Parser(file).run();
}

}  // namespace pmom::io
