// Reading sweep files back, finished or left partial by a killed run.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "hdf5_values.hpp"
#include "message_text.hpp"
#include "sweep_layout.hpp"

namespace pmom::io {

namespace sweep_layout {

namespace {

std::vector<double> read_port_values(hid_t file, const char* path, std::size_t ports) {
  const h5::Dataset dataset = h5::open_dataset(file, path);
  const hsize_t count = h5::length(dataset.get());
  if (count != ports)
    h5::fail(file, cat("dataset '/", path, "' has ", count, " entries for ", ports, " port names"));
  std::vector<double> values(ports);
  h5::read_rows(dataset.get(), count, H5T_NATIVE_DOUBLE, values.data());
  return values;
}

// "[3, 2, 2]", or with `head` first: "[F, 2, 2]".
std::string shape_text(std::string_view head, const std::vector<hsize_t>& extents) {
  std::string text = cat("[", head);
  for (const hsize_t extent : extents) text += cat(text.size() > 1 ? ", " : "", extent);
  return text + "]";
}

// A dataset with a row per frequency as the writer makes it: rows of shape `row`, elements of
// type `type` (`type_name` in the message), reachable by its path alone (two paths to one
// dataset would make the writer's rows overwrite each other).
void check_row_dataset(hid_t file, const char* path, const std::vector<hsize_t>& row, hid_t type,
                       std::string_view type_name) {
  const h5::Dataset dataset = h5::open_dataset(file, path);
  const std::vector<hsize_t> shape = h5::dataset_shape(dataset.get());
  if (shape.empty() || !std::equal(shape.begin() + 1, shape.end(), row.begin(), row.end()))
    h5::fail(dataset.get(), cat("has shape ", shape_text("", shape), " where ",
                                shape_text("F", row), " was expected: the file is damaged"));
  const h5::Type stored(
      h5::check(H5Dget_type(dataset.get()), dataset.get(), "cannot read a dataset type"));
  if (H5Tequal(stored.get(), type) <= 0)
    h5::fail(dataset.get(), cat("does not hold ", type_name, ": the file is damaged"));
  if (const unsigned links = h5::link_count(dataset.get()); links != 1)
    h5::fail(dataset.get(), cat("is reachable by ", links, " paths: the file is damaged"));
}

}  // namespace

bool has_checksums(hid_t file) { return H5Lexists(file, kChecksum, H5P_DEFAULT) > 0; }

bool has_currents_kept(hid_t file) { return H5Lexists(file, kCurrentsKept, H5P_DEFAULT) > 0; }

bool lacks_optional(hid_t file, const char* path) {
  const std::string_view p(path);
  return (p == kChecksum && !has_checksums(file)) ||
         (p == kCurrentsKept && !has_currents_kept(file));
}

bool currents_kept(hid_t file, hsize_t row) {
  if (!has_currents_kept(file)) return true;
  int kept = 0;
  h5::read_row(h5::open_dataset(file, kCurrentsKept).get(), row, h5::memory_type<int>(), &kept);
  return kept != 0;
}

SweepInfo read_info(hid_t file) {
  SweepInfo info;
  info.port_names = h5::read_strings(file, kPortNames);
  if (info.port_names.empty())
    h5::fail(file, cat("dataset '/", kPortNames, "' lists no ports: the file is damaged"));
  info.reference_impedance_ohm = read_port_values(file, kImpedances, info.ports());
  info.reference_plane_mm = read_port_values(file, kPlanes, info.ports());
  info.config_text = h5::read_string_attribute(file, kConfigAttribute);
  info.program_version = h5::read_string_attribute(file, kVersionAttribute);
  info.backend = h5::read_string_attribute(file, kBackendAttribute);
  const h5::Dataset currents = h5::open_dataset(file, kCurrents);
  const std::vector<hsize_t> shape = h5::dataset_shape(currents.get());
  if (shape.size() != 3 || shape[1] != info.ports() || shape[2] == 0)
    h5::fail(currents.get(), cat("is not of shape [F, P, N > 0] for the P = ", info.ports(),
                                 " ports of /ports/name"));
  info.unknowns = static_cast<std::size_t>(shape[2]);
  return info;
}

void check_row_datasets(hid_t file, const SweepInfo& info) {
  const hsize_t ports = info.ports();
  if (has_checksums(file))
    check_row_dataset(file, kChecksum, {}, h5::file_type<std::uint64_t>(), "checksums (uint64)");
  const h5::Type complex = h5::complex_type(H5T_IEEE_F64LE);
  constexpr std::string_view kComplex = "complex numbers (float64 pairs r, i)";
  check_row_dataset(file, kS, {ports, ports}, complex.get(), kComplex);
  check_row_dataset(file, kCurrents, {ports, info.unknowns}, complex.get(), kComplex);
  if (has_currents_kept(file))
    check_row_dataset(file, kCurrentsKept, {}, h5::file_type<int>(), "integers");
  for_each_column([&](const char* path, auto member) {
    using Value = std::remove_cvref_t<decltype(FrequencyRecord{}.*member)>;
    check_row_dataset(file, path, {}, h5::file_type<Value>(),
                      std::is_same_v<Value, double> ? "float64 numbers" : "integers");
  });
}

RowCounts row_counts(hid_t file) {
  RowCounts rows;
  bool first = true;
  for_each_row_dataset([&](const char* path) {
    if (lacks_optional(file, path)) return;
    const hsize_t count = h5::row_count(h5::open_dataset(file, path).get());
    rows.shortest = first ? count : std::min(rows.shortest, count);
    rows.longest = first ? count : std::max(rows.longest, count);
    first = false;
  });
  return rows;
}

void check_frequencies(hid_t file, const std::vector<double>& frequencies) {
  for (std::size_t row = 0; row < frequencies.size(); ++row) {
    const double hz = frequencies[row];
    if (!std::isfinite(hz) || !(hz > 0))
      h5::fail(file, cat("dataset '/", kFrequency, "' row ", row, " holds ", std::to_string(hz),
                         " Hz, not a finite positive frequency: the file is damaged"));
  }
  std::vector<double> sorted = frequencies;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    h5::fail(file, cat("dataset '/", kFrequency, "' holds ", std::to_string(*twice),
                       " Hz twice: the file is damaged"));
}

std::vector<std::complex<double>> read_complex_row(hid_t file, const char* path, hsize_t row,
                                                   std::size_t count) {
  std::vector<std::complex<double>> values(count);
  const h5::Type complex = h5::complex_type(H5T_NATIVE_DOUBLE);
  h5::read_row(h5::open_dataset(file, path).get(), row, complex.get(), values.data());
  return values;
}

std::vector<FrequencyRecord> read_records(hid_t file, hsize_t rows, const SweepInfo& info,
                                          bool currents) {
  const std::size_t ports = info.ports();
  const h5::Dataset s = h5::open_dataset(file, kS);
  const std::size_t per_row = ports * ports;
  std::vector<std::complex<double>> values(static_cast<std::size_t>(rows) * per_row);
  const h5::Type complex = h5::complex_type(H5T_NATIVE_DOUBLE);
  h5::read_rows(s.get(), rows, complex.get(), values.data());

  std::vector<FrequencyRecord> records(static_cast<std::size_t>(rows));
  for (std::size_t f = 0; f < records.size(); ++f) {
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(f * per_row);
    records[f].s.assign(first, first + static_cast<std::ptrdiff_t>(per_row));
  }
  for_each_column([&](const char* path, auto member) {
    using Value = std::remove_cvref_t<decltype(records.front().*member)>;
    const std::vector<Value> column = h5::read_column<Value>(file, path, rows);
    for (std::size_t f = 0; f < records.size(); ++f) records[f].*member = column[f];
  });
  std::vector<double> frequencies;
  for (const FrequencyRecord& r : records) frequencies.push_back(r.frequency_hz);
  check_frequencies(file, frequencies);
  if (currents) {
    for (std::size_t f = 0; f < records.size(); ++f)
      if (currents_kept(file, f))
        records[f].currents = read_complex_row(file, kCurrents, f, ports * info.unknowns);
  }
  return records;
}

FrequencyRecord read_record(hid_t file, hsize_t row, const SweepInfo& info) {
  FrequencyRecord record;
  const std::size_t ports = info.ports();
  record.s = read_complex_row(file, kS, row, ports * ports);
  for_each_column([&](const char* path, auto member) {
    auto& value = record.*member;
    using Value = std::remove_cvref_t<decltype(value)>;
    h5::read_row(h5::open_dataset(file, path).get(), row, h5::memory_type<Value>(), &value);
  });
  if (currents_kept(file, row))
    record.currents = read_complex_row(file, kCurrents, row, ports * info.unknowns);
  return record;
}

namespace {

class Fnv1a {
 public:
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t k = 0; k < size; ++k) hash_ = (hash_ ^ bytes[k]) * 1099511628211ULL;
  }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

}  // namespace

std::uint64_t record_checksum(const FrequencyRecord& record) {
  static_assert(std::endian::native == std::endian::little,
                "record_checksum hashes the file's little-endian bytes as they are in memory");
  Fnv1a hash;
  for_each_column([&](const char*, auto member) {
    const auto& value = record.*member;
    hash.add(&value, sizeof value);
  });
  hash.add(record.s.data(), record.s.size() * sizeof(std::complex<double>));
  hash.add(record.currents.data(), record.currents.size() * sizeof(std::complex<double>));
  return hash.value();
}

}  // namespace sweep_layout

SweepData read_sweep_file(const std::filesystem::path& file, bool with_currents) {
  const h5::QuietErrors quiet;
  const h5::File handle(h5::check(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file,
                                  "cannot open as an HDF5 file"));
  const hid_t id = handle.get();
  SweepData data;
  data.info = sweep_layout::read_info(id);
  sweep_layout::check_row_datasets(id, data.info);
  data.complete = h5::read_int_attribute(id, sweep_layout::kCompleteAttribute) != 0;
  const hsize_t rows = sweep_layout::row_counts(id).shortest;
  data.records = sweep_layout::read_records(id, rows, data.info, with_currents);
  data.fit = sweep_layout::read_fit(id, data.info.ports());
  return data;
}

}  // namespace pmom::io
