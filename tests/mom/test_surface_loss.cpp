// Conductor loss: the surface impedance's limits, the basis's Gram matrix (exact values for
// plain rooftops, symmetric positive definite with edge shapes and bubbles, ∫|J|² of a known
// current), the image term's limits (a wide plate, a narrow strip), the strips' terms added to
// dense and CSR Z alike, and a lossy ground's Green's
// functions (its two Sommerfeld routes agree; it absorbs power and adds inductance).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <utility>

#include "geometry/layouts.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/surface_loss.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

TEST(SurfaceImpedance, ThickIsRsTimesOnePlusJThinIsTheSheetResistance) {
  const double f = 2.4e9, sigma = 5.8e7;
  const double rs = 1 / (sigma * skin_depth_m(sigma, f));
  EXPECT_NEAR(skin_depth_m(sigma, f), 1.34896e-6, 1e-11);  // copper at 2.4 GHz
  // 35 µm is 26 skin depths: coth = 1 to e^{−52}.
  const cd thick = surface_impedance(Conductor{sigma, 35e-6}, f);
  EXPECT_NEAR(thick.real(), rs, 1e-12 * rs);
  EXPECT_NEAR(thick.imag(), rs, 1e-12 * rs);
  // 10 nm is δ/135: Zs = (1/σt)(1 + (γt)²/3 + ...), |γt|² = 2/135² = 1.1e-4.
  const cd thin = surface_impedance(Conductor{sigma, 10e-9}, f);
  EXPECT_NEAR(thin.real(), 1 / (sigma * 10e-9), 1e-4 / (sigma * 10e-9));
  EXPECT_EQ(surface_impedance(Conductor{}, f), cd(0.0));
  EXPECT_THROW((void)surface_impedance(Conductor{-1, 35e-6}, f), std::invalid_argument);
  EXPECT_THROW((void)surface_impedance(Conductor{sigma, 0}, f), std::invalid_argument);
}

// The strip's two impedances: both Zs/2 on thick metal (Rs/2 on each face's current), the
// sheet's DC resistance 1/(σt) and a lossless image term on thin metal (the current fills the
// thickness, an outside field induces none: Re ∝ (γt)⁴), as the slab's solution says.
TEST(SurfaceImpedance, StripHasHalfOfZsOnEachFaceAndTheSheetResistanceWhenThin) {
  const double f = 2.4e9, sigma = 5.8e7;
  const cd zs = surface_impedance(Conductor{sigma, 35e-6}, f);
  const StripImpedance thick = strip_impedance(Conductor{sigma, 35e-6}, f);
  // 35 µm is 26 skin depths, 13 for each half: coth and tanh are 1 to 2e-11.
  EXPECT_NEAR(std::abs(thick.sheet - zs / 2.0), 0.0, 1e-10 * std::abs(zs));
  EXPECT_NEAR(std::abs(thick.image - zs / 2.0), 0.0, 1e-10 * std::abs(zs));
  const StripImpedance thin = strip_impedance(Conductor{sigma, 10e-9}, f);
  EXPECT_NEAR(thin.sheet.real(), 1 / (sigma * 10e-9), 1e-4 / (sigma * 10e-9));
  EXPECT_LT(std::abs(thin.image.real()), 1e-8 / (sigma * 10e-9));
  EXPECT_TRUE(strip_impedance(Conductor{}, f).zero());
  EXPECT_THROW((void)strip_impedance(Conductor{sigma, 35e-6}, 0), std::invalid_argument);
}

Eigen::MatrixXd dense_gram(const geometry::Mesh& mesh, bool edge_profiles) {
  const auto n = static_cast<Eigen::Index>(mesh.basis().size());
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(n, n);
  for (const GramEntry& e : basis_gram(mesh, edge_profiles)) g(e.row, e.col) += e.value;
  return g;
}

