// HDF5 sweep files: exact round trips, the layout h5py relies on (checked with the raw HDF5 C
// API), and the crash-safe protocol: partial file, rename on finish, resume after a real
// SIGKILL or a kill between two dataset writes, refusal to resume a different run or a damaged
// file (overwritten, truncated, datasets further apart than a kill leaves them), a write that
// finds no space, and the stored currents a resumed sweep starts its next solve from.
// (test_sweep_file_kills.cpp kills the writer at each of its writes.)
// Tolerance throughout: none. HDF5 stores float64 and int64 bit for bit, so everything read
// back must equal what was written (NaN where NaN was written).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "io/sweep_example.hpp"
#include "io/temp_dir.hpp"
#include "planarmom/io/sweep_file.hpp"

namespace pmom::io {
namespace {

namespace fs = std::filesystem;
using test::example_record;
using test::kExampleUnknowns;
using test::example_sweep_info;
using test::TempDir;

bool same_double(double a, double b) { return std::isnan(a) ? std::isnan(b) : a == b; }

void expect_same(const FrequencyRecord& a, const FrequencyRecord& b) {
  EXPECT_EQ(a.frequency_hz, b.frequency_hz);
  EXPECT_EQ(a.s, b.s) << "at " << a.frequency_hz << " Hz";
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.residual, b.residual);
  EXPECT_EQ(a.seconds_greens, b.seconds_greens);
  EXPECT_EQ(a.seconds_fill, b.seconds_fill);
  EXPECT_EQ(a.seconds_sparsify, b.seconds_sparsify);
  EXPECT_EQ(a.seconds_solve, b.seconds_solve);
  EXPECT_EQ(a.seconds_deembed, b.seconds_deembed);
  EXPECT_EQ(a.nnz, b.nnz);
  EXPECT_EQ(a.density, b.density);
  EXPECT_TRUE(same_double(a.dense_error, b.dense_error))
      << a.dense_error << " vs " << b.dense_error;
  EXPECT_EQ(a.currents, b.currents) << "at " << a.frequency_hz << " Hz";
}

void expect_same(const SweepInfo& a, const SweepInfo& b) {
  EXPECT_EQ(a.port_names, b.port_names);
  EXPECT_EQ(a.reference_impedance_ohm, b.reference_impedance_ohm);
  EXPECT_EQ(a.reference_plane_mm, b.reference_plane_mm);
  EXPECT_EQ(a.config_text, b.config_text);
  EXPECT_EQ(a.program_version, b.program_version);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.unknowns, b.unknowns);
}

void expect_same(const SweepData& a, const SweepData& b) {
  expect_same(a.info, b.info);
  EXPECT_EQ(a.complete, b.complete);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (std::size_t f = 0; f < a.records.size(); ++f) expect_same(a.records[f], b.records[f]);
}

constexpr std::size_t kPorts = 3;
constexpr std::size_t kPoints = 5;

// The sweep as an uninterrupted run writes it.
SweepData uninterrupted_sweep(const fs::path& target) {
  SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::fresh);
  for (std::size_t f = 0; f < kPoints; ++f) file.append(example_record(f, kPorts));
  file.finish();
  return read_sweep_file(target);
}

// Leaves the partial file of a run that wrote the first `done` points and was then stopped.
void write_stopped_run(const fs::path& target, std::size_t done,
                       const SweepInfo& info = example_sweep_info(kPorts)) {
  SweepFile file(target, info, SweepFile::Mode::fresh);
  for (std::size_t f = 0; f < done; ++f) file.append(example_record(f, kPorts));
}

// Resumes, appends the points not yet done, finishes and reads the result.
SweepData resume_and_finish(const fs::path& target, std::size_t expected_done) {
  SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::resume);
  EXPECT_EQ(file.frequencies().size(), expected_done);
  for (std::size_t f = 0; f < kPoints; ++f) {
    const FrequencyRecord record = example_record(f, kPorts);
    EXPECT_EQ(file.contains(record.frequency_hz), f < expected_done) << record.frequency_hz;
    if (!file.contains(record.frequency_hz)) file.append(record);
  }
  file.finish();
  return read_sweep_file(target);
}

// Raw HDF5 identifiers for the layout checks, closed with the matching H5*close.
class Raw {
 public:
  Raw(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Raw() {
    if (id_ >= 0) close_(id_);
  }
  Raw(const Raw&) = delete;
  Raw& operator=(const Raw&) = delete;
  hid_t operator*() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

std::vector<hsize_t> shape(hid_t dataset, std::vector<hsize_t>* max_dims = nullptr) {
  const Raw space(H5Dget_space(dataset), H5Sclose);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(*space)));
  std::vector<hsize_t> max(dims.size());
  H5Sget_simple_extent_dims(*space, dims.data(), max.data());
  if (max_dims != nullptr) *max_dims = max;
  return dims;
}

