// The CUDA backend against the reference CPU backend: every kernel on awkward shapes
// (n = 1, 31, 33, empty rows, one row far longer than the rest, several right-hand sides),
// the solvers on the shared SuiteSparse complex matrices, multi-RHS against single solves,
// graph replay against plain launches, and auto's timed trial. Skipped with a message where
// no CUDA device is.
//
// Kernel tolerance: 1e-12 relative in the max norm (the bar) in double, 1e-4 in float
// (float's ulp is 2^29 times double's; the sums here run to 300000 terms). Both backends form the
// same products; only summation order differs (warp shuffles and atomics against OpenMP
// partial sums), which moves results by a few ulps times the terms summed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "planarmom/gpusolver/auto_choice.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/precision.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/load_matrix.hpp"
#include "support/dense_blocks.hpp"
#include "support/gpu.hpp"
#include "support/in_place_values.hpp"
#include "support/independent_residual.hpp"
#include "support/random_matrix.hpp"
#include "support/suitesparse.hpp"
#include "support/summation_case.hpp"
#include "support/systems.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;
using test::Dense;
using test::get;
using test::put;
using test::random_dense;

template <class T>
constexpr double kernel_tolerance = std::is_same_v<real_t<T>, float> ? 1e-4 : 1e-12;

template <class T> double max_rel(const Dense<T>& got, const Dense<T>& want) {
  if (got.rows() != want.rows() || got.cols() != want.cols()) return 1e300;
  if (want.size() == 0) return 0;
  const double scale = want.cwiseAbs().maxCoeff();
  const double err = (got - want).cwiseAbs().maxCoeff();
  return scale == 0 ? err : err / scale;
}

// The same named blocks on both backends, filled from the same host data.
template <class T> struct Twin {
  Twin(Backend<T>& c, Backend<T>& g) : cpu(c), gpu(g) {}
  Backend<T>& cpu;
  Backend<T>& gpu;
  std::map<std::string, std::pair<Block<T>, Block<T>>> blocks;
  std::pair<Block<real_t<T>>, Block<real_t<T>>> rnorm2;
  std::pair<Block<int>, Block<int>> status;

  void add(const std::string& name, const Dense<T>& h) { blocks[name] = {put(cpu, h), put(gpu, h)}; }
  void set_status(const Dense<int>& s) { status = {put(cpu, s), put(gpu, s)}; }
  void set_rnorm2(index_t k) {
    const Dense<real_t<T>> z = Dense<real_t<T>>::Zero(1, k);
    rnorm2 = {put(cpu, z), put(gpu, z)};
  }
  Block<T>* on(bool g, const std::string& name) {
    auto& p = blocks.at(name);
    return g ? &p.second : &p.first;
  }
  // rnorm2_floor: the scale below which ‖r‖² is cancellation noise (BiCGSTAB's r = s - ωt
  // vanishes for n = 1), so differences are measured against it.
  void expect_equal(const std::string& context, double rnorm2_floor = 0) {
    for (auto& [name, p] : blocks)
      EXPECT_LE(max_rel(get(gpu, p.second), get(cpu, p.first)), kernel_tolerance<T>)
          << context << ": " << name;
    if (rnorm2.first.size()) {
      const Dense<real_t<T>> want = get(cpu, rnorm2.first), got = get(gpu, rnorm2.second);
      const double scale = std::max<double>(want.cwiseAbs().maxCoeff(), rnorm2_floor);
      EXPECT_LE((got - want).cwiseAbs().maxCoeff(), kernel_tolerance<T> * scale)
          << context << ": rnorm2";
    }
    if (status.first.size()) {
      EXPECT_EQ(get(gpu, status.second), get(cpu, status.first)) << context << ": status";
    }
  }
};

template <class T> class CudaKernels : public testing::Test {
 protected:
  void SetUp() override {
    PMOM_REQUIRE_GPU();
    cpu = make_cpu_backend<T>();
    gpu = make_cuda_backend<T>();
  }
  std::unique_ptr<Backend<T>> cpu, gpu;
};
using ValueTypes = testing::Types<double, cplx, float, std::complex<float>>;
TYPED_TEST_SUITE(CudaKernels, ValueTypes);

struct Shape {
  index_t rows, cols;
  test::Shape pattern;
  const char* name;
};
const Shape shapes[] = {
    {1, 1, {1.0, false, false}, "1x1"},
    {31, 31, {0.2, true, false}, "31 empty rows"},
    {33, 33, {0.1, false, true}, "33 one dense row"},
    {37, 53, {0.1, true, true}, "37x53"},
    {53, 37, {0.1, false, false}, "53x37"},
    {2000, 2000, {0.01, false, true}, "2000 one dense row"},
    {5000, 5000, {0.002, true, false}, "5000 empty rows"},
    {600, 600, {0.5, false, true}, "600 long rows"},  // CSR's four-warps-per-row kernel
};

