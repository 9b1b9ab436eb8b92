// Touchstone reader: one pass over the lines, numbers gathered into frequency points as they
// come, so that every error names the line that caused it.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <fstream>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "message_text.hpp"
#include "planarmom/io/touchstone.hpp"
#include "touchstone_layout.hpp"

namespace pmom::io {

TouchstoneError::TouchstoneError(const std::filesystem::path& file, std::size_t line,
                                 const std::string& what)
    : std::runtime_error(locate(file, line) + what), line_(line) {}

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

std::optional<std::size_t> touchstone_port_count(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();  // ".s2p"
  if (extension.size() < 4 || !iequals(extension.substr(0, 2), ".s") ||
      !iequals(extension.substr(extension.size() - 1), "p"))
    return std::nullopt;
  const std::string_view digits = std::string_view(extension).substr(2, extension.size() - 3);
  std::size_t ports = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ports);
  if (ec != std::errc{} || end != digits.data() + digits.size() || ports == 0) return std::nullopt;
  return ports;
}

namespace {

namespace fs = std::filesystem;
using namespace touchstone_layout;

enum class Format { ri, ma, db };

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && is_blank(text[pos])) ++pos;
    const std::size_t start = pos;
    while (pos < text.size() && !is_blank(text[pos])) ++pos;
    if (pos > start) tokens.push_back(text.substr(start, pos - start));
  }
  return tokens;
}

