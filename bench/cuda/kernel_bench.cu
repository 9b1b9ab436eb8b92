// Per-kernel GPU benchmark (DESIGN §8): each kernel of the CUDA backend's BiCG and COCG
// iterations, timed through Backend<T>, against its floor: the fewest bytes it must move divided
// by the device's measured bandwidth. cuSPARSE's CSR SpMV on the same matrix and vectors is the
// library comparison. A development tool; not installed.
//
//   planarmom-kernel-bench [--n N] [--density D] [--nrhs K]
//
// T = std::complex<double> (16 bytes), 32-bit indices (4 bytes), n = N rows. Byte counts are
// minima: every matrix value and index read once, every vector read once and written once per
// kernel that touches it. The 1 x k scalars and the reductions' partial sums (a few KB at most)
// are left out. FLOPs count a complex multiply-add as 8.
#include <cuda_runtime.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda_support.hpp"
#include "library_spmv.hpp"
#include "planarmom/bench/bandwidth.hpp"
#include "planarmom/bench/synthetic.hpp"
#include "planarmom/bench/timing.hpp"
#include "planarmom/bench/traffic.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/convert.hpp"

namespace {

using namespace pmom;
using T = std::complex<double>;
namespace gpu = bench::gpu;

constexpr double value_bytes = sizeof(T);
constexpr double index_bytes = sizeof(index_t);
constexpr double madd_flops = 8;  // complex multiply-add: 4 multiplications, 4 additions
constexpr double min_batch_seconds = 0.05;
constexpr int batches = 5;

constexpr const char* usage = "usage: planarmom-kernel-bench [--n N] [--density D] [--nrhs K]";

// ---- command line ---------------------------------------------------------------------------

struct Options {
  index_t n = 32000;
  double density = 0.05;  // nnz ≈ density · n²: about 51 M at the defaults
  index_t nrhs = 1;
  bool help = false;
};

template <class V> V parse_number(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  V value{};
  try {
    if constexpr (std::is_integral_v<V>) value = std::stoi(text, &used);
    else value = std::stod(text, &used);
  } catch (const std::logic_error&) {  // std::invalid_argument, std::out_of_range
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw std::invalid_argument(option + ": not a number: '" + text + "'");
  return value;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "-h" || option == "--help") {
      o.help = true;
      continue;
    }
    if (option != "--n" && option != "--density" && option != "--nrhs")
      throw std::invalid_argument("unknown option '" + option + "'; " + usage);
    if (i + 1 == argc) throw std::invalid_argument(option + " needs a value; " + usage);
    const std::string value = argv[++i];
    if (option == "--n") o.n = parse_number<index_t>(option, value);
    else if (option == "--density") o.density = parse_number<double>(option, value);
    else o.nrhs = parse_number<index_t>(option, value);
  }
  if (o.n < 1) throw std::invalid_argument("--n must be at least 1");
  if (o.nrhs < 1) throw std::invalid_argument("--nrhs must be at least 1");
  return o;  // the density is checked by synthetic_mom_matrix
}

// ---- data -------------------------------------------------------------------------------------

// One column of BiCG's blocks (COCG uses them less rt, pt, qt) and the random values they are
// restored to before every timed batch, outside the timed region: thousands of repetitions
// would otherwise carry the state far from where it started. Status is rhs_running throughout.
//   β = rho/rho_old = (0.3+0.4i)/(1+0.5i) has modulus 0.45, so repeated bicg_directions
//     converge (p → M⁻¹r/(1-β)) instead of growing;
//   |sigma| > 1e6·n ≥ 1e6·|r̃ᴴM⁻¹r|, so repeated bicg_update moves x, r, r̃ by α < 1e-6 times p, q,
//     q̃ per call and they stay bounded.
// A full iteration computes sigma = p̃ᴴAp with its dot, as the solver does.
class IterationState {
 public:
  Block<T> d, x, r, rt, p, pt, q, qt, rho, rho_old, sigma;
  Block<double> rnorm2;
  Block<int> status;

