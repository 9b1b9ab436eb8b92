// The inverse of a matrix that commutes with a mirror, made on the mirror's two parities
// (preconditioners/folded_inverse.hpp): the parts keep every unknown once, and M⁻¹ is A⁻¹ to
// the single-precision factors' accuracy, on the host and on a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <span>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/preconditioners/folded_inverse.hpp"
#include "support/gpu.hpp"
#include "support/random_matrix.hpp"

namespace pmom {
namespace {

using cd = std::complex<double>;

// Two commuting mirrors of n = 4m + 1 unknowns laid out as a 2 x 2m grid plus one: S reverses
// the order of the first 4m (pairs (c, 4m − 1 − c)), T swaps the grid's two rows; the last
// unknown is its own image under both, with sign −1 under S (so it is in S's odd part). The
// signs vary but are the same on each orbit of the pair, as a mesh's mirrors' are (an
// x-rooftop's −1 under x ↦ W − x whichever it maps to), so that S and T commute.
void mirrors(index_t n, Involution& s, Involution& t) {
  const index_t grid = n - 1, half = grid / 2;
  for (index_t c = 0; c < n; ++c) {
    const bool last = c == grid;
    const index_t orbit = std::min(c % half, half - 1 - c % half);
    s.image.push_back(static_cast<int>(last ? c : grid - 1 - c));
    s.sign.push_back(last ? -1 : (orbit % 2 == 0 ? 1 : -1));
    t.image.push_back(static_cast<int>(last ? c : (c < half ? c + half : c - half)));
    t.sign.push_back(last || orbit % 3 != 0 ? 1 : -1);
  }
}

// The matrix Σ_g g B g over the group {1, S, T, ST} (or {1, S}), which commutes with both.
test::Dense<cd> symmetric_matrix(index_t n, const std::vector<Involution>& group) {
  const auto matrix_of = [n](const Involution& g) {
    test::Dense<cd> m = test::Dense<cd>::Zero(n, n);
    for (index_t c = 0; c < n; ++c)
      m(g.image[static_cast<std::size_t>(c)], c) = g.sign[static_cast<std::size_t>(c)];
    return m;
  };
  const test::Dense<cd> b = test::well_conditioned_dense<cd>(n, 7);
  test::Dense<cd> a = b;
  std::vector<test::Dense<cd>> gs;
  for (const Involution& g : group) gs.push_back(matrix_of(g));
  for (const test::Dense<cd>& g : gs) a += g * b * g;
  if (gs.size() == 2) a += gs[0] * gs[1] * b * gs[1] * gs[0];
  return a;
}

TEST(FoldParts, KeepEveryUnknownOnce) {
  Involution s, t;
  mirrors(9, s, t);
  const std::vector<FoldPart> parts = fold_parts(s);
  ASSERT_EQ(parts.size(), 2u);
  // Four pairs in each part, the self-image (sign −1) in the odd part only.
  EXPECT_EQ(parts[0].kept.size(), 4u);
  EXPECT_EQ(parts[1].kept.size(), 5u);
  EXPECT_EQ(parts[1].partner.back(), -1);
  // T on each part: an involution of the part's unknowns.
  for (const FoldPart& part : parts) {
    const Involution on = induced(part, t);
    for (std::size_t q = 0; q < on.image.size(); ++q)
      EXPECT_EQ(on.image[static_cast<std::size_t>(on.image[q])], static_cast<int>(q));
  }
}

// M⁻¹ A x = x to the single factors' ~1e-6, with one mirror and with two.
void expect_inverse(Backend<cd>& backend, index_t n) {
  Involution s, t;
  mirrors(n, s, t);
  for (const std::vector<Involution>& symmetries :
       {std::vector<Involution>{s}, std::vector<Involution>{s, t}}) {
    const test::Dense<cd> a = symmetric_matrix(n, symmetries);
    Block<cd> on = backend.allocate<cd>(n, n);
    backend.upload(std::span<const cd>(a.data(), static_cast<std::size_t>(n * n)), on);
    const auto inverse =
        make_folded_inverse(backend, std::move(on), symmetries, 2, FactorPrecision::single);
    // Three right-hand sides through an operator made for two: the third in a second turn.
    const test::Dense<cd> x = test::random_dense<cd>(n, 3, 11);
    const test::Dense<cd> ax = a * x;
    Block<cd> in = backend.allocate<cd>(n, 3), out = backend.allocate<cd>(n, 3);
    backend.upload(std::span<const cd>(ax.data(), static_cast<std::size_t>(3 * n)), in);
    backend.spmv(*inverse, Transpose::none, in, out, cd(1.0), cd(0.0));
    const std::vector<cd> got = backend.download(out);
    const test::Dense<cd> y = Eigen::Map<const test::Dense<cd>>(got.data(), n, 3);
    const double error = (y - x).norm() / x.norm();
    std::printf("[folded inverse] %s, n = %lld, %zu mirror(s): |M⁻¹ A x − x| / |x| = %.1e\n",
                backend.name().c_str(), static_cast<long long>(n), symmetries.size(), error);
    EXPECT_LT(error, 1e-4);
  }
}

TEST(FoldedInverse, IsTheInverseOfAMatrixThatCommutesWithTheMirrorOnTheHost) {
  auto backend = make_cpu_backend<cd>();
  expect_inverse(*backend, 101);
}

TEST(FoldedInverse, IsTheInverseOfAMatrixThatCommutesWithTheMirrorOnTheGpu) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  expect_inverse(*backend, 101);
}

}  // namespace
}  // namespace pmom