// cuBLAS's batched LU on blocks padded to the largest (sizes 1 to 70, so the padding and the
// copy back are exercised) against the host's Eigen LU; the same singular block named.
TYPED_TEST(CudaKernels, InvertBlocksEqualsCpu) {
  using T = TypeParam;
  const std::vector<index_t> sizes{1, 40, 7, 70, 33};
  const std::vector<T> packed = test::random_blocks<T>(sizes, 11);
  std::vector<T> result[2];
  for (const bool g : {false, true}) {
    Backend<T>& be = g ? *this->gpu : *this->cpu;
    auto blocks = be.template allocate<T>(static_cast<index_t>(packed.size()), 1);
    be.template upload<T>(packed, blocks);
    EXPECT_EQ(be.invert_blocks(blocks, sizes), -1) << (g ? "gpu" : "cpu");
    result[g] = be.download(blocks);
    // A second call with the same layout reuses the device's buffers; block 3 singular.
    std::vector<T> singular = packed;
    std::fill(singular.begin() + 1 + 1600 + 49, singular.begin() + 1 + 1600 + 49 + 4900, T(0));
    be.template upload<T>(singular, blocks);
    EXPECT_EQ(be.invert_blocks(blocks, sizes), 3) << (g ? "gpu" : "cpu");
  }
  const Eigen::Map<const Dense<T>> on_cpu(result[0].data(), static_cast<index_t>(packed.size()), 1);
  const Eigen::Map<const Dense<T>> on_gpu(result[1].data(), static_cast<index_t>(packed.size()), 1);
  EXPECT_LE(max_rel(Dense<T>(on_gpu), Dense<T>(on_cpu)), kernel_tolerance<T>);
}

// cuSOLVER's LU and the explicit inverse multiplied by cuBLAS's gemm against the host's Eigen
// LU, at a size where getrf works in panels; a singular matrix refused.
TYPED_TEST(CudaKernels, DenseInverseEqualsCpu) {
  using T = TypeParam;
  const index_t n = 300;
  const Dense<T> a = test::well_conditioned_dense<T>(n, 21);
  const Dense<T> x = random_dense<T>(n, 4, 22), y0 = random_dense<T>(n, 4, 23);
  Dense<T> result[2];
  for (const bool g : {false, true}) {
    Backend<T>& be = g ? *this->gpu : *this->cpu;
    Block<T> stored = put(be, a);
    const auto inverse = be.make_dense_inverse(std::move(stored));
    Block<T> xb = put(be, x), yb = put(be, y0);
    be.spmv(*inverse, Transpose::none, xb, yb, T(2), T(0.5));
    result[g] = get(be, yb);
    EXPECT_THROW((void)be.make_dense_inverse(be.template allocate<T>(n, n)), std::runtime_error)
        << (g ? "gpu" : "cpu");
  }
  EXPECT_LE(max_rel(result[1], result[0]), kernel_tolerance<T>);
}

// cuSOLVER's LU and getrs on the right-hand sides against the host's Eigen LU; a singular
// matrix refused.
TYPED_TEST(CudaKernels, SolveDenseEqualsCpu) {
  using T = TypeParam;
  const index_t n = 300;
  const Dense<T> a = test::well_conditioned_dense<T>(n, 24);
  const Dense<T> b = random_dense<T>(n, 3, 25);
  Dense<T> result[2];
  for (const bool g : {false, true}) {
    Backend<T>& be = g ? *this->gpu : *this->cpu;
    Block<T> x = put(be, b);
    be.solve_dense(put(be, a), x);
    result[g] = get(be, x);
    Block<T> rhs = put(be, b);
    EXPECT_THROW(be.solve_dense(be.template allocate<T>(n, n), rhs), std::runtime_error)
        << (g ? "gpu" : "cpu");
  }
  EXPECT_LE(max_rel(result[1], result[0]), kernel_tolerance<T>);
}

