// The CG paper's application: the 2D heat equation u_t = κ∇²u on the unit square with a
// constant Dirichlet boundary value, backward Euler in time, the 5-point Laplacian in space.
// Each step solves (I + κΔt L_h) u^{k+1} = u^k + (boundary terms), an SPD system.
#pragma once

#include <string>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom::bench {

// n x n interior points at x_i = (i+1)h, y_j = (j+1)h, h = 1/(n+1); unknown k = i + n·j.
struct HeatProblem {
  index_t n = 256;
  double kappa = 1.0;     // diffusivity
  double dt = 1e-4;       // time step
  double boundary = 0.0;  // temperature held on all four sides
};

// Throws std::invalid_argument naming the first bad value: n < 1 or too large for 32-bit
// indices, κ or Δt not positive and finite, a non-finite boundary value.
void validate(const HeatProblem& p);

// κΔt/h², the weight of each neighbour in a row of the matrix.
double mesh_ratio(const HeatProblem& p);

// I + κΔt L_h with L_h = (4u_k − Σ neighbours)/h², written straight into CSR (no COO on the
// way: at n = 2048 it has 21 M entries). Rows next to the boundary lose the neighbours that lie
// on it, so corner rows hold 3 entries, other edge rows 4, interior rows 5; every diagonal is
// 1 + 4κΔt/h², the off-diagonals −κΔt/h²: symmetric and strictly diagonally dominant with a
// positive diagonal, hence positive definite (Gershgorin: every eigenvalue is >= 1).
Csr<double> heat_matrix(const HeatProblem& p);

// The right-hand side of one step: u plus κΔt/h² times the boundary value for each neighbour
// of a point that lies on the boundary.
void heat_rhs(const HeatProblem& p, const std::vector<double>& u, std::vector<double>& b);

enum class HeatInitial {
  sine,      // sin(πx) sin(πy): an eigenvector of L_h, so its decay is known exactly
  gaussian,  // exp(−r²/(2σ²)) around the centre, σ = 0.1
  square,    // 1 on the middle square [3/8, 5/8]², 0 elsewhere
};
std::string to_string(HeatInitial initial);
HeatInitial parse_heat_initial(const std::string& name);  // throws std::invalid_argument

std::vector<double> initial_field(const HeatProblem& p, HeatInitial initial);

// The factor by which one step multiplies the sine mode when the boundary value is 0:
// 1 / (1 + κΔt λ_h) with λ_h = 8 sin²(πh/2) / h², its eigenvalue of L_h.
double sine_mode_decay(const HeatProblem& p);

}  // namespace pmom::bench
