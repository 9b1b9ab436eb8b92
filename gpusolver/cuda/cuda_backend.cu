// The CUDA backend: device memory on one stream, operators, and the kernels' launchers behind
// Backend<T>; iterations replayed as CUDA graphs.
#include <cstdio>
#include <cstring>
#include <map>
#include <type_traits>
#include <stdexcept>

#include "cuda_backend.hpp"
#include "cuda_error.hpp"
#include "cuda_relaxation.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/convert.hpp"

namespace pmom {
namespace cuda {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line) {
  throw std::runtime_error(std::string("CUDA error in ") + call + " (" + file + ":" +
                           std::to_string(line) + "): " + cudaGetErrorName(status) + ": " +
                           cudaGetErrorString(status));
}

namespace {

std::string gib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1u << 30));
  return buf;
}

// Replays `count` iterations as one instantiated graph per distinct count.
class GraphLoop final : public StepLoop {
 public:
  GraphLoop(std::function<void()> step, cudaStream_t stream)
      : step_(std::move(step)), stream_(stream) {}
  ~GraphLoop() override {
    for (auto& [count, exec] : graphs_) cudaGraphExecDestroy(exec);
  }
  void run(int count) override {
    if (count <= 0) return;
    auto it = graphs_.find(count);
    if (it == graphs_.end()) it = graphs_.emplace(count, capture(count)).first;
    PMOM_CUDA(cudaGraphLaunch(it->second, stream_));
  }