  IterationState(Backend<T>& backend, index_t n, std::mt19937_64& rng) : backend_(backend) {
    for (Block<T>* b : {&d, &x, &r, &rt, &p, &pt, &q, &qt})
      keep(*b, n, bench::random_bounded_values<T>(static_cast<std::size_t>(n), rng));
    keep(rho, 1, {T(0.3, 0.4)});
    keep(rho_old, 1, {T(1.0, 0.5)});
    keep(sigma, 1, {T(1e6 * n, 0.5e6 * n)});
    rnorm2 = backend.allocate<double>(1, 1);
    status = backend.allocate<int>(1, 1);
    reset();
  }

  [[nodiscard]] BicgVectors<T> vectors(Shadow shadow) {
    const bool expl = shadow == Shadow::explicit_vectors;
    BicgVectors<T> v;
    v.shadow = shadow;
    v.inv_diag = &d;
    v.x = &x;
    v.r = &r;
    v.rt = expl ? &rt : nullptr;
    v.p = &p;
    v.pt = expl ? &pt : nullptr;
    v.q = &q;
    v.qt = expl ? &qt : nullptr;
    v.rho = &rho;
    v.rho_old = &rho_old;
    v.sigma = &sigma;
    v.rnorm2 = &rnorm2;
    v.status = &status;
    return v;
  }

  // Queued on the backend's stream.
  void reset() {
    for (auto& [block, values] : initial_) backend_.upload<T>(values, block);
    backend_.upload<int>(running_, status);
  }

  // False where a kernel flagged a breakdown (rho or sigma exactly zero): the BiCG kernels then
  // return early, and a timing that included that is too low.
  [[nodiscard]] bool still_running() { return backend_.download(status).front() == rhs_running; }

 private:
  void keep(Block<T>& block, index_t rows, std::vector<T> values) {
    block = backend_.allocate<T>(rows, 1);
    initial_.emplace_back(block, std::move(values));  // a Block copy shares the storage
  }

  Backend<T>& backend_;
  std::vector<std::pair<Block<T>, std::vector<T>>> initial_;
  std::vector<int> running_{rhs_running};
};

// Entries that HYB keeps in ELL and in COO, by the width rule make_operator uses
// (hyb_ell_width with the default HybOptions), and the rows that spill into COO.
struct HybSplit {
  double ell = 0, coo = 0, coo_rows = 0;
};

HybSplit hyb_split(const Csr<T>& a) {
  const index_t width = hyb_ell_width(a);
  HybSplit s;
  for (index_t i = 0; i < a.rows; ++i) {
    const index_t length = a.row_length(i);
    s.ell += std::min(length, width);
    if (length > width) {
      s.coo += length - width;
      s.coo_rows += 1;
    }
  }
  return s;
}

// ---- timing and the table ---------------------------------------------------------------------

// Times kernels (bench::time_per_call: one warm-up call, which also records the graph rows'
// graphs, then batches of R calls of at least 50 ms, the median of 5) and prints the rows.
//
// The floor is bytes / the READ-stream bandwidth for every row: SpMV, the dots and the norm are
// (almost) all reads, and one figure keeps the rows comparable. The fused vector updates write
// 1 to 3 of the 4 to 10 vectors they move, so for them the copy figure (also printed) is the
// fairer floor and their time/floor reads somewhat high.
class Bench {
 public:
  Bench(Backend<T>& backend, IterationState& state, double floor_gbs)
      : backend_(backend), state_(state), floor_gbs_(floor_gbs) {}

  static void print_header() {
    std::printf("%-40s %10s %10s %9s %10s %8s %9s %8s\n", "kernel", "MB min", "time us", "GB/s",
                "floor us", "t/floor", "GFLOP/s", "reps");
  }
  static void print_bandwidth(const char* label, double gbs) {
    std::printf("%-40s %10s %10s %9.1f\n", label, "", "", gbs);
  }

