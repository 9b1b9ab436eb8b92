// Where each part of a sweep lives in the HDF5 file (DESIGN.md §7), and the reading steps that
// both read_sweep_file and a resuming SweepFile need.
#pragma once

#include <hdf5.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "planarmom/io/sweep_record.hpp"

namespace pmom::io::sweep_layout {

inline constexpr const char* kFrequency = "frequency";  // [F] Hz
inline constexpr const char* kS = "s";                  // [F, P, P] complex
inline constexpr const char* kCurrents = "currents";    // [F, P, N] complex: port solutions
// [F] int32: 1 where /currents holds the row's port solutions, 0 where the finished file dropped
// them (KeptSolutions; the row then reads as zeros and takes no space). Files written before it
// existed keep every row.
inline constexpr const char* kCurrentsKept = "currents_kept";
inline constexpr const char* kChecksum = "checksum";    // [F] uint64: record_checksum()
inline constexpr const char* kPortNames = "ports/name";
inline constexpr const char* kImpedances = "ports/reference_impedance_ohm";
inline constexpr const char* kPlanes = "ports/reference_plane_mm";

// An adaptive sweep's fit (SweepFit), written when it finishes.
inline constexpr const char* kFit = "fit";
inline constexpr const char* kFitTolerance = "tolerance";  // attribute of /fit

inline constexpr const char* kVersionAttribute = "program_version";
inline constexpr const char* kUnitsAttribute = "units";
inline constexpr const char* kConfigAttribute = "config";
inline constexpr const char* kBackendAttribute = "backend";
inline constexpr const char* kCompleteAttribute = "complete";  // 1 once the sweep finished

inline constexpr const char* kUnits =
    "frequency: Hz; s: dimensionless; currents: A (per 1 V delta-gap excitation), where "
    "currents_kept is 1; "
    "impedance: ohm; plane: mm; time: s";

// Calls visit(path, &FrequencyRecord::member) for each per-frequency scalar dataset, all of
// shape [F]. The frequency comes last: a record counts as written once its frequency is in the
// file, so the writer, which follows this order, writes it after everything else.
template <class Visit> void for_each_column(Visit&& visit) {
  visit("solver/iterations", &FrequencyRecord::iterations);
  visit("solver/residual", &FrequencyRecord::residual);
  visit("solver/nnz", &FrequencyRecord::nnz);
  visit("solver/density", &FrequencyRecord::density);
  visit("solver/dense_error", &FrequencyRecord::dense_error);
  visit("timing/greens_s", &FrequencyRecord::seconds_greens);
  visit("timing/fill_s", &FrequencyRecord::seconds_fill);
  visit("timing/sparsify_s", &FrequencyRecord::seconds_sparsify);
  visit("timing/solve_s", &FrequencyRecord::seconds_solve);
  visit("timing/deembed_s", &FrequencyRecord::seconds_deembed);
  visit(kFrequency, &FrequencyRecord::frequency_hz);
}

// Calls visit(path) for every dataset with one row per frequency, in the order the writer
// fills them: /checksum, /s, /currents, /currents_kept, then the columns (/frequency last).
template <class Visit> void for_each_row_dataset(Visit&& visit) {
  visit(kChecksum);
  visit(kS);
  visit(kCurrents);
  visit(kCurrentsKept);
  for_each_column([&](const char* path, auto) { visit(path); });
}

// Everything but `complete`, which the callers treat differently; unknowns is the last extent
// of /currents.
SweepInfo read_info(hid_t file);
// Throws SweepFileError unless every dataset with a row per frequency is as the writer makes it:
// rows of shape /s [F, P, P], /currents [F, P, N], the columns [F] (a row of another shape would
// overrun the record's buffers), the writer's element types (others would be converted, not
// kept bit for bit) and one path to each (two would make rows overwrite each other).
void check_row_datasets(hid_t file, const SweepInfo& info);
// Whether the file has /checksum. Files written before there were checksums lack it: they read
// as before (the datasets below skip it), but cannot be resumed.
bool has_checksums(hid_t file);
// Whether the file has /currents_kept; without it every row of /currents is kept.
bool has_currents_kept(hid_t file);
// Whether dataset `path` is one a file of this layout may lack (/checksum, /currents_kept) and
// this file does.
bool lacks_optional(hid_t file, const char* path);
// The shortest and the longest of the datasets with a row per frequency. A stopped run leaves
// them at most one apart (the record it was writing); records are complete up to the shortest.
// Needs check_row_datasets first.
struct RowCounts {
  hsize_t shortest = 0;
  hsize_t longest = 0;
};
RowCounts row_counts(hid_t file);
// The first `rows` records; their currents too when `currents` (N = unknowns; empty where the
// file did not keep them). Needs check_row_datasets first.
std::vector<FrequencyRecord> read_records(hid_t file, hsize_t rows, const SweepInfo& info,
                                          bool currents);
// Record `row` with its currents (empty where the file did not keep them). Needs
// check_row_datasets first.
FrequencyRecord read_record(hid_t file, hsize_t row, const SweepInfo& info);
// FNV-1a (64 bits) of everything a record holds: its columns in for_each_column's order, S and
// the currents where kept, as the little-endian numbers the file stores. Stored in /checksum,
// so that a resumed run can tell a record that reads back as written from a damaged one.
std::uint64_t record_checksum(const FrequencyRecord& record);
// Throws SweepFileError unless the frequencies read from the file are finite, positive and
// distinct, as SweepFile::append writes them: anything else is a damaged file.
void check_frequencies(hid_t file, const std::vector<double>& frequencies);
// The fit's group /fit, and reading it back (nothing when the file has none); write_fit throws
// std::invalid_argument when its arrays do not match in length.
void write_fit(hid_t file, const SweepFit& fit, std::size_t ports);
// Removes /fit where there is one (a finished adaptive sweep continued by a full one).
void remove_fit(hid_t file);
std::optional<SweepFit> read_fit(hid_t file, std::size_t ports);

// Whether row `row` of /currents holds its port solutions.
bool currents_kept(hid_t file, hsize_t row);
// Row `row` of the complex dataset at `path`, `count` values (/s: P x P row-major; /currents:
// N x P column-major).
std::vector<std::complex<double>> read_complex_row(hid_t file, const char* path, hsize_t row,
                                                   std::size_t count);

}  // namespace pmom::io::sweep_layout
