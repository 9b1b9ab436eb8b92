// The artificial few-diagonal matrices: the same bytes for the same seed (pinned against an
// independent Python computation, tests/bench/artificial_reference.py), the diagonal pattern,
// the dominance the Jacobi and Gauss-Seidel methods need, awkward sizes, and solvability.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <bit>
#include <map>

#include "planarmom/bench/artificial.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "support/random_matrix.hpp"

namespace pmom::bench {
namespace {

using cplx = std::complex<double>;

// FNV-1a 64 over row_ptr and col_idx as little-endian int32, then the values as little-endian
// float64 (real and imaginary part for complex), byte order spelled out so that the checksum
// does not depend on the machine's.
class Fnv1a {
 public:
  void add(std::uint64_t bits, int bytes) {
    for (int k = 0; k < bytes; ++k) {
      hash_ = (hash_ ^ ((bits >> (8 * k)) & 0xff)) * 0x100000001b3ULL;
    }
  }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

template <class T> std::uint64_t checksum(const Csr<T>& a) {
  Fnv1a h;
  for (index_t v : a.row_ptr) h.add(static_cast<std::uint32_t>(v), 4);
  for (index_t v : a.col_idx) h.add(static_cast<std::uint32_t>(v), 4);
  for (const T& v : a.values) {
    if constexpr (is_complex_v<T>) {
      h.add(std::bit_cast<std::uint64_t>(v.real()), 8);
      h.add(std::bit_cast<std::uint64_t>(v.imag()), 8);
    } else {
      h.add(std::bit_cast<std::uint64_t>(v), 8);
    }
  }
  return h.value();
}

TEST(Artificial, SameSeedSameBytesOtherSeedOtherValues) {
  const ArtificialSpec spec{1000, 5, true, 42};
  const Csr<double> a = artificial_matrix<double>(spec);
  const Csr<double> b = artificial_matrix<double>(spec);
  EXPECT_EQ(a.row_ptr, b.row_ptr);
  EXPECT_EQ(a.col_idx, b.col_idx);
  EXPECT_EQ(checksum(a), checksum(b));
  ArtificialSpec other = spec;
  other.seed = 43;
  const Csr<double> c = artificial_matrix<double>(other);
  EXPECT_EQ(a.col_idx, c.col_idx);  // the pattern depends on n and diagonals only
  EXPECT_NE(a.values, c.values);
  const auto z1 = artificial_matrix<cplx>(spec), z2 = artificial_matrix<cplx>(spec);
  EXPECT_EQ(checksum(z1), checksum(z2));
}

// Entries computed by artificial_reference.py (its own MT19937-64 and the documented value
// mapping); exact equality, as the generator promises the same bytes everywhere.
TEST(Artificial, TinyCasesMatchTheIndependentComputation) {
  const Csr<double> a = artificial_matrix<double>({4, 3, true, 1});
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 2, 5, 8, 10}));
  EXPECT_EQ(a.col_idx, (std::vector<index_t>{0, 1, 0, 1, 2, 1, 2, 3, 2, 3}));
  const std::vector<double> want{0x1.0000000000000p+1,  -0x1.76e90a81125e5p-1,
                                 -0x1.7451b6bf739c2p-1, 0x1.0000000000000p+1,
                                 -0x1.8fa5c310a3378p-4, -0x1.ea789fea1b290p-1,
                                 0x1.4193650f339bcp+1,  -0x1.315c5468981cep-2,
                                 0x1.a53b0b4ae64dap-1,  0x1.0000000000000p+1};
  EXPECT_EQ(a.values, want);

  const Csr<cplx> z = artificial_matrix<cplx>({3, 3, true, 7});
  EXPECT_EQ(z.row_ptr, (std::vector<index_t>{0, 2, 5, 7}));
  EXPECT_EQ(z.col_idx, (std::vector<index_t>{0, 1, 0, 1, 2, 1, 2}));
  const std::vector<cplx> zwant{{0x1.6849990ccb373p+1, 0},
                                {0x1.047d94c7ad9b6p-1, 0x1.cc159d51e8d30p-1},
                                {-0x1.87c48cfb7e5a7p-1, 0x1.9151b01367fdfp-1},
                                {0x1.940099e9e6f06p+2, 0},
                                {-0x1.6f5681e0bd609p-1, -0x1.c795a8b7f808ap-1},
                                {0x1.5480e77a343a8p-1, 0x1.9a53d8de3c711p-1},
                                {0x1.776a602c3855cp+1, 0}};
  EXPECT_EQ(z.values, zwant);
}

TEST(Artificial, ChecksumsMatchTheIndependentComputation) {
  EXPECT_EQ(checksum(artificial_matrix<double>({100, 5, true, 1})), 0xdf699dc207062a0aULL);
  EXPECT_EQ(checksum(artificial_matrix<cplx>({100, 5, true, 1})), 0x4c9d99eede37cffaULL);
  EXPECT_EQ(checksum(artificial_matrix<double>({37, 7, false, 12345})), 0x9f838ef68490ec70ULL);
  EXPECT_EQ(checksum(artificial_matrix<cplx>({37, 7, false, 12345})), 0x04e348d7c2148a95ULL);
}

