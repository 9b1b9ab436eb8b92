// periodic_line.hpp: one cell of an infinite line, its Floquet matrix by the spectral-domain
// Green's functions, the mode's root and its residue.
//
// Unknowns of the period (cells Δx along, Δy across, M rows): an x-rooftop per row, centred on
// the period's boundary (a triangle along x, the row's edge profile across), and a y-rooftop
// between each pair of rows in the period's cell (uniform along x, the rows' ramp across).
// With the currents of period i those of period 0 times e^{−jβiΔx},
//   Ẑ(β)_mn = 1/(2π Δx) Σ_p ∫ dky [jω G̃_A F_m(k)·F_n(−k) + G̃_V/(jω) (k·F_m(k)) (k·F_n(−k))],
// kx = β + 2πp/Δx (Poisson's sum over the periods), F the rooftops' Fourier transforms: each a
// product of a transform along x and one across (both closed forms of piecewise-linear
// shapes). A delta gap of 1 V on period 0's boundary drives the currents â(β) = Ẑ(β)⁻¹ e; the
// line's wave to the right is the residue at the root β₀ of det Ẑ, −jΔx u (wᵀe)/(wᵀẐ'(β₀)u)
// with u and w Ẑ(β₀)'s right and left null vectors (the rest of the spectrum, the branch
// points at k0 and the surface wave's poles, is the gap's near field).
#include "planarmom/mom/periodic_line.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/edge_profile.hpp"
#include "planarmom/mom/gauss_legendre.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"
#include "spectral.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;
using Matrix = Eigen::MatrixXcd;
using Vector = Eigen::VectorXcd;
constexpr cd kJ{0.0, 1.0};

// ∫ d(t) e^{−jκt} dt over a linear piece: the primitive (j d/κ + s/κ²) e^{−jκt}, or
// Gauss-Legendre where κ is small across the piece (the primitive cancels there).
cd piece_transform(const ShapePiece& p, cd kappa) {
  const double length = p.t1 - p.t0;
  const double slope = (p.d1 - p.d0) / length;
  if (std::abs(kappa) * length < 0.5) {
    static const GaussRule rule = gauss_legendre(8);
    cd sum = 0.0;
    for (std::size_t q = 0; q < rule.x.size(); ++q) {
      const double t = p.t0 + length * rule.x[q];
      sum += rule.w[q] * p.at(t) * std::exp(-kJ * kappa * t);
    }
    return length * sum;
  }
  const auto primitive = [&](double t, double d) {
    return (kJ * d / kappa + slope / (kappa * kappa)) * std::exp(-kJ * kappa * t);
  };
  return primitive(p.t1, p.d1) - primitive(p.t0, p.d0);
}

// ∫ g(y) e^{−jky} dy of g(y) = shape((y − origin)/scale).
cd transform(std::span<const ShapePiece> shape, double origin, double scale, double k) {
  cd sum = 0.0;
  for (const ShapePiece& p : shape) sum += piece_transform(p, k * scale);
  return scale * std::exp(-kJ * k * origin) * sum;
}

cd sinc(cd z) { return std::abs(z) < 1e-4 ? 1.0 - z * z / 6.0 : std::sin(z) / z; }

geometry::Edge row_edge(int row, int rows) {
  if (row == 0) return geometry::Edge::low;
  if (row == rows - 1) return geometry::Edge::high;
  return geometry::Edge::none;
}