// fold_dense on the device against the host's, on a 300 x 300 matrix folded onto 150 kept
// unknowns in a shuffled order, every fifth without a partner, the rest with weights ±1. To the
// kernel tolerance: the device may fuse the multiply-add.
TYPED_TEST(CudaKernels, FoldDenseEqualsCpu) {
  using T = TypeParam;
  using R = typename Backend<T>::real;
  const index_t n = 300, k = 150;
  const Dense<T> a = random_dense<T>(n, n, 26);
  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(27));
  std::vector<index_t> kept(order.begin(), order.begin() + k);
  std::vector<index_t> partner(order.begin() + k, order.end());
  std::vector<R> weight;
  for (index_t p = 0; p < k; ++p) {
    if (p % 5 == 0) partner[static_cast<std::size_t>(p)] = -1;
    weight.push_back(p % 2 == 0 ? R(1) : R(-1));
  }
  Dense<T> result[2];
  for (const bool g : {false, true}) {
    Backend<T>& be = g ? *this->gpu : *this->cpu;
    Block<T> out = be.template allocate<T>(k, k);
    be.fold_dense(put(be, a), put(be, kept), put(be, partner), put(be, weight), out);
    result[g] = get(be, out);
  }
  EXPECT_LE(max_rel(result[1], result[0]), kernel_tolerance<T>);
}

TYPED_TEST(CudaKernels, SpmvEqualsCpuForEveryFormatAndAdjoint) {
  using T = TypeParam;
  int seed = 1;
  for (const Shape& sh : shapes)
    for (Format f : all_formats)
      for (AdjointMode mode : {AdjointMode::stored, AdjointMode::transposed_kernel})
        for (index_t k : {1, 3, 6}) {
          // DIA of the large random patterns would hold thousands of full diagonals; the
          // banded test below covers DIA at size.
          if (f == Format::dia && sh.rows * sh.cols > 600 * 600) continue;
          const Csr<T> a = to_csr(test::random_coo<T>(sh.rows, sh.cols, seed++, sh.pattern));
          OperatorOptions o{f, mode, true, {}, {}};
          o.dia.max_fill = 1e9;
          // SELL-P's small slices with two threads per row and sorting, besides the defaults.
          if (f == Format::sellp && k == 3) o.sellp = {4, 2, 8};
          auto ac = this->cpu->make_operator(a, o);
          auto ag = this->gpu->make_operator(a, o);
          for (Transpose op : {Transpose::none, Transpose::conj_trans}) {
            const index_t in = op == Transpose::none ? sh.cols : sh.rows;
            const index_t out = op == Transpose::none ? sh.rows : sh.cols;
            Twin<T> t{*this->cpu, *this->gpu};
            t.add("x", random_dense<T>(in, k, seed++));
            t.add("y", random_dense<T>(out, k, seed++));
            std::mt19937_64 rng(seed);
            const T alpha = test::random_value<T>(rng), beta(0.5);
            this->cpu->spmv(*ac, op, *t.on(false, "x"), *t.on(false, "y"), alpha, beta);
            this->gpu->spmv(*ag, op, *t.on(true, "x"), *t.on(true, "y"), alpha, beta);
            this->cpu->spmv(*ac, op, *t.on(false, "x"), *t.on(false, "y"));  // beta = 0
            this->gpu->spmv(*ag, op, *t.on(true, "x"), *t.on(true, "y"));
            t.expect_equal(std::string(sh.name) + " " + to_string(f) +
                           (mode == AdjointMode::stored ? " stored" : " transposed") +
                           (op == Transpose::none ? " A" : " A^H") + " k=" + std::to_string(k));
          }
        }
}

TYPED_TEST(CudaKernels, DotsAndNormsEqualCpu) {
  using T = TypeParam;
  for (index_t n : {1, 31, 33, 1000, 300000})
    for (index_t k : {1, 4}) {
      Twin<T> t{*this->cpu, *this->gpu};
      t.add("x", random_dense<T>(n, k, 1));
      t.add("y", random_dense<T>(n, k, 2));
      t.add("c", Dense<T>::Zero(1, k));
      t.add("u", Dense<T>::Zero(1, k));
      t.set_rnorm2(k);
      for (bool g : {false, true}) {
        Backend<T>& be = g ? *this->gpu : *this->cpu;
        be.dot(*t.on(g, "x"), *t.on(g, "y"), *t.on(g, "c"), true);
        be.dot(*t.on(g, "x"), *t.on(g, "y"), *t.on(g, "u"), false);
        be.norm2_squared(*t.on(g, "x"), g ? t.rnorm2.second : t.rnorm2.first);
      }
      t.expect_equal("n = " + std::to_string(n) + ", k = " + std::to_string(k));
    }
}

// Column 1 is stopped (must stay untouched), column 2 meets the kernel's zero divisor.
Dense<int> statuses(index_t k) {
  Dense<int> s = Dense<int>::Zero(1, k);
  s(0, 1) = rhs_stopped;
  return s;
}

