// Fuzz target: resuming and reading sweep files (io/sweep_file.hpp). Each input is decoded into
// a small sweep written with SweepFile (maybe finished), damage done to the file through the
// HDF5 C API (sweep_file_edits.hpp), a read with read_sweep_file and a resume that reads the
// stored currents, appends a record and finishes. Contract: a SweepFileError naming the file,
// or a consistent result: whole records only, P x P S and N x P currents (or none, where a
// finished file left them out), finite positive distinct frequencies, and exactly what was
// written when nothing was damaged.
#include <hdf5.h>

#include <boost/log/core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_bytes.hpp"
#include "harness.hpp"
#include "planarmom/io/sweep_file.hpp"
#include "sweep_file_edits.hpp"

namespace {

using namespace pmom;
namespace fs = std::filesystem;
using fuzz::FuzzBytes;

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same(const std::complex<double>& a, const std::complex<double>& b) {
  return same(a.real(), b.real()) && same(a.imag(), b.imag());
}
template <class T> bool same(const std::vector<T>& a, const std::vector<T>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const T& x, const T& y) { return same(x, y); });
}

bool same(const io::FrequencyRecord& a, const io::FrequencyRecord& b, bool with_currents) {
  return same(a.frequency_hz, b.frequency_hz) && same(a.s, b.s) && a.iterations == b.iterations &&
         same(a.residual, b.residual) && same(a.seconds_greens, b.seconds_greens) &&
         same(a.seconds_fill, b.seconds_fill) && same(a.seconds_sparsify, b.seconds_sparsify) &&
         same(a.seconds_solve, b.seconds_solve) && same(a.seconds_deembed, b.seconds_deembed) &&
         a.nnz == b.nnz && same(a.density, b.density) && same(a.dense_error, b.dense_error) &&
         (!with_currents || same(a.currents, b.currents));
}

bool valid_frequency(double hz) { return std::isfinite(hz) && hz > 0; }

// Ports and unknowns from the input; the rest fixed, so that a changed copy differs for sure.
io::SweepInfo make_info(FuzzBytes& in) {
  io::SweepInfo info;
  const std::size_t ports = 1 + in.below(3);
  for (std::size_t p = 0; p < ports; ++p) {
    info.port_names.push_back("port" + std::to_string(p + 1));
    info.reference_impedance_ohm.push_back(50.0);
    info.reference_plane_mm.push_back(1.5);
  }
  info.config_text = "mesh: {cell_mm: 0.4}";
  info.program_version = "0.1.0-fuzz";
  info.backend = "fuzz";
  info.unknowns = 1 + in.below(3);
  return info;
}

io::FrequencyRecord make_record(FuzzBytes& in, const io::SweepInfo& info, double hz) {
  io::FrequencyRecord r;
  r.frequency_hz = hz;
  r.s.resize(info.ports() * info.ports());
  for (auto& s : r.s) s = {in.number(), in.number()};
  r.iterations = in.byte();
  r.residual = in.number();
  r.seconds_solve = in.number();
  r.nnz = in.byte();
  r.dense_error = in.number();
  r.currents.resize(info.ports() * info.unknowns);
  for (auto& c : r.currents) c = {in.number(), in.number()};
  return r;
}

// Frequencies already in a file, and whether appending `hz` may succeed.
bool may_append(const std::vector<double>& frequencies, double hz) {
  return valid_frequency(hz) &&
         std::find(frequencies.begin(), frequencies.end(), hz) == frequencies.end();
}

void expect_file_error(const io::SweepFileError& error) {
  const std::string folder = fuzz::scratch_folder().string();
  fuzz::expect(std::string_view(error.what()).starts_with(folder),
               "a SweepFileError that does not name the file: " + std::string(error.what()));
}

