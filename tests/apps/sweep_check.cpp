// Checks on the files `planarmom sweep` writes, for cli_test.sh (through the project's own
// readers, so they run without h5py):
//   sweep_check same A.h5 B.h5        A and B hold the same sweep: frequencies, S, currents,
//                                     iterations and residuals equal bit for bit
//   sweep_check touchstone X.h5 X.sNp the Touchstone file holds X.h5's frequencies and S exactly
//                                     (the writer prints shortest round-trip decimals)
//   sweep_check close A.h5 B.h5 TOL   A and B hold the same frequencies and every S entry
//                                     within TOL (absolute), printing the largest difference
//   sweep_check adaptive X.h5         X is a finished adaptive sweep: /fit holds every
//                                     frequency, its solved ones the records' S bit for bit, its
//                                     estimate within the tolerance; prints the solves
//   sweep_check kept X.h5 [all | HZ...]  X keeps the port solutions (currents) of exactly these
//                                     frequencies (all: every record's; none given: none)
// An adaptive sweep's S at every frequency is its /fit's (close and touchstone compare those).
// Prints one line saying what differs (or what was checked) and exits 1 on a difference, 2 on
// a usage or read error.
#include <algorithm>
#include <bit>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "planarmom/io/sweep_file.hpp"
#include "planarmom/io/touchstone.hpp"

namespace {

using namespace pmom::io;
using cd = std::complex<double>;

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool same_bits(cd a, cd b) { return same_bits(a.real(), b.real()) && same_bits(a.imag(), b.imag()); }

std::string show(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}
std::string show(cd v) { return "(" + show(v.real()) + ", " + show(v.imag()) + ")"; }

// The first index at which a and b differ in their bits, or -1.
long first_difference(const std::vector<cd>& a, const std::vector<cd>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!same_bits(a[k], b[k])) return static_cast<long>(k);
  return -1;
}

int differ(const std::string& what) {
  std::cout << "DIFFERENT: " << what << '\n';
  return 1;
}

int same(const std::string& a_file, const std::string& b_file) {
  const SweepData a = read_sweep_file(a_file);
  const SweepData b = read_sweep_file(b_file);
  if (!a.complete || !b.complete) return differ("a sweep file is not complete");
  if (a.records.size() != b.records.size())
    return differ(std::to_string(a.records.size()) + " frequencies against " +
                  std::to_string(b.records.size()));
  if (a.info.ports() != b.info.ports() || a.info.unknowns != b.info.unknowns)
    return differ("ports or unknowns");
  for (std::size_t f = 0; f < a.records.size(); ++f) {
    const FrequencyRecord& x = a.records[f];
    const FrequencyRecord& y = b.records[f];
    const std::string at = "record " + std::to_string(f) + " (" + show(x.frequency_hz) + " Hz): ";
    if (!same_bits(x.frequency_hz, y.frequency_hz))
      return differ(at + "frequency " + show(x.frequency_hz) + " vs " + show(y.frequency_hz));
    if (const long k = first_difference(x.s, y.s); k >= 0)
      return differ(at + "S entry " + std::to_string(k) + ": " + show(x.s.at(k)) + " vs " +
                    show(y.s.at(k)));
    if (x.iterations != y.iterations)
      return differ(at + "iterations " + std::to_string(x.iterations) + " vs " +
                    std::to_string(y.iterations));
    if (!same_bits(x.residual, y.residual))
      return differ(at + "residual " + show(x.residual) + " vs " + show(y.residual));
    if (const long k = first_difference(x.currents, y.currents); k >= 0)
      return differ(at + "current " + std::to_string(k));
  }
  std::cout << "same: " << a.records.size() << " frequencies, " << a.info.ports()
            << " ports, S, currents, iterations and residuals bit for bit\n";
  return 0;
}

int close(const std::string& a_file, const std::string& b_file, double tolerance) {
  const SweepData a_data = read_sweep_file(a_file, /*with_currents=*/false);
  const SweepData b_data = read_sweep_file(b_file, /*with_currents=*/false);
  if (!a_data.complete || !b_data.complete) return differ("a sweep file is not complete");
  const std::vector<FrequencyRecord> a = every_point(a_data), b = every_point(b_data);  // io
  if (a.size() != b.size() || a_data.info.ports() != b_data.info.ports())
    return differ("frequencies or ports");
  double worst = 0;
  for (std::size_t f = 0; f < a.size(); ++f) {
    if (!same_bits(a[f].frequency_hz, b[f].frequency_hz))
      return differ("frequency " + show(a[f].frequency_hz));
    for (std::size_t k = 0; k < a[f].s.size(); ++k)
      worst = std::max(worst, std::abs(a[f].s[k] - b[f].s.at(k)));
  }
  if (!(worst <= tolerance)) return differ("largest |dS| " + show(worst) + " > " + show(tolerance));
  std::cout << "close: " << a.size() << " frequencies, largest |dS| " << worst << '\n';
  return 0;
}

