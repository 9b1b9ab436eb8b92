// Matrix pencil fit of complex exponentials and the standing wave on a line.
#include "planarmom/mom/line_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pmom::mom {

Exponentials matrix_pencil(std::span<const cplx> samples, int modes, int pencil) {
  const auto n = static_cast<int>(samples.size());
  if (modes < 1 || n < 2 * modes + 1)
    throw std::invalid_argument("matrix pencil: " + std::to_string(n) + " samples cannot give " +
                                std::to_string(modes) + " exponentials (need at least " +
                                std::to_string(2 * modes + 1) + ")");
  const int l = pencil > 0 ? std::clamp(pencil, modes, n - modes) : std::max(modes, n / 3);
  using Mat = Eigen::MatrixXcd;
  Mat y(n - l, l + 1);  // Hankel: y(i, j) = samples[i + j]
  for (int i = 0; i < n - l; ++i)
    for (int j = 0; j <= l; ++j) y(i, j) = samples[static_cast<std::size_t>(i + j)];
  // Total-least-squares pencil: keep the `modes` dominant right singular vectors, so noise in
  // the discarded directions does not move the poles.
  const Eigen::JacobiSVD<Mat> svd(y, Eigen::ComputeThinV);
  const Mat v = svd.matrixV().leftCols(modes);
  // Y1 = UΣV1ᴴ and Y2 = UΣV2ᴴ (columns 0..L-1 and 1..L), so the poles, where Y2 - zY1 loses
  // rank, are the eigenvalues of the M x M matrix V2ᴴ (V1ᴴ)⁺.
  const Mat v1 = v.topRows(l).adjoint(), v2 = v.bottomRows(l).adjoint();
  const Mat pencil_matrix = v2 * v1.completeOrthogonalDecomposition().pseudoInverse();
  const Eigen::ComplexEigenSolver<Mat> eig(pencil_matrix);
  Exponentials e;
  e.poles.assign(eig.eigenvalues().data(), eig.eigenvalues().data() + modes);
  // Amplitudes by least squares on the Vandermonde system.
  Mat vdm(n, modes);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < modes; ++i) vdm(k, i) = std::pow(e.poles[static_cast<std::size_t>(i)], k);
  const Eigen::VectorXcd rhs = Eigen::Map<const Eigen::VectorXcd>(samples.data(), n);
  const Eigen::VectorXcd a = vdm.colPivHouseholderQr().solve(rhs);
  e.amplitudes.assign(a.data(), a.data() + modes);
  return e;
}

StandingWave fit_standing_wave(std::span<const cplx> samples, double spacing_m) {
  if (!(spacing_m > 0)) throw std::invalid_argument("standing wave fit: spacing must be > 0");
  const Exponentials e = matrix_pencil(samples, 2);
  // The forward wave's pole e^{-γΔ} has the negative phase (β > 0); order the pair by it.
  const bool first_forward = std::arg(e.poles[0]) < std::arg(e.poles[1]);
  const std::size_t f = first_forward ? 0 : 1, b = 1 - f;
  const cplx gamma_f = -std::log(e.poles[f]) / spacing_m;
  const cplx gamma_b = std::log(e.poles[b]) / spacing_m;
  StandingWave w;
  w.gamma = 0.5 * (gamma_f + gamma_b);
  w.forward = e.amplitudes[f];
  w.backward = e.amplitudes[b];
  return w;
}

}  // namespace pmom::mom