// The period's rooftops' transforms across (per ky node) and the Floquet matrix, in the even
// mode's unknowns: the quasi-TEM mode's x-current is even about the strip's centre line and
// its y-current odd, so the rooftops enter as mirror pairs (x: row j and row M−1−j summed;
// y: j and M−2−j differenced; a middle x-row alone, a middle y-rooftop not at all), which
// halves the unknowns and quarters the products.
class Period {
 public:
  Period(const LineSpec& spec, double frequency_hz, const PeriodicLineOptions& options)
      : rows_(spec.cells_across),
        dx_(spec.along_cell_mm() * 1e-3),
        dy_(spec.across_cell_mm() * 1e-3),
        omega_(2.0 * pi * frequency_hz),
        harmonics_(options.harmonics),
        spectrum_(slab_spectrum(Slab{spec.eps_r, spec.loss_tangent, spec.height_mm * 1e-3, {}},
                                frequency_hz)) {
    // Panels of half a period of the widest oscillation e^{−jky W} across the strip, 8 nodes
    // each, out to ±ky_max.
    const double width = rows_ * dy_;
    const double panel = pi / width;
    const auto panels = static_cast<int>(std::ceil(options.ky_max_per_cell / dy_ / panel));
    const GaussRule rule = gauss_legendre(8);
    for (int k = -panels; k < panels; ++k)
      for (std::size_t q = 0; q < rule.x.size(); ++q) {
        ky_.push_back((k + rule.x[q]) * panel);
        weight_.push_back(rule.w[q] * panel);
      }
    const auto nodes = static_cast<Eigen::Index>(ky_.size());
    const int mx = (rows_ + 1) / 2, my = (rows_ - 1) / 2;
    across_x_.resize(mx, nodes);
    across_y_.resize(my, nodes);
    for (int k = 0; k < mx; ++k) pairs_x_.push_back(rows_ - 1 - k == k ? 1 : 2);
    std::vector<std::vector<ShapePiece>> ramps;
    for (int j = 0; j + 1 < rows_; ++j)
      ramps.push_back(ramp_pieces(row_edge(j, rows_), row_edge(j + 1, rows_)));
    const auto x_row = [&](int j, double ky) {
      return transform(profile_pieces(row_edge(j, rows_)), j * dy_, dy_, ky);
    };
    const auto y_row = [&](int j, double ky) {
      return transform(ramps[static_cast<std::size_t>(j)], (j + 1) * dy_, dy_, ky);
    };
#pragma omp parallel for schedule(static)
    for (Eigen::Index i = 0; i < nodes; ++i) {
      const double ky = ky_[static_cast<std::size_t>(i)];
      for (int k = 0; k < mx; ++k)
        across_x_(k, i) = x_row(k, ky) + (pairs_x_[static_cast<std::size_t>(k)] == 2
                                              ? x_row(rows_ - 1 - k, ky)
                                              : cd(0.0));
      for (int k = 0; k < my; ++k) across_y_(k, i) = y_row(k, ky) - y_row(rows_ - 2 - k, ky);
    }
    ky_across_y_ = across_y_ * Eigen::Map<const Eigen::VectorXd>(ky_.data(), nodes).asDiagonal();
  }

  [[nodiscard]] int unknowns() const {
    return static_cast<int>(across_x_.rows() + across_y_.rows());
  }
  [[nodiscard]] double dx() const { return dx_; }
  [[nodiscard]] double k0() const { return spectrum_.k0; }

  // Ẑ(β) (the x-rooftops' pairs first, from the edge inwards; then the y-rooftops').
  [[nodiscard]] Matrix floquet(cd beta) const {
    const Eigen::Index n = unknowns(), nodes = static_cast<Eigen::Index>(ky_.size());
    const Eigen::Index mx = across_x_.rows(), my = across_y_.rows();
    Matrix z = Matrix::Zero(n, n);
    Eigen::VectorXcd ga(nodes), gv(nodes);
    Matrix charge(n, nodes), charge_back(n, nodes);
    for (int p = -harmonics_; p <= harmonics_; ++p) {
      const cd kx = beta + 2.0 * pi * p / dx_;
      const cd half = kx * dx_ / 2.0;
      const cd tri = dx_ * sinc(half) * sinc(half);                 // triangle, even in kx
      const cd pulse = dx_ * std::exp(-kJ * half) * sinc(half);     // [0, Δx] at kx
      const cd pulse_back = dx_ * std::exp(kJ * half) * sinc(half);  // at −kx
#pragma omp parallel for schedule(static)
      for (Eigen::Index i = 0; i < nodes; ++i) {
        const double ky = ky_[static_cast<std::size_t>(i)];
        const Pair g = spectrum_.exact(std::sqrt(kx * kx + ky * ky));
        ga(i) = weight_[static_cast<std::size_t>(i)] * g[0];
        gv(i) = weight_[static_cast<std::size_t>(i)] * g[1];
      }
      // k·F at k (charge) and at −k (charge_back; the transforms across at −ky are the
      // conjugates, the shapes being real).
      charge.topRows(mx) = kx * tri * across_x_;
      charge.bottomRows(my) = pulse * ky_across_y_;
      charge_back.topRows(mx) = kx * tri * across_x_.conjugate();
      charge_back.bottomRows(my) = pulse_back * ky_across_y_.conjugate();
      const cd jw(0.0, omega_);
      z.topLeftCorner(mx, mx).noalias() +=
          (jw * tri * tri) * (across_x_ * ga.asDiagonal() * across_x_.adjoint());
      z.bottomRightCorner(my, my).noalias() +=
          (jw * pulse * pulse_back) * (across_y_ * ga.asDiagonal() * across_y_.adjoint());
      z.noalias() += (1.0 / jw) * (charge * gv.asDiagonal() * charge_back.transpose());
    }
    return z / (2.0 * pi * dx_);
  }

