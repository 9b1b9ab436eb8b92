// SweepFile: the crash-safe writing protocol (docs/RELIABILITY.md, "Fault injection").
// - A new file is written under a staging name and renamed to the partial file once its header
//   is on disk.
// - Each record first reserves its disk space, then goes into every per-frequency dataset (its
//   checksum first, the frequency last), then the file is flushed. A full disk stops the sweep
//   before a record, not inside HDF5's flush.
// - A kill leaves some datasets one row longer than others, or (inside HDF5's flush, whose
//   writes are not ordered for crashes) the last record's rows without all their data: resuming
//   keeps the records every dataset holds whose checksums hold, drops a failing last one, and
//   refuses a file damaged in any other way, saying so.
// Only a finished sweep gets the final name.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "hdf5_values.hpp"
#include "message_text.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/io/sweep_file.hpp"
#include "sweep_file_space.hpp"
#include "sweep_layout.hpp"

namespace pmom::io {

namespace fs = std::filesystem;
using namespace sweep_layout;

namespace {

void check_info(const SweepInfo& info) {
  const std::size_t ports = info.ports();
  if (ports == 0) throw std::invalid_argument("SweepFile: the sweep has no ports");
  if (info.reference_impedance_ohm.size() != ports || info.reference_plane_mm.size() != ports)
    throw std::invalid_argument(
        cat("SweepFile: ", ports, " port names but ", info.reference_impedance_ohm.size(),
            " reference impedances and ", info.reference_plane_mm.size(), " reference planes"));
  if (info.unknowns == 0)
    throw std::invalid_argument("SweepFile: the sweep has no unknowns (SweepInfo::unknowns)");
}

void flush(hid_t file) { h5::check(H5Fflush(file, H5F_SCOPE_LOCAL), file, "cannot flush"); }

// How the sweep file is opened. No raw-data chunk cache: each row reaches the file in the call
// that writes it, so a failed write is reported by that call (a cached chunk would fail later,
// when its dataset closes, where HDF5 tells nobody) and a flush has only metadata left to write.
h5::PropertyList file_access() {
  h5::PropertyList access(h5::check(H5Pcreate(H5P_FILE_ACCESS), H5P_DEFAULT,
                                    "cannot create properties"));
  h5::check(H5Pset_cache(access.get(), 0, 521, 0, 1.0), access.get(), "cannot create properties");
  return access;
}

h5::File open_file(const fs::path& file, std::string_view what) {
  const h5::PropertyList access = file_access();
  return h5::File(
      h5::check(H5Fopen(file.c_str(), H5F_ACC_RDWR, access.get()), file, what));
}

// A new file is made under this name and renamed to the partial file once its header is on
// disk: a run killed while creating it leaves no partial file that is not one.
fs::path staging_path(const fs::path& partial) {
  fs::path staging = partial;
  staging += ".new";
  return staging;
}

void write_header(const fs::path& staging, const SweepInfo& info) {
  const h5::PropertyList access = file_access();
  h5::File file(h5::check(H5Fcreate(staging.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                          staging, "cannot create the sweep file"));
  const hid_t id = file.get();
  const hsize_t ports = info.ports();
  h5::write_attribute(id, kVersionAttribute, info.program_version);
  h5::write_attribute(id, kUnitsAttribute, std::string(kUnits));
  h5::write_attribute(id, kConfigAttribute, info.config_text);
  h5::write_attribute(id, kBackendAttribute, info.backend);
  h5::write_attribute(id, kCompleteAttribute, 0);
  h5::write_strings(id, kPortNames, info.port_names);
  h5::write_array(id, kImpedances, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, ports,
                  info.reference_impedance_ohm.data());
  h5::write_array(id, kPlanes, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, ports,
                  info.reference_plane_mm.data());
  h5::create_rows(id, kChecksum, h5::file_type<std::uint64_t>(), {});
  const h5::Type complex = h5::complex_type(H5T_IEEE_F64LE);
  h5::create_rows(id, kS, complex.get(), {ports, ports});
  h5::create_rows(id, kCurrents, complex.get(), {ports, info.unknowns});
  h5::create_rows(id, kCurrentsKept, h5::file_type<int>(), {});
  for_each_column([&](const char* path, auto member) {
    using Value = std::remove_cvref_t<decltype(FrequencyRecord{}.*member)>;
    h5::create_rows(id, path, h5::file_type<Value>(), {});
  });
  // Each dataset's chunk index is made now, by a row written and taken back. Made by the first
  // record, its root node would go to disk in that record's flush after the dataset header that
  // points to it, and a kill in between would leave the header pointing at nothing.
  for_each_row_dataset([&](const char* path) {
    const h5::Dataset dataset = h5::open_dataset(id, path);
    h5::write_zero_row(dataset.get());
    h5::set_row_count(dataset.get(), 0);
  });
  if (file.close() < 0) h5::fail(staging, "cannot write the sweep file");
}

h5::File create(const fs::path& partial, const SweepInfo& info) {
  const fs::path staging = staging_path(partial);
  try {
    write_header(staging, info);
  } catch (const SweepFileError&) {
    std::error_code ignored;  // the error being reported is the one that matters
    fs::remove(staging, ignored);
    throw;
  }
  std::error_code error;
  fs::rename(staging, partial, error);
  if (error)
    throw SweepFileError(cat("cannot rename ", staging.string(), " to ", partial.string(), ": ",
                             error.message()));
  return open_file(partial, "cannot open the new sweep file");
}

// Disk space to reserve before each record: a new chunk for every dataset with a row per
// frequency (at most one per record: a row never spans two), and HDF5's own metadata for the
// record, a few KiB (a chunk-index node per dataset, 2 KiB allocation blocks), for which the
// margin leaves ample room.
off_t record_bytes(hid_t file) {
  constexpr off_t kMetadataMargin = 256 * 1024;
  off_t bytes = kMetadataMargin;
  for_each_row_dataset([&](const char* path) {
    bytes += static_cast<off_t>(h5::chunk_bytes(h5::open_dataset(file, path).get()));
  });
  return bytes;
}

std::string gigahertz(double hz) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g GHz", hz * 1e-9);
  return text;
}

// The fields in which a partial file's run differs from this one; a file can describe only one
// run, so any difference rules out resuming.
std::string differences(const SweepInfo& stored, const SweepInfo& wanted) {
  std::string list;
  const auto note = [&](bool differs, const char* field) {
    if (!differs) return;
    if (!list.empty()) list += ", ";
    list += field;
  };
  note(stored.port_names != wanted.port_names, "port names");
  note(stored.reference_impedance_ohm != wanted.reference_impedance_ohm,
       "reference impedances");
  note(stored.reference_plane_mm != wanted.reference_plane_mm, "reference planes");
  note(stored.unknowns != wanted.unknowns, "unknowns");
  note(stored.config_text != wanted.config_text, "config text");
  note(stored.program_version != wanted.program_version, "program version");
  note(stored.backend != wanted.backend, "backend");
  return list;
}

// What is wrong with record `row` of `partial`, or "" when it reads back as it was written.
std::string record_problem(hid_t file, hsize_t row, const SweepInfo& info,
                           const fs::path& partial) {
  try {
    std::uint64_t stored = 0;
    h5::read_row(h5::open_dataset(file, kChecksum).get(), row,
                 h5::memory_type<std::uint64_t>(), &stored);
    if (record_checksum(read_record(file, row, info)) != stored) return "fails its checksum";
    return {};
  } catch (const SweepFileError& error) {
    std::string_view what = error.what();  // "FILE: dataset ...": the file is named already
    if (const std::string prefix = partial.string() + ": "; what.starts_with(prefix))
      what.remove_prefix(prefix.size());
    return cat("cannot be read: ", what);
  }
}

// The records of a partial file that can be trusted. Every record but the last must read back
// as written, or the file was damaged after it was written. The last one may be the record a
// kill interrupted inside HDF5's flush (its rows present, their data or index not all on disk):
// it is dropped, and computed again.
hsize_t trusted_rows(hid_t file, hsize_t rows, const SweepInfo& info, const fs::path& partial) {
  for (hsize_t row = 0; row < rows; ++row) {
    const std::string problem = record_problem(file, row, info, partial);
    if (problem.empty()) continue;
    const std::string which = cat("record ", row + 1, " of ", rows);
    if (row + 1 < rows)
      throw SweepFileError(cat(partial.string(), ": cannot resume: ", which, " ", problem,
                               ": the file is damaged"));
    PMOM_LOG(warning) << partial.string() << ": " << which << " " << problem
                      << ", as when a run stops while writing it: it is computed again";
    return row;
  }
  return rows;
}

// HDF5 writes the file's end (the superblock's EOA) last in a flush. A run killed before that
// can leave the index of a dataset pointing at the chunk of its last record past the recorded
// end, and HDF5 refuses to touch that address: to free it (cutting the record back) or to write
// there. Moving the end past all that the record could have allocated makes it addressable
// again; only a file whose data runs past its recorded end, the sign of such a kill, needs it.
void cover_the_last_record(hid_t file) {
  haddr_t end = 0;
  hsize_t size = 0;
  h5::check(H5Fget_eoa(file, &end), file, "cannot read the file's end");
  h5::check(H5Fget_filesize(file, &size), file, "cannot read the file's size");
  if (size > end)
    h5::check(H5Fincrement_filesize(file, static_cast<hsize_t>(record_bytes(file))), file,
              "cannot extend the file's end");
}

// How many records of a stopped run's partial file can be resumed from. Read-only, so that a
// file refused is left as it was (HDF5 opening an empty file for writing would make it a new one).
hsize_t resumable_rows(const fs::path& partial, const SweepInfo& info) {
  const h5::File file(h5::check(H5Fopen(partial.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), partial,
                                "cannot reopen the partial sweep file to resume it"));
  const hid_t id = file.get();
  cover_the_last_record(id);
  if (const std::string differ = differences(read_info(id), info); !differ.empty())
    throw SweepFileError(cat(partial.string(), ": cannot resume: this run differs from the ",
                             "one that wrote the file in its ", differ));
  if (!has_checksums(id))
    throw SweepFileError(cat(partial.string(), ": cannot resume: it has no record checksums ",
                             "(an older planarmom wrote it), so its records cannot be checked"));
  check_row_datasets(id, info);
  const RowCounts counts = row_counts(id);
  if (counts.longest > counts.shortest + 1)
    throw SweepFileError(cat(partial.string(), ": cannot resume: its datasets hold from ",
                             counts.shortest, " to ", counts.longest,
                             " rows, where a stopped run leaves them at most one apart: the "
                             "file is damaged"));
  const hsize_t rows = trusted_rows(id, counts.shortest, info, partial);
  check_frequencies(id, h5::read_column<double>(id, kFrequency, rows));
  return rows;
}

// /currents_kept for a file written before it existed, whose `rows` records keep their currents.
void add_currents_kept(hid_t id, hsize_t rows) {
  h5::create_rows(id, kCurrentsKept, h5::file_type<int>(), {});
  const h5::Dataset dataset = h5::open_dataset(id, kCurrentsKept);
  const int kept = 1;
  for (hsize_t row = 0; row < rows; ++row)
    h5::write_row(dataset.get(), row, h5::memory_type<int>(), &kept);
}

// Opens a stopped run's partial file, cut back to the records it can be trusted with.
h5::File reopen(const fs::path& partial, const SweepInfo& info, std::vector<double>& frequencies) {
  try {
    const hsize_t rows = resumable_rows(partial, info);
    h5::File file = open_file(partial, "cannot reopen the partial sweep file to resume it");
    const hid_t id = file.get();
    cover_the_last_record(id);
    for_each_row_dataset([&](const char* path) {
      if (lacks_optional(id, path)) return;
      const h5::Dataset dataset = h5::open_dataset(id, path);
      if (h5::row_count(dataset.get()) > rows) h5::set_row_count(dataset.get(), rows);
    });
    if (!has_currents_kept(id)) add_currents_kept(id, rows);
    frequencies = h5::read_column<double>(id, kFrequency, rows);
    h5::write_attribute(id, kCompleteAttribute, 0);
    flush(id);
    return file;
  } catch (const SweepFileError& error) {
    // The error says what is wrong with the file; this says how to get going again.
    if (error.os_error() == EAGAIN || error.os_error() == EWOULDBLOCK)  // HDF5's file lock
      throw SweepFileError(cat(error.what(), ": another process has it open (a sweep still ",
                               "writing it: the ranks of a killed mpirun may outlive it); stop ",
                               "that one or let it end, then run again with --resume"),
                           error.os_error());
    throw SweepFileError(cat(error.what(), ". Delete ", partial.string(),
                             " to start the sweep afresh, or run with --restart."),
                         error.os_error());
  }
}

// Whether `file`, a partial or finished sweep file, holds this very run. A run killed after
// finishing it (while writing the Touchstone file or the plot) resumes from it instead of
// starting over.
bool written_by_this_run(const fs::path& file_path, const SweepInfo& info) {
  if (!fs::exists(file_path)) return false;
  try {
    const h5::File file(h5::check(H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                                  file_path, "cannot open"));
    return differences(read_info(file.get()), info).empty();
  } catch (const SweepFileError&) {
    return false;  // not a file of this run: a fresh run replaces it in the end
  }
}

// One record into every per-frequency dataset at `row` (its checksum first, the frequency last).
void write_record(hid_t id, hsize_t row, const FrequencyRecord& record) {
  const std::uint64_t checksum = record_checksum(record);
  h5::write_row(h5::open_dataset(id, kChecksum).get(), row, h5::memory_type<std::uint64_t>(),
                &checksum);
  const h5::Type complex = h5::complex_type(H5T_NATIVE_DOUBLE);
  h5::write_row(h5::open_dataset(id, kS).get(), row, complex.get(), record.s.data());
  const h5::Dataset currents = h5::open_dataset(id, kCurrents);
  const int kept = record.currents.empty() ? 0 : 1;
  if (kept != 0)
    h5::write_row(currents.get(), row, complex.get(), record.currents.data());
  else
    h5::set_row_count(currents.get(), row + 1);  // the row unwritten: no space, reads as zeros
  h5::write_row(h5::open_dataset(id, kCurrentsKept).get(), row, h5::memory_type<int>(), &kept);
  for_each_column([&](const char* path, auto member) {
    const auto& value = record.*member;
    using Value = std::remove_cvref_t<decltype(value)>;
    h5::write_row(h5::open_dataset(id, path).get(), row, h5::memory_type<Value>(), &value);
  });
}

// The finished sweep renamed from `from` to its final name.
void rename_finished(const fs::path& from, const fs::path& target) {
  std::error_code error;
  fs::rename(from, target, error);
  if (error)
    throw SweepFileError(cat("cannot rename ", from.string(), " to ", target.string(), ": ",
                             error.message(), "; the finished sweep is in the former"));
}

// The finished file with the partial file's records in the order of `order` and the currents
// only where `kept` keeps them, written under the staging name and renamed to `target`; the
// partial file is removed last. A kill on the way leaves the partial file, complete but for the
// attribute, to resume (and finish) again.
void write_finished_copy(const fs::path& partial, const fs::path& target,
                         const std::vector<double>& order, const SweepFit* fit,
                         const KeptSolutions& kept) {
  // The records, and the currents of only the rows kept: a sweep's currents may not fit in
  // memory all at once.
  SweepData data = read_sweep_file(partial, /*with_currents=*/false);
  {
    const h5::File in(h5::check(H5Fopen(partial.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), partial,
                                "cannot open the partial sweep file to finish it"));
    const std::size_t count = data.info.ports() * data.info.unknowns;
    for (std::size_t row = 0; row < data.records.size(); ++row)
      if (kept.keeps(data.records[row].frequency_hz) && currents_kept(in.get(), row))
        data.records[row].currents = read_complex_row(in.get(), kCurrents, row, count);
  }
  const auto position = [&order](const FrequencyRecord& r) {
    return std::find(order.begin(), order.end(), r.frequency_hz) - order.begin();
  };
  std::stable_sort(data.records.begin(), data.records.end(),
                   [&](const FrequencyRecord& a, const FrequencyRecord& b) {
                     return position(a) < position(b);
                   });
  const fs::path staging = staging_path(partial);
  try {
    write_header(staging, data.info);
    h5::File file = open_file(staging, "cannot open the sorted sweep file");
    for (std::size_t row = 0; row < data.records.size(); ++row)
      write_record(file.get(), row, data.records[row]);
    if (fit) write_fit(file.get(), *fit, data.info.ports());
    h5::write_attribute(file.get(), kCompleteAttribute, 1);
    if (file.close() < 0) h5::fail(staging, "cannot write the sweep file");
  } catch (const SweepFileError& error) {
    std::error_code ignored;
    fs::remove(staging, ignored);
    throw SweepFileError(cat(error.what(), " (writing the finished file; ",
                             partial.string(), " holds the sweep: run again with --resume)"));
  }
  rename_finished(staging, target);
  std::error_code ignored;  // the finished file is in place: a partial file left is harmless
  fs::remove(partial, ignored);
}

}  // namespace

struct SweepFile::Impl {
  fs::path target;
  fs::path partial;
  std::size_t ports = 0;
  std::size_t unknowns = 0;
  h5::File file;
  SpaceReservation space;
  off_t record_bytes = 0;  // reserved before each record
  std::vector<double> frequencies;

