// Touchstone v1.1 S-parameter files (.sNp): written as `# Hz S RI R <ohm>` with values that read
// back exactly; read in any unit (Hz to GHz) and format (RI, MA, DB). Malformed input raises
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
  double reference_impedance_ohm = 50.0;
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
// planes. Throws std::invalid_argument when the ports have different reference impedances
// (Touchstone 1.1 has one: renormalise first) or there are no records.
TouchstoneData touchstone_from_sweep(const SweepData& sweep);

// Writes `data` to FILE, whose name must end in .s<P>p. Throws std::invalid_argument on
// inconsistent data or a name that disagrees with the port count, std::runtime_error naming the
// file on I/O failure.
void write_touchstone(const std::filesystem::path& file, const TouchstoneData& data);

// Reads FILE (port count from its name). Rejects: a name without .sNp, a bad option line,
// parameters other than S, non-numeric or non-finite values, points with too few or too many
// values, frequencies that do not increase, a file with no data. A 2-port file's trailing
// noise-parameter block is checked for its shape and skipped.
TouchstoneData read_touchstone(const std::filesystem::path& file);

}  // namespace pmom::io