 private:
  cudaGraphExec_t capture(int count) {
    PMOM_CUDA(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
      for (int i = 0; i < count; ++i) step_();
    } catch (...) {
      cudaGraph_t broken = nullptr;
      cudaStreamEndCapture(stream_, &broken);
      if (broken) cudaGraphDestroy(broken);
      throw;
    }
    cudaGraph_t graph = nullptr;
    PMOM_CUDA(cudaStreamEndCapture(stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t status = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    check(status, "cudaGraphInstantiate", __FILE__, __LINE__);
    return exec;
  }

  std::function<void()> step_;
  cudaStream_t stream_;
  std::map<int, cudaGraphExec_t> graphs_;
};

template <class T> class CudaBackend final : public Backend<T> {
 public:
  CudaBackend() {
    int device = 0;
    PMOM_CUDA(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    PMOM_CUDA(cudaGetDeviceProperties(&prop, device));
    name_ = std::string("cuda (") + prop.name + ")";
    PMOM_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    // Fixed-size scratch so that no kernel ever allocates, during graph capture included.
    scratch_.max_blocks = 8 * prop.multiProcessorCount;
    scratch_.max_values = 4;
    scratch_.max_columns = 64;
    partials_ = this->allocate_bytes(static_cast<std::size_t>(scratch_.max_blocks) *
                                     scratch_.max_values * scratch_.max_columns *
                                     ReduceScratch::max_accumulator_bytes);
    tickets_ = this->template allocate<unsigned>(scratch_.max_columns, 1);
    scratch_.partials = partials_.get();
    scratch_.tickets = tickets_.data();
    PMOM_CUDA(cudaMallocHost(&staging_, staging_bytes));
  }
  ~CudaBackend() override {
    cudaStreamSynchronize(stream_);
    cudaFreeHost(staging_);
    cudaStreamDestroy(stream_);
  }

  [[nodiscard]] std::string name() const override { return name_; }
  [[nodiscard]] bool on_device() const override { return true; }
  [[nodiscard]] std::size_t device_memory_free() const override {
    std::size_t free = 0, total = 0;
    PMOM_CUDA(cudaMemGetInfo(&free, &total));
    return free;
  }

  std::shared_ptr<void> allocate_bytes(std::size_t bytes) override {
    void* p = nullptr;
    const cudaError_t status = cudaMalloc(&p, std::max<std::size_t>(bytes, 1));
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // clear the sticky-free error so later calls work
      std::size_t free = 0, total = 0;
      cudaMemGetInfo(&free, &total);
      throw std::runtime_error("CUDA backend: out of device memory: asked for " + gib(bytes) +
                               ", " + gib(free) + " free of " + gib(total));
    }
    check(status, "cudaMalloc", __FILE__, __LINE__);
    std::shared_ptr<void> owned(p, [](void* q) { cudaFree(q); });
    PMOM_CUDA(cudaMemsetAsync(p, 0, bytes, stream_));
    return owned;
  }

  void copy_bytes(void* dst, const void* src, std::size_t bytes, CopyKind kind) override {
    if (bytes == 0) return;
    // Small reads (the per-iteration stopping test) go through pinned memory: a direct copy
    // into pageable memory costs a staging round of its own.
    if (kind == CopyKind::to_host && bytes <= staging_bytes) {
      PMOM_CUDA(cudaMemcpyAsync(staging_, src, bytes, cudaMemcpyDeviceToHost, stream_));
      PMOM_CUDA(cudaStreamSynchronize(stream_));
      std::memcpy(dst, staging_, bytes);
      return;
    }
    const cudaMemcpyKind k = kind == CopyKind::to_backend ? cudaMemcpyHostToDevice
                             : kind == CopyKind::to_host  ? cudaMemcpyDeviceToHost
                                                          : cudaMemcpyDeviceToDevice;
    PMOM_CUDA(cudaMemcpyAsync(dst, src, bytes, k, stream_));
    if (kind == CopyKind::to_host) PMOM_CUDA(cudaStreamSynchronize(stream_));
  }

  void synchronize() override { PMOM_CUDA(cudaStreamSynchronize(stream_)); }

  // Every check costs a device-to-host copy and a synchronisation, more than a whole iteration
  // of a small system: check every 8 iterations, replayed as one graph.
  [[nodiscard]] int default_check_interval() const override { return 8; }

  std::unique_ptr<StepLoop> make_step_loop(std::function<void()> step) override {
    return std::make_unique<GraphLoop>(std::move(step), stream_);
  }

  std::unique_ptr<Operator<T>> make_operator(const Csr<T>& a,
                                             const OperatorOptions& options) override {
    a.validate();
    auto op = std::make_unique<CudaOperator<T>>();
    op->a = device_matrix(a, options);
    op->mode = options.adjoint;
    op->has_adjoint = options.need_adjoint;
    if (options.need_adjoint && options.adjoint == AdjointMode::stored)
      op->adjoint = device_matrix(conj_transpose(a), options);
    return op;
  }

  std::unique_ptr<Operator<T>> make_csr_operator(index_t cols, Block<index_t> row_ptr,
                                                 Block<index_t> col_idx, Block<T> values,
                                                 const OperatorOptions& options) override {
    this->check_csr_operator_input(row_ptr, col_idx, values, options);
    auto op = std::make_unique<CudaOperator<T>>();
    DeviceMatrix<T>& m = op->a;
    m.format = Format::csr;
    m.rows = row_ptr.rows() - 1;
    m.cols = cols;
    m.nnz = values.size();
    m.row_ptr = std::move(row_ptr);
    m.col = std::move(col_idx);
    m.val = std::move(values);
    set_csr_lanes(m, this->download(m.row_ptr));
    op->mode = options.adjoint;
    op->has_adjoint = options.need_adjoint;
    return op;
  }

  T* csr_values(Operator<T>& a) override {
    return reinterpret_cast<T*>(csr_operator(a, "csr_values").a.val.data());
  }
  void inverse_diagonal(const Operator<T>& a, Block<T>& out) override {
    if (const auto* f = dynamic_cast<const FunctionOperator<T>*>(&a)) {
      if (out.rows() != a.rows() || out.cols() != 1)
        throw std::invalid_argument("CUDA inverse_diagonal: out is " + std::to_string(out.rows()) +
                                    " x " + std::to_string(out.cols()) + " for " +
                                    std::to_string(a.rows()) + " rows");
      const std::vector<T> inverse = f->inverse_diagonal();
      copy_bytes(out.data(), inverse.data(), inverse.size() * sizeof(T), CopyKind::to_backend);
      synchronize();  // `inverse` goes out of scope
      return;
    }
    const CudaOperator<T>& o = csr_operator(a, "inverse_diagonal");
    if (out.rows() != o.rows() || out.cols() != 1)
      throw std::invalid_argument("CUDA inverse_diagonal: out is " + std::to_string(out.rows()) +
                                  " x " + std::to_string(out.cols()) + " for " +
                                  std::to_string(o.rows()) + " rows");
    launch_inverse_diagonal(o.a, out.data(), stream_);
  }

  void gather(const T* values, const Block<std::int64_t>& positions, Block<T>& out) override {
    if (out.size() != positions.size())
      throw std::invalid_argument("CUDA gather: " + std::to_string(positions.size()) +
                                  " positions for " + std::to_string(out.size()) + " values");
    launch_gather(values, positions.data(), static_cast<long long>(positions.size()), out.data(),
                  stream_);
  }

  long long invert_blocks(Block<T>& blocks, std::span<const index_t> sizes) override {
    DenseKernels<T>::check_blocks_input(blocks, sizes);
    return launch_invert_blocks(*this, block_inverse_, blocks.data(), sizes, stream_);
  }

  using DenseKernels<T>::make_dense_inverse;
  std::shared_ptr<const Operator<T>> make_dense_inverse(Block<T> a, FactorPrecision) override {
    DenseKernels<T>::check_dense_input(a);
    return launch_dense_inverse(*this, std::move(a), stream_);
  }

  void solve_dense(Block<T> a, Block<T>& b) override {
    DenseKernels<T>::check_dense_input(a, &b);
    launch_dense_solve(*this, std::move(a), b, stream_);
  }

  void combine_rows(const T* x, index_t x_rows, const Block<index_t>& i1,
                    const Block<real_t<T>>& c1, const Block<index_t>& i2,
                    const Block<real_t<T>>& c2, T* out, index_t columns,
                    T alpha, T beta) override {
    launch_combine_rows(x, x_rows, i1.data(), c1.data(), i2.data(), c2.data(), out, i1.rows(),
                        columns, alpha, beta, stream_);
  }

  void fold_dense(const Block<T>& a, const Block<index_t>& kept, const Block<index_t>& partner,
                  const Block<real_t<T>>& weight, Block<T>& out) override {
    DenseKernels<T>::check_fold_input(a, kept, partner, weight, out);
    launch_fold_dense(a.data(), a.rows(), kept.data(), partner.data(), weight.data(), out.rows(),
                      out.data(), stream_);
  }

  void spmv(const Operator<T>& a, Transpose op, const Block<T>& x, Block<T>& y, T alpha,
            T beta) override {
    if (const auto* f = dynamic_cast<const FunctionOperator<T>*>(&a)) {
      if (x.rows() != f->cols() || y.rows() != f->rows() || x.cols() != y.cols() ||
          (x.data() == y.data() && x.size() > 0))
        throw std::invalid_argument("CUDA spmv: x is " + std::to_string(x.rows()) + " x " +
                                    std::to_string(x.cols()) + ", y " + std::to_string(y.rows()) +
                                    " x " + std::to_string(y.cols()) + " (different blocks) for a " +
                                    std::to_string(f->rows()) + " x " + std::to_string(f->cols()) +
                                    " operator");
      if (op == Transpose::conj_trans)
        return f->apply_adjoint(x.data(), y.data(), x.cols(), alpha, beta, stream_);
      return f->apply(x.data(), y.data(), x.cols(), alpha, beta, stream_);
    }
    const auto* o = dynamic_cast<const CudaOperator<T>*>(&a);
    if (!o) throw std::invalid_argument("CUDA backend: operator made by another backend");
    const bool adj = op == Transpose::conj_trans;
    const index_t in = adj ? o->rows() : o->cols(), out = adj ? o->cols() : o->rows();
    if (x.rows() != in || y.rows() != out || x.cols() != y.cols())
      throw std::invalid_argument("CUDA spmv: x is " + std::to_string(x.rows()) + " x " +
                                  std::to_string(x.cols()) + ", y " + std::to_string(y.rows()) +
                                  " x " + std::to_string(y.cols()) + " for a " +
                                  std::to_string(o->rows()) + " x " + std::to_string(o->cols()) +
                                  " operator");
    if (x.data() == y.data() && x.size() > 0)
      throw std::invalid_argument("CUDA spmv: x and y must be different blocks");
    if (adj && !o->has_adjoint)
      throw std::logic_error("CUDA spmv: operator was made without an adjoint (need_adjoint)");
    if (!adj) return launch_spmv<T>({&o->a, x.data(), y.data(), x.cols(), alpha, beta}, stream_);
    if (o->adjoint)
      return launch_spmv<T>({&*o->adjoint, x.data(), y.data(), x.cols(), alpha, beta}, stream_);
    launch_spmv_transposed<T>({&o->a, x.data(), y.data(), x.cols(), alpha, beta}, stream_);
  }

  void dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
           Summation summation) override {
    launch_dot(x, y, out, conjugated, summation, scratch_, stream_);
  }
  void norm2_squared(const Block<T>& x, Block<real_t<T>>& out, Summation summation) override {
    launch_norm2(x, out, summation, scratch_, stream_);
  }
  void bicg_reduce(BicgVectors<T>& v) override { launch_bicg_reduce(v, scratch_, stream_); }
  void bicg_directions(BicgVectors<T>& v) override { launch_bicg_directions(v, scratch_, stream_); }
  void bicg_update(BicgVectors<T>& v) override { launch_bicg_update(v, scratch_, stream_); }
  void bicgstab_directions(BicgstabVectors<T>& v) override {
    launch_bicgstab_directions(v, scratch_, stream_);
  }
  void bicgstab_half_step(BicgstabVectors<T>& v) override {
    launch_bicgstab_half_step(v, scratch_, stream_);
  }
  void bicgstab_update(BicgstabVectors<T>& v) override {
    launch_bicgstab_update(v, scratch_, stream_);
  }
  void bicgstab_omega_dots(BicgstabVectors<T>& v) override {
    launch_bicgstab_omega_dots(v, scratch_, stream_);
  }

  // Natural-order sweeps would be one row per step: colours only.
  [[nodiscard]] bool sequential_sweeps() const override { return false; }

  std::unique_ptr<Sweeper<T>> make_sweeper(const Csr<T>& a, std::span<const T> inv_diag,
                                           std::span<const index_t> colour_ptr) override {
    RelaxationKernels<T>::check_sweep_input(a, inv_diag, colour_ptr);
    if (colour_ptr.empty())
      throw std::invalid_argument("CUDA backend: natural-order sweeps go row after row; give a "
                                  "multicolour ordering");
    auto s = std::make_unique<CudaSweeper<T>>();
    s->a = device_matrix(a, OperatorOptions{});  // CSR: the sweeps walk rows
    s->inv_diag = to_device_block(*this, std::vector<T>(inv_diag.begin(), inv_diag.end()));
    s->colour_ptr.assign(colour_ptr.begin(), colour_ptr.end());
    return s;
  }
  void sor_sweep(const Sweeper<T>& s, SweepDirection direction, bool from_zero, real_t<T> omega,
                 const Block<T>& b, Block<T>& x, const Block<int>& status) override {
    const auto* sweeper = dynamic_cast<const CudaSweeper<T>*>(&s);
    if (!sweeper) throw std::invalid_argument("CUDA backend: sweeper made by another backend");
    launch_sor_sweep(*sweeper, direction, from_zero, T(omega), b, x, status, stream_);
  }
  void diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x,
                       const Block<int>& status) override {
    launch_diagonal_update(d, r, x, status, stream_);
  }

