// Writing and reading the heat equation's HDF5 file.
#include "planarmom/io/heat_file.hpp"

#include <stdexcept>
#include <system_error>

#include "hdf5_values.hpp"
#include "message_text.hpp"

namespace pmom::io {
namespace {

namespace fs = std::filesystem;

constexpr const char* kField = "u";
constexpr const char* kIterations = "steps/iterations";
constexpr const char* kSeconds = "steps/seconds";

void check_record(const HeatRecord& r) {
  const auto cells = static_cast<std::size_t>(r.n) * static_cast<std::size_t>(r.n);
  if (r.n < 1 || r.u.size() != cells)
    throw std::invalid_argument(cat("write_heat_file: ", r.u.size(), " field values for n = ",
                                    r.n, " (need n >= 1 and n² values)"));
  if (r.iterations.size() != r.seconds.size())
    throw std::invalid_argument(cat("write_heat_file: ", r.iterations.size(),
                                    " per-step iteration counts but ", r.seconds.size(),
                                    " per-step times"));
}

void write_contents(const fs::path& partial, const HeatRecord& r) {
  h5::File file(h5::check(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                          partial, "cannot create the heat file"));
  const hid_t id = file.get();
  const auto n = static_cast<hsize_t>(r.n);
  h5::write_array(id, kField, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, std::vector<hsize_t>{n, n},
                  r.u.data());
  h5::write_array(id, kIterations, H5T_STD_I32LE, H5T_NATIVE_INT, r.iterations.size(),
                  r.iterations.data());
  h5::write_array(id, kSeconds, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.seconds.size(),
                  r.seconds.data());
  h5::write_attribute(id, "program_version", r.program_version);
  h5::write_attribute(id, "initial", r.initial);
  h5::write_attribute(id, "solver", r.solver);
  h5::write_attribute(id, "backend", r.backend);
  h5::write_attribute(id, "format", r.format);
  h5::write_attribute(id, "n", r.n);
  h5::write_attribute(id, "steps", static_cast<int>(r.iterations.size()));
  h5::write_attribute(id, "kappa", r.kappa);
  h5::write_attribute(id, "dt", r.dt);
  h5::write_attribute(id, "boundary", r.boundary);
  h5::write_attribute(id, "time", static_cast<double>(r.iterations.size()) * r.dt);
  if (file.close() < 0) h5::fail(partial, "cannot close the heat file (is the disk full?)");
}

template <class T>
std::vector<T> read_vector(hid_t file, const char* path, hsize_t count) {
  const h5::Dataset dataset = h5::open_dataset(file, path);
  if (h5::dataset_shape(dataset.get()) != std::vector<hsize_t>{count})
    h5::fail(dataset.get(), cat("does not hold one value for each of the ", count, " steps"));
  std::vector<T> values(count);
  h5::read_rows(dataset.get(), count, h5::memory_type<T>(), values.data());
  return values;
}

}  // namespace

void write_heat_file(const fs::path& file, const HeatRecord& record) {
  check_record(record);
  fs::path partial = file;
  partial += ".partial";
  const h5::QuietErrors quiet;
  try {
    write_contents(partial, record);
  } catch (...) {
    std::error_code ignored;  // the write's own error is the one to report
    fs::remove(partial, ignored);
    throw;
  }
  std::error_code error;
  fs::rename(partial, file, error);
  if (error) {
    fs::remove(partial, error);
    throw SweepFileError(cat("cannot rename ", partial.string(), " to ", file.string(), ": ",
                             error.message()));
  }
}

HeatRecord read_heat_file(const fs::path& file) {
  const h5::QuietErrors quiet;
  const h5::File handle(h5::check(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file,
                                  "cannot open as an HDF5 file"));
  const hid_t id = handle.get();
  HeatRecord r;
  r.n = h5::read_int_attribute(id, "n");
  const auto steps = h5::read_int_attribute(id, "steps");
  if (r.n < 1 || steps < 0) h5::fail(file, "attribute 'n' must be >= 1 and 'steps' >= 0");
  const auto n = static_cast<hsize_t>(r.n);
  {
    const h5::Dataset field = h5::open_dataset(id, kField);
    if (h5::dataset_shape(field.get()) != std::vector<hsize_t>{n, n})
      h5::fail(field.get(), cat("is not of shape [n, n] for n = ", r.n));
    r.u.resize(n * n);
    h5::read_rows(field.get(), n, H5T_NATIVE_DOUBLE, r.u.data());
  }
  r.iterations = read_vector<int>(id, kIterations, static_cast<hsize_t>(steps));
  r.seconds = read_vector<double>(id, kSeconds, static_cast<hsize_t>(steps));
  r.kappa = h5::read_double_attribute(id, "kappa");
  r.dt = h5::read_double_attribute(id, "dt");
  r.boundary = h5::read_double_attribute(id, "boundary");
  r.program_version = h5::read_string_attribute(id, "program_version");
  r.initial = h5::read_string_attribute(id, "initial");
  r.solver = h5::read_string_attribute(id, "solver");
  r.backend = h5::read_string_attribute(id, "backend");
  r.format = h5::read_string_attribute(id, "format");
  return r;
}

}  // namespace pmom::io