std::optional<double> parse_number(std::string_view token) {
  // from_chars rejects the leading '+' that C's strtod and Fortran writers allow.
  if (token.size() > 1 && token[0] == '+') token.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc{} || end != token.data() + token.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

struct Unit {
  const char* name;
  double hz;
};

// The frequency unit a word of the option line names (in any case), or nullopt.
std::optional<Unit> unit_named(std::string_view word) {
  for (const Unit unit : {Unit{"Hz", 1.0}, Unit{"kHz", 1e3}, Unit{"MHz", 1e6}, Unit{"GHz", 1e9}})
    if (iequals(word, unit.name)) return unit;
  return std::nullopt;
}

// The shortest text that reads back as `value` ("1e+300", not 301 digits).
std::string shortest(double value) {
  char text[32];
  return {text, std::to_chars(text, text + sizeof text, value).ptr};
}

std::complex<double> to_complex(Format format, double a, double b) {
  if (format == Format::ri) return {a, b};
  const double magnitude = format == Format::ma ? a : std::pow(10.0, a / 20.0);
  const double angle = b * std::numbers::pi / 180.0;  // degrees in the file
  return {magnitude * std::cos(angle), magnitude * std::sin(angle)};
}

// A 2-port file may end with noise parameters: frequency, NFmin (dB), |Gamma_opt|,
// angle Gamma_opt, Rn / Z0 per line.
constexpr std::size_t kNoiseValues = 5;

class Parser {
 public:
  Parser(const fs::path& file, std::size_t ports)
      : file_(file), ports_(ports), point_values_(1 + 2 * ports * ports) {
    data_.ports = ports;
  }

  TouchstoneData run(std::istream& in) {
    std::string line;
    while (std::getline(in, line)) {
      ++line_;
      read_line(line);
    }
    if (in.bad()) fail_at(0, cat("read error: ", std::generic_category().message(errno)));
    if (!point_.empty())
      fail_at(point_line_, cat("the frequency point that begins here is cut short by the end of",
                               " the file: ", point_.size(), " of its ", point_values_,
                               " values are there"));
    if (data_.frequency_hz.empty()) fail_at(0, "no frequency points");
    if (reading_reference())
      fail_at(0, cat("[Reference] holds ", data_.port_reference_ohm.size(), " of the ", ports_,
                     " ports' impedances"));
    if (frequencies_ > 0 && frequencies_ != data_.frequency_hz.size())
      fail_at(0, cat("[Number of Frequencies] is ", frequencies_, " but the file holds ",
                     data_.frequency_hz.size()));
    return std::move(data_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const {
    throw TouchstoneError(file_, line, what);
  }

  void read_line(std::string_view line) {
    if (const auto bang = line.find('!'); bang != std::string_view::npos) {
      data_.comments.emplace_back(trim(line.substr(bang + 1)));
      line = line.substr(0, bang);
    }
    const std::vector<std::string_view> tokens = split(line);
    if (tokens.empty()) return;
    if (tokens.front().front() == '#') return read_option_line(tokens);
    if (tokens.front().front() == '[') return read_keyword(trim(line));
    if (ended_) fail("data after [End]");
    if (reading_reference()) return read_reference(tokens);
    read_data_line(tokens);
  }

  // Touchstone 2.0's keywords: a bracketed name, then its values.
  void read_keyword(std::string_view line) {
    const auto close = line.find(']');
    if (close == std::string_view::npos) fail(cat("keyword line '", line, "' has no ']'"));
    const std::string_view name = trim(line.substr(1, close - 1));
    if (reading_reference())
      fail(cat("[Reference] holds ", data_.port_reference_ohm.size(), " of the ", ports_,
               " ports' impedances before [", name, "]"));
    const std::vector<std::string_view> values = split(line.substr(close + 1));
    const auto one = [&]() -> std::string_view {
      if (values.size() != 1) fail(cat("[", name, "] takes one value, not ", values.size()));
      return values.front();
    };
    const auto count = [&]() {
      const auto value = parse_number(one());
      if (!value || !(*value >= 1) || *value != std::floor(*value))
        fail(cat("[", name, "] must be a whole number >= 1, not '", values.front(), "'"));
      return static_cast<std::size_t>(*value);
    };
    if (iequals(name, "Version")) {
      if (!iequals(one(), "2.0") && !iequals(one(), "2.1"))
        fail(cat("[Version] ", values.front(), ": this reader reads versions 1.1 and 2.0"));
    } else if (iequals(name, "Number of Ports")) {
      if (count() != ports_)
        fail(cat("[Number of Ports] ", values.front(), ", but the file's name says ", ports_));
    } else if (iequals(name, "Two-Port Data Order")) {
      if (ports_ != 2) fail("[Two-Port Data Order] in a file of other than two ports");
      if (!iequals(one(), "21_12") && !iequals(one(), "12_21"))
        fail(cat("[Two-Port Data Order] must be 21_12 or 12_21, not ", values.front()));
      order_12_21_ = iequals(one(), "12_21");
    } else if (iequals(name, "Number of Frequencies")) {
      frequencies_ = count();
    } else if (iequals(name, "Reference")) {
      in_reference_ = true;
      read_reference(values);
    } else if (iequals(name, "Matrix Format")) {
      if (!iequals(one(), "Full"))
        fail(cat("[Matrix Format] ", values.front(), " is not supported, only Full"));
    } else if (iequals(name, "Network Data")) {
    } else if (iequals(name, "Noise Data")) {
      in_noise_block_ = true;
    } else if (iequals(name, "End")) {
      ended_ = true;
    } else {
      fail(cat("keyword [", name, "] is not supported (this reader reads [Version], [Number of ",
               "Ports], [Two-Port Data Order], [Number of Frequencies], [Reference], [Matrix ",
               "Format] Full, [Network Data], [Noise Data] and [End])"));
    }
  }

  // [Reference]'s impedances, one per port, on its line and the lines after it.
  void read_reference(const std::vector<std::string_view>& tokens) {
    for (const std::string_view token : tokens) {
      const auto value = parse_number(token);
      if (!value || !(*value > 0.0))
        fail(cat("[Reference]: '", token, "' is not a positive number of ohms"));
      if (!reading_reference())
        fail(cat("[Reference] holds more than the ", ports_, " ports' impedances"));
      data_.port_reference_ohm.push_back(*value);
    }
  }
  // Inside [Reference], its impedances not all read yet.
  [[nodiscard]] bool reading_reference() const {
    return in_reference_ && data_.port_reference_ohm.size() < ports_;
  }

  void read_option_line(std::vector<std::string_view> tokens) {
    if (data_started_)
      fail("the option line must come before the data (it sets how the data is read)");
    if (option_seen_) return;  // Touchstone 1.1: only the first option line counts
    option_seen_ = true;
    tokens.front().remove_prefix(1);  // '#', maybe joined to the first option
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      const std::string_view token = tokens[t];
      if (token.empty()) continue;
      if (const auto unit = unit_named(token)) unit_ = *unit;
      else if (iequals(token, "RI")) format_ = Format::ri;
      else if (iequals(token, "MA")) format_ = Format::ma;
      else if (iequals(token, "DB")) format_ = Format::db;
      else if (iequals(token, "S")) continue;
      else if (iequals(token, "Y") || iequals(token, "Z") || iequals(token, "H") ||
               iequals(token, "G"))
        fail(cat("option line: ", token, " parameters are not supported, only S"));
      else if (iequals(token, "R")) data_.reference_impedance_ohm = read_impedance(tokens, ++t);
      else
        fail(cat("option line: unknown option '", token, "' (expected a unit Hz, kHz, MHz or",
                 " GHz; the parameter S; a format RI, MA or DB; or R and the reference",
                 " impedance)"));
    }
  }

  double read_impedance(const std::vector<std::string_view>& tokens, std::size_t at) const {
    if (at >= tokens.size()) fail("option line: R must be followed by the reference impedance");
    const auto value = parse_number(tokens[at]);
    if (!value || !(*value > 0.0))
      fail(cat("option line: the reference impedance '", tokens[at],
               "' is not a positive number of ohms"));
    return *value;
  }

  void read_data_line(const std::vector<std::string_view>& tokens) {
    data_started_ = true;
    std::vector<double> values;
    for (const std::string_view token : tokens) {
      const auto value = parse_number(token);
      if (!value) fail(cat("'", token, "' is not a finite number"));
      values.push_back(*value);
    }
    if (in_noise_block_ || starts_noise_block(values)) return check_noise_line(values);
    if (point_.empty()) point_line_ = line_;
    if (point_.size() + values.size() > point_values_) {
      if (point_.empty())
        fail(cat(values.size(), " values on the line, but a ", ports_, "-port frequency point has",
                 " ", point_values_, " (the frequency and ", ports_ * ports_,
                 " pairs of numbers)"));
      fail(cat(values.size(), " values on the line, but the frequency point begun on line ",
               point_line_, " needs only ", point_values_ - point_.size(), " more (",
               point_values_, " in all); each point must start on a new line"));
    }
    point_.insert(point_.end(), values.begin(), values.end());
    if (point_.size() == point_values_) finish_point();
  }

  [[nodiscard]] bool starts_noise_block(const std::vector<double>& values) const {
    return ports_ == 2 && point_.empty() && !data_.frequency_hz.empty() &&
           values.front() * unit_.hz <= data_.frequency_hz.back();
  }

  void check_noise_line(const std::vector<double>& values) {
    in_noise_block_ = true;
    if (values.size() != kNoiseValues)
      fail(cat(values.size(), " values on the line; its frequency does not exceed the last one,",
               " which in a 2-port file starts the noise parameters, and a noise line has ",
               kNoiseValues, " (frequency, NFmin, |Gamma opt|, angle, Rn); if this is S-parameter",
               " data, its frequencies must increase"));
  }

  void finish_point() {
    const double frequency = point_[0] * unit_.hz;
    if (!std::isfinite(frequency))
      fail_at(point_line_, cat("frequency ", shortest(point_[0]), " ", unit_.name,
                               " overflows to an infinite number of Hz"));
    if (frequency < 0)
      fail_at(point_line_, cat("frequency ", shortest(frequency), " Hz is negative"));
    if (!data_.frequency_hz.empty() && !(frequency > data_.frequency_hz.back()))
      fail_at(point_line_, cat("frequency ", std::to_string(frequency),
                               " Hz does not exceed the one before; frequencies must increase"));
    std::vector<std::complex<double>> s(ports_ * ports_);
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::size_t at = order_12_21_ ? k : matrix_index(k, ports_);
      s[at] = to_complex(format_, point_[1 + 2 * k], point_[2 + 2 * k]);
      // Only a magnitude in dB can overflow: 10^(dB/20) beyond about 6165 dB.
      if (!std::isfinite(s[at].real()) || !std::isfinite(s[at].imag()))
        fail_at(point_line_, cat("S", at / ports_ + 1, ports_ > 9 ? "," : "", at % ports_ + 1,
                                 " of ", shortest(point_[1 + 2 * k]),
                                 " dB overflows: its magnitude is beyond double precision"));
    }
    data_.frequency_hz.push_back(frequency);
    data_.s.push_back(std::move(s));
    point_.clear();
  }

  fs::path file_;
  std::size_t ports_;
  std::size_t point_values_;
  std::size_t line_ = 0;
  TouchstoneData data_;
  // Touchstone 1.1 defaults, for files without an option line.
  Unit unit_{"GHz", 1e9};
  Format format_ = Format::ma;
  bool option_seen_ = false;
  bool data_started_ = false;
  bool in_noise_block_ = false;
  // Touchstone 2.0: a 2-port's S12 before S21; [Number of Frequencies] (0: not given); a
  // [Reference] seen (its impedances go to data_.port_reference_ohm); after [End].
  bool order_12_21_ = false;
  std::size_t frequencies_ = 0;
  bool in_reference_ = false;
  bool ended_ = false;
  std::vector<double> point_;  // values of the frequency point being read
  std::size_t point_line_ = 0;
};

}  // namespace

TouchstoneData read_touchstone(const fs::path& file) {
  const auto ports = touchstone_port_count(file);
  if (!ports)
    throw TouchstoneError(file, 0,
                          "cannot tell the port count: a Touchstone file name must end in "
                          ".s<N>p, such as .s2p for two ports");
  // A directory opens as a stream on Linux and fails only at the first read, without a reason.
  if (fs::is_directory(file)) throw TouchstoneError(file, 0, "cannot open: it is a directory");
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw TouchstoneError(file, 0, cat("cannot open: ", std::generic_category().message(
                                                            errno != 0 ? errno : ENOENT)));
  return Parser(file, *ports).run(in);
}

}  // namespace pmom::io
