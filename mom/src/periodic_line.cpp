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
// points at k0 and the surface wave's poles, is the gap's near field). Metal of finite
// conductivity: the ground's Zs in the spectral functions, and the strips' loss terms
// (surface_loss.hpp) of the period added as the long line's MoM adds them (PeriodLoss).
#include "planarmom/mom/periodic_line.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/edge_profile.hpp"
#include "planarmom/mom/gauss_legendre.hpp"
#include "image_lattice.hpp"
#include "layered_spectrum.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/surface_loss.hpp"
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

// The strips' loss terms of the period in its even-mode unknowns (Period's order),
//   Σ_i [Z_sheet ⟨f_m, f_n^i⟩ + Z_image 4 ⟨k ⊛ f_m, k ⊛ f_n^i⟩_metal] e^{−jβiΔx},
// what the long line's MoM adds (surface_loss.hpp): the Gram exactly (a triangle's overlaps
// with itself and its neighbours along, the profiles' or ramps' across), the image term on the
// loss entries' own lattice (image_lattice.hpp) at the period's sub-cells, with the Floquet
// images of the sources out to the kernel's reach (Σ over the whole strip's sub-cells of
// (k ⊛ f_m^{(−β)})(k ⊛ f_n^{(β)}) folds onto one period).
class PeriodLoss {
 public:
  PeriodLoss(const LineSpec& spec, double frequency_hz, int rows, double dx, double dy)
      : strip_(strip_impedance(spec.metal, frequency_hz)),
        rows_(rows),
        dx_(dx) {
    if (strip_.zero()) return;  // perfect metal: no terms, no lattice
    lattice_.emplace(dx, dy, spec.height_over_ground_mm() * 1e-3, StripLossOptions{}.image_reach_heights);
    const int mx = (rows + 1) / 2, my = (rows - 1) / 2;
    const auto x_shape = [&](int j) {
      return RooftopShape{geometry::Edge::none, geometry::Edge::none, row_edge(j, rows)};
    };
    const auto y_shape = [&](int j) {
      return RooftopShape{row_edge(j, rows), row_edge(j + 1, rows), geometry::Edge::none};
    };
    // The masses of each even-mode unknown: x-rooftops on the period's boundary (minus cell
    // −1), y-rooftops in the period's cell, the mirror partner added or subtracted.
    const int sx = lattice_->sub_x(), sy = lattice_->sub_y();
    for (int k = 0; k < mx; ++k) {
      std::vector<Mass> m;
      add_rooftop_masses(0, -1, k, x_shape(k), 1.0, sx, sy, m);
      if (rows - 1 - k != k)
        add_rooftop_masses(0, -1, rows - 1 - k, x_shape(rows - 1 - k), 1.0, sx, sy, m);
      masses_.push_back(std::move(m));
    }
    for (int k = 0; k < my; ++k) {
      std::vector<Mass> m;
      add_rooftop_masses(1, 0, k, y_shape(k), 1.0, sx, sy, m);
      add_rooftop_masses(1, 0, rows - 2 - k, y_shape(rows - 2 - k), -1.0, sx, sy, m);
      masses_.push_back(std::move(m));
    }
    // Gram across (m²), the along factor apart: an x pair's rows do not overlap each other;
    // the y-rooftops' ramps overlap their neighbours'.
    const auto n = static_cast<Eigen::Index>(mx + my);
    gram_x_ = Matrix::Zero(n, n);
    gram_y_ = Matrix::Zero(n, n);
    for (int k = 0; k < mx; ++k) {
      const std::span<const ShapePiece> p = profile_pieces(row_edge(k, rows));
      gram_x_(k, k) = (rows - 1 - k == k ? 1 : 2) * dy * shape_overlap(p, p, 0.0);
    }
    const auto ramp_overlap = [&](int j, int l) {
      if (std::abs(j - l) > 1) return 0.0;
      const RooftopShape a = y_shape(j), b = y_shape(l);
      return dy * shape_overlap(ramp_pieces(a.minus, a.plus), ramp_pieces(b.minus, b.plus),
                                   double(l - j));
    };
    for (int k = 0; k < my; ++k)
      for (int l = 0; l < my; ++l)
        gram_y_(mx + k, mx + l) = ramp_overlap(k, l) - ramp_overlap(k, rows - 2 - l) -
                                  ramp_overlap(rows - 2 - k, l) +
                                  ramp_overlap(rows - 2 - k, rows - 2 - l);
  }

  [[nodiscard]] bool none() const { return strip_.zero(); }

