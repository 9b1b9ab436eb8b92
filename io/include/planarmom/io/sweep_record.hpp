// The results of a frequency sweep as plain data: one record per frequency plus the sweep-wide
// description (ports, configuration, program), shared by the HDF5 and Touchstone writers.
#pragma once

#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace pmom::io {

// One frequency's solution and what it cost.
struct FrequencyRecord {
  double frequency_hz = 0.0;
  std::vector<std::complex<double>> s;  // P x P, row-major: s[i * P + j] = S_(i+1)(j+1)
  int iterations = 0;                   // the most any port's excitation needed
  double residual = 0.0;                // the largest final relative residual over the ports
  double seconds_greens = 0.0;
  double seconds_fill = 0.0;
  double seconds_sparsify = 0.0;
  double seconds_solve = 0.0;
  double seconds_deembed = 0.0;
  long long nnz = 0;         // nonzeros of the sparsified matrix the solver saw
  double density = 0.0;      // nnz / N^2
  double dense_error = 0.0;  // largest relative solution error of a port against the dense
                             // solve (sparsify::dense_solution_error); NaN when not checked
  // The P port solutions (basis-function currents), N x P column-major: port k's excitation
  // gives currents[k * N + n]. The next frequency's initial guess, kept so that a resumed
  // sweep starts each solve from what an uninterrupted one would (bit for bit the same S).
  std::vector<std::complex<double>> currents;
};

// Calls visit(&FrequencyRecord::member) for every member, in declaration order: what copies a
// record member by member (the MPI sweep's messages) walks, so that a member added above
// travels with the others. (The HDF5 layout names its datasets itself: io/src/sweep_layout.hpp.)
template <class Visit> void for_each_member(Visit&& visit) {
  visit(&FrequencyRecord::frequency_hz);
  visit(&FrequencyRecord::s);
  visit(&FrequencyRecord::iterations);
  visit(&FrequencyRecord::residual);
  visit(&FrequencyRecord::seconds_greens);
  visit(&FrequencyRecord::seconds_fill);
  visit(&FrequencyRecord::seconds_sparsify);
  visit(&FrequencyRecord::seconds_solve);
  visit(&FrequencyRecord::seconds_deembed);
  visit(&FrequencyRecord::nnz);
  visit(&FrequencyRecord::density);
  visit(&FrequencyRecord::dense_error);
  visit(&FrequencyRecord::currents);
}

// What holds for the whole sweep. The three port vectors have one entry per port, in port order.
struct SweepInfo {
  std::vector<std::string> port_names;
  std::vector<double> reference_impedance_ohm;
  std::vector<double> reference_plane_mm;
  std::string config_text;      // the configuration file as given, so the run can be repeated
  std::string program_version;
  std::string backend;          // the solver backend that produced the records (cpu, cuda)
  std::size_t unknowns = 0;     // N, the basis functions: each record holds N x P currents

  [[nodiscard]] std::size_t ports() const { return port_names.size(); }
};

// An adaptive sweep's outcome (sweep/adaptive_sampler.hpp): S at every frequency of the sweep,
// the solved S where solved and the rational model's elsewhere, with the model itself.
struct SweepFit {
  std::vector<double> frequency_hz;     // [K] every frequency of the sweep
  std::vector<std::complex<double>> s;  // [K, P, P]
  std::vector<int> solved;              // [K] 1 where solved (a record holds it), 0 where fitted
  std::vector<double> estimate;         // [K] the competing models' largest |ΔS| (0 if solved)
  double tolerance = 0;                 // the |ΔS| the sweep refined to
  // The model, r(f) = Σ w_l S_l/(f − f_l) / Σ w_l/(f − f_l), and the same as poles and
  // residues: r(f) = constant + Σ_q residues_q/(f − poles_q).
  std::vector<double> support_hz;                // [m]
  std::vector<std::complex<double>> weights;     // [m]
  std::vector<std::complex<double>> support_s;   // [m, P, P]
  std::vector<std::complex<double>> poles_hz;    // [q]
  std::vector<std::complex<double>> residues;    // [q, P, P] in Hz
  std::vector<std::complex<double>> constant;    // [P, P]
};

// A sweep as read back from a file: complete == false for a run that did not finish.
struct SweepData {
  SweepInfo info;
  std::vector<FrequencyRecord> records;  // in the order they were written: the solved ones
  bool complete = false;
  std::optional<SweepFit> fit;  // an adaptive sweep's, once finished
};

// Every point of a sweep in increasing frequency: its records, or for an adaptive sweep every
// frequency of its fit, the solved ones their records and the fitted ones their S alone (no
// currents, iterations 0, residual, density and dense_error NaN, times 0). `solved`, where
// given, says which are records.
std::vector<FrequencyRecord> every_point(const SweepData& sweep, std::vector<bool>* solved = nullptr);

}  // namespace pmom::io