  ~Impl() {
    const h5::QuietErrors quiet;  // a failed close here has nobody to report to
    file = h5::File();
  }
};

SweepFile::SweepFile(const fs::path& target, const SweepInfo& info, Mode mode)
    : impl_(std::make_unique<Impl>()) {
  check_info(info);
  const h5::QuietErrors quiet;
  impl_->target = target;
  impl_->partial = partial_path(target);
  impl_->ports = info.ports();
  impl_->unknowns = info.unknowns;
  bool partial_exists = fs::exists(impl_->partial);
  if (mode == Mode::automatic) {
    const bool ours = partial_exists ? written_by_this_run(impl_->partial, info)
                                     : written_by_this_run(target, info);
    mode = ours ? Mode::resume : Mode::fresh;
    if (!ours && partial_exists)
      PMOM_LOG(warning) << "discarding " << impl_->partial.string()
                        << ": another run's (another config, program version or backend), or "
                           "damaged (--resume would say why)";
  } else if (mode == Mode::fresh && partial_exists) {
    PMOM_LOG(warning) << "discarding " << impl_->partial.string()
                      << ", left by an unfinished run (--restart)";
  }
  if (mode == Mode::resume && !partial_exists && written_by_this_run(target, info)) {
    std::error_code error;
    fs::rename(target, impl_->partial, error);
    if (error)
      throw SweepFileError(cat("cannot rename ", target.string(), " to ",
                               impl_->partial.string(), " to resume it: ", error.message()));
    PMOM_LOG(info) << target.string() << " holds this run, finished: resuming from it, "
                   << "computing only what it lacks (--restart computes it all again)";
    partial_exists = true;
  }
  if (mode == Mode::resume && partial_exists) {
    impl_->file = reopen(impl_->partial, info, impl_->frequencies);
    PMOM_LOG(info) << "resuming " << impl_->partial.string() << ": "
                   << impl_->frequencies.size()
                   << " frequencies already done (--restart would discard them)";
  } else {
    if (mode == Mode::resume)
      PMOM_LOG(info) << "nothing to resume (no " << impl_->partial.string()
                     << "): starting the sweep afresh";
    impl_->file = create(impl_->partial, info);
  }
  try {
    impl_->space = SpaceReservation(impl_->partial);
  } catch (const std::system_error& error) {
    throw SweepFileError(cat(impl_->partial.string(), ": cannot open it to reserve space: ",
                             error.code().message()));
  }
  impl_->record_bytes = record_bytes(impl_->file.get());
}

SweepFile::~SweepFile() = default;
SweepFile::SweepFile(SweepFile&&) noexcept = default;
SweepFile& SweepFile::operator=(SweepFile&&) noexcept = default;

fs::path SweepFile::partial_path(const fs::path& target) {
  fs::path partial = target;
  partial += ".partial";
  return partial;
}

const std::vector<double>& SweepFile::frequencies() const { return impl_->frequencies; }

bool SweepFile::contains(double frequency_hz) const {
  return std::find(impl_->frequencies.begin(), impl_->frequencies.end(), frequency_hz) !=
         impl_->frequencies.end();
}

std::size_t SweepFile::row_of(double frequency_hz, const char* who) const {
  if (!impl_ || !impl_->file.is_open())
    throw std::logic_error(cat("SweepFile::", who, ": the sweep file is already finished"));
  const auto found =
      std::find(impl_->frequencies.begin(), impl_->frequencies.end(), frequency_hz);
  if (found == impl_->frequencies.end())
    throw std::invalid_argument(cat("SweepFile::", who, ": frequency ",
                                    std::to_string(frequency_hz), " Hz is not in ",
                                    impl_->partial.string()));
  return static_cast<std::size_t>(found - impl_->frequencies.begin());
}

std::vector<std::complex<double>> SweepFile::currents(double frequency_hz) const {
  const hsize_t row = row_of(frequency_hz, "currents");
  const h5::QuietErrors quiet;
  if (!currents_kept(impl_->file.get(), row)) return {};
  return read_complex_row(impl_->file.get(), kCurrents, row, impl_->ports * impl_->unknowns);
}

bool KeptSolutions::keeps(double frequency_hz) const {
  return every || std::find(frequencies_hz.begin(), frequencies_hz.end(), frequency_hz) !=
                      frequencies_hz.end();
}

std::vector<std::complex<double>> SweepFile::s(double frequency_hz) const {
  const hsize_t row = row_of(frequency_hz, "s");
  const h5::QuietErrors quiet;
  return read_complex_row(impl_->file.get(), kS, row, impl_->ports * impl_->ports);
}

void SweepFile::append(const FrequencyRecord& record) {
  if (!impl_ || !impl_->file.is_open())
    throw std::logic_error("SweepFile::append: the sweep file is already finished");
  const std::size_t ports = impl_->ports;
  if (record.s.size() != ports * ports)
    throw std::invalid_argument(cat("SweepFile::append: S has ", record.s.size(),
                                    " entries, a ", ports, "-port sweep needs ", ports * ports));
  if (record.currents.size() != ports * impl_->unknowns)
    throw std::invalid_argument(cat("SweepFile::append: ", record.currents.size(),
                                    " currents, a ", ports, "-port sweep of ", impl_->unknowns,
                                    " unknowns needs ", ports * impl_->unknowns));
  // A NaN would never match contains(), so a resumed run would compute it again; the readers
  // refuse such files as damaged.
  if (!std::isfinite(record.frequency_hz) || !(record.frequency_hz > 0))
    throw std::invalid_argument(cat("SweepFile::append: frequency ",
                                    std::to_string(record.frequency_hz),
                                    " Hz is not a finite positive number"));
  if (contains(record.frequency_hz))
    throw std::invalid_argument(cat("SweepFile::append: frequency ",
                                    std::to_string(record.frequency_hz),
                                    " Hz is already in ", impl_->partial.string()));
  const h5::QuietErrors quiet;
  const hsize_t row = impl_->frequencies.size();
  try {
    if (const int error = impl_->space.reserve(impl_->record_bytes); error != 0)
      throw SweepFileError(cat(impl_->partial.string(), ": no room for the record at ",
                               gigahertz(record.frequency_hz), ": ",
                               std::generic_category().message(error)));
    write_record(impl_->file.get(), row, record);
    flush(impl_->file.get());
  } catch (const SweepFileError& error) {
    throw SweepFileError(cat(error.what(), "; the ", row, " records before it are kept: once ",
                             "that is put right, run again with --resume"));
  }
  impl_->frequencies.push_back(record.frequency_hz);
}

void SweepFile::finish(const std::vector<double>& order, const SweepFit* fit,
                       const KeptSolutions& kept) {
  if (!impl_ || !impl_->file.is_open())
    throw std::logic_error("SweepFile::finish: the sweep file is already finished");
  const h5::QuietErrors quiet;
  std::vector<std::ptrdiff_t> positions;
  for (const double f : impl_->frequencies)
    positions.push_back(std::find(order.begin(), order.end(), f) - order.begin());
  const bool sorted = order.empty() || std::is_sorted(positions.begin(), positions.end());
  // Currents to drop must leave the file, not just its index: a copy without them.
  bool in_place = sorted;
  for (std::size_t row = 0; row < impl_->frequencies.size() && in_place; ++row)
    in_place = kept.keeps(impl_->frequencies[row]) || !currents_kept(impl_->file.get(), row);
  if (in_place && fit) write_fit(impl_->file.get(), *fit, impl_->ports);
  if (in_place && !fit) remove_fit(impl_->file.get());
  if (in_place) h5::write_attribute(impl_->file.get(), kCompleteAttribute, 1);
  if (impl_->file.close() < 0) h5::fail(impl_->partial, "cannot close the sweep file");
  impl_->space.release(impl_->record_bytes);
  if (!in_place) {
    write_finished_copy(impl_->partial, impl_->target, order, fit, kept);
    return;
  }
  rename_finished(impl_->partial, impl_->target);
}

}  // namespace pmom::io