std::vector<hsize_t> dataset_shape(const fs::path& file, const char* path) {
  const Raw h5(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  const Raw dataset(H5Dopen2(*h5, path, H5P_DEFAULT), H5Dclose);
  return *dataset < 0 ? std::vector<hsize_t>{} : shape(*dataset);
}

const std::vector<std::string> kRowDatasets = {
    "/frequency",         "/s",                 "/currents",          "/currents_kept",
    "/solver/iterations",
    "/solver/residual",   "/solver/nnz",        "/solver/density",    "/solver/dense_error",
    "/timing/greens_s",   "/timing/fill_s",     "/timing/sparsify_s", "/timing/solve_s",
    "/timing/deembed_s"};

// ---------------------------------------------------------------------------------------

TEST(SweepFile, RoundTripIsExactAndRenamesOnFinish) {
  const TempDir dir("sweep_roundtrip");
  const fs::path target = dir.path() / "sweep.h5";
  const SweepInfo info = example_sweep_info(kPorts);
  {
    SweepFile file(target, info, SweepFile::Mode::fresh);
    EXPECT_TRUE(file.frequencies().empty());
    for (std::size_t f = 0; f < kPoints; ++f) file.append(example_record(f, kPorts));
    EXPECT_TRUE(fs::exists(SweepFile::partial_path(target)));
    EXPECT_FALSE(fs::exists(target)) << "the final name appears only when the sweep is done";
    file.finish();
  }
  EXPECT_TRUE(fs::exists(target));
  EXPECT_FALSE(fs::exists(SweepFile::partial_path(target)));

  const SweepData data = read_sweep_file(target);
  EXPECT_TRUE(data.complete);
  expect_same(data.info, info);
  ASSERT_EQ(data.records.size(), kPoints);
  for (std::size_t f = 0; f < kPoints; ++f) expect_same(data.records[f], example_record(f, kPorts));
}

// An MPI sweep's ranks return records as they finish: finish(order) writes them in the sweep's
// order (a sorted copy renamed into place) and removes the partial file.
TEST(SweepFile, FinishPutsRecordsWrittenOutOfOrderInTheSweepsOrder) {
  const TempDir dir("sweep_sorted");
  const fs::path target = dir.path() / "sweep.h5";
  const SweepInfo info = example_sweep_info(kPorts);
  std::vector<double> order;
  for (std::size_t f = 0; f < kPoints; ++f) order.push_back(example_record(f, kPorts).frequency_hz);
  {
    SweepFile file(target, info, SweepFile::Mode::fresh);
    for (const std::size_t f : {std::size_t{2}, std::size_t{0}, std::size_t{3}, std::size_t{1}})
      if (f < kPoints) file.append(example_record(f, kPorts));
    for (std::size_t f = 4; f < kPoints; ++f) file.append(example_record(f, kPorts));
    file.finish(order);
  }
  EXPECT_FALSE(fs::exists(SweepFile::partial_path(target)));
  EXPECT_FALSE(fs::exists(dir.path() / "sweep.h5.partial.new")) << "the staging copy is renamed";
  const SweepData data = read_sweep_file(target);
  EXPECT_TRUE(data.complete);
  expect_same(data.info, info);
  ASSERT_EQ(data.records.size(), kPoints);
  for (std::size_t f = 0; f < kPoints; ++f) expect_same(data.records[f], example_record(f, kPorts));
}

// The finished file keeps the port solutions only where asked (output: {currents}): the other
// rows of /currents take no space and read as none, /currents_kept says which are which, and
// the file still resumes (its records' checksums hold) with the dropped rows' guesses empty.
TEST(SweepFile, FinishKeepsTheSolutionsOnlyWhereAsked) {
  const TempDir dir("sweep_kept");
  const std::size_t unknowns = 20000;  // rows of 960 kB: what they weigh shows in the file size
  SweepInfo info = example_sweep_info(kPorts);
  info.unknowns = unknowns;
  const auto record = [&](std::size_t f) {
    FrequencyRecord r = example_record(f, kPorts);
    r.currents.assign(unknowns * kPorts, {0.25 * static_cast<double>(f + 1), -1.0});
    return r;
  };
  const KeptSolutions kept{false, {record(1).frequency_hz, record(3).frequency_hz}};
  const auto write = [&](const fs::path& target, const KeptSolutions& keep) {
    SweepFile file(target, info, SweepFile::Mode::fresh);
    for (std::size_t f = 0; f < kPoints; ++f) file.append(record(f));
    file.finish({}, nullptr, keep);
  };
  const fs::path every = dir.path() / "every.h5", some = dir.path() / "some.h5";
  write(every, {});
  write(some, kept);
  EXPECT_FALSE(fs::exists(SweepFile::partial_path(some)));
  EXPECT_FALSE(fs::exists(dir.path() / "some.h5.partial.new")) << "the staging copy is renamed";
  const double row_bytes = 16.0 * kPorts * unknowns;
  EXPECT_GT(static_cast<double>(fs::file_size(every)), kPoints * row_bytes);
  EXPECT_LT(static_cast<double>(fs::file_size(some)), 2.5 * row_bytes)
      << "the dropped rows must leave the file";

  const SweepData data = read_sweep_file(some);
  EXPECT_TRUE(data.complete);
  ASSERT_EQ(data.records.size(), kPoints);
  for (std::size_t f = 0; f < kPoints; ++f) {
    FrequencyRecord expected = record(f);
    if (!kept.keeps(expected.frequency_hz)) expected.currents.clear();
    expect_same(data.records[f], expected);
  }
  {
    const Raw h5(H5Fopen(some.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    const Raw flags(H5Dopen2(*h5, "/currents_kept", H5P_DEFAULT), H5Dclose);
    ASSERT_GE(*flags, 0);
    std::vector<int> values(kPoints, -1);
    ASSERT_GE(H5Dread(*flags, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    EXPECT_EQ(values, (std::vector<int>{0, 1, 0, 1, 0}));
  }

  // Resumed (a run killed after finishing it): nothing to compute, the guesses as kept.
  SweepFile resumed(some, info, SweepFile::Mode::resume);
  EXPECT_EQ(resumed.frequencies().size(), kPoints);
  EXPECT_TRUE(resumed.currents(record(0).frequency_hz).empty());
  EXPECT_EQ(resumed.currents(record(1).frequency_hz), record(1).currents);
  resumed.finish({}, nullptr, kept);
  const SweepData again = read_sweep_file(some);
  ASSERT_EQ(again.records.size(), kPoints);
  for (std::size_t f = 0; f < kPoints; ++f) expect_same(again.records[f], data.records[f]);
}

TEST(SweepFile, PartialNameSitsBesideTheTarget) {
  EXPECT_EQ(SweepFile::partial_path("out/run.h5"), fs::path("out/run.h5.partial"));
}

TEST(SweepFile, LayoutIsWhatH5pyReads) {
  const TempDir dir("sweep_layout");
  const fs::path target = dir.path() / "sweep.h5";
  uninterrupted_sweep(target);

  const Raw h5(H5Fopen(target.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  ASSERT_GE(*h5, 0);

  // /s: [F, P, P] compound {r: float64, i: float64}, the pair h5py maps to complex128.
  const Raw s(H5Dopen2(*h5, "/s", H5P_DEFAULT), H5Dclose);
  ASSERT_GE(*s, 0);
  EXPECT_EQ(shape(*s), (std::vector<hsize_t>{kPoints, kPorts, kPorts}));
  const Raw type(H5Dget_type(*s), H5Tclose);
  ASSERT_EQ(H5Tget_class(*type), H5T_COMPOUND);
  ASSERT_EQ(H5Tget_nmembers(*type), 2);
  const char* names[] = {"r", "i"};
  for (unsigned m = 0; m < 2; ++m) {
    char* name = H5Tget_member_name(*type, m);
    EXPECT_STREQ(name, names[m]);
    H5free_memory(name);
    const Raw member(H5Tget_member_type(*type, m), H5Tclose);
    EXPECT_EQ(H5Tget_class(*member), H5T_FLOAT);
    EXPECT_EQ(H5Tget_size(*member), 8U);
    EXPECT_EQ(H5Tget_member_offset(*type, m), 8U * m);
  }

  // /currents: [F, P, N], the same compound.
  const Raw currents(H5Dopen2(*h5, "/currents", H5P_DEFAULT), H5Dclose);
  ASSERT_GE(*currents, 0);
  EXPECT_EQ(shape(*currents), (std::vector<hsize_t>{kPoints, kPorts, kExampleUnknowns}));
  const Raw currents_type(H5Dget_type(*currents), H5Tclose);
  EXPECT_GT(H5Tequal(*currents_type, *type), 0) << "/currents is not /s's {r, i} compound";

  // Every per-frequency dataset has F rows and can grow without limit (appending needs that).
  for (const std::string& path : kRowDatasets) {
    const Raw dataset(H5Dopen2(*h5, path.c_str(), H5P_DEFAULT), H5Dclose);
    ASSERT_GE(*dataset, 0) << path;
    std::vector<hsize_t> max_dims;
    const std::vector<hsize_t> dims = shape(*dataset, &max_dims);
    ASSERT_FALSE(dims.empty()) << path;
    EXPECT_EQ(dims[0], kPoints) << path;
    EXPECT_EQ(max_dims[0], H5S_UNLIMITED) << path;
  }
  for (const char* path :
       {"/ports/name", "/ports/reference_impedance_ohm", "/ports/reference_plane_mm"}) {
    const Raw dataset(H5Dopen2(*h5, path, H5P_DEFAULT), H5Dclose);
    ASSERT_GE(*dataset, 0) << path;
    EXPECT_EQ(shape(*dataset), std::vector<hsize_t>{kPorts}) << path;
  }
  for (const char* name : {"program_version", "units", "config", "backend", "complete"})
    EXPECT_GT(H5Aexists(*h5, name), 0) << "root attribute " << name;

  const Raw complete(H5Aopen(*h5, "complete", H5P_DEFAULT), H5Aclose);
  int value = -1;
  ASSERT_GE(H5Aread(*complete, H5T_NATIVE_INT, &value), 0);
  EXPECT_EQ(value, 1);
}

TEST(SweepFile, ResumeGivesTheSameFileAsAnUninterruptedRun) {
  const TempDir dir("sweep_resume");
  const SweepData reference = uninterrupted_sweep(dir.path() / "reference.h5");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 2);

  const SweepData partial = read_sweep_file(SweepFile::partial_path(target));
  EXPECT_FALSE(partial.complete);
  EXPECT_EQ(partial.records.size(), 2U);

  expect_same(resume_and_finish(target, 2), reference);
}

// A real kill: the child appends two points and dies by SIGKILL with the file still open, no
// destructor or HDF5 close running. The flushes after each append must have left a file that
// reads and resumes.
TEST(SweepFile, KilledRunLeavesAReadableResumableFile) {
  const TempDir dir("sweep_kill");
  const SweepData reference = uninterrupted_sweep(dir.path() / "reference.h5");
  const fs::path target = dir.path() / "sweep.h5";

  const pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) {
    try {  // an exception must not carry the child back into the test runner
      SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::fresh);
      for (std::size_t f = 0; f < 2; ++f) file.append(example_record(f, kPorts));
      kill(getpid(), SIGKILL);
    } catch (...) {
    }
    _exit(1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;

  const SweepData partial = read_sweep_file(SweepFile::partial_path(target));
  EXPECT_FALSE(partial.complete);
  ASSERT_EQ(partial.records.size(), 2U);
  expect_same(partial.records[1], example_record(1, kPorts));

  expect_same(resume_and_finish(target, 2), reference);
}

// A partial file another process still writes (HDF5 locks it: the ranks of a killed mpirun can
// outlive it) is refused with one message saying so, not with advice to delete it.
TEST(SweepFile, ResumeRefusesAFileAnotherProcessHasOpen) {
  if (const char* locking = std::getenv("HDF5_USE_FILE_LOCKING");
      locking != nullptr && std::string(locking) == "FALSE")
    GTEST_SKIP() << "HDF5_USE_FILE_LOCKING=FALSE: HDF5 does not lock the file here";
  const TempDir dir("sweep_locked");
  const fs::path target = dir.path() / "sweep.h5";
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) {
    try {
      SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::fresh);
      file.append(example_record(0, kPorts));
      const char go = 1;
      if (write(ready[1], &go, 1) == 1) pause();  // holds the file open until killed
    } catch (...) {
    }
    _exit(1);
  }
  char go = 0;
  ASSERT_EQ(read(ready[0], &go, 1), 1);
  try {
    SweepFile resumed(target, example_sweep_info(kPorts), SweepFile::Mode::resume);
    ADD_FAILURE() << "resumed a file another process has open";
  } catch (const SweepFileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("another process has it open"), std::string::npos) << what;
    EXPECT_EQ(what.find("Delete"), std::string::npos) << what;
    EXPECT_EQ(e.os_error(), EAGAIN) << what;
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  close(ready[0]);
  close(ready[1]);
  // Once the writer is gone the file resumes.
  SweepFile resumed(target, example_sweep_info(kPorts), SweepFile::Mode::resume);
  EXPECT_EQ(resumed.frequencies().size(), 1U);
}

// A kill in the middle of an append leaves some datasets a row longer than /frequency. That
// half-written point does not count: reading ignores it, resuming cuts it off and writes the
// point again, once.
TEST(SweepFile, HalfWrittenPointIsDroppedNotDuplicated) {
  const TempDir dir("sweep_half");
  const SweepData reference = uninterrupted_sweep(dir.path() / "reference.h5");
  const fs::path target = dir.path() / "sweep.h5";
  const fs::path partial = SweepFile::partial_path(target);
  write_stopped_run(target, 2);
  {
    // What the writer had done for point 3 before the kill: /s, /currents and the first column.
    const Raw h5(H5Fopen(partial.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    for (const char* path : {"/s", "/currents", "/solver/iterations"}) {
      const Raw dataset(H5Dopen2(*h5, path, H5P_DEFAULT), H5Dclose);
      std::vector<hsize_t> dims = shape(*dataset);
      dims[0] += 1;
      ASSERT_GE(H5Dset_extent(*dataset, dims.data()), 0) << path;
    }
  }
  EXPECT_EQ(dataset_shape(partial, "/s")[0], 3U);
  EXPECT_EQ(read_sweep_file(partial).records.size(), 2U);

  {
    const SweepFile resumed(target, example_sweep_info(kPorts), SweepFile::Mode::resume);
    EXPECT_EQ(resumed.frequencies().size(), 2U);
  }
  for (const std::string& path : kRowDatasets)
    EXPECT_EQ(dataset_shape(partial, path.c_str())[0], 2U) << path << " not cut back";

  expect_same(resume_and_finish(target, 2), reference);
}

// A kill after /s but before /currents: the point is not complete, whatever its S.
TEST(SweepFile, PointWithoutItsCurrentsIsNotComplete) {
  const TempDir dir("sweep_no_currents");
  const SweepData reference = uninterrupted_sweep(dir.path() / "reference.h5");
  const fs::path target = dir.path() / "sweep.h5";
  const fs::path partial = SweepFile::partial_path(target);
  write_stopped_run(target, 2);
  {
    // Every dataset but /currents has point 3.
    const Raw h5(H5Fopen(partial.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    for (const std::string& path : kRowDatasets) {
      if (path == "/currents") continue;
      const Raw dataset(H5Dopen2(*h5, path.c_str(), H5P_DEFAULT), H5Dclose);
      std::vector<hsize_t> dims = shape(*dataset);
      dims[0] += 1;
      ASSERT_GE(H5Dset_extent(*dataset, dims.data()), 0) << path;
    }
  }
  EXPECT_EQ(read_sweep_file(partial).records.size(), 2U);
  expect_same(resume_and_finish(target, 2), reference);
}

// What `planarmom sweep --resume` warm-starts from: the currents of a frequency in the file,
// exactly as they were appended, from the resumed file as well as from this run's own records.
TEST(SweepFile, CurrentsOfAStoredFrequencyReadBackExactly) {
  const TempDir dir("sweep_currents");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 3);
  SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::resume);
  for (std::size_t f = 0; f < 3; ++f) {
    const FrequencyRecord r = example_record(f, kPorts);
    EXPECT_EQ(file.currents(r.frequency_hz), r.currents) << f;
  }
  file.append(example_record(3, kPorts));
  EXPECT_EQ(file.currents(example_record(3, kPorts).frequency_hz),
            example_record(3, kPorts).currents);
  EXPECT_THROW((void)file.currents(example_record(4, kPorts).frequency_hz),
               std::invalid_argument);
  file.finish();
  EXPECT_THROW((void)file.currents(example_record(0, kPorts).frequency_hz), std::logic_error);

  // Without currents, the rest reads the same.
  const SweepData light = read_sweep_file(target, /*with_currents=*/false);
  EXPECT_EQ(light.info.unknowns, kExampleUnknowns);
  ASSERT_EQ(light.records.size(), 4U);
  for (std::size_t f = 0; f < 4; ++f) {
    EXPECT_TRUE(light.records[f].currents.empty());
    FrequencyRecord expected = example_record(f, kPorts);
    expected.currents.clear();
    expect_same(light.records[f], expected);
  }
}

TEST(SweepFile, ResumingADifferentRunThrowsAndKeepsThePartialFile) {
  const TempDir dir("sweep_mismatch");
  const fs::path target = dir.path() / "sweep.h5";
  const fs::path partial = SweepFile::partial_path(target);
  write_stopped_run(target, 2);

  struct Case {
    const char* change;
    SweepInfo info;
  };
  std::vector<Case> cases(5, Case{"", example_sweep_info(kPorts)});
  cases[0].change = "config text";
  cases[0].info.config_text += "sparsify: {density: 0.1}\n";
  cases[1].change = "port names";
  cases[1].info.port_names[2] = "output";
  cases[2].change = "reference impedances";
  cases[2].info.reference_impedance_ohm[0] = 75.0;
  cases[3].change = "program version";
  cases[3].info.program_version = "0.2.0";
  cases[4].change = "unknowns";
  cases[4].info.unknowns += 1;
  for (const Case& c : cases) {
    try {
      SweepFile file(target, c.info, SweepFile::Mode::resume);
      ADD_FAILURE() << "resumed despite a different " << c.change;
    } catch (const SweepFileError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(partial.string()), std::string::npos) << what;
      EXPECT_NE(what.find(c.change), std::string::npos) << what;
      EXPECT_NE(what.find("Delete"), std::string::npos) << what;
      EXPECT_NE(what.find("--restart"), std::string::npos) << what;
    }
  }
  const SweepData kept = read_sweep_file(partial);
  EXPECT_EQ(kept.records.size(), 2U);
  expect_same(kept.info, example_sweep_info(kPorts));
}

TEST(SweepFile, FreshRunDiscardsAPartialFile) {
  const TempDir dir("sweep_fresh");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 2);
  SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::fresh);
  EXPECT_TRUE(file.frequencies().empty());
  file.append(example_record(4, kPorts));
  file.finish();
  const SweepData data = read_sweep_file(target);
  ASSERT_EQ(data.records.size(), 1U);
  expect_same(data.records[0], example_record(4, kPorts));
}

// Mode::automatic, the command's default: the partial file of this same run is continued; one
// another run left (here another config) is discarded, and the run starts afresh.
TEST(SweepFile, AutomaticContinuesThisRunsPartialFileAndDiscardsAnothers) {
  const TempDir dir("sweep_automatic");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 2);
  {
    SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::automatic);
    EXPECT_EQ(file.frequencies().size(), 2U);
  }
  SweepInfo other = example_sweep_info(kPorts);
  other.config_text += "# another run\n";
  SweepFile file(target, other, SweepFile::Mode::automatic);
  EXPECT_TRUE(file.frequencies().empty());
  file.append(example_record(4, kPorts));
  file.finish();
  const SweepData data = read_sweep_file(target);
  ASSERT_EQ(data.records.size(), 1U);
  EXPECT_EQ(data.info.config_text, other.config_text);
}

// A run killed after its file was finished (writing the Touchstone file, say) resumes from that
// file with nothing left to compute; a finished file of another run is not touched until the
// fresh run replaces it.
TEST(SweepFile, ResumeFromTheFinishedFileOfTheSameRun) {
  const TempDir dir("sweep_finished");
  const fs::path target = dir.path() / "sweep.h5";
  const SweepData reference = uninterrupted_sweep(target);
  expect_same(resume_and_finish(target, kPoints), reference);

  SweepInfo other = example_sweep_info(kPorts);
  other.config_text += "# another run\n";
  SweepFile file(target, other, SweepFile::Mode::resume);
  EXPECT_TRUE(file.frequencies().empty());
  EXPECT_TRUE(fs::exists(target));
  expect_same(read_sweep_file(target), reference);
}

TEST(SweepFile, ResumeWithoutAPartialFileStartsAfresh) {
  const TempDir dir("sweep_nothing");
  const SweepData reference = uninterrupted_sweep(dir.path() / "reference.h5");
  expect_same(resume_and_finish(dir.path() / "sweep.h5", 0), reference);
}

TEST(SweepFile, AppendRejectsBadRecordsAndUseAfterFinish) {
  const TempDir dir("sweep_append");
  const fs::path target = dir.path() / "sweep.h5";
  SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::fresh);
  FrequencyRecord wrong_size = example_record(0, kPorts);
  wrong_size.s.pop_back();
  EXPECT_THROW(file.append(wrong_size), std::invalid_argument);
  FrequencyRecord wrong_currents = example_record(0, kPorts);
  wrong_currents.currents.pop_back();
  EXPECT_THROW(file.append(wrong_currents), std::invalid_argument);
  wrong_currents.currents.clear();
  EXPECT_THROW(file.append(wrong_currents), std::invalid_argument);
  file.append(example_record(0, kPorts));
  EXPECT_THROW(file.append(example_record(0, kPorts)), std::invalid_argument) << "duplicate";
  file.finish();
  EXPECT_THROW(file.append(example_record(1, kPorts)), std::logic_error);
  EXPECT_THROW(file.finish(), std::logic_error);
  EXPECT_EQ(read_sweep_file(target).records.size(), 1U) << "rejected records left no trace";
}