// Plain rooftops: ⟨f, f⟩ = (2/3) a², neighbours along the axis (1/6) a², nothing else; and
// the current that is 1 A/m along x everywhere the rooftops reach (every x-rooftop of a strip
// of nx by ny cells at amplitude 1: 1 in the inner cells, a ramp in the two end cells) has
// ∫|J|² = a² ny (nx − 2 + 2/3).
TEST(BasisGram, PlainRooftopsHaveTheTriangleOverlaps) {
  const double a = 0.5e-3;
  const geometry::Mesh mesh = geometry::make_mesh(geometry::test::layout_of({{0, 0, 5, 1.5}}), 0.5,
                                                  false);
  const Eigen::MatrixXd g = dense_gram(mesh, false);
  const auto& basis = mesh.basis();
  Eigen::VectorXd x_current = Eigen::VectorXd::Zero(g.rows());
  for (Eigen::Index m = 0; m < g.rows(); ++m) {
    EXPECT_NEAR(g(m, m), 2.0 / 3.0 * a * a, 1e-15 * a * a);
    if (basis[static_cast<std::size_t>(m)].axis == geometry::Axis::x) x_current(m) = 1;
    for (Eigen::Index n = 0; n < g.cols(); ++n) {
      if (n == m || g(m, n) == 0) continue;
      const auto& p = basis[static_cast<std::size_t>(m)];
      const auto& q = basis[static_cast<std::size_t>(n)];
      EXPECT_EQ(p.axis, q.axis);
      EXPECT_EQ(std::abs(p.minus.i - q.minus.i) + std::abs(p.minus.j - q.minus.j), 1);
      EXPECT_NEAR(g(m, n), a * a / 6.0, 1e-15 * a * a);
    }
  }
  EXPECT_NEAR(x_current.dot(g * x_current), a * a * 3 * (10 - 2 + 2.0 / 3.0), 1e-14);
}

// With edge shapes and cell bubbles (an L: steps and corners) the Gram matrix of linearly
// independent functions is symmetric positive definite.
TEST(BasisGram, EdgeShapedWithBubblesIsSymmetricPositiveDefinite) {
  const geometry::Mesh mesh =
      geometry::make_mesh(geometry::test::layout_of({{0, 0, 4, 1.5}, {0, 0, 1.5, 3}}), 0.5);
  ASSERT_GT(mesh.bubble_count(), 0);
  const Eigen::MatrixXd g = dense_gram(mesh, true);
  EXPECT_LE((g - g.transpose()).cwiseAbs().maxCoeff(), 1e-15 * g.cwiseAbs().maxCoeff());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(g);
  EXPECT_GT(eig.eigenvalues().minCoeff(), 0) << "smallest " << eig.eigenvalues().minCoeff();
}

TEST(BasisGram, SurfaceImpedanceAddsAlikeToDenseAndCsrZ) {
  const geometry::Mesh mesh = geometry::make_mesh(geometry::test::layout_of({{0, 0, 3, 1}}), 0.5);
  const std::vector<GramEntry> gram = basis_gram(mesh, true);
  const auto n = static_cast<int>(mesh.basis().size());
  ImpedanceMatrix dense{n, std::vector<cd>(static_cast<std::size_t>(n) * n, cd(1.0))};
  Csr<cd> csr;  // every entry stored
  csr.rows = csr.cols = n;
  csr.row_ptr.assign(1, 0);
  for (int m = 0; m < n; ++m) {
    for (int c = 0; c < n; ++c) csr.col_idx.push_back(c);
    csr.row_ptr.push_back(static_cast<index_t>(csr.col_idx.size()));
  }
  csr.values.assign(csr.col_idx.size(), cd(1.0));
  const StripImpedance zs{cd(0.01, 0.01), cd(0.02, 0.03)};
  add_surface_impedance(gram, zs, dense);
  add_surface_impedance(gram, zs, csr);
  for (std::size_t k = 0; k < dense.values.size(); ++k) EXPECT_EQ(dense.values[k], csr.values[k]);
  for (const GramEntry& e : gram)
    EXPECT_EQ(dense(e.row, e.col), cd(1.0) + zs.sheet * e.value + zs.image * e.image);
  Csr<cd> diagonal_only;
  diagonal_only.rows = diagonal_only.cols = n;
  diagonal_only.row_ptr.clear();
  for (int m = 0; m <= n; ++m) diagonal_only.row_ptr.push_back(m);
  for (int m = 0; m < n; ++m) diagonal_only.col_idx.push_back(m);
  diagonal_only.values.assign(static_cast<std::size_t>(n), cd(0.0));
  EXPECT_THROW(add_surface_impedance(gram, zs, diagonal_only), std::invalid_argument);
}

