// Edge-weighted shapes of rooftops beside metal edges, and the 1-D weights (two shapes'
// overlap) that the offset tables integrate the Green's functions against.
//
// Why: across a strip the current and charge densities grow like d^(-1/2) towards its edges.
// Rooftops that are uniform across underestimate the line capacitance and overestimate its
// inductance by a few percent at six cells across (Z0 about 2% high), converging only like the
// cell size (docs/VALIDATION.md). Each metal cell therefore holds one charge shape
// p_x(x)·p_y(y), where p_x is the edge profile 1/(2√t) (t: distance from the edge in cells)
// when the metal ends on one side of the cell in x, uniform otherwise, and p_y likewise; the
// profile is made piecewise constant on six segments graded by halves towards the edge (their
// means), so every integral stays one over rectangles of polynomial density and the 1/R part
// keeps its closed form. Every rooftop deposits exactly that shape in its cells: across its
// axis it carries the cells' common profile, and along it its ramp is the running integral of
// the cell's profile (so the current across an edge rises like √d, as it should) instead of
// the straight line. One shape per cell matters: two shapes in one cell would let their
// difference carry charge almost for free, which shows up as a spurious slow mode along edges.
// The profiles have mean 1: the current through a rooftop's edge and the delta-gap excitation
// are those of the plain rooftop.
#pragma once

#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"

namespace pmom::mom {

// A density linear from d0 at t0 to d1 at t1 (cell units).
struct ShapePiece {
  double t0 = 0, t1 = 1, d0 = 1, d1 = 1;
  [[nodiscard]] double at(double t) const { return d0 + (d1 - d0) * (t - t0) / (t1 - t0); }
};

// The profile across a cell on [0, 1]: uniform (none), singular at t = 0 (low) or t = 1 (high).
std::span<const ShapePiece> profile_pieces(geometry::Edge edge);

// A rooftop's ramp along its axis on [−1, 1] (shared edge at 0): the running integral of the
// minus cell's profile on [−1, 0], one minus that of the plus cell's on [0, 1]. The triangle
// for uniform cells.
std::vector<ShapePiece> ramp_pieces(geometry::Edge minus, geometry::Edge plus);

// ∫ a(t) b(t − shift) dt of two piecewise-linear shapes: Simpson's rule on every common piece,
// exact for the product of two linear pieces.
double shape_overlap(std::span<const ShapePiece> a, std::span<const ShapePiece> b, double shift);

// Nodes and weights of ∫ c(t) g(t) dt for a fixed weight c, over its support.
struct WeightRule {
  std::vector<double> t, w;
};

// c(τ) = ∫ obs(u) src(u + τ) du for τ ∈ [first, last] (source minus observer, cells), with
// `order` nodes on each unit piece: the Gauss rule of c on that piece (Stieltjes procedure on
// an exact discretisation of c), exact for polynomials g of degree ≤ 2·order − 1 there. For two
// uniform profiles (the tent) and two triangles (the cubic B-spline) it is Gauss-Legendre times
// the weight, which is as exact.
WeightRule overlap_rule(std::span<const ShapePiece> obs, std::span<const ShapePiece> src,
                        int first, int last, int order);

// A Gauss rule of `points` nodes for the discrete measure Σ w_k δ(t − t_k) (w_k > 0), by the
// discretised Stieltjes procedure and the eigenvalues of the Jacobi matrix.
WeightRule gauss_rule_of_measure(std::span<const double> t, std::span<const double> w,
                                 int points);

}  // namespace pmom::mom