TEST(Artificial, Offsets) {
  EXPECT_EQ(artificial_offsets(100, 1), (std::vector<index_t>{0}));
  EXPECT_EQ(artificial_offsets(100, 3), (std::vector<index_t>{-1, 0, 1}));
  EXPECT_EQ(artificial_offsets(100, 5), (std::vector<index_t>{-10, -1, 0, 1, 10}));
  EXPECT_EQ(artificial_offsets(101, 7), (std::vector<index_t>{-22, -11, -1, 0, 1, 11, 22}));
  EXPECT_EQ(artificial_offsets(3000000, 5),
            (std::vector<index_t>{-1733, -1, 0, 1, 1733}));  // 1732² < 3·10⁶ <= 1733²
  // Too small for the far diagonals: n = 2 keeps 0 and ±1, n = 1 only the main diagonal.
  EXPECT_EQ(artificial_offsets(2, 7), (std::vector<index_t>{-1, 0, 1}));
  EXPECT_EQ(artificial_offsets(1, 5), (std::vector<index_t>{0}));
  for (int bad : {0, 2, -1, 17})
    EXPECT_THROW(artificial_offsets(100, bad), std::invalid_argument) << bad;
  EXPECT_THROW(artificial_offsets(0, 5), std::invalid_argument);
  EXPECT_THROW(artificial_offsets(200000000, 15), std::invalid_argument);  // > 2³¹ entries
}

// Every stored entry on one of the offsets, every offset's diagonal full (n − |o| entries),
// and each row's diagonal 2× (or 0.5×) its off-diagonal 1-norm sum, at least 2 (0.5).
template <class T> void expect_structure(index_t n, int diagonals, bool dominant) {
  const ArtificialSpec spec{n, diagonals, dominant, 3};
  const Csr<T> a = artificial_matrix<T>(spec);
  a.validate();
  const std::vector<index_t> offsets = artificial_offsets(n, diagonals);
  std::map<index_t, index_t> per_offset;
  const double ratio = dominant ? 2.0 : 0.5;
  for (index_t i = 0; i < n; ++i) {
    double off = 0, modulus = 0;
    T diagonal(0);
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t o = a.col_idx[k] - i;
      ++per_offset[o];
      if (o == 0) {
        diagonal = a.values[k];
      } else {
        off += std::abs(std::real(a.values[k])) + std::abs(std::imag(a.values[k]));
        modulus += std::abs(a.values[k]);
        EXPECT_LT(std::abs(std::real(a.values[k])), 1.0);
        EXPECT_LT(std::abs(std::imag(a.values[k])), 1.0);
      }
    }
    ASSERT_EQ(std::imag(diagonal), 0.0);
    EXPECT_EQ(std::real(diagonal), ratio * std::max(off, 1.0)) << "row " << i;
    if (dominant) {
      EXPECT_GE(std::abs(diagonal), 2 * modulus) << "row " << i;
    }
  }
  ASSERT_EQ(per_offset.size(), offsets.size());
  for (index_t o : offsets) EXPECT_EQ(per_offset[o], n - std::abs(o)) << "offset " << o;
  EXPECT_EQ(artificial_name(spec, is_complex_v<T>),
            "art-" + std::to_string(diagonals) + "diag" + (dominant ? "" : "-weak") + "-n" +
                std::to_string(n) + (is_complex_v<T> ? "-complex" : "-real"));
}

TEST(Artificial, StructureAndDominance) {
  for (index_t n : {1, 2, 3, 5, 100, 1001}) {
    for (int d : {1, 3, 5, 7}) {
      expect_structure<double>(n, d, true);
      expect_structure<cplx>(n, d, true);
      expect_structure<double>(n, d, false);
      expect_structure<cplx>(n, d, false);
    }
  }
}

// The weak variant really is not dominant: on almost every row of a 5-diagonal matrix the
// diagonal falls below the off-diagonal moduli (a row's four entries exceed 1 in 1-norm sum
// unless all are small).
TEST(Artificial, NonDominantVariantIsNotDominant) {
  const Csr<double> a = artificial_matrix<double>({1000, 5, false, 9});
  int dominant_rows = 0;
  for (index_t i = 0; i < a.rows; ++i) {
    double diagonal = 0, off = 0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      (a.col_idx[k] == i ? diagonal : off) += std::abs(a.values[k]);
    dominant_rows += diagonal >= off;
  }
  EXPECT_LT(dominant_rows, 100);
}

// Jacobi-preconditioned BiCGSTAB on the dominant matrices against a dense LU solve. A = D(I+E)
// with ‖E‖∞ <= 1/2, so κ∞(A) <= 3 max|a_ii| / min|a_ii| <= 3 · 16/2 = 24 (diagonals from 2 to
// 2 · 8); tol 1e-12 on the residual then bounds the relative error by 24 · √n · 1e-12 ≈ 4e-10
// (√n for the change between the 2-norm and the ∞-norm), checked at 1e-9.
template <class T> void expect_solvable(index_t n) {
  const Csr<T> a = artificial_matrix<T>({n, 5, true, 11});
  const auto b = test::random_vector<T>(n, 5);
  const test::DenseVector<T> ref = test::to_dense(a).partialPivLu().solve(b);
  auto backend = make_cpu_backend<T>();
  SolverOptions o;
  o.method = Method::bicgstab;
  o.tolerance = 1e-12;
  Solver<T> solver(*backend, a, o);
  std::vector<T> x;
  const SolveResult r = solver.solve(std::vector<T>(b.data(), b.data() + n), x);
  ASSERT_EQ(r.rhs[0].outcome, Outcome::converged);
  EXPECT_LT(r.iterations, 40);
  const auto got = Eigen::Map<const test::DenseVector<T>>(x.data(), n);
  EXPECT_LE(test::relative_error<T>(got, ref), 1e-9);
}

TEST(Artificial, DominantMatricesSolve) {
  expect_solvable<double>(300);
  expect_solvable<cplx>(300);
  expect_solvable<double>(1);
}

}  // namespace
}  // namespace pmom::bench