  [[nodiscard]] Matrix at(cd beta) const {
    const auto n = static_cast<Eigen::Index>(masses_.size());
    // Along: a triangle against itself and its two neighbours, Δx (2/3 + cos(βΔx)/3); a pulse
    // against itself, Δx.
    const Matrix gram = dx_ * (2.0 / 3.0 + std::cos(beta * dx_) / 3.0) * gram_x_ + dx_ * gram_y_;
    const Matrix forward = fields(beta), backward = fields(-beta);
    Matrix image = lattice_->overlap_weight() * (backward.transpose() * forward);
    const Eigen::Index mx = (rows_ + 1) / 2;
    image.topRightCorner(mx, n - mx).setZero();  // the x and y components apart
    image.bottomLeftCorner(n - mx, mx).setZero();
    return strip_.sheet * gram + strip_.image * image;
  }

 private:
  // k ⊛ (Σ_i f_n^i e^{−jβiΔx}) at the period's sub-cells (rows), per unknown (columns), from
  // the kernel with its Floquet images summed, Σ_i e^{−jβiΔx} k(d − i·sub_x, dj), at the offsets
  // d = gi − s.gi ∈ [1 − sub_x, 2 sub_x − 1] between a sub-cell and a source's mass.
  [[nodiscard]] Matrix fields(cd beta) const {
    const int sx = lattice_->sub_x(), sy = lattice_->sub_y(), reach = lattice_->reach();
    const int points_y = rows_ * sy, d0 = 1 - sx, nd = 3 * sx - 1;
    Matrix phased(nd, 2 * points_y + 1);
    for (int d = d0; d < d0 + nd; ++d) {
      const int first = static_cast<int>(std::ceil(double(d - reach) / sx));
      const int last = static_cast<int>(std::floor(double(d + reach) / sx));
      std::vector<cd> phase;
      for (int i = first; i <= last; ++i) phase.push_back(std::exp(-kJ * beta * (double(i) * dx_)));
      for (int dj = -points_y; dj <= points_y; ++dj) {
        cd sum = 0.0;
        for (int i = first; i <= last; ++i)
          sum += phase[static_cast<std::size_t>(i - first)] * lattice_->at(d - i * sx, dj);
        phased(d - d0, dj + points_y) = sum;
      }
    }
    Matrix a = Matrix::Zero(sx * points_y, static_cast<Eigen::Index>(masses_.size()));
    for (std::size_t n = 0; n < masses_.size(); ++n)
      for (const Mass& s : masses_[n])
        for (int gi = 0; gi < sx; ++gi)
          for (int gj = 0; gj < points_y; ++gj)
            a(gi * points_y + gj, static_cast<Eigen::Index>(n)) +=
                s.mass * phased(gi - s.gi - d0, gj - s.gj + points_y);
    return a;
  }

  StripImpedance strip_;
  std::optional<ImageLattice> lattice_;  // with a lossy metal only
  int rows_;
  double dx_;
  std::vector<std::vector<Mass>> masses_;
  Matrix gram_x_, gram_y_;
};

// The spectral functions one strip of the period sees: its own interface's, or, with a
// broadside partner carrying the same currents times `sign` (+1 even, −1 odd), those plus sign
// times the pair's between the two interfaces (the partner's own being the strip's, the stack
// symmetric about their midplane).
class ModeSpectrum {
 public:
  ModeSpectrum(const LineSpec& spec, double frequency_hz, int sign)
      : ModeSpectrum(spec.stackup(), spec.broadside, frequency_hz, sign) {}
  ModeSpectrum(const Stackup& stack, int partner_layers, double frequency_hz, int sign)
      : self_(stack, frequency_hz), sign_(sign) {
    if (sign != 0)
      between_.emplace(stack, frequency_hz, stack.strips(), stack.strips() + partner_layers);
  }
  [[nodiscard]] double k0() const { return self_.k0(); }
  // The parallel-plate TM0 wave's kρ where it is a pole of this mode's G̃ (a cover ground; the
  // even broadside mode's sum cancels it, the wave's transverse voltage being odd about the
  // midplane), else 0.
  [[nodiscard]] double plate_pole() const { return sign_ == 1 ? 0.0 : self_.parallel_plate_tm0(); }
  [[nodiscard]] Pair exact(cd kr) const {
    Pair g = self_.exact(kr);
    if (between_) {
      const Pair m = between_->exact(kr);
      g[0] += double(sign_) * m[0];
      g[1] += double(sign_) * m[1];
    }
    return g;
  }

 private:
  LayeredSpectrum self_;
  std::optional<LayeredSpectrum> between_;
  int sign_;
};