TEST(SweepFile, InconsistentSweepInfoIsRejected) {
  const TempDir dir("sweep_info");
  SweepInfo info = example_sweep_info(kPorts);
  info.reference_plane_mm.pop_back();
  EXPECT_THROW(SweepFile(dir.path() / "a.h5", info, SweepFile::Mode::fresh),
               std::invalid_argument);
  EXPECT_THROW(SweepFile(dir.path() / "b.h5", SweepInfo{}, SweepFile::Mode::fresh),
               std::invalid_argument);
  SweepInfo no_unknowns = example_sweep_info(kPorts);
  no_unknowns.unknowns = 0;
  EXPECT_THROW(SweepFile(dir.path() / "c.h5", no_unknowns, SweepFile::Mode::fresh),
               std::invalid_argument);
}

// Error messages name the file and say what is wrong, in words rather than HDF5 stack dumps.
TEST(SweepFile, ErrorsNameTheFileAndTheProblem) {
  const TempDir dir("sweep_errors");
  const auto expect_error = [](const auto& action, const fs::path& file, const char* message) {
    try {
      action();
      ADD_FAILURE() << "no error for " << file;
    } catch (const SweepFileError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file.string(), 0), 0U) << what;
      EXPECT_NE(what.find(message), std::string::npos) << what;
    }
  };
  const fs::path text = dir.write("notes.h5", "not an HDF5 file\n");
  expect_error([&] { read_sweep_file(text); }, text, "cannot open as an HDF5 file");

  const fs::path missing_dir = dir.path() / "no" / "such" / "dir" / "sweep.h5";
  expect_error([&] { SweepFile(missing_dir, example_sweep_info(1), SweepFile::Mode::fresh); },
               SweepFile::partial_path(missing_dir), "cannot create the sweep file");

  // An HDF5 file that is not a sweep file: the first missing part is named.
  const fs::path other = dir.path() / "other.h5";
  H5Fclose(H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  expect_error([&] { read_sweep_file(other); }, other, "no dataset '/ports/name'");
}

