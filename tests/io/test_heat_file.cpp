// The heat equation's HDF5 file: exact round trips (n = 1 and a non-square-friendly n), the
// layout h5py reads (/u as [n, n] with row j = y index, checked with the raw HDF5 C API), no
// file left behind by a failed write, and the messages for bad records and foreign files.
// Tolerance: none; HDF5 stores float64 and int32 bit for bit.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/temp_dir.hpp"
#include "planarmom/io/heat_file.hpp"
#include "planarmom/io/sweep_file.hpp"

namespace pmom::io {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

HeatRecord example(int n, int steps) {
  HeatRecord r;
  r.n = n;
  for (int k = 0; k < n * n; ++k) r.u.push_back(0.1 * k - 1.0 / 3.0);
  r.kappa = 0.7;
  r.dt = 1e-4;
  r.boundary = -2.5;
  r.initial = "gaussian";
  r.solver = "cg";
  r.backend = "cpu";
  r.format = "csr";
  r.program_version = "test-1";
  for (int s = 0; s < steps; ++s) {
    r.iterations.push_back(40 - s);
    r.seconds.push_back(1e-3 * (s + 1) / 3.0);
  }
  return r;
}

void expect_same(const HeatRecord& a, const HeatRecord& b) {
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.u, b.u);
  EXPECT_EQ(a.kappa, b.kappa);
  EXPECT_EQ(a.dt, b.dt);
  EXPECT_EQ(a.boundary, b.boundary);
  EXPECT_EQ(a.initial, b.initial);
  EXPECT_EQ(a.solver, b.solver);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.program_version, b.program_version);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.seconds, b.seconds);
}

TEST(HeatFile, RoundTrip) {
  const TempDir dir("heat_file");
  for (const auto& [n, steps] : {std::pair{1, 1}, std::pair{7, 3}, std::pair{3, 0}}) {
    const fs::path file = dir.path() / ("heat" + std::to_string(n) + ".h5");
    const HeatRecord written = example(n, steps);
    write_heat_file(file, written);
    EXPECT_FALSE(fs::exists(fs::path(file.string() + ".partial")));
    expect_same(read_heat_file(file), written);
  }
}

// What h5py sees: /u of shape [n, n] holding u[i + n j] at [j, i]; time = steps · dt.
TEST(HeatFile, LayoutForH5py) {
  const TempDir dir("heat_layout");
  const fs::path file = dir.path() / "heat.h5";
  const HeatRecord r = example(4, 2);
  write_heat_file(file, r);
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t d = H5Dopen2(f, "u", H5P_DEFAULT);
  const hid_t space = H5Dget_space(d);
  hsize_t dims[2] = {0, 0};
  ASSERT_EQ(H5Sget_simple_extent_ndims(space), 2);
  H5Sget_simple_extent_dims(space, dims, nullptr);
  EXPECT_EQ(dims[0], 4u);
  EXPECT_EQ(dims[1], 4u);
  double grid[4][4];
  ASSERT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, grid), 0);
  EXPECT_EQ(grid[2][1], r.u[1 + 4 * 2]);  // [j = 2, i = 1]
  double time = 0;
  const hid_t a = H5Aopen(f, "time", H5P_DEFAULT);
  ASSERT_GE(H5Aread(a, H5T_NATIVE_DOUBLE, &time), 0);
  EXPECT_EQ(time, 2 * r.dt);
  H5Aclose(a);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
}

TEST(HeatFile, BadRecordsWriteNothing) {
  const TempDir dir("heat_bad");
  const fs::path file = dir.path() / "heat.h5";
  HeatRecord r = example(3, 2);
  r.u.pop_back();
  EXPECT_THROW(write_heat_file(file, r), std::invalid_argument);
  r = example(3, 2);
  r.seconds.pop_back();
  EXPECT_THROW(write_heat_file(file, r), std::invalid_argument);
  r = example(3, 2);
  r.n = 0;
  r.u.clear();
  EXPECT_THROW(write_heat_file(file, r), std::invalid_argument);
  // A folder that does not exist: HDF5 cannot create the partial file.
  EXPECT_THROW(write_heat_file(dir.path() / "missing" / "heat.h5", example(2, 1)),
               std::runtime_error);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(HeatFile, ForeignFilesAreNamed) {
  const TempDir dir("heat_foreign");
  const fs::path text = dir.write("not.h5", "plain text\n");
  try {
    read_heat_file(text);
    FAIL() << "a text file was read as a heat file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not.h5"), std::string::npos) << e.what();
  }
  // An HDF5 file without the heat datasets.
  const fs::path empty = dir.path() / "empty.h5";
  H5Fclose(H5Fcreate(empty.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  try {
    read_heat_file(empty);
    FAIL() << "an empty HDF5 file was read as a heat file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("attribute 'n'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pmom::io