  // `sync` waits for the stream fn queues on; the backend's by default. Returns seconds per call.
  // Every batch starts from the same restored state and runs the same deterministic kernels, so
  // the status after the last batch says whether any batch broke down.
  double time_it(const std::string& label, double bytes, double flops,
                 const std::function<void()>& fn, const std::function<void()>& sync = {}) {
    bench::BatchTiming how;
    how.wait = [&] {
      if (sync) sync();
      else backend_.synchronize();
    };
    how.before_batch = [&] {
      state_.reset();
      backend_.synchronize();
    };
    how.min_batch_seconds = min_batch_seconds;
    how.batches = batches;
    const bench::CallTiming t = bench::time_per_call(fn, how);
    print_row(label, bytes, flops, t.seconds, t.reps, !state_.still_running());
    return t.seconds;
  }

  // reps = 0 for a row derived from a timed one.
  void print_row(const std::string& label, double bytes, double flops, double seconds, int reps,
                 bool flagged = false) {
    const double floor = bytes / (floor_gbs_ * 1e9);
    std::printf("%-40s %10.3f %10.2f %9.1f %10.2f %8.2f %9.1f", label.c_str(), bytes / 1e6,
                seconds * 1e6, bytes / seconds / 1e9, floor * 1e6, seconds / floor,
                flops / seconds / 1e9);
    if (reps > 0) std::printf(" %8d", reps);
    std::printf("%s\n", flagged ? "  (!)" : "");
    flagged_ = flagged_ || flagged;
  }

  [[nodiscard]] bool any_flagged() const { return flagged_; }

 private:
  Backend<T>& backend_;
  IterationState& state_;
  double floor_gbs_;
  bool flagged_ = false;
};