template <class T> void fill(Twin<T>& t, const std::vector<std::string>& vectors,
                             const std::vector<std::string>& scalars, index_t n, index_t k) {
  int seed = 10;
  for (const auto& v : vectors) t.add(v, random_dense<T>(n, k, seed++));
  for (const auto& s : scalars) t.add(s, random_dense<T>(1, k, seed++));
  Dense<T> d = random_dense<T>(n, 1, 99);
  t.add("d", d);
  t.set_status(statuses(k));
  t.set_rnorm2(k);
}

template <class T> BicgVectors<T> bicg_view(Twin<T>& t, bool g, Shadow s) {
  const bool e = s == Shadow::explicit_vectors;
  BicgVectors<T> v;
  v.shadow = s;
  v.inv_diag = t.on(g, "d");
  v.x = t.on(g, "x");
  v.r = t.on(g, "r");
  v.rt = e ? t.on(g, "rt") : nullptr;
  v.p = t.on(g, "p");
  v.pt = e ? t.on(g, "pt") : nullptr;
  v.q = t.on(g, "q");
  v.qt = e ? t.on(g, "qt") : nullptr;
  v.rho = t.on(g, "rho");
  v.rho_old = t.on(g, "rho_old");
  v.sigma = t.on(g, "sigma");
  v.rnorm2 = g ? &t.rnorm2.second : &t.rnorm2.first;
  v.status = g ? &t.status.second : &t.status.first;
  return v;
}

TYPED_TEST(CudaKernels, BicgFamilyKernelsEqualCpu) {
  using T = TypeParam;
  for (index_t n : {1, 31, 33, 4097})
    for (Shadow s : {Shadow::explicit_vectors, Shadow::conjugate, Shadow::same}) {
      Twin<T> t{*this->cpu, *this->gpu};
      fill(t, {"x", "r", "rt", "p", "pt", "q", "qt"}, {"rho", "rho_old", "sigma"}, n, 3);
      for (const char* zero : {"rho", "sigma"}) {  // column 2 breaks down in one of the steps
        for (bool g : {false, true}) {
          auto z = get(g ? *this->gpu : *this->cpu, *t.on(g, zero));
          z(0, 2) = T(0);
          (g ? *this->gpu : *this->cpu).upload(std::span<const T>(z.data(), 3), *t.on(g, zero));
        }
        for (bool g : {false, true}) {
          Backend<T>& be = g ? *this->gpu : *this->cpu;
          auto v = bicg_view(t, g, s);
          be.bicg_reduce(v);
          be.bicg_directions(v);
          be.bicg_update(v);
        }
        t.expect_equal("n = " + std::to_string(n) + ", zero " + zero);
      }
    }
}

// With and without the preconditioner (without it, p̂ and ŝ are p and s themselves).
TYPED_TEST(CudaKernels, BicgstabKernelsEqualCpu) {
  using T = TypeParam;
  for (bool precond : {true, false})
    for (index_t n : {1, 31, 33, 4097}) {
      Twin<T> t{*this->cpu, *this->gpu};
      fill(t, {"x", "r", "rhat", "p", "phat", "v", "s", "shat", "t"},
           {"rho", "rho_old", "alpha", "omega", "rhat_v", "t_s", "t_t"}, n, 4);
      for (bool g : {false, true}) {
        Backend<T>& be = g ? *this->gpu : *this->cpu;
        BicgstabVectors<T> v;
        v.inv_diag = precond ? t.on(g, "d") : nullptr;
        v.x = t.on(g, "x");
        v.r = t.on(g, "r");
        v.rhat = t.on(g, "rhat");
        v.p = t.on(g, "p");
        v.phat = t.on(g, precond ? "phat" : "p");
        v.v = t.on(g, "v");
        v.s = t.on(g, "s");
        v.shat = t.on(g, precond ? "shat" : "s");
        v.t = t.on(g, "t");
        v.rho = t.on(g, "rho");
        v.rho_old = t.on(g, "rho_old");
        v.alpha = t.on(g, "alpha");
        v.omega = t.on(g, "omega");
        v.rhat_v = t.on(g, "rhat_v");
        v.t_s = t.on(g, "t_s");
        v.t_t = t.on(g, "t_t");
        v.rnorm2 = g ? &t.rnorm2.second : &t.rnorm2.first;
        v.status = g ? &t.status.second : &t.status.first;
        be.bicgstab_directions(v);
        be.bicgstab_half_step(v);
        be.bicgstab_omega_dots(v);
        be.bicgstab_update(v);
      }
      const Dense<T> s = get(*this->cpu, *t.on(false, "s"));
      t.expect_equal("n = " + std::to_string(n) + (precond ? "" : ", no preconditioner"),
                     s.colwise().squaredNorm().maxCoeff());
    }
}