// The period's rooftops' transforms across (per ky node) and the Floquet matrix, in the even
// mode's unknowns: the quasi-TEM mode's x-current is even about the strip's centre line and
// its y-current odd, so the rooftops enter as mirror pairs (x: row j and row M−1−j summed;
// y: j and M−2−j differenced; a middle x-row alone, a middle y-rooftop not at all), which
// halves the unknowns and quarters the products.
class Period {
 public:
  Period(const LineSpec& spec, double frequency_hz, const PeriodicLineOptions& options,
         int sign = 0)
      : rows_(spec.cells_across),
        dx_(spec.along_cell_mm() * 1e-3),
        dy_(spec.across_cell_mm() * 1e-3),
        omega_(2.0 * pi * frequency_hz),
        harmonics_(options.harmonics),
        spectrum_(spec, frequency_hz, sign),
        loss_(spec, frequency_hz, rows_, dx_, dy_) {
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
  [[nodiscard]] double k0() const { return spectrum_.k0(); }
  [[nodiscard]] double plate_pole() const { return spectrum_.plate_pole(); }

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
    z /= 2.0 * pi * dx_;
    if (!loss_.none()) z += loss_.at(beta);
    return z;
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
  ModeSpectrum spectrum_;
  PeriodLoss loss_;
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

// The mode's root from β = k0 √guess by secant iterations on the gap's impedance, and its
// residue: γ and Z0 (per strip).
LineResult mode_of(const Period& period, double eps_guess, double frequency_hz) {
  cd b0 = period.k0() * std::sqrt(eps_guess), b1 = b0 * 1.001;
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
    throw std::runtime_error("periodic_line: no root of the Floquet matrix near εeff " +
                             std::to_string(eps_guess) + " at " +
                             std::to_string(frequency_hz * 1e-9) + " GHz");
  // ±β₀ are both roots (the line is its own mirror image): the forward wave's has Re β₀ > 0.
  const cd beta = b1.real() < 0 ? -b1 : b1;
  // A mode slower than the plates' TM0 wave meets its pole on the real ky axis: it leaks.
  const double plates = period.plate_pole();
  if (beta.real() < plates * (1.0 - 1e-5))
    throw std::runtime_error(
        "periodic_line: the line's mode (eps_eff " +
        std::to_string(std::pow(beta.real() / period.k0(), 2)) +
        ") is slower than the parallel-plate wave between the grounds (eps_eff " +
        std::to_string(std::pow(plates / period.k0(), 2)) + ") at " +
        std::to_string(frequency_hz * 1e-9) + " GHz: it leaks into the plates, which one "
        "period's real-axis integral does not model");
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

// Kirschning-Jansen's εeff of the bare microstrip: where the root search starts.
double start_guess(const LineSpec& spec, double frequency_hz) {
  const double u = spec.width_mm / spec.height_over_ground_mm();
  return effective_permittivity_kj(u, spec.eps_r, frequency_hz * 1e-9, spec.height_over_ground_mm());
}

void check_cells(const LineSpec& spec) {
  if (spec.cells_across < 2)
    throw std::invalid_argument("periodic_line: the strip needs at least 2 cells across, got " +
                                std::to_string(spec.cells_across));
}

}  // namespace

LineResult periodic_line(const LineSpec& spec, double frequency_hz,
                         const PeriodicLineOptions& options) {
  check_cells(spec);
  if (spec.broadside != 0)
    throw std::invalid_argument("periodic_line: a broadside-coupled pair has two modes "
                                "(periodic_broadside_pair)");
  check_losses(spec, "periodic_line");
  return mode_of(Period(spec, frequency_hz, options), start_guess(spec, frequency_hz),
                 frequency_hz);
}

LineResult periodic_broadside_mode(const LineSpec& spec, double frequency_hz, BroadsideMode mode,
                                   const PeriodicLineOptions& options) {
  check_cells(spec);
  check_broadside(spec, "broadside pair");
  check_losses(spec, "broadside pair");
  // Each mode's field lies mostly in the layers between the strips (odd) or outside them
  // (even): both searches start from their mean εr, the field's weights unknown.
  double eps = 0.0, height = 0.0;
  const Stackup stack = spec.stackup();
  for (const auto* layers : {&stack.below, &stack.above})
    for (const Layer& l : *layers) {
      eps += l.eps_r * l.height_m;
      height += l.height_m;
    }
  eps /= height;
  const int sign = mode == BroadsideMode::even ? 1 : -1;
  return mode_of(Period(spec, frequency_hz, options, sign), eps, frequency_hz);
}

CoupledLineResult periodic_broadside_pair(const LineSpec& spec, double frequency_hz,
                                          const PeriodicLineOptions& options) {
  return {periodic_broadside_mode(spec, frequency_hz, BroadsideMode::even, options),
          periodic_broadside_mode(spec, frequency_hz, BroadsideMode::odd, options)};
}

}  // namespace pmom::mom