 private:
  // The operator as this backend made it, in CSR without a stored adjoint (csr_values).
  template <class Op> static auto& csr_operator(Op& a, const char* what) {
    using Cuda = std::conditional_t<std::is_const_v<Op>, const CudaOperator<T>, CudaOperator<T>>;
    auto* o = dynamic_cast<Cuda*>(&a);
    if (!o) throw std::invalid_argument("CUDA backend: operator made by another backend");
    if (o->a.format != Format::csr || o->adjoint)
      throw std::logic_error(std::string("CUDA ") + what +
                             ": the operator is not in CSR format without a stored adjoint");
    return *o;
  }

  // The CSR kernel's lanes per row from the row lengths: the power of two at or above the mean
  // row length, 2 to 32, and four warps for long rows (see csr_long_rows_kernel).
  void set_csr_lanes(DeviceMatrix<T>& m, const std::vector<index_t>& row_ptr) {
    const double mean = m.rows > 0 ? static_cast<double>(m.nnz) / m.rows : 0.0;
    m.threads_per_row = 2;
    while (m.threads_per_row < 32 && m.threads_per_row < mean) m.threads_per_row *= 2;
    if (mean >= 256) m.threads_per_row = 128;
    // Long rows: over 256 entries and 16 group-widths (64 rounds of the group's 4-entry
    // loads), where four warps finish them at least 4x sooner.
    if (m.threads_per_row <= 32) {
      m.long_row = std::max<index_t>(256, 16 * m.threads_per_row);
      std::vector<index_t> rows;
      for (index_t i = 0; i < m.rows; ++i)
        if (row_ptr[i + 1] - row_ptr[i] > m.long_row) rows.push_back(i);
      if (!rows.empty()) m.long_rows = to_device_block(*this, rows);
    }
  }