// Same algorithm, same data, different summation order, b = A·1 (Eigen). Where the CPU
// converges the GPU must too, and every pinned pair (support/suitesparse.hpp) must converge on
// both; a "converged" on either side must be a true one: ‖b − Ax‖/‖b‖ recomputed by Eigen from
// the file's entries within 10x of the tolerance. Iteration counts and solutions are not
// compared: on these ill-conditioned matrices rounding alone moved the GPU's count by up to 24%
// (qc324 BiCGSTAB 1818 → 2256 on the H100) and two solutions that both meet the tolerance
// differ by up to κ·2·tol (5.8e-5 on dwg961a); the kernels' equality is CudaKernels' 1e-12 test.
TEST(CudaSolvers, ConvergeWhereTheCpuDoesOnSharedComplexMatrices) {
  PMOM_REQUIRE_GPU();
  PMOM_GPU_SHARED_MATRICES();
  auto cpu = make_cpu_backend<cplx>();
  auto gpu = make_cuda_backend<cplx>();
  std::set<std::string> cpu_converged, pinned;
  for (const auto& e : std::filesystem::directory_iterator(test::shared_matrices)) {
    if (e.path().extension() != ".mtx") continue;
    const auto m = io::read_matrix_market(e.path());
    if (!io::is_complex_field(m)) continue;
    const Csr<cplx> a = io::to_csr_matrix<cplx>(m, e.path());
    const test::SparseC reference = test::eigen_matrix(m);
    const std::vector<cplx> b = test::times_ones<cplx>(reference);
    for (const Method method : test::applicable_methods(analyse(a))) {
      SolverOptions o;
      o.method = method;
      o.tolerance = 1e-7;
      o.max_iterations = 3000;
      std::vector<cplx> xc, xg;
      const SolveResult rc = Solver<cplx>(*cpu, a, o).solve(b, xc);
      const SolveResult rg = Solver<cplx>(*gpu, a, o).solve(b, xg);
      const std::string name = e.path().stem().string() + " " + to_string(method);
      if (test::cpu_converging_pairs.contains(name)) pinned.insert(name);
      SCOPED_TRACE(name);
      const double res_c = test::relative_residual<cplx>(reference, b, xc);
      const double res_g = test::relative_residual<cplx>(reference, b, xg);
      std::cout << name << ": cpu " << to_string(rc.rhs[0].outcome) << " "
                << rc.rhs[0].iterations << " it, |b - Ax|/|b| " << res_c << "; cuda "
                << to_string(rg.rhs[0].outcome) << " " << rg.rhs[0].iterations
                << " it, |b - Ax|/|b| " << res_g << '\n';
      if (rg.rhs[0].outcome == Outcome::converged) {
        EXPECT_LE(res_g, 10 * o.tolerance);
      }
      if (rc.rhs[0].outcome != Outcome::converged) continue;
      cpu_converged.insert(name);
      EXPECT_LE(res_c, 10 * o.tolerance);
      EXPECT_EQ(rg.rhs[0].outcome, Outcome::converged) << "the CPU converged, the GPU did not";
    }
  }
  EXPECT_FALSE(pinned.empty()) << "no pinned complex pair among the shared matrices";
  for (const std::string& name : pinned)
    EXPECT_TRUE(cpu_converged.contains(name)) << name << ": the CPU no longer converges";
}

// The periodic 2D Laplacian plus a shift (5 diagonals when folded, 9 plain): every format,
// DIA in both modes, solves it with CG on the GPU as on the CPU. Tolerance 1e-10; the
// solutions agree to 1e-8 (κ ≈ 1e3 times the tolerance, with margin) and the iteration counts
// within the CUDA check interval of 8 (only summation order differs).
TEST(CudaSolvers, EveryFormatSolvesABandedSystemLikeTheCpu) {
  PMOM_REQUIRE_GPU();
  const index_t g = 150, n = g * g;
  Coo<double> coo;
  coo.rows = coo.cols = n;
  for (index_t y = 0; y < g; ++y)
    for (index_t x = 0; x < g; ++x) {
      const index_t i = y * g + x;
      coo.push_back(i, i, 4.01);
      for (const index_t j : {y * g + (x + 1) % g, y * g + (x + g - 1) % g,
                              ((y + 1) % g) * g + x, ((y + g - 1) % g) * g + x})
        coo.push_back(i, j, -1.0);
    }
  const Csr<double> a = to_csr(coo);
  const std::vector<double> b = [&] {
    const auto v = test::random_vector<double>(n, 77);
    return std::vector<double>(v.data(), v.data() + n);
  }();
  auto cpu = make_cpu_backend<double>();
  auto gpu = make_cuda_backend<double>();
  for (const Format f : all_formats)
    for (const bool periodic : {false, true}) {
      if (periodic && f != Format::dia) continue;
      SolverOptions o;
      o.method = Method::cg;
      o.tolerance = 1e-10;
      o.format = f;
      o.dia.periodic = periodic;
      std::vector<double> xc, xg;
      const SolveResult rc = Solver<double>(*cpu, a, o).solve(b, xc);
      const SolveResult rg = Solver<double>(*gpu, a, o).solve(b, xg);
      SCOPED_TRACE(to_string(f) + (periodic ? " periodic" : ""));
      ASSERT_EQ(rc.rhs[0].outcome, Outcome::converged);
      ASSERT_EQ(rg.rhs[0].outcome, Outcome::converged);
      EXPECT_NEAR(rg.rhs[0].iterations, rc.rhs[0].iterations, 8);  // CUDA checks every 8
      using Map = Eigen::Map<const test::DenseVector<double>>;
      EXPECT_LE(test::relative_error<double>(Map(xg.data(), n), Map(xc.data(), n)), 1e-8);
    }
}