// ---------------------------------------------------------------------------------------
// Damaged partial files: resuming refuses them, naming the file and what to do, and leaves them
// as they were; only a damaged last record, which a kill inside HDF5's flush can leave, is
// dropped and computed again.

// Expects the resume of `target` to be refused with a message naming the partial file, holding
// `problem` and saying what to do, and the partial file to be left byte for byte as it was.
void expect_refused(const fs::path& target, const std::string& problem) {
  const fs::path partial = SweepFile::partial_path(target);
  const std::string before = test::read_text(partial);
  try {
    SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::resume);
    ADD_FAILURE() << "resumed a damaged file (" << problem << ")";
  } catch (const SweepFileError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(partial.string() + ": ", 0), 0U) << what;
    EXPECT_NE(what.find(problem), std::string::npos) << what;
    EXPECT_NE(what.find("Delete " + partial.string() +
                        " to start the sweep afresh, or run with --restart."),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(test::read_text(partial), before) << "the refused file was changed";
  EXPECT_FALSE(fs::exists(target));
}

// Overwrites the 8 bytes of `value` where the file stores it (they must occur once).
void overwrite_double(const fs::path& file, double value) {
  const std::string bytes = test::read_text(file);
  char pattern[sizeof value];
  std::memcpy(pattern, &value, sizeof value);
  const std::string_view needle(pattern, sizeof pattern);
  const std::size_t at = bytes.find(needle);
  ASSERT_NE(at, std::string::npos) << value << " is not in " << file;
  ASSERT_EQ(bytes.find(needle, at + 1), std::string::npos) << value << " is there twice";
  std::fstream out(file, std::ios::in | std::ios::out | std::ios::binary);
  out.seekp(static_cast<std::streamoff>(at));
  const double other = -value;
  out.write(reinterpret_cast<const char*>(&other), sizeof other);
}