// A copper ground on FR-4 at 2.4 GHz. With the quasi-static extraction and without it the
// integrals agree (the remainder's ground terms are those of the exact spectral functions),
// to 1e-8 of |G|, the paths' tolerance of 1e-10 with the margin the other Greens tests keep.
// Against the perfect ground: −Im G_A grows (Re Z = −ω Im⟨f, G_A f⟩ > 0 is the power the ground
// absorbs) and Re G_A grows (the field's inductance inside the skin), by ~Rs/η0 relative.
TEST(LossyGround, BothSommerfeldRoutesAgreeAndTheGroundAbsorbs) {
  const Slab pec{4.4, 0.0, 1.6e-3};
  const Slab copper{4.4, 0.0, 1.6e-3, Conductor{5.8e7, 35e-6}};
  PathOptions raw;
  raw.extraction = Extraction::none;
  for (const double rho : {1e-4, 1e-3, 1e-2, 5e-2}) {
    const GreensValues g = greens_direct(copper, 2.4e9, rho);
    const GreensValues r = greens_direct(copper, 2.4e9, rho, raw);
    EXPECT_LE(std::abs(g.g_a - r.g_a), 1e-8 * std::abs(g.g_a)) << rho;
    EXPECT_LE(std::abs(g.g_v - r.g_v), 1e-8 * std::abs(g.g_v)) << rho;
    if (rho < 2e-3) {
      const GreensValues p = greens_direct(pec, 2.4e9, rho);
      EXPECT_LT(g.g_a.imag(), p.g_a.imag()) << rho;
      EXPECT_GT(g.g_a.real(), p.g_a.real()) << rho;
      EXPECT_GT(g.g_v.imag(), p.g_v.imag()) << rho;
    }
  }
  EXPECT_THROW((void)greens_direct(Slab{4.4, 0.0, 1.6e-3, Conductor{5.8e7, 0}}, 2.4e9, 1e-3),
               std::invalid_argument);
}

// The image term on its two limits. Under a plate wide against the height (60 × 60 cells of
// 0.1 mm on h = 0.1 mm) the ground's image puts H_s = J on the plate, of which k cut at R = 6h
// keeps 2∫_{ρ<R} k = 1 − 2h/√(R² + 4h²) = 0.684: 4⟨k ⊛ J, k ⊛ J⟩ is 0.468 ⟨J, J⟩ where the
// plate reaches R all round, less on its rim (the outer 6 cells, a third of the area), so
// between 0.30 and 0.468 of it; on a strip narrow against the height (2 cells of 0.1 mm on
// h = 2 mm) almost nothing: the current splits evenly between the faces. The entries are
// symmetric and the Gram's are kept as they were.
TEST(StripLoss, ImageTermIsTheGramUnderAWidePlateAndVanishesOnANarrowStrip) {
  const auto uniform_x = [](const geometry::Mesh& mesh, const std::vector<GramEntry>& entries) {
    std::vector<double> x(mesh.basis().size(), 0.0);
    for (std::size_t m = 0; m < x.size(); ++m)
      if (mesh.basis()[m].axis == geometry::Axis::x && !mesh.basis()[m].bubble) x[m] = 1;
    double gram = 0, image = 0;
    for (const GramEntry& e : entries) {
      gram += x[static_cast<std::size_t>(e.row)] * e.value * x[static_cast<std::size_t>(e.col)];
      image += x[static_cast<std::size_t>(e.row)] * e.image * x[static_cast<std::size_t>(e.col)];
    }
    return std::pair{gram, image};
  };
  geometry::Layout plate = geometry::test::layout_of({{0, 0, 6, 6}});
  plate.substrate.height_mm = 0.1;
  const geometry::Mesh wide = geometry::make_mesh(plate, 0.1);
  const std::vector<GramEntry> entries = strip_loss_entries(wide, true);
  const auto [g_wide, i_wide] = uniform_x(wide, entries);
  geometry::Layout strip = geometry::test::layout_of({{0, 0, 6, 0.2}});
  strip.substrate.height_mm = 2.0;
  const geometry::Mesh narrow = geometry::make_mesh(strip, 0.1);
  const auto [g_narrow, i_narrow] = uniform_x(narrow, strip_loss_entries(narrow, true));
  std::printf("[strip loss] image / Gram: wide plate %.4f, narrow strip %.4f\n", i_wide / g_wide,
              i_narrow / g_narrow);
  EXPECT_GT(i_wide / g_wide, 0.30);
  EXPECT_LT(i_wide / g_wide, 0.468);
  EXPECT_LT(i_narrow / g_narrow, 0.05);
  std::map<std::pair<index_t, index_t>, double> image;
  for (const GramEntry& e : entries) image[{e.row, e.col}] = e.image;
  for (const GramEntry& e : entries) EXPECT_EQ(e.image, (image[{e.col, e.row}]));
  const std::vector<GramEntry> gram = basis_gram(wide, true);
  std::size_t k = 0;
  for (const GramEntry& e : entries) {
    if (k < gram.size() && gram[k].row == e.row && gram[k].col == e.col) {
      EXPECT_EQ(e.value, gram[k++].value);
    }
  }
  EXPECT_EQ(k, gram.size());
}

}  // namespace
}  // namespace pmom::mom