// Auto's timed trial on the GPU, where it also tries formats. On the indefinite system CG
// breaks down by construction, so the pick must be BiCGSTAB, as on the CPU; on the banded
// system the pick depends on timing, so only convergence and the solution are checked, against
// the CPU's. Tolerance 1e-10 on the residual, condition numbers about 200 (indefinite) and
// at most 802 (eigenvalues in (0.01, 8.01)): each solution within 1e-7 of the exact one, so
// the two within 1e-6.
TEST(CudaSolvers, AutoTrialPicksWhatConvergesAndSolvesLikeTheCpu) {
  PMOM_REQUIRE_GPU();
  AutoOptions trial;
  trial.choose_method = trial.choose_format = trial.trial = true;
  SolverOptions o;
  o.tolerance = 1e-10;
  auto cpu = make_cpu_backend<double>();
  auto gpu = make_cuda_backend<double>();
  using Map = Eigen::Map<const test::DenseVector<double>>;
  const test::IndefiniteSystem sys = test::indefinite_system(20);
  std::vector<double> xc, xg;
  const SolveResult rc = solve_automatically<double>(*cpu, sys.a, sys.b, xc, 1, o, trial);
  const SolveResult rg = solve_automatically<double>(*gpu, sys.a, sys.b, xg, 1, o, trial);
  EXPECT_EQ(rg.method, Method::bicgstab);
  ASSERT_TRUE(rc.all_converged());
  ASSERT_TRUE(rg.all_converged()) << to_string(rg.rhs[0].outcome);
  const auto n = static_cast<index_t>(sys.b.size());
  EXPECT_LE(test::relative_error<double>(Map(xg.data(), n), Map(xc.data(), n)), 1e-6);

  const index_t g = 120, m = g * g;  // 2D Laplacian plus 0.01 I: CG for a few hundred steps
  Coo<double> coo;
  coo.rows = coo.cols = m;
  for (index_t y = 0; y < g; ++y)
    for (index_t x = 0; x < g; ++x) {
      const index_t i = y * g + x;
      coo.push_back(i, i, 4.01);
      if (x > 0) coo.push_back(i, i - 1, -1.0);
      if (x + 1 < g) coo.push_back(i, i + 1, -1.0);
      if (y > 0) coo.push_back(i, i - g, -1.0);
      if (y + 1 < g) coo.push_back(i, i + g, -1.0);
    }
  const Csr<double> a = to_csr(coo);
  const auto v = test::random_vector<double>(m, 78);
  const std::vector<double> b(v.data(), v.data() + m);
  std::vector<double> yc, yg;
  ASSERT_TRUE(solve_automatically<double>(*cpu, a, b, yc, 1, o, trial).all_converged());
  const SolveResult banded = solve_automatically<double>(*gpu, a, b, yg, 1, o, trial);
  ASSERT_TRUE(banded.all_converged()) << to_string(banded.method) << "/"
                                      << to_string(banded.format);
  EXPECT_LE(test::relative_error<double>(Map(yg.data(), m), Map(yc.data(), m)), 1e-6);
}