  // The delta gap of 1 V across period 0's boundary, ⟨f_m, δ(x) x̂⟩ for each x-rooftop (Δy),
  // summed over each pair.
  [[nodiscard]] Vector gap() const {
    Vector e = Vector::Zero(unknowns());
    for (std::size_t k = 0; k < pairs_x_.size(); ++k)
      e(static_cast<Eigen::Index>(k)) = dy_ * pairs_x_[k];
    return e;
  }

 private:
  int rows_;
  double dx_, dy_, omega_;
  int harmonics_;
  SlabSpectrum spectrum_;
  std::vector<double> ky_, weight_;
  std::vector<int> pairs_x_;                  // rows in each x-rooftop pair: 2, or 1 (middle)
  Matrix across_x_, across_y_, ky_across_y_;  // even pairs × nodes
};

// 1 / (eᵀ Ẑ(β)⁻¹ e): zero at the mode's root, where the gap's admittance has its pole.
cd gap_impedance(const Period& period, cd beta) {
  const Vector e = period.gap();
  const Vector a = period.floquet(beta).partialPivLu().solve(e);
  return 1.0 / (e.transpose() * a)(0);
}

}  // namespace

LineResult periodic_line(const LineSpec& spec, double frequency_hz,
                         const PeriodicLineOptions& options) {
  if (spec.cells_across < 2)
    throw std::invalid_argument("periodic_line: the strip needs at least 2 cells across, got " +
                                std::to_string(spec.cells_across));
  if (!spec.metal.perfect())
    throw std::invalid_argument("periodic_line: the strip's metal must be perfect");
  const Period period(spec, frequency_hz, options);
  // Secant iterations on the gap's impedance from Kirschning-Jansen's β.
  const double u = spec.width_mm / spec.height_mm;
  const double kj = effective_permittivity_kj(u, spec.eps_r, frequency_hz * 1e-9, spec.height_mm);
  cd b0 = period.k0() * std::sqrt(kj), b1 = b0 * 1.001;
  cd f0 = gap_impedance(period, b0), f1 = gap_impedance(period, b1);
  bool converged = false;
  for (int it = 0; it < 40 && !converged; ++it) {
    const cd b2 = b1 - f1 * (b1 - b0) / (f1 - f0);
    converged = std::abs(b2 - b1) < 1e-12 * std::abs(b1);
    b0 = b1;
    f0 = f1;
    b1 = b2;
    if (!converged) f1 = gap_impedance(period, b1);
  }
  if (!converged || !std::isfinite(b1.real()))
    throw std::runtime_error("periodic_line: no root of the Floquet matrix near Kirschning-"
                             "Jansen's β at " + std::to_string(frequency_hz * 1e-9) + " GHz");
  // ±β₀ are both roots (the line is its own mirror image): the forward wave's has Re β₀ > 0.
  const cd beta = b1.real() < 0 ? -b1 : b1;
  // The residue: null vectors of Ẑ(β₀), Ẑ' by central differences.
  const Matrix z = period.floquet(beta);
  const Eigen::JacobiSVD<Matrix> svd(z, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::Index last = z.cols() - 1;
  const Vector right = svd.matrixV().col(last);
  const Vector left = svd.matrixU().col(last).conjugate();  // wᵀ Ẑ = 0
  const cd step = 1e-5 * beta;
  const Matrix derivative =
      (period.floquet(beta + step) - period.floquet(beta - step)) / (2.0 * step);
  const Vector e = period.gap();
  const cd scale = -kJ * period.dx() * (left.transpose() * e)(0) /
                   (left.transpose() * derivative * right)(0);
  // The current through period 0's boundary: Δy Σ over the rows, which is eᵀ u.
  const cd current = scale * (e.transpose() * right)(0);
  LineResult r;
  r.frequency_hz = frequency_hz;
  r.gamma = kJ * beta;
  r.eps_eff = std::pow(r.gamma.imag() / period.k0(), 2);
  r.z0 = 0.5 / current;
  r.unknowns = period.unknowns();
  return r;
}

}  // namespace pmom::mom