TEST(SweepFileDamage, OverwrittenRecordIsRefused) {
  const TempDir dir("sweep_overwritten");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 3);
  // The imaginary part of record 2's S12: data only the checksum can vouch for.
  overwrite_double(SweepFile::partial_path(target), example_record(1, kPorts).s[1].imag());
  expect_refused(target, "record 2 of 3 fails its checksum: the file is damaged");
}

TEST(SweepFileDamage, OverwrittenSignatureIsRefused) {
  const TempDir dir("sweep_signature");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 3);
  {
    std::fstream out(SweepFile::partial_path(target),
                     std::ios::in | std::ios::out | std::ios::binary);
    out.write("\0\0\0\0\0\0\0\0", 8);
  }
  expect_refused(target, "cannot reopen the partial sweep file to resume it");
}

// HDF5 records the file's length in its superblock and checks it on opening: any truncation is
// refused, even one that leaves whole records readable (a file shorter than HDF5 made it is
// not one a stopped run leaves).
TEST(SweepFileDamage, TruncatedFileIsRefused) {
  const TempDir dir("sweep_truncated");
  const fs::path reference = dir.path() / "reference.h5";
  write_stopped_run(reference, 3);
  const auto size = fs::file_size(SweepFile::partial_path(reference));
  for (const std::uintmax_t length : {std::uintmax_t{0}, std::uintmax_t{100}, size / 2, size - 1}) {
    const fs::path target = dir.path() / ("sweep_" + std::to_string(length) + ".h5");
    fs::copy_file(SweepFile::partial_path(reference), SweepFile::partial_path(target));
    fs::resize_file(SweepFile::partial_path(target), length);
    expect_refused(target, "cannot reopen the partial sweep file to resume it");
  }
}