// The relaxation methods and SSOR-CG in multicolour order on both backends: same colours, so
// the same iteration; only summation order differs. Iterations within the CUDA check interval
// (8), solutions to 1e-8
// (tolerance 1e-10, condition numbers near 5). Natural order is refused on CUDA, clearly.
TEST(CudaSolvers, RelaxationAndSsorEqualCpuInMulticolourOrder) {
  PMOM_REQUIRE_GPU();
  auto cpu = make_cpu_backend<cplx>();
  auto gpu = make_cuda_backend<cplx>();
  const index_t n = 2000;
  const Csr<cplx> general = test::make_system<cplx>(test::SystemKind::general, n, 8, 1.5);
  const Csr<cplx> hpd =
      test::make_system<cplx>(test::SystemKind::hermitian_positive_definite, n, 9, 1.5);
  const auto bv = test::random_vector<cplx>(n, 10);
  const std::vector<cplx> b(bv.data(), bv.data() + n);
  struct Run {
    const Csr<cplx>* a;
    Method method;
    Preconditioner precond;
  };
  for (const Run& run : {Run{&general, Method::jacobi, Preconditioner::jacobi},
                         Run{&general, Method::gauss_seidel, Preconditioner::jacobi},
                         Run{&hpd, Method::cg, Preconditioner::ssor}}) {
    SolverOptions o;
    o.method = run.method;
    o.preconditioner = run.precond;
    o.ordering = SweepOrder::multicolour;
    o.tolerance = 1e-10;
    o.max_iterations = 2000;
    std::vector<cplx> xc, xg;
    const SolveResult rc = Solver<cplx>(*cpu, *run.a, o).solve(b, xc);
    const SolveResult rg = Solver<cplx>(*gpu, *run.a, o).solve(b, xg);
    SCOPED_TRACE(to_string(run.method) + "+" + to_string(run.precond));
    ASSERT_EQ(rc.rhs[0].outcome, Outcome::converged);
    ASSERT_EQ(rg.rhs[0].outcome, Outcome::converged);
    // CUDA checks every 8 iterations, so it may run up to 7 past the CPU's stop.
    EXPECT_NEAR(rg.rhs[0].iterations, rc.rhs[0].iterations, 8);
    using Map = Eigen::Map<const test::DenseVector<cplx>>;
    EXPECT_LE(test::relative_error<cplx>(Map(xg.data(), n), Map(xc.data(), n)), 1e-8);
  }
  SolverOptions natural;
  natural.method = Method::gauss_seidel;
  natural.ordering = SweepOrder::natural;
  try {
    Solver<cplx> s(*gpu, general, natural);
    ADD_FAILURE() << "natural-order sweeps accepted on CUDA";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("natural"), std::string::npos) << e.what();
  }
}

TEST(CudaSolvers, MultiRhsEqualsSingleSolvesAndGraphsEqualPlainLaunches) {
  PMOM_REQUIRE_GPU();
  auto gpu = make_cuda_backend<cplx>();
  const index_t n = 3000, k = 4;
  const Csr<cplx> a = test::make_system<cplx>(test::SystemKind::complex_symmetric, n, 3, 1.05);
  std::vector<cplx> block;
  for (index_t c = 0; c < k; ++c) {
    const auto col = test::random_vector<cplx>(n, 50 + c);
    block.insert(block.end(), col.data(), col.data() + n);
  }
  for (Method method : {Method::bicg, Method::cocg, Method::bicgstab}) {
    SolverOptions o;
    o.method = method;
    o.tolerance = 1e-10;
    std::vector<cplx> xb;
    const SolveResult rb = Solver<cplx>(*gpu, a, o).solve(block, xb, k);
    for (index_t c = 0; c < k; ++c) {
      const std::span<const cplx> bc(block.data() + static_cast<std::size_t>(c) * n, n);
      std::vector<cplx> xs;
      const SolveResult rs = Solver<cplx>(*gpu, a, o).solve(bc, xs);
      EXPECT_EQ(rb.rhs[c].iterations, rs.rhs[0].iterations) << to_string(method) << " column " << c;
      double diff = 0, norm = 0;
      for (index_t i = 0; i < n; ++i) {
        diff += std::norm(xb[static_cast<std::size_t>(c) * n + i] - xs[i]);
        norm += std::norm(xs[i]);
      }
      EXPECT_LE(std::sqrt(diff / norm), 1e-12) << to_string(method) << " column " << c;
    }
    o.use_graphs = false;
    std::vector<cplx> xp;
    const SolveResult rp = Solver<cplx>(*gpu, a, o).solve(block, xp, k);
    EXPECT_EQ(rp.iterations, rb.iterations) << to_string(method);
    EXPECT_EQ(xp, xb) << to_string(method) << ": graph replay must compute exactly what launches do";
  }
}

TEST(CudaBackendErrors, OutOfMemorySaysHowMuch) {
  PMOM_REQUIRE_GPU();
  auto gpu = make_cuda_backend<cplx>();
  try {
    gpu->template allocate<cplx>(1 << 30, 1 << 10);  // 16 TiB
    FAIL() << "a 16 TiB allocation succeeded";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("out of device memory"), std::string::npos) << what;
    EXPECT_NE(what.find("free"), std::string::npos) << what;
  }
  // The backend stays usable after the failure.
  auto b = gpu->template allocate<cplx>(10, 1);
  EXPECT_EQ(gpu->download(b).size(), 10u);
}

