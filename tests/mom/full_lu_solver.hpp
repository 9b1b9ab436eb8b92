// A line check's solver without the mirror split: one LU of the whole Z, against which the
// tests hold the split (line_mirror.hpp) of single lines and coupled pairs.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <vector>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/line_characterisation.hpp"

namespace pmom::mom::test {

inline LineSolution solve_by_full_lu(const LineSystem& s) {
  const ImpedanceMatrix z = assemble_impedance(s.mesh, evaluate_tables(s.plan, s.greens));
  using RowMajor =
      Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto n = static_cast<Eigen::Index>(z.n);
  const Eigen::MatrixXcd x =
      Eigen::Map<const RowMajor>(z.values.data(), n, n)
          .partialPivLu()
          .solve(Eigen::Map<const Eigen::MatrixXcd>(s.rhs.data(), n, s.columns));
  return LineSolution{std::vector<std::complex<double>>(x.data(), x.data() + x.size()), 0, 0};
}

}  // namespace pmom::mom::test