// A kill leaves the datasets at most one row apart (the record being written); anything more
// is damage, not a half-written record to cut back.
TEST(SweepFileDamage, DatasetsFurtherApartThanAKillLeavesAreRefused) {
  const TempDir dir("sweep_apart");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 3);
  {
    const Raw h5(H5Fopen(SweepFile::partial_path(target).c_str(), H5F_ACC_RDWR, H5P_DEFAULT),
                 H5Fclose);
    const Raw dataset(H5Dopen2(*h5, "/currents", H5P_DEFAULT), H5Dclose);
    std::vector<hsize_t> dims = shape(*dataset);
    dims[0] = 1;
    ASSERT_GE(H5Dset_extent(*dataset, dims.data()), 0);
  }
  expect_refused(target, "its datasets hold from 1 to 3 rows");
}

TEST(SweepFileDamage, DamagedLastRecordIsComputedAgain) {
  const TempDir dir("sweep_last");
  const SweepData reference = uninterrupted_sweep(dir.path() / "reference.h5");
  const fs::path target = dir.path() / "sweep.h5";
  write_stopped_run(target, 3);
  overwrite_double(SweepFile::partial_path(target), example_record(2, kPorts).s[1].imag());
  expect_same(resume_and_finish(target, 2), reference);
}

// A write that fails inside HDF5 (here past the file-size limit, which fallocate() does not see,
// so the space reservation passes) reports the file's name and the system's reason, and leaves
// the records before it to resume from. (tests/apps/fault_test.sh fills a disk for real.)
TEST(SweepFileDamage, FailedWriteIsReportedAndLeavesTheFileResumable) {
  const TempDir dir("sweep_no_space");
  const SweepData reference = uninterrupted_sweep(dir.path() / "reference.h5");
  const fs::path target = dir.path() / "sweep.h5";
  const fs::path partial = SweepFile::partial_path(target);
  const pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) {
    int status = 3;
    try {  // an exception must not carry the child back into the test runner
      SweepFile file(target, example_sweep_info(kPorts), SweepFile::Mode::fresh);
      for (std::size_t f = 0; f < 2; ++f) file.append(example_record(f, kPorts));
      signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG
      const rlimit size{4096, 4096};  // below the rows' chunks
      setrlimit(RLIMIT_FSIZE, &size);
      file.append(example_record(2, kPorts));
    } catch (const SweepFileError& e) {
      const std::string what = e.what();
      const bool named = what.rfind(partial.string() + ": ", 0) == 0;
      const bool reason = what.find("File too large") != std::string::npos;
      const bool advice =
          what.find("the 2 records before it are kept") != std::string::npos &&
          what.find("--resume") != std::string::npos;
      status = named && reason && advice ? 0 : 4;
      if (status != 0) fprintf(stderr, "%s\n", what.c_str());
    } catch (...) {
    }
    _exit(status);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "child status " << status;
  ASSERT_EQ(WEXITSTATUS(status), 0) << "3: no error; 4: an error without the file, the reason "
                                       "or the advice (printed above)";
  expect_same(resume_and_finish(target, 2), reference);
}

}  // namespace
}  // namespace pmom::io