// A million float terms (support/summation_case.hpp): compensated sums on the device are exact
// to a few float ulps, 1e-6 relative, like the CPU's (test_precision.cpp).
template <class T> void expect_exact_compensated_sums() {
  const auto c = test::summation_case<T>();
  auto gpu = make_cuda_backend<T>();
  Block<T> x = put(*gpu, c.x), y = put(*gpu, c.y);
  Block<T> dot = gpu->template allocate<T>(1, 1);
  Block<real_t<T>> norm = gpu->template allocate<real_t<T>>(1, 1);
  gpu->dot(x, y, dot, true, Summation::compensated);
  gpu->norm2_squared(x, norm, Summation::compensated);
  EXPECT_LE(test::dot_error(c, gpu->download(dot)[0]), 1e-6);
  EXPECT_LE(std::abs(gpu->download(norm)[0] - c.norm2) / c.norm2, 1e-6);
}

TEST(CudaPrecision, CompensatedFloatSumsAreExact) {
  PMOM_REQUIRE_GPU();
  expect_exact_compensated_sums<float>();
  expect_exact_compensated_sums<std::complex<float>>();
}

// Single precision (tolerance 1e-5) and mixed refinement (1e-12) on the device against the
// CPU: both converge, mixed to its double tolerance; the solutions agree to float accuracy
// (1e-4) and to double accuracy (1e-10; condition number near 20) respectively.
TEST(CudaPrecision, SingleAndMixedSolvesEqualCpu) {
  PMOM_REQUIRE_GPU();
  const Csr<cplx> a = test::make_system<cplx>(test::SystemKind::general, 3000, 21, 1.1);
  const index_t k = 2;
  std::vector<cplx> b;
  for (index_t j = 0; j < k; ++j) {
    const auto col = test::random_vector<cplx>(a.rows, 30 + j);
    b.insert(b.end(), col.data(), col.data() + col.size());
  }
  for (const Precision p : {Precision::single_precision, Precision::mixed}) {
    SolverOptions o;
    o.method = Method::bicgstab;
    o.tolerance = p == Precision::mixed ? 1e-12 : 1e-5;
    o.stagnation_window = 300;
    std::vector<cplx> xg, xc;
    const SolveResult rg = PrecisionSolver<cplx>("cuda", a, o, p).solve(b, xg, k);
    const SolveResult rc = PrecisionSolver<cplx>("cpu", a, o, p).solve(b, xc, k);
    for (index_t j = 0; j < k; ++j) {
      const std::string what = to_string(p) + " column " + std::to_string(j);
      EXPECT_EQ(rg.rhs[j].outcome, Outcome::converged) << what << ": " << to_string(rg.rhs[j].outcome);
      EXPECT_EQ(rc.rhs[j].outcome, Outcome::converged) << what << ": " << to_string(rc.rhs[j].outcome);
      EXPECT_LE(rg.rhs[j].true_residual, p == Precision::mixed ? 1e-12 : 2e-5) << what;
      EXPECT_FALSE(rg.rhs[j].finished_in_double) << what;
    }
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < xg.size(); ++i) {
      diff += std::norm(xg[i] - xc[i]);
      norm += std::norm(xc[i]);
    }
    EXPECT_LE(std::sqrt(diff / norm), p == Precision::mixed ? 1e-10 : 1e-4) << to_string(p);
  }
}

TEST(CudaSolvers, ValuesRewrittenOnTheDeviceSolveAsTheHostMatrix) {
  PMOM_REQUIRE_GPU();
  auto gpu = make_cuda_backend<cplx>();
  test::expect_in_place_values_solve_alike(*gpu);
}

TEST(CudaSolvers, OperatorFromDeviceBlocksSolvesAsTheHostMatrix) {
  PMOM_REQUIRE_GPU();
  auto gpu = make_cuda_backend<cplx>();
  test::expect_csr_operator_from_blocks_solves_alike(*gpu);
}

TEST(CudaBackendErrors, ReportsMissingDeviceOrBuild) {
  const CudaDeviceStatus s = cuda_device_status();
  EXPECT_FALSE(s.description.empty());
  if (test::gpu_required()) {
    EXPECT_TRUE(s.available) << s.description;
  }
  if (!s.available) {
    EXPECT_THROW(make_cuda_backend<cplx>(), std::runtime_error);
    // "cuda" falls back to the CPU backend.
    EXPECT_EQ(make_backend<cplx>("cuda")->name(), make_cpu_backend<cplx>()->name());
  }
}

}  // namespace
}  // namespace pmom