int adaptive(const std::string& file) {
  const SweepData data = read_sweep_file(file, /*with_currents=*/false);
  if (!data.complete || !data.fit) return differ("not a finished adaptive sweep (no /fit)");
  const SweepFit& fit = *data.fit;
  const std::size_t pp = data.info.ports() * data.info.ports();
  std::size_t solved = 0;
  double estimate = 0;
  for (std::size_t i = 0; i < fit.frequency_hz.size(); ++i) {
    estimate = std::max(estimate, fit.estimate[i]);
    if (fit.solved[i] == 0) continue;
    ++solved;
    const auto r = std::find_if(data.records.begin(), data.records.end(), [&](const auto& x) {
      return same_bits(x.frequency_hz, fit.frequency_hz[i]);
    });
    if (r == data.records.end()) return differ("solved " + show(fit.frequency_hz[i]) + " Hz has no record");
    const std::vector<cd> s(fit.s.begin() + static_cast<long>(i * pp),
                            fit.s.begin() + static_cast<long>((i + 1) * pp));
    if (first_difference(s, r->s) >= 0) return differ("/fit/s at a solve is not its record's S");
  }
  if (solved != data.records.size()) return differ("records that /fit does not mark solved");
  if (!(estimate <= fit.tolerance))
    return differ("estimate " + show(estimate) + " above the tolerance " + show(fit.tolerance));
  std::cout << "adaptive: " << solved << " of " << fit.frequency_hz.size()
            << " frequencies solved, estimate " << estimate << ", " << fit.poles_hz.size()
            << " poles\n";
  return 0;
}

int touchstone(const std::string& h5_file, const std::string& ts_file) {
  SweepData sweep = read_sweep_file(h5_file, /*with_currents=*/false);
  sweep.records = every_point(sweep);
  const TouchstoneData ts = read_touchstone(ts_file);
  if (ts.ports != sweep.info.ports())
    return differ(std::to_string(ts.ports) + " ports in the Touchstone file, " +
                  std::to_string(sweep.info.ports()) + " in the sweep file");
  // One impedance (version 1.1), or the ports' own (2.0's [Reference]) where they differ.
  const std::vector<double> impedances =
      ts.port_reference_ohm.empty() ? std::vector<double>(ts.ports, ts.reference_impedance_ohm)
                                    : ts.port_reference_ohm;
  if (impedances != sweep.info.reference_impedance_ohm)
    return differ("reference impedances " + show(impedances.at(0)) + ", ... in the Touchstone "
                  "file are not the sweep's");
  if (ts.frequency_hz.size() != sweep.records.size())
    return differ(std::to_string(ts.frequency_hz.size()) + " frequencies in the Touchstone file, " +
                  std::to_string(sweep.records.size()) + " in the sweep file");
  for (std::size_t f = 0; f < sweep.records.size(); ++f) {
    const FrequencyRecord& r = sweep.records[f];
    if (!same_bits(ts.frequency_hz[f], r.frequency_hz))
      return differ("frequency " + show(ts.frequency_hz[f]) + " vs " + show(r.frequency_hz));
    if (const long k = first_difference(ts.s.at(f), r.s); k >= 0)
      return differ("at " + show(r.frequency_hz) + " Hz, S entry " + std::to_string(k) + ": " +
                    show(ts.s[f].at(k)) + " in the Touchstone file, " + show(r.s.at(k)) +
                    " in the sweep file");
  }
  std::cout << "same: " << ts.frequency_hz.size() << " frequencies of " << ts.ports
            << "-port S in the Touchstone and the sweep file, bit for bit\n";
  return 0;
}

}  // namespace

int kept(const std::string& file, const std::vector<std::string>& wanted) {
  const SweepData data = read_sweep_file(file);
  const bool all = wanted.size() == 1 && wanted[0] == "all";
  std::vector<double> expected;
  if (!all)
    for (const std::string& hz : wanted) expected.push_back(std::stod(hz));
  std::size_t count = 0;
  for (const FrequencyRecord& r : data.records) {
    const bool has = !r.currents.empty();
    const bool should =
        all || std::find(expected.begin(), expected.end(), r.frequency_hz) != expected.end();
    if (has != should)
      return differ("currents at " + show(r.frequency_hz) + " Hz " +
                    (has ? "kept, not asked for" : "missing"));
    if (has && r.currents.size() != data.info.ports() * data.info.unknowns)
      return differ("currents at " + show(r.frequency_hz) + " Hz not N x P");
    count += has ? 1 : 0;
  }
  if (!all && count != expected.size()) return differ("a frequency asked for is not a record");
  std::cout << "currents kept at " << count << " of " << data.records.size()
            << " frequencies\n";
  return 0;
}

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 3 && args[0] == "same") return same(args[1], args[2]);
    if (args.size() == 3 && args[0] == "touchstone") return touchstone(args[1], args[2]);
    if (args.size() == 4 && args[0] == "close") return close(args[1], args[2], std::stod(args[3]));
    if (args.size() == 2 && args[0] == "adaptive") return adaptive(args[1]);
    if (args.size() >= 2 && args[0] == "kept")
      return kept(args[1], std::vector<std::string>(args.begin() + 2, args.end()));
  } catch (const std::exception& e) {
    std::cerr << "sweep_check: " << e.what() << '\n';
    return 2;
  }
  std::cerr << "usage: sweep_check same A.h5 B.h5 | sweep_check touchstone X.h5 X.sNp | sweep_check close A.h5 B.h5 TOL | sweep_check adaptive X.h5 | sweep_check kept X.h5 [all | HZ...]\n";
  return 2;
}
