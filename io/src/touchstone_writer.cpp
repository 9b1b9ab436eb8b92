// Touchstone writer: RI format in Hz, numbers in their shortest form that reads back to the same
// double (std::to_chars), so that a write-read round trip is exact.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <ctime>
#include <fstream>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "message_text.hpp"
#include "planarmom/io/touchstone.hpp"
#include "touchstone_layout.hpp"

namespace pmom::io {

namespace {

namespace fs = std::filesystem;
using namespace touchstone_layout;

void append_number(std::string& out, double value) {
  char text[32];
  out.append(text, std::to_chars(text, text + sizeof text, value).ptr);
}

std::string number_text(double value) {
  std::string text;
  append_number(text, value);
  return text;
}

void check_data(const fs::path& file, const TouchstoneData& data) {
  const std::size_t ports = data.ports;
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument(cat("write_touchstone ", file.string(), ": ", what));
  };
  if (ports == 0) fail("no ports");
  if (touchstone_port_count(file) != ports)
    fail(cat("a ", ports, "-port file must be named *.s", ports,
             "p (Touchstone 1.1 keeps the port count only in the name)"));
  if (!(data.reference_impedance_ohm > 0.0) || !std::isfinite(data.reference_impedance_ohm))
    fail(cat("the reference impedance must be a positive number of ohms, not ",
             number_text(data.reference_impedance_ohm)));
  if (!data.port_reference_ohm.empty() && data.port_reference_ohm.size() != ports)
    fail(cat(data.port_reference_ohm.size(), " port reference impedances for ", ports, " ports"));
  for (const double z : data.port_reference_ohm)
    if (!(z > 0.0) || !std::isfinite(z))
      fail(cat("a port's reference impedance must be a positive number of ohms, not ",
               number_text(z)));
  if (data.frequency_hz.empty()) fail("no frequency points");
  if (data.s.size() != data.frequency_hz.size())
    fail(cat(data.frequency_hz.size(), " frequencies but ", data.s.size(), " S matrices"));
  for (std::size_t f = 0; f < data.s.size(); ++f) {
    if (data.s[f].size() != ports * ports)
      fail(cat("S matrix ", f, " has ", data.s[f].size(), " entries, not ", ports * ports));
    if (!std::isfinite(data.frequency_hz[f]) || data.frequency_hz[f] < 0.0 ||
        (f > 0 && !(data.frequency_hz[f] > data.frequency_hz[f - 1])))
      fail(cat("frequencies must be finite, non-negative and increasing; entry ", f, " is ",
               number_text(data.frequency_hz[f]), " Hz"));
  }
}

void append_comments(std::string& out, const std::vector<std::string>& comments) {
  for (const std::string& comment : comments) {
    std::string_view rest = comment;
    do {
      const auto newline = rest.find('\n');
      out += "! ";
      out += rest.substr(0, newline);
      out += '\n';
      rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
    } while (!rest.empty());
  }
}

void append_point(std::string& out, double frequency_hz,
                  const std::vector<std::complex<double>>& s, std::size_t ports) {
  append_number(out, frequency_hz);
  for (std::size_t k = 0; k < s.size(); ++k) {
    out += starts_line(k, ports) ? "\n " : "  ";
    const std::complex<double> value = s[matrix_index(k, ports)];
    append_number(out, value.real());
    out += ' ';
    append_number(out, value.imag());
  }
  out += '\n';
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  return {text, std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc)};
}

std::string column_legend(std::size_t ports) {
  if (ports == 1) return "columns: frequency in Hz, Re S11, Im S11";
  if (ports == 2) return "columns: frequency in Hz, then Re, Im of S11 S21 S12 S22";
  return cat("columns: frequency in Hz, then Re, Im of S11 S12 ... S1", ports,
             "; each row of S starts on a new line");
}

}  // namespace

TouchstoneData touchstone_from_sweep(const SweepData& sweep) {
  const SweepInfo& info = sweep.info;
  const auto& impedances = info.reference_impedance_ohm;
  if (sweep.records.empty() || impedances.empty())
    throw std::invalid_argument("touchstone_from_sweep: the sweep has no frequencies or no ports");
  TouchstoneData data;
  data.ports = info.ports();
  data.reference_impedance_ohm = impedances.front();
  // Touchstone 1.1 has one reference impedance; 2.0 one per port.
  if (std::adjacent_find(impedances.begin(), impedances.end(), std::not_equal_to<>()) !=
      impedances.end())
    data.port_reference_ohm = impedances;
  data.comments.push_back(cat("planarmom ", info.program_version, ", ", info.backend,
                              " backend, written ", utc_now()));
  if (!sweep.complete)
    data.comments.push_back(cat("incomplete sweep: the ", sweep.records.size(),
                                " frequencies done before the run stopped"));
  for (std::size_t p = 0; p < data.ports; ++p)
    data.comments.push_back(cat("port ", p + 1, " '", info.port_names[p],
                                "': reference plane at ", number_text(info.reference_plane_mm[p]),
                                " mm"));
  data.comments.push_back(column_legend(data.ports));

  if (const std::optional<SweepFit>& fit = sweep.fit) {
    const auto solved = std::count(fit->solved.begin(), fit->solved.end(), 1);
    data.comments.insert(data.comments.end() - 1,
                         cat("adaptive sweep: ", solved, " of the ", fit->frequency_hz.size(),
                             " frequencies solved, the others from a rational model of them "
                             "refined to |dS| <= ", number_text(fit->tolerance)));
  }
  for (FrequencyRecord& p : every_point(sweep)) {
    data.frequency_hz.push_back(p.frequency_hz);
    data.s.push_back(std::move(p.s));
  }
  return data;
}

void write_touchstone(const fs::path& file, const TouchstoneData& data) {
  check_data(file, data);
  std::string text;
  append_comments(text, data.comments);
  const bool version2 = !data.port_reference_ohm.empty();
  if (version2) text += "[Version] 2.0\n";
  text += "# Hz S RI R ";
  append_number(text, data.reference_impedance_ohm);
  text += '\n';
  if (version2) {
    text += cat("[Number of Ports] ", data.ports, "\n");
    // The 1.1 order of a 2-port's entries: S11 S21 S12 S22.
    if (data.ports == 2) text += "[Two-Port Data Order] 21_12\n";
    text += cat("[Number of Frequencies] ", data.frequency_hz.size(), "\n[Reference]");
    for (const double z : data.port_reference_ohm) {
      text += ' ';
      append_number(text, z);
    }
    text += "\n[Network Data]\n";
  }
  for (std::size_t f = 0; f < data.frequency_hz.size(); ++f)
    append_point(text, data.frequency_hz[f], data.s[f], data.ports);
  if (version2) text += "[End]\n";

  errno = 0;
  std::ofstream out(file, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out)
    throw std::runtime_error(cat("cannot write ", file.string(), ": ",
                                 std::generic_category().message(errno != 0 ? errno : EIO)));
}

}  // namespace pmom::io
