// One frequency of a sweep (DESIGN §2): Green's table, dense Z, sparsified Z, the P port
// solutions by the Krylov solver (warm-started from the previous frequency), the feed lines'
// own Z0 and the de-embedded S.
#pragma once

#include <complex>
#include <map>
#include <memory>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/io/sweep_record.hpp"
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
};

}  // namespace pmom::app
