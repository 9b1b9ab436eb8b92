// Reading sweep files back, finished or left partial by a killed run.
#include <algorithm>
#include <string>
#include <type_traits>

#include "hdf5_values.hpp"
#include "message_text.hpp"
#include "sweep_layout.hpp"

namespace pmom::io {

namespace sweep_layout {

namespace {

std::vector<double> read_port_values(hid_t file, const char* path, std::size_t ports) {
  const h5::Dataset dataset = h5::open_dataset(file, path);
  const hsize_t count = h5::row_count(dataset.get());
  if (count != ports)
    h5::fail(file, cat("dataset '/", path, "' has ", count, " entries for ", ports, " port names"));
  std::vector<double> values(ports);
  h5::read_rows(dataset.get(), count, H5T_NATIVE_DOUBLE, values.data());
  return values;
}

}  // namespace

SweepInfo read_info(hid_t file) {
  SweepInfo info;
  info.port_names = h5::read_strings(file, kPortNames);
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

hsize_t complete_rows(hid_t file) {
  hsize_t rows = 0;
  bool first = true;
  for_each_row_dataset([&](const char* path) {
    const hsize_t count = h5::row_count(h5::open_dataset(file, path).get());
    rows = first ? count : std::min(rows, count);
    first = false;
  });
  return rows;
}

std::vector<std::complex<double>> read_currents(hid_t file, hsize_t row, std::size_t ports,
                                                std::size_t unknowns) {
  std::vector<std::complex<double>> currents(ports * unknowns);
  const h5::Type complex = h5::complex_type(H5T_NATIVE_DOUBLE);
  h5::read_row(h5::open_dataset(file, kCurrents).get(), row, complex.get(), currents.data());
  return currents;
}

std::vector<FrequencyRecord> read_records(hid_t file, hsize_t rows, const SweepInfo& info,
                                          bool currents) {
  const std::size_t ports = info.ports();
  const h5::Dataset s = h5::open_dataset(file, kS);
  if (const auto shape = h5::dataset_shape(s.get());
      shape.size() != 3 || shape[1] != ports || shape[2] != ports)
    h5::fail(s.get(), cat("is not of shape [F, P, P] for the P = ", ports,
                          " ports of /ports/name"));
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
  if (currents) {
    for (std::size_t f = 0; f < records.size(); ++f)
      records[f].currents = read_currents(file, f, ports, info.unknowns);
  }
  return records;
}

}  // namespace sweep_layout

SweepData read_sweep_file(const std::filesystem::path& file, bool with_currents) {
  const h5::QuietErrors quiet;
  const h5::File handle(h5::check(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file,
                                  "cannot open as an HDF5 file"));
  const hid_t id = handle.get();
  SweepData data;
  data.info = sweep_layout::read_info(id);
  data.complete = h5::read_int_attribute(id, sweep_layout::kCompleteAttribute) != 0;
  data.records =
      sweep_layout::read_records(id, sweep_layout::complete_rows(id), data.info, with_currents);
  return data;
}

}  // namespace pmom::io
