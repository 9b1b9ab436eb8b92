// Touchstone S-parameter files (.sNp): written as version 1.1, `# Hz S RI R <ohm>`, with values
// that read back exactly, or as version 2.0 with a [Reference] line where the ports' reference
// impedances differ (an internal port's and a feed's); read in any unit (Hz to GHz) and format
// (RI, MA, DB), version 1.1 or the 2.0 keywords such files hold. Malformed input raises
// TouchstoneError naming the file and line.
#pragma once

#include <complex>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/io/sweep_record.hpp"

namespace pmom::io {

struct TouchstoneData {
  std::vector<std::string> comments;  // written as "! text" lines before the option line; read
                                      // back from every '!' in the file, without the '!'
  double reference_impedance_ohm = 50.0;  // the option line's R: every port's, unless ...
  std::vector<double> port_reference_ohm;  // ... per port (2.0's [Reference]); empty: all equal
  std::size_t ports = 0;
  std::vector<double> frequency_hz;                  // strictly increasing
  std::vector<std::vector<std::complex<double>>> s;  // per frequency P x P, row-major
};

// what() reads "FILE:LINE: message", or "FILE: message" when line == 0.
class TouchstoneError : public std::runtime_error {
 public:
  // line == 0: the error concerns the whole file (cannot open, wrong name, no data).
  TouchstoneError(const std::filesystem::path& file, std::size_t line, const std::string& what);
  [[nodiscard]] std::size_t line() const { return line_; }

 private:
  std::size_t line_;
};

// The port count a name ending in .sNp (any case) states, or nullopt for another name:
// Touchstone 1.1 keeps the port count nowhere else.
[[nodiscard]] std::optional<std::size_t> touchstone_port_count(const std::filesystem::path& file);

// The records sorted by frequency, with comments giving the program, date, ports and reference
// planes; port_reference_ohm set where the ports' reference impedances differ. Throws
// std::invalid_argument when there are no records.
TouchstoneData touchstone_from_sweep(const SweepData& sweep);

// Writes `data` to FILE, whose name must end in .s<P>p: version 2.0 where port_reference_ohm is
// set, 1.1 otherwise. Throws std::invalid_argument on inconsistent data or a name that disagrees
// with the port count, std::runtime_error naming the file on I/O failure.
void write_touchstone(const std::filesystem::path& file, const TouchstoneData& data);

// Reads FILE (port count from its name). Rejects: a name without .sNp, a bad option line,
// parameters other than S, non-numeric or non-finite values, points with too few or too many
// values, frequencies that do not increase, a file with no data; of version 2.0, a port or
// frequency count that disagrees, a matrix format other than Full, keywords it does not know.
// A 2-port file's trailing noise-parameter block is checked for its shape and skipped.
TouchstoneData read_touchstone(const std::filesystem::path& file);

}  // namespace pmom::io