void run(const Options& o) {
  // First, while the device memory is free for the probe's buffers.
  const bench::DeviceBandwidth bw = bench::measure_device_bandwidth();
  const std::unique_ptr<Backend<T>> backend = make_cuda_backend<T>();

  const Csr<T> a = bench::synthetic_mom_matrix(o.n, o.density);
  const index_t n = a.rows;
  const double nnz = a.nnz();
  const auto csr = backend->make_operator(a, {Format::csr, AdjointMode::stored, true});
  const auto scatter =
      backend->make_operator(a, {Format::csr, AdjointMode::transposed_kernel, true});
  const auto hyb = backend->make_operator(a, {Format::hyb, AdjointMode::stored, false});

  std::mt19937_64 rng(20240601);
  IterationState s(*backend, n, rng);
  bench::gpu::CusparseSpmv<T> library(*backend, a, s.p, s.q);
  BicgVectors<T> bicg = s.vectors(Shadow::explicit_vectors);
  BicgVectors<T> cocg = s.vectors(Shadow::conjugate);

  // ---- bytes at minimum and flops ----
  const double vec = n * value_bytes;  // one n-vector read, or written, once
  // The CSR matrix once: nnz·(16+4) + (n+1)·4 (values, column indices, row pointers).
  const double csr_bytes = bench::csr_matrix_bytes(n, a.nnz(), sizeof(T));
  // CSR SpMV y = Ax = nnz·(16+4) + (n+1)·4 + n·16 (x read once) + n·16 (y written).
  // Aᴴx with the stored conjugate transpose, the same (n x n, same nnz), and cuSPARSE the same.
  const double spmv_bytes = bench::csr_spmv_bytes(n, a.nnz(), sizeof(T));
  // Aᴴx by the transposed kernel = nnz·(16+4) + (n+1)·4 + n·16 (x) + n·16·2 (y read and
  // written by the atomics). The memset that zeroes y first writes another n·16, not counted.
  const double scatter_bytes = csr_bytes + 3 * vec;
  // HYB SpMV = ell·(16+4) + coo·(16+4+4) + n·16 (x) + n·16 (y written) + coo_rows·16·2 (the COO
  // pass adds into y rows the ELL pass wrote). ELL padding slots are not counted.
  const HybSplit split = hyb_split(a);
  const double hyb_bytes = split.ell * (value_bytes + index_bytes) +
                           split.coo * (value_bytes + 2 * index_bytes) + 2 * vec +
                           split.coo_rows * 2 * value_bytes;
  const double spmv_flops = madd_flops * nnz;
  // dot = 2·n·16 (x, y read); norm2_squared = n·16.
  const double dot_bytes = 2 * vec, dot_flops = madd_flops * n;
  const double norm_bytes = vec, norm_flops = 4.0 * n;  // re² + im², accumulated
  // bicg_directions, explicit: read d, r, p, r̃, p̃ + write p, p̃ = 7·n·16; COCG: read d, r, p +
  // write p = 4·n·16. Per vector d·r (6 flops) + β·p added (8).
  const double directions_bicg_bytes = 7 * vec, directions_bicg_flops = 28.0 * n;
  const double directions_cocg_bytes = 4 * vec, directions_cocg_flops = 14.0 * n;
  // bicg_update, explicit: read x, r, r̃, p, q, q̃, d + write x, r, r̃ = 10·n·16; COCG: read x, r,
  // p, q, d + write x, r = 7·n·16. Flops: 3 (explicit) or 2 axpys at 8, rho's term
  // conj(r̃)(d r) summed (14), |r|² summed (4).
  const double update_bicg_bytes = 10 * vec, update_bicg_flops = 42.0 * n;
  const double update_cocg_bytes = 7 * vec, update_cocg_flops = 34.0 * n;
  // One BiCG iteration moves at least what its kernels must, each vector once per kernel that
  // touches it: A and the stored Aᴴ once each, and directions 7 + SpMV 2 + SpMV 2 + dot 2 +
  // update 10 = 23 vector passes: 2·(nnz·20 + (n+1)·4) + 23·n·16.
  const double bicg_bytes =
      directions_bicg_bytes + 2 * spmv_bytes + dot_bytes + update_bicg_bytes;
  const double bicg_flops = directions_bicg_flops + 2 * spmv_flops + dot_flops + update_bicg_flops;
  // One COCG iteration: A once, and directions 4 + SpMV 2 + dot 2 + update 7 = 15 vector passes:
  // nnz·20 + (n+1)·4 + 15·n·16.
  const double cocg_bytes = directions_cocg_bytes + spmv_bytes + dot_bytes + update_cocg_bytes;
  const double cocg_flops = directions_cocg_flops + spmv_flops + dot_flops + update_cocg_flops;

  std::printf("device: %s, %d SMs, L2 %.0f MiB\n", bw.device_name.c_str(), bw.sm_count,
              static_cast<double>(bw.l2_bytes) / (1 << 20));
  std::printf("matrix: synthetic MoM, n = %d, nnz = %.0f (%.2f%% dense), CSR %.1f MB; "
              "T = complex<double>, 1 right-hand side unless marked\n",
              n, nnz, 100 * nnz / (static_cast<double>(n) * n), csr_bytes / 1e6);
  std::printf("HYB: %.0f ELL entries, %.0f COO entries in %.0f rows\n", split.ell, split.coo,
              split.coo_rows);
  if (csr_bytes < static_cast<double>(bw.l2_bytes))
    std::printf("note: the CSR matrix fits in L2, so HBM bandwidth does not bound its products "
                "(t/floor may go below 1)\n");
  std::printf("floor = MB min / device read bandwidth; t/floor = time / floor\n\n");

  Bench table(*backend, s, bw.read_gbs);
  Bench::print_header();
  Bench::print_bandwidth("device copy GB/s (read+write counted)", bw.copy_gbs);
  Bench::print_bandwidth("device read GB/s (16-byte loads; floor)", bw.read_gbs);

  const double spmv_seconds =
      table.time_it("CSR SpMV y = Ax", spmv_bytes, spmv_flops,
                    [&] { backend->spmv(*csr, Transpose::none, s.p, s.q); });
  table.time_it("HYB SpMV y = Ax", hyb_bytes, spmv_flops,
                [&] { backend->spmv(*hyb, Transpose::none, s.p, s.q); });
  table.time_it("CSR A^H x, stored A^H", spmv_bytes, spmv_flops,
                [&] { backend->spmv(*csr, Transpose::conj_trans, s.pt, s.qt); });
  table.time_it("CSR A^H x, transposed kernel (atomics)", scatter_bytes, spmv_flops,
                [&] { backend->spmv(*scatter, Transpose::conj_trans, s.pt, s.qt); });
  table.time_it("cuSPARSE CSR SpMV y = Ax (ALG_DEFAULT)", spmv_bytes, spmv_flops,
                [&] { library.run(); }, [&] { library.synchronize(); });
  table.time_it("dot p~^H q", dot_bytes, dot_flops,
                [&] { backend->dot(s.pt, s.q, s.sigma, true); });
  table.time_it("norm2_squared r", norm_bytes, norm_flops,
                [&] { backend->norm2_squared(s.r, s.rnorm2); });
  table.time_it("bicg_directions (explicit)", directions_bicg_bytes, directions_bicg_flops,
                [&] { backend->bicg_directions(bicg); });
  table.time_it("bicg_update (explicit)", update_bicg_bytes, update_bicg_flops,
                [&] { backend->bicg_update(bicg); });

  // The iterations exactly as Solver::run_bicg_family steps them: launched one by one, and
  // replayed as a one-iteration graph (use_graphs; the solver replays check_every of them).
  const std::function<void()> bicg_step = [&] {
    backend->bicg_directions(bicg);
    backend->spmv(*csr, Transpose::none, s.p, s.q);
    backend->spmv(*csr, Transpose::conj_trans, s.pt, s.qt);
    backend->dot(s.pt, s.q, s.sigma, true);
    backend->bicg_update(bicg);
  };
  const std::function<void()> cocg_step = [&] {
    backend->bicg_directions(cocg);
    backend->spmv(*csr, Transpose::none, s.p, s.q);
    backend->dot(s.p, s.q, s.sigma, false);
    backend->bicg_update(cocg);
  };
  const std::unique_ptr<StepLoop> bicg_graph = backend->make_step_loop(bicg_step);
  const std::unique_ptr<StepLoop> cocg_graph = backend->make_step_loop(cocg_step);
  table.time_it("BiCG iteration (launches)", bicg_bytes, bicg_flops, bicg_step);
  table.time_it("BiCG iteration (graph)", bicg_bytes, bicg_flops, [&] { bicg_graph->run(1); });
  table.time_it("COCG iteration (launches)", cocg_bytes, cocg_flops, cocg_step);
  table.time_it("COCG iteration (graph)", cocg_bytes, cocg_flops, [&] { cocg_graph->run(1); });

  if (o.nrhs > 1) {
    const index_t k = o.nrhs;
    Block<T> xb = backend->allocate<T>(n, k), yb = backend->allocate<T>(n, k);
    backend->upload<T>(bench::random_bounded_values<T>(xb.size(), rng), xb);
    // CSR SpMV on an n x K block = nnz·(16+4) + (n+1)·4 + K·n·16·2: the matrix read once for
    // all columns. The kernel takes up to 4 columns per pass, so for K > 4 it reads A ⌈K/4⌉
    // times, which t/floor then shows.
    const double block_bytes = csr_bytes + k * 2 * vec;
    const double seconds =
        table.time_it("CSR SpMV Y = AX, K = " + std::to_string(k), block_bytes, k * spmv_flops,
                      [&] { backend->spmv(*csr, Transpose::none, xb, yb); });
    table.print_row("  per right-hand side", block_bytes / k, spmv_flops, seconds / k, 0);
    std::printf("\nper right-hand side with K = %d: %.2f us, %.2fx the one-vector CSR SpMV\n", k,
                1e6 * seconds / k, seconds / k / spmv_seconds);
  }
  if (table.any_flagged())
    std::printf("\n(!) a column left 'running' during a timed batch (rho or sigma became exactly "
                "zero): the BiCG kernels then return early, so that row's time is too low\n");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse_options(argc, argv);
    if (options.help) {
      std::puts(usage);
      return 0;
    }
    run(options);
    return 0;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "planarmom-kernel-bench: %s\n", e.what());
    return 1;
  }
}
