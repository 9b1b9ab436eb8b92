// One frequency of a sweep (DESIGN §2): Green's table, dense Z, sparsified Z, the P port
// solutions by the Krylov solver (warm-started from the previous frequency) and the de-embedded
// S, referred first to the feed lines' own Z0 (from line checks at a few nodes of the band).
#pragma once

#include <complex>
#include <memory>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/io/sweep_record.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "sweep_config.hpp"

namespace pmom::app {

class SweepPipeline {
 public:
  SweepPipeline(const geometry::Mesh& mesh, const SweepSettings& settings,
                Backend<std::complex<double>>& backend);

  // Computes one frequency. `guess` (N×P column-major, or empty) is the initial guess and
  // returns the solutions, for the next frequency. Solver outcomes other than convergence are
  // logged as warnings and the record is still returned (its residual says how far it got).
  io::FrequencyRecord run(double frequency_hz, std::vector<std::complex<double>>& guess);

 private:
  const geometry::Mesh& mesh_;
  SweepSettings settings_;
  Backend<std::complex<double>>& backend_;
  std::vector<std::complex<double>> rhs_;  // N×P delta gaps
  mom::FeedImpedances feeds_;
};

}  // namespace pmom::app