// The records a sweep file must hold: whole ones, of the shapes its ports and unknowns give,
// at distinct valid frequencies.
void expect_consistent(const io::SweepData& data, bool with_currents) {
  const io::SweepInfo& info = data.info;
  const std::size_t ports = info.ports();
  fuzz::expect(ports > 0 && info.unknowns > 0, "a sweep without ports or unknowns");
  fuzz::expect(info.reference_impedance_ohm.size() == ports &&
                   info.reference_plane_mm.size() == ports,
               "port vectors of different lengths");
  for (std::size_t f = 0; f < data.records.size(); ++f) {
    const io::FrequencyRecord& r = data.records[f];
    fuzz::expect(r.s.size() == ports * ports, "S of a record is not P x P");
    fuzz::expect(r.currents.empty() ||
                     (with_currents && r.currents.size() == ports * info.unknowns),
                 "currents of a record are neither N x P nor left out");
    fuzz::expect(valid_frequency(r.frequency_hz), "a record at an invalid frequency");
    for (std::size_t g = 0; g < f; ++g)
      fuzz::expect(data.records[g].frequency_hz != r.frequency_hz, "a frequency twice");
  }
}

void expect_written(const io::SweepData& data, const io::SweepInfo& info,
                    const std::vector<io::FrequencyRecord>& written, bool with_currents) {
  fuzz::expect(data.info.port_names == info.port_names && data.info.unknowns == info.unknowns &&
                   data.info.config_text == info.config_text,
               "an undamaged file read back with other ports, unknowns or config");
  fuzz::expect(data.records.size() == written.size(), "an undamaged file lost records");
  for (std::size_t f = 0; f < written.size(); ++f)
    fuzz::expect(same(data.records[f], written[f], with_currents),
                 "an undamaged file read back with other values");
}

struct Sweep {
  io::SweepInfo info;
  std::vector<io::FrequencyRecord> written;
  bool finished = false;
};

// Writes a few records (the writer must refuse exactly the invalid and repeated frequencies)
// and maybe finishes; the file ends up at the partial path either way, so that it is resumed.
Sweep write_sweep(FuzzBytes& in, const fs::path& target) {
  Sweep sweep{make_info(in), {}, false};
  io::SweepFile file(target, sweep.info, io::SweepFile::Mode::fresh);
  for (std::size_t k = in.below(5); k > 0; --k) {
    const io::FrequencyRecord r = make_record(in, sweep.info, in.number());
    const bool valid = may_append(file.frequencies(), r.frequency_hz);
    try {
      file.append(r);
      sweep.written.push_back(r);
    } catch (const std::invalid_argument&) {
      fuzz::expect(!valid, "append refused a valid record");
      continue;
    }
    fuzz::expect(valid, "append took an invalid or repeated frequency");
  }
  if (in.flag()) {
    // Maybe keeping the currents of the first record only (output: {currents}).
    io::KeptSolutions kept;
    if (in.flag() && !sweep.written.empty()) kept = {false, {sweep.written.front().frequency_hz}};
    file.finish({}, nullptr, kept);
    for (io::FrequencyRecord& r : sweep.written)
      if (!kept.keeps(r.frequency_hz)) r.currents.clear();
    fs::rename(target, io::SweepFile::partial_path(target));
    sweep.finished = true;
  }
  return sweep;
}

void check_read(const fs::path& file, const Sweep& sweep, bool damaged, bool with_currents) {
  io::SweepData data;
  try {
    data = io::read_sweep_file(file, with_currents);
  } catch (const io::SweepFileError& error) {
    fuzz::expect(damaged, "an undamaged file could not be read: " + std::string(error.what()));
    return expect_file_error(error);
  }
  expect_consistent(data, with_currents);
  if (!damaged) {
    expect_written(data, sweep.info, sweep.written, with_currents);
    fuzz::expect(data.complete == sweep.finished, "the complete flag read back wrong");
  }
}

