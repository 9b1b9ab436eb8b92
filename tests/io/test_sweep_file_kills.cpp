// A sweep file killed at every one of its writes: the child process writing a sweep dies by
// SIGKILL at its n-th pwrite(2), for every n, either before that write or halfway through it (a
// write torn at a page, as a kill can leave one), and resuming what it left must give the
// uninterrupted run's file, record for record. This reaches the places a kill at a random time
// almost never does: inside HDF5's flush, between the datasets of one record, during creation
// and during finish(). Two shapes: small rows (every dataset's chunk holds many records) and
// large ones (a new /currents chunk for every record). PLANARMOM_KILL_RECORDS sets the records of
// the large one (default 4; 70 take it past a split of its chunk index, in minutes).
//
// The kill comes from this binary's own pwrite(), which HDF5's calls reach before libc's (the
// executable is first in the dynamic symbol lookup, and the linker exports the definition
// because libhdf5 refers to it); it is a pass-through until a child arms it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "io/sweep_example.hpp"
#include "io/temp_dir.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/io/sweep_file.hpp"

namespace {

long g_writes = 0;    // pwrite calls so far in this process
long g_kill_at = 0;   // the call that kills the process; 0: none
bool g_tear = false;  // write half of it first

}  // namespace

extern "C" ssize_t pwrite(int fd, const void* data, size_t size, off_t offset) {
  if (++g_writes == g_kill_at) {
    if (g_tear) syscall(SYS_pwrite64, fd, data, size / 2, offset);
    kill(getpid(), SIGKILL);
  }
  return syscall(SYS_pwrite64, fd, data, size, offset);
}

namespace pmom::io {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

constexpr std::size_t kPorts = 2;

struct Shape {
  std::size_t unknowns;  // 600 x 2 ports x 16 bytes: a row larger than a chunk's 16 KiB
  std::size_t records;
};

SweepInfo info_of(const Shape& shape) {
  SweepInfo info = test::example_sweep_info(kPorts);
  info.unknowns = shape.unknowns;
  return info;
}

FrequencyRecord record_of(const Shape& shape, std::size_t index) {
  FrequencyRecord record = test::example_record(index, kPorts);
  const std::vector<std::complex<double>> pattern = record.currents;
  record.currents.resize(shape.unknowns * kPorts);
  for (std::size_t k = pattern.size(); k < record.currents.size(); ++k)
    record.currents[k] = pattern[k % pattern.size()] * static_cast<double>(k);
  return record;
}

// The run of a sweep from its partial file (if any) to the end, as `planarmom sweep --resume`
// does it.
void run_to_the_end(const fs::path& target, const Shape& shape) {
  SweepFile file(target, info_of(shape), SweepFile::Mode::resume);
  for (std::size_t f = 0; f < shape.records; ++f) {
    const FrequencyRecord record = record_of(shape, f);
    if (!file.contains(record.frequency_hz)) file.append(record);
  }
  file.finish();
}

// "" when a and b hold the same finished sweep, else what differs.
std::string difference(const SweepData& a, const SweepData& b) {
  if (!a.complete || !b.complete) return "not complete";
  if (a.records.size() != b.records.size())
    return std::to_string(a.records.size()) + " records, not " + std::to_string(b.records.size());
  for (std::size_t f = 0; f < a.records.size(); ++f) {
    const FrequencyRecord& x = a.records[f];
    const FrequencyRecord& y = b.records[f];
    // The example's NaN dense_error would never compare equal: the rest of the record does.
    if (x.frequency_hz != y.frequency_hz || x.s != y.s || x.currents != y.currents ||
        x.iterations != y.iterations || x.residual != y.residual || x.nnz != y.nnz ||
        x.seconds_solve != y.seconds_solve)
      return "record " + std::to_string(f) + " differs";
  }
  return {};
}

// Runs the sweep in a child killed at its `kill_at`-th pwrite; returns how the child ended.
int killed_run(const fs::path& target, const Shape& shape, long kill_at, bool tear) {
  const pid_t child = fork();
  if (child == 0) {
    g_writes = 0;
    g_kill_at = kill_at;
    g_tear = tear;
    try {  // an exception must not carry the child back into the test runner
      run_to_the_end(target, shape);
    } catch (...) {
      _exit(2);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

void kill_at_every_write(const Shape& shape) {
  LogOptions quiet;  // a resume line per kill would bury the failures
  quiet.verbosity = Verbosity::quiet;
  init_logging(quiet);
  const TempDir dir("sweep_kills");
  const fs::path reference_file = dir.path() / "reference.h5";
  g_writes = 0;
  run_to_the_end(reference_file, shape);
  const long writes = g_writes;
  const SweepData reference = read_sweep_file(reference_file);
  ASSERT_GT(writes, 20) << "pwrite() was not interposed: HDF5's writes did not come here";
  for (const bool tear : {false, true}) {
    for (long n = 1; n <= writes; ++n) {
      const fs::path target = dir.path() / ("run_" + std::to_string(n) + ".h5");
      const int status = killed_run(target, shape, n, tear);
      ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
          << "write " << n << ": the run was not killed (status " << status << ")";
      std::string problem;
      try {
        run_to_the_end(target, shape);
        problem = difference(read_sweep_file(target), reference);
      } catch (const std::exception& e) {
        problem = e.what();
      }
      EXPECT_EQ(problem, "") << "killed at write " << n << " of " << writes
                             << (tear ? ", torn" : "");
      fs::remove(target);
    }
  }
}

TEST(SweepFileKills, SmallRowsKilledAtEveryWriteResumeToTheUninterruptedFile) {
  kill_at_every_write({test::kExampleUnknowns, 4});
}

TEST(SweepFileKills, LargeRowsKilledAtEveryWriteResumeToTheUninterruptedFile) {
  const char* records = std::getenv("PLANARMOM_KILL_RECORDS");
  kill_at_every_write({600, records != nullptr ? std::strtoul(records, nullptr, 10) : 4});
}

}  // namespace
}  // namespace pmom::io
