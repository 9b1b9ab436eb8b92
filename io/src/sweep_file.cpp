// SweepFile: the crash-safe writing protocol. Each record goes into every per-frequency dataset
// (/s, /currents, the solver and timing columns), the frequency last, then the file is flushed;
// so a killed run leaves at worst some datasets one row longer than /frequency, which resuming
// cuts back. Only a finished sweep gets the final name.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <type_traits>

#include "hdf5_values.hpp"
#include "message_text.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/io/sweep_file.hpp"
#include "sweep_layout.hpp"

namespace pmom::io {

namespace fs = std::filesystem;
using namespace sweep_layout;

struct SweepFile::Impl {
  fs::path target;
  fs::path partial;
  std::size_t ports = 0;
  std::size_t unknowns = 0;
  h5::File file;
  std::vector<double> frequencies;

  ~Impl() {
    const h5::QuietErrors quiet;  // a failed close here has nobody to report to
    file = h5::File();
  }
};

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

h5::File create(const fs::path& partial, const SweepInfo& info) {
  h5::File file(h5::check(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                          partial, "cannot create the sweep file"));
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
  const h5::Type complex = h5::complex_type(H5T_IEEE_F64LE);
  h5::create_rows(id, kS, complex.get(), {ports, ports});
  h5::create_rows(id, kCurrents, complex.get(), {ports, info.unknowns});
  for_each_column([&](const char* path, auto member) {
    using Value = std::remove_cvref_t<decltype(FrequencyRecord{}.*member)>;
    h5::create_rows(id, path, h5::file_type<Value>(), {});
  });
  flush(id);
  return file;
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

// Opens a killed run's partial file, cut back to its complete records.
h5::File reopen(const fs::path& partial, const SweepInfo& info, std::vector<double>& frequencies) {
  try {
    h5::File file(h5::check(H5Fopen(partial.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), partial,
                            "cannot reopen the partial sweep file to resume it"));
    const hid_t id = file.get();
    if (const std::string differ = differences(read_info(id), info); !differ.empty())
      throw SweepFileError(cat(partial.string(), ": cannot resume: this run differs from the ",
                               "one that wrote the file in its ", differ));
    check_row_datasets(id, info);
    const hsize_t rows = complete_rows(id);
    for_each_row_dataset([&](const char* path) {
      const h5::Dataset dataset = h5::open_dataset(id, path);
      if (h5::row_count(dataset.get()) > rows) h5::set_row_count(dataset.get(), rows);
    });
    frequencies = h5::read_column<double>(id, kFrequency, rows);
    check_frequencies(id, frequencies);
    h5::write_attribute(id, kCompleteAttribute, 0);
    flush(id);
    return file;
  } catch (const SweepFileError& error) {
    // The error says what is wrong with the file; this says how to get going again.
    throw SweepFileError(cat(error.what(), ". Delete ", partial.string(),
                             " to start the sweep afresh, or run without --resume."));
  }
}

}  // namespace

SweepFile::SweepFile(const fs::path& target, const SweepInfo& info, Mode mode)
    : impl_(std::make_unique<Impl>()) {
  check_info(info);
  const h5::QuietErrors quiet;
  impl_->target = target;
  impl_->partial = partial_path(target);
  impl_->ports = info.ports();
  impl_->unknowns = info.unknowns;
  const bool partial_exists = fs::exists(impl_->partial);
  if (mode == Mode::resume && partial_exists) {
    impl_->file = reopen(impl_->partial, info, impl_->frequencies);
    PMOM_LOG(info) << "resuming " << impl_->partial.string() << ": "
                   << impl_->frequencies.size() << " frequencies already done";
    return;
  }
  if (partial_exists)
    PMOM_LOG(warning) << "discarding " << impl_->partial.string()
                      << ", left by an unfinished run (--resume would continue it)";
  else if (mode == Mode::resume)
    PMOM_LOG(info) << "nothing to resume (no " << impl_->partial.string()
                   << "): starting the sweep afresh";
  impl_->file = create(impl_->partial, info);
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

std::vector<std::complex<double>> SweepFile::currents(double frequency_hz) const {
  if (!impl_ || !impl_->file.is_open())
    throw std::logic_error("SweepFile::currents: the sweep file is already finished");
  const auto found =
      std::find(impl_->frequencies.begin(), impl_->frequencies.end(), frequency_hz);
  if (found == impl_->frequencies.end())
    throw std::invalid_argument(cat("SweepFile::currents: frequency ",
                                    std::to_string(frequency_hz), " Hz is not in ",
                                    impl_->partial.string()));
  const h5::QuietErrors quiet;
  return read_currents(impl_->file.get(),
                       static_cast<hsize_t>(found - impl_->frequencies.begin()), impl_->ports,
                       impl_->unknowns);
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
  const hid_t id = impl_->file.get();
  const hsize_t row = impl_->frequencies.size();
  const h5::Type complex = h5::complex_type(H5T_NATIVE_DOUBLE);
  h5::write_row(h5::open_dataset(id, kS).get(), row, complex.get(), record.s.data());
  h5::write_row(h5::open_dataset(id, kCurrents).get(), row, complex.get(),
                record.currents.data());
  for_each_column([&](const char* path, auto member) {
    const auto& value = record.*member;
    using Value = std::remove_cvref_t<decltype(value)>;
    h5::write_row(h5::open_dataset(id, path).get(), row, h5::memory_type<Value>(), &value);
  });
  flush(id);
  impl_->frequencies.push_back(record.frequency_hz);
}

void SweepFile::finish() {
  if (!impl_ || !impl_->file.is_open())
    throw std::logic_error("SweepFile::finish: the sweep file is already finished");
  const h5::QuietErrors quiet;
  h5::write_attribute(impl_->file.get(), kCompleteAttribute, 1);
  if (impl_->file.close() < 0)
    h5::fail(impl_->partial, "cannot close the sweep file (is the disk full?)");
  std::error_code error;
  fs::rename(impl_->partial, impl_->target, error);
  if (error)
    throw SweepFileError(cat("cannot rename ", impl_->partial.string(), " to ",
                             impl_->target.string(), ": ", error.message(),
                             "; the finished sweep is in the former"));
}

}  // namespace pmom::io