  DeviceMatrix<T> device_matrix(const Csr<T>& a, const OperatorOptions& options) {
    DeviceMatrix<T> m;
    m.format = options.format;
    m.rows = a.rows;
    m.cols = a.cols;
    m.nnz = static_cast<std::size_t>(a.nnz());
    if (m.format == Format::csr) {
      m.row_ptr = to_device_block(*this, a.row_ptr);
      m.col = to_device_block(*this, a.col_idx);
      m.val = to_device_block(*this, a.values);
      set_csr_lanes(m, a.row_ptr);
    } else if (m.format == Format::hyb) {
      const Hyb<T> h = to_hyb(a);
      m.ell_width = h.ell_width;
      m.ell_col = to_device_block(*this, h.ell_col);
      m.ell_val = to_device_block(*this, h.ell_val);
      m.coo_nnz = h.coo.nnz();
      m.coo_row = to_device_block(*this, h.coo.row_idx);
      m.coo_col = to_device_block(*this, h.coo.col_idx);
      m.coo_val = to_device_block(*this, h.coo.values);
    } else {
      upload_format(*this, a, options, m);
    }
    return m;
  }

  static constexpr std::size_t staging_bytes = 64 * 1024;
  std::string name_;
  cudaStream_t stream_ = nullptr;
  void* staging_ = nullptr;
  ReduceScratch scratch_;
  std::shared_ptr<void> partials_;
  Block<unsigned> tickets_;
  BlockInverse<T> block_inverse_;
};

}  // namespace
}  // namespace cuda

CudaDeviceStatus cuda_device_status() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return {false, std::string("no usable CUDA device: ") + cudaGetErrorString(status)};
  }
  if (count == 0) return {false, "no CUDA device visible"};
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess)
    return {false, "CUDA device properties could not be read"};
  char desc[256];
  std::snprintf(desc, sizeof desc, "%s, %d SMs, %.1f GiB, L2 %.0f MiB, sm_%d%d", prop.name,
                prop.multiProcessorCount, static_cast<double>(prop.totalGlobalMem) / (1u << 30),
                prop.l2CacheSize / 1048576.0, prop.major, prop.minor);
  return {true, desc};
}

int select_cuda_device(int local_rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return -1;
  }
  const int ordinal = local_rank % count;
  if (cudaSetDevice(ordinal) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return ordinal;
}

template <class T> std::unique_ptr<Backend<T>> make_cuda_backend() {
  const CudaDeviceStatus s = cuda_device_status();
  if (!s.available) throw std::runtime_error("CUDA backend unavailable: " + s.description);
  return std::make_unique<cuda::CudaBackend<T>>();
}

#define PMOM_INSTANTIATE(T) template std::unique_ptr<Backend<T>> make_cuda_backend<T>();
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
