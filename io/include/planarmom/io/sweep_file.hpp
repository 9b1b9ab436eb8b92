// The HDF5 sweep file (layout in DESIGN.md §7, readable with h5py): written one frequency at a
// time into `<output>.partial`, renamed to `<output>` when the sweep finishes, and resumable
// after a kill, a full disk or a failed write from the frequencies already in the partial file
// (docs/RELIABILITY.md, "Fault injection").
#pragma once

#include <complex>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/io/sweep_record.hpp"

namespace pmom::io {

// what() names the file and says what to do; the system's reason ("No space left on device") or
// HDF5's own explanation, when there is one, follows.
class SweepFileError : public std::runtime_error {
 public:
  explicit SweepFileError(const std::string& what, int os_error = 0)
      : std::runtime_error(what), os_error_(os_error) {}
  // The system's error number behind it (ENOSPC, EAGAIN for a file another process has locked,
  // ...), or 0.
  [[nodiscard]] int os_error() const { return os_error_; }

 private:
  int os_error_ = 0;
};

// Which frequencies' port solutions a finished sweep file keeps: they are most of its size
// (P x N complex numbers a frequency). A run writes them all into its partial file, for a
// resumed sweep to start its solves from.
struct KeptSolutions {
  bool every = true;                   // all of them
  std::vector<double> frequencies_hz;  // else these (compared exactly), e.g. output: {currents}

  [[nodiscard]] bool keeps(double frequency_hz) const;
};

class SweepFile {
 public:
  enum class Mode {
    fresh,      // start a new partial file, discarding one a killed run left behind
    resume,     // continue the partial file a killed run left, or the finished file of this same
                // run (killed after finishing it); start a new one when there is neither
    automatic,  // resume where the partial file (or else the finished one) is this same run's,
                // else fresh (discarding another run's partial file with a warning)
  };

  // Opens `partial_path(target)` for writing. Throws std::invalid_argument when the port
  // vectors of `info` differ in length or are empty or info.unknowns is 0, and SweepFileError
  // when the file cannot be created, or (resume) cannot be read, belongs to a different run
  // (other ports, unknowns, config text, program version or backend) or is damaged: a record
  // before the last that does not read back as written (its checksum), datasets more than one
  // row apart. A last record that does not is dropped with a warning: a run stopped inside the
  // flush of its last record can leave it so. A refused file is left as it was.
  SweepFile(const std::filesystem::path& target, const SweepInfo& info, Mode mode);
  ~SweepFile();  // closes without finishing: the partial file stays, ready to resume
  SweepFile(SweepFile&&) noexcept;
  SweepFile& operator=(SweepFile&&) noexcept;

  [[nodiscard]] static std::filesystem::path partial_path(const std::filesystem::path& target);

  // Frequencies already in the file (resumed ones first), in the order they were written.
  [[nodiscard]] const std::vector<double>& frequencies() const;
  // Exact comparison: a resumed run computes its frequency list from the same config text.
  [[nodiscard]] bool contains(double frequency_hz) const;

  // The currents (N x P, column-major, as FrequencyRecord::currents) stored with a frequency in
  // the file, empty where a finished file resumed did not keep them: a resumed sweep's initial
  // guess for the frequency after it (empty: from zero). Throws
  // std::invalid_argument when the frequency is not in the file, std::logic_error after
  // finish(), SweepFileError on a read failure.
  [[nodiscard]] std::vector<std::complex<double>> currents(double frequency_hz) const;
  // The S stored with a frequency in the file (P x P, row-major, as FrequencyRecord::s): what a
  // resumed adaptive sweep fits. Throws as currents() does.
  [[nodiscard]] std::vector<std::complex<double>> s(double frequency_hz) const;

  // Appends one record and flushes it to disk, so that a kill loses at most the record being
  // written; the disk space it needs is reserved first, so that a full disk stops the sweep
  // before the record, with the file intact. Throws std::invalid_argument when record.s is not
  // P x P, record.currents is not N x P or the frequency is not finite and positive or already
  // in the file, std::logic_error after finish(), SweepFileError on a write failure (the file
  // then holds the records before this one, to resume from).
  void append(const FrequencyRecord& record);

  // Marks the file complete, closes it and renames it to the target (replacing an older one).
  // `order`, where given, is the sweep's frequency list: records written in another order (an
  // MPI sweep's ranks return them as they finish) are put in it, in a copy written under a
  // staging name and renamed to the target, so that a kill leaves the partial file to resume.
  // `fit`, where given (an adaptive sweep), is written into the finished file as /fit. The
  // currents of the frequencies `kept` does not keep are left out of the finished file (a copy
  // made as for the order): /currents_kept says which rows hold them.
  void finish(const std::vector<double>& order = {}, const SweepFit* fit = nullptr,
              const KeptSolutions& kept = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  // The row of a frequency in the open file; `who` names the caller in what it throws.
  [[nodiscard]] std::size_t row_of(double frequency_hz, const char* who) const;
};

// Reads a sweep file, finished or partial; a partial file gives the records written in full.
// with_currents == false leaves every record's currents empty: they are most of the file and
// only resuming and the current pictures need them; with it, the records whose currents the
// file did not keep have them empty. Throws SweepFileError naming the file and the missing or
// malformed part.
SweepData read_sweep_file(const std::filesystem::path& file, bool with_currents = true);

}  // namespace pmom::io