// The run that resumes: the same as the one that wrote the file, or differing in one field.
io::SweepInfo resuming_info(FuzzBytes& in, io::SweepInfo info, bool& differs) {
  differs = true;
  switch (in.below(16)) {
    case 0: info.config_text += " # edited"; break;
    case 1: info.backend = "other"; break;
    case 2: info.program_version = "0.0.0"; break;
    case 3: ++info.unknowns; break;
    case 4: info.port_names.front() = "renamed"; break;
    case 5: info.reference_impedance_ohm.back() = 75.0; break;
    case 6: info.reference_plane_mm.front() = -2.5; break;
    default: differs = false;
  }
  return info;
}

// Resumes, reads every stored frequency's currents, appends a record, finishes and reads the
// result back: every step either succeeds consistently or throws SweepFileError.
void check_resume(FuzzBytes& in, const fs::path& target, const Sweep& sweep, bool damaged) {
  bool differs = false;
  const io::SweepInfo info = resuming_info(in, sweep.info, differs);
  std::optional<io::SweepFile> file;
  try {
    file.emplace(target, info, io::SweepFile::Mode::resume);
  } catch (const io::SweepFileError& error) {
    fuzz::expect(damaged || differs, "an undamaged file of the same run was not resumed: " +
                                         std::string(error.what()));
    return expect_file_error(error);
  }
  fuzz::expect(!differs || damaged, "resumed a file written by a different run");
  const std::vector<double> resumed = file->frequencies();
  if (!damaged) {
    fuzz::expect(resumed.size() == sweep.written.size(), "resuming lost records");
    for (std::size_t f = 0; f < resumed.size(); ++f)
      fuzz::expect(same(resumed[f], sweep.written[f].frequency_hz), "resumed other frequencies");
  }
  try {
    for (std::size_t f = 0; f < resumed.size(); ++f) {
      fuzz::expect(valid_frequency(resumed[f]) && file->contains(resumed[f]),
                   "resumed an invalid frequency");
      const auto currents = file->currents(resumed[f]);
      fuzz::expect(currents.size() == info.ports() * info.unknowns ||
                       (currents.empty() && sweep.finished),
                   "currents neither N x P nor left out of a finished file");
      fuzz::expect(damaged || same(currents, sweep.written[f].currents), "currents changed");
    }
    double hz = 1e9;
    while (!may_append(resumed, hz)) hz += 1e9;
    const io::FrequencyRecord added = make_record(in, info, hz);
    file->append(added);
    file->finish();
    const io::SweepData data = io::read_sweep_file(target);
    expect_consistent(data, true);
    fuzz::expect(data.complete, "a finished file is not marked complete");
    fuzz::expect(data.records.size() == resumed.size() + 1, "the finished file lost records");
    fuzz::expect(same(data.records.back(), added, true), "the appended record changed");
  } catch (const io::SweepFileError& error) {
    fuzz::expect(damaged, "an undamaged file failed after resuming: " + std::string(error.what()));
    expect_file_error(error);
  }
}

bool set_up() {
  boost::log::core::get()->set_logging_enabled(false);  // "resuming ..." for every input
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // the edits' refused calls print stacks
  // HDF5 allocates its half-megabyte metadata cache at every file open and, beyond its default
  // free-list limits, returns it to the allocator at every close; under ASan each round trip
  // is an mmap and a page-faulting memset. Kept on HDF5's own free lists instead, an execution
  // is several times faster. (HDF5 is not the code under test.)
  H5set_free_list_limits(-1, -1, -1, -1, -1, -1);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool ready = set_up();
  (void)ready;
  FuzzBytes in(data, size);
  const fs::path target = fuzz::scratch_folder() / "sweep.h5";
  const fs::path partial = io::SweepFile::partial_path(target);
  fs::remove(target);
  fs::remove(partial);
  const Sweep sweep = write_sweep(in, target);
  const bool damaged = fuzz::edit_sweep_file(partial, in) > 0;
  check_read(partial, sweep, damaged, in.flag());
  check_resume(in, target, sweep, damaged);
  return 0;
}
