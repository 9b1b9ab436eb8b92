// The centre-fed straight line: mesh, assembly, dense solve and standing-wave fit.
#include "planarmom/mom/line_characterisation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/line_fit.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"

namespace pmom::mom {

namespace {
double guided_wavelength_mm(const LineSpec& spec, double frequency_hz) {
  const double u = spec.width_mm / spec.height_mm;
  const double eps_eff =
      effective_permittivity_kj(u, spec.eps_r, frequency_hz * 1e-9, spec.height_mm);
  return c0 / (frequency_hz * std::sqrt(eps_eff)) * 1e3;
}
}  // namespace

double half_length_mm(const LineSpec& spec, double frequency_hz, int half_wavelengths) {
  return (0.375 + 0.5 * half_wavelengths) * guided_wavelength_mm(spec, frequency_hz);
}

int suggested_half_wavelengths(const LineSpec& spec, double frequency_hz) {
  const double shortest = 20 * std::max(spec.width_mm, spec.height_mm);
  int k = 0;
  while (half_length_mm(spec, frequency_hz, k) < shortest) ++k;
  return k;
}

double suggested_half_length_mm(const LineSpec& spec, double frequency_hz) {
  return half_length_mm(spec, frequency_hz, suggested_half_wavelengths(spec, frequency_hz));
}

LineResult characterise_line(const LineSpec& spec, double frequency_hz) {
  using clock = std::chrono::steady_clock;
  const double cell_mm = spec.width_mm / spec.cells_across;
  const int half = static_cast<int>(std::lround(spec.half_length_mm / cell_mm));
  if (spec.cells_across < 2 || half < 20)
    throw std::invalid_argument("line characterisation: need at least 2 cells across and 20 "
                                "cells per half line, got " +
                                std::to_string(spec.cells_across) + " and " +
                                std::to_string(half));
  geometry::Layout layout;
  layout.substrate = {spec.eps_r, spec.height_mm, 0.0};
  layout.rects = {{0, 0, 2 * half * cell_mm, spec.width_mm}};
  const geometry::Mesh mesh = geometry::make_mesh(layout, cell_mm);
  const int n = static_cast<int>(mesh.basis().size());
  const double a = cell_mm * 1e-3;

  LineResult r;
  r.frequency_hz = frequency_hz;
  r.unknowns = n;
  const auto t0 = clock::now();
  AssemblyOptions options;
  options.edge_profiles = spec.edge_profiles;
  const GreensTable greens(Slab{spec.eps_r, 0.0, spec.height_mm * 1e-3}, frequency_hz,
                           required_rho_max(mesh.grid()), {});
  const ImpedanceMatrix z = assemble_impedance(mesh, make_interaction_tables(greens, mesh, options));
  const auto t1 = clock::now();

  // The gap: every x-rooftop on the middle grid line, so the source is uniform across.
  std::vector<int> gap;
  for (int j = 0; j < spec.cells_across; ++j) gap.push_back(mesh.x_edge_basis(half, j));
  const std::vector<std::complex<double>> v = delta_gap_excitation(n, gap, 1.0, a);
  using RowMajor = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::VectorXcd current = Eigen::Map<const RowMajor>(z.values.data(), n, n)
                                       .partialPivLu()
                                       .solve(Eigen::Map<const Eigen::VectorXcd>(v.data(), n));
  r.seconds_assembly = std::chrono::duration<double>(t1 - t0).count();
  r.seconds_solve = std::chrono::duration<double>(clock::now() - t1).count();

  // Total current through grid line half + k (k cells right of the gap): a·Σ amplitudes.
  std::vector<std::complex<double>> total(static_cast<std::size_t>(half));
  for (int k = 0; k < half; ++k)
    for (int j = 0; j < spec.cells_across; ++j)
      total[static_cast<std::size_t>(k)] += a * current[mesh.x_edge_basis(half + k, j)];
  // Fit away from the gap's and the open end's near fields (a fifth of the half at each end).
  const int first = half / 5, last = half - half / 5;
  const StandingWave w = fit_standing_wave(
      std::span<const std::complex<double>>(total).subspan(static_cast<std::size_t>(first),
                                                           static_cast<std::size_t>(last - first)),
      a);
  const double k0 = 2 * pi * frequency_hz / c0;
  r.gamma = w.gamma;
  r.eps_eff = std::pow(w.gamma.imag() / k0, 2);
  // Back at the gap (x = -first·a in the fit's coordinate): I = F + B, V = Z0 (F - B). By the
  // symmetry of the centre feed each half carries half the gap voltage, and with E = V δ along
  // +x the right half sits at +V/2 (the potential rises by V across the gap).
  const double xg = -first * a;
  const std::complex<double> f = w.forward * std::exp(-w.gamma * xg);
  const std::complex<double> b = w.backward * std::exp(w.gamma * xg);
  r.z0 = 0.5 / (f - b);
  return r;
}

std::complex<double> matched_gap_load(const LineSpec& spec, double frequency_hz,
                                      std::complex<double> gamma) {
  using cd = std::complex<double>;
  const double cell_mm = spec.width_mm / spec.cells_across;
  const int half = static_cast<int>(std::lround(spec.half_length_mm / cell_mm));
  if (spec.cells_across < 2 || half < 20)
    throw std::invalid_argument("matched gap load: need at least 2 cells across and 20 cells "
                                "per feed, got " + std::to_string(spec.cells_across) + " and " +
                                std::to_string(half));
  geometry::Layout layout;
  layout.substrate = {spec.eps_r, spec.height_mm, 0.0};
  const double length = 2 * half * cell_mm, centre = spec.width_mm / 2;
  layout.rects = {{0, 0, length, spec.width_mm}};
  const double feed = half * cell_mm;
  layout.ports = {{"driven", 0, centre, geometry::Direction::pos_x, feed, 0, 50},
                  {"loaded", length, centre, geometry::Direction::neg_x, feed, 0, 50}};
  const geometry::Mesh mesh = geometry::make_mesh(layout, cell_mm);
  const int n = static_cast<int>(mesh.basis().size());
  const double a = cell_mm * 1e-3;

  const GreensTable greens(Slab{spec.eps_r, 0.0, spec.height_mm * 1e-3}, frequency_hz,
                           required_rho_max(mesh.grid()), {});
  AssemblyOptions options;
  options.edge_profiles = spec.edge_profiles;
  const ImpedanceMatrix z = assemble_impedance(mesh, make_interaction_tables(greens, mesh, options));
  // Column 0: port 1's 1 V gap; column 1: g, the indicator of port 2's gap rooftops, whose
  // solution u = Z⁻¹ g carries the load's rank-one update.
  const geometry::MeshPort& loaded = mesh.ports()[1];
  Eigen::MatrixXcd rhs = Eigen::MatrixXcd::Zero(n, 2);
  const std::vector<cd> drive = delta_gap_excitation(n, mesh.ports()[0].delta_gap().basis, 1.0, a);
  for (int m = 0; m < n; ++m) rhs(m, 0) = drive[static_cast<std::size_t>(m)];
  for (const int m : loaded.delta_gap().basis) rhs(m, 1) = 1.0;
  using RowMajor = Eigen::Matrix<cd, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::MatrixXcd x =
      Eigen::Map<const RowMajor>(z.values.data(), n, n).partialPivLu().solve(rhs);

  // On port 2's feed, k cells from its gap: I_k = L e^{−γ k a} + A e^{γ k a}, L leaving the gap
  // (the reflection), A arriving; least squares over the samples clear of both near fields
  // (three sizes, as the de-embedding skips).
  const int skip = static_cast<int>(
      std::ceil(3.0 * std::max(spec.width_mm, spec.height_mm) / cell_mm));
  const int first = 1 + skip, last = static_cast<int>(loaded.samples.size()) - skip;
  Eigen::MatrixXcd waves(last - first, 2);
  Eigen::MatrixXcd current = Eigen::MatrixXcd::Zero(last - first, 2);
  for (int k = first; k < last; ++k) {
    waves(k - first, 0) = std::exp(-gamma * (k * a));
    waves(k - first, 1) = std::exp(gamma * (k * a));
    for (const int m : loaded.samples[static_cast<std::size_t>(k)].basis)
      current.row(k - first) += x.row(m);
  }
  const Eigen::MatrixXcd amplitudes = waves.colPivHouseholderQr().solve(current);
  const cd leaving0 = amplitudes(0, 0), leaving_u = amplitudes(0, 1);
  cd gap0 = 0.0, gap_u = 0.0;
  for (const int m : loaded.delta_gap().basis) {
    gap0 += x(m, 0);
    gap_u += x(m, 1);
  }
  // With the load, x = x0 − Z_L a² u (gᵀx0) / (1 + Z_L a² gᵀu); its leaving wave
  // L0 − Z_L a² L_u gᵀx0 / (1 + Z_L a² gᵀu) vanishes at Z_L = L0 / (a² (L_u gᵀx0 − L0 gᵀu)).
  const cd denominator = a * a * (leaving_u * gap0 - leaving0 * gap_u);
  const cd load = leaving0 / denominator;
  if (!std::isfinite(load.real()) || !std::isfinite(load.imag()))
    throw std::runtime_error("matched gap load: no finite load terminates the line at " +
                             std::to_string(frequency_hz) + " Hz");
  return load;
}

}  // namespace pmom::mom
