// The inverse of a matrix that commutes with a mirror, made on the mirror's two parities
// (preconditioners/folded_inverse.hpp): the parts keep every unknown once, and M⁻¹ is A⁻¹ to
// the single-precision factors' accuracy, on the host and on a CUDA device.
#include <gtest/gtest.h>

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

// A mirror of n unknowns: pairs (c, n − 1 − c), signs alternating, and in an odd n the middle
// unknown its own image with sign −1 (so it belongs to the odd part alone).
void mirror(index_t n, std::vector<int>& image, std::vector<int>& sign) {
  image.resize(static_cast<std::size_t>(n));
  sign.resize(static_cast<std::size_t>(n));
  for (index_t c = 0; c < n; ++c) {
    image[static_cast<std::size_t>(c)] = static_cast<int>(n - 1 - c);
    sign[static_cast<std::size_t>(c)] = c % 2 == 0 ? 1 : -1;
  }
}

TEST(FoldParts, KeepEveryUnknownOnce) {
  std::vector<int> image, sign;
  mirror(7, image, sign);
  const std::vector<FoldPart> parts = fold_parts(image, sign);
  ASSERT_EQ(parts.size(), 2u);
  // Three pairs in each part, the self-image (sign −1) in the odd part only.
  EXPECT_EQ(parts[0].kept.size(), 3u);
  EXPECT_EQ(parts[1].kept.size(), 4u);
  EXPECT_EQ(parts[1].partner.back(), -1);
}

// A = B + S B S commutes with S; M⁻¹ A x = x to the single factors' ~1e-6.
void expect_inverse(Backend<cd>& backend, index_t n) {
  std::vector<int> image, sign;
  mirror(n, image, sign);
  const test::Dense<cd> b = test::well_conditioned_dense<cd>(n, 7);
  test::Dense<cd> s = test::Dense<cd>::Zero(n, n);
  for (index_t c = 0; c < n; ++c) s(image[static_cast<std::size_t>(c)], c) = sign[static_cast<std::size_t>(c)];
  const test::Dense<cd> a = b + s * b * s;
  Block<cd> on = backend.allocate<cd>(n, n);
  backend.upload(std::span<const cd>(a.data(), static_cast<std::size_t>(n * n)), on);
  const auto inverse = make_folded_inverse(backend, std::move(on), fold_parts(image, sign), 2,
                                           FactorPrecision::single);
  // Three right-hand sides through an operator made for two: the third in a second turn.
  const test::Dense<cd> x = test::random_dense<cd>(n, 3, 11);
  const test::Dense<cd> ax = a * x;
  Block<cd> in = backend.allocate<cd>(n, 3), out = backend.allocate<cd>(n, 3);
  backend.upload(std::span<const cd>(ax.data(), static_cast<std::size_t>(3 * n)), in);
  backend.spmv(*inverse, Transpose::none, in, out, cd(1.0), cd(0.0));
  const std::vector<cd> got = backend.download(out);
  const test::Dense<cd> y = Eigen::Map<const test::Dense<cd>>(got.data(), n, 3);
  const double error = (y - x).norm() / x.norm();
  std::printf("[folded inverse] %s, n = %lld: |M⁻¹ A x − x| / |x| = %.1e\n",
              backend.name().c_str(), static_cast<long long>(n), error);
  EXPECT_LT(error, 1e-4);
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
