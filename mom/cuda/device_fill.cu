// DeviceFill (device_fill.hpp): the plan, basis functions and pattern uploaded once; per
// frequency the Green's table samples go up and three kernels run: table entries, their
// symmetric copies, and Z on the pattern with the loaded gaps' loads.
#include <cuda_runtime.h>

#include <cuda/std/complex>
#include <algorithm>
#include <stdexcept>
#include <string>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "device_array.cuh"

namespace pmom::mom {
namespace {

void check(cudaError_t status, const char* what) { cuda_check(status, "device fill", what); }

__global__ void table_entries(GreensTableView<dc> greens, const int* rule_start,
                              const double* rule_t, const double* rule_w,
                              const TablePlan::Entry* entries, long long count, double dx,
                              double dy, dc* values) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= count) return;
  const TablePlan::Entry e = entries[k];
  values[e.slot] = table_entry(greens, rule_start, rule_t, rule_w, e, dx, dy);
}

__global__ void copy_slots(const long long* to, const long long* from, long long count,
                           dc* values) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k < count) values[to[k]] = values[from[k]];
}

// One stored entry per thread; the upper triangle's evaluation for both halves, as the host
// assembly does.
__global__ void pattern_entries(TableViewT<dc> view, const RooftopCells* cells,
                                const index_t* row_of, const index_t* col_idx, long long nnz,
                                double charge_reach2, dc* z) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= nnz) return;
  const index_t m = row_of[k], c = col_idx[k];
  z[k] = c >= m ? basis_entry(view, cells[m], cells[c], charge_reach2)
                : basis_entry(view, cells[c], cells[m], charge_reach2);
}

// The dense Z, row-major in rows of ld, one entry per thread.
__global__ void dense_entries(TableViewT<dc> view, const RooftopCells* cells, index_t n,
                              index_t ld, dc* z) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= static_cast<long long>(n) * n) return;
  const auto m = static_cast<index_t>(k / n), c = static_cast<index_t>(k % n);
  z[static_cast<long long>(m) * ld + c] =
      c >= m ? basis_entry(view, cells[m], cells[c]) : basis_entry(view, cells[c], cells[m]);
}

// A loaded gap's load times a², a the cell's side across the gap (add_gap_loads).
__global__ void add_loads(const long long* slot, const int* gap, const double* across,
                          long long count, const dc* loads, dc* z) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k < count) z[slot[k]] += loads[gap[k]] * across[k] * across[k];
}

__global__ void add_surface(const long long* slot, const double* gram, const double* image,
                            long long count, dc sheet, dc image_z, dc* z) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k < count) z[slot[k]] += sheet * gram[k] + image_z * image[k];
}

constexpr int kBlock = 128;
unsigned blocks(long long count) { return static_cast<unsigned>((count + kBlock - 1) / kBlock); }

}  // namespace

struct DeviceFill::Impl {
  cudaStream_t stream = nullptr;
  double dx_m = 0, dy_m = 0;
  double frequency_hz = 0;  // of the tables started last
  int nx = 0, ny = 0;
  long long table_size = 0;
  std::vector<long long> start;  // the plan's, on the host
  bool edge_profiles = true;
  FillPattern pattern;
  DeviceArray<int> rule_start;
  DeviceArray<double> rule_t, rule_w;
  DeviceArray<TablePlan::Entry> entries;
  DeviceArray<long long> copy_to, copy_from, table_start;
  DeviceArray<RooftopCells> cells;
  DeviceArray<index_t> row_of, col_idx;
  DeviceArray<long long> load_slot, gram_slot;
  DeviceArray<int> load_gap;
  DeviceArray<double> load_across;
  DeviceArray<double> gram, image;
  DeviceArray<dc> tables, remainder, quasi_static, loads;
  std::size_t gaps = 0;  // loaded: the ports' and the lumped elements' (Mesh::loaded_gaps)

  // Waits for the last start_tables' kernels; `caller` names a reader called before any.
  void wait_for_tables(const char* caller) const {
    if (!(frequency_hz > 0))
      throw std::logic_error(std::string("DeviceFill: ") + caller + " before start_tables()");
    check(cudaStreamSynchronize(stream), "tables");
  }
};

DeviceFill::DeviceFill(const geometry::Mesh& mesh, const TablePlan& plan, FillPattern pattern,
                       std::span<const GramEntry> gram)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  const auto n = static_cast<index_t>(mesh.basis().size());
  const bool csr_fits =
      pattern.row_ptr.size() == static_cast<std::size_t>(n) + 1 &&
      pattern.col_idx.size() == static_cast<std::size_t>(pattern.row_ptr.back());
  if (pattern.n != n || (!pattern.dense && !csr_fits))
    throw std::invalid_argument("DeviceFill: the pattern is not an N x N CSR pattern for the "
                                "mesh's " + std::to_string(n) + " basis functions");
  if (plan.nx != mesh.grid().nx || plan.ny != mesh.grid().ny ||
      plan.dx_mm != mesh.grid().dx_mm || plan.dy_mm != mesh.grid().dy_mm)
    throw std::invalid_argument("DeviceFill: the table plan was made for another grid");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    throw std::runtime_error("DeviceFill: no CUDA device");
  }
  check(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  d.dx_m = plan.dx_m;
  d.dy_m = plan.dy_m;
  d.nx = plan.nx;
  d.ny = plan.ny;
  d.table_size = plan.size;
  d.start = plan.start;
  d.edge_profiles = plan.edge_profiles;
  d.rule_start = DeviceArray<int>(plan.rule_start, d.stream);
  d.rule_t = DeviceArray<double>(plan.rule_t, d.stream);
  d.rule_w = DeviceArray<double>(plan.rule_w, d.stream);
  d.entries = DeviceArray<TablePlan::Entry>(plan.entries, d.stream);
  d.copy_to = DeviceArray<long long>(plan.copy_to, d.stream);
  d.copy_from = DeviceArray<long long>(plan.copy_from, d.stream);
  d.table_start = DeviceArray<long long>(plan.start, d.stream);
  d.cells = DeviceArray<RooftopCells>(rooftop_cells(mesh, plan.edge_profiles), d.stream);
  if (!pattern.dense) {
    std::vector<index_t> row_of(pattern.col_idx.size());
    for (index_t m = 0; m < n; ++m)
      for (index_t k = pattern.row_ptr[m]; k < pattern.row_ptr[m + 1]; ++k) row_of[k] = m;
    d.row_of = DeviceArray<index_t>(row_of, d.stream);
    d.col_idx = DeviceArray<index_t>(pattern.col_idx, d.stream);
  }
  // Where entry (m, c) is in `values`.
  const auto slot_of = [&](index_t m, index_t c, const std::string& what) -> long long {
    if (pattern.dense) return static_cast<long long>(m) * pattern.row_length() + c;
    const std::int64_t at = csr_position(pattern.row_ptr, pattern.col_idx, m, c);
    if (at < 0)
      throw std::invalid_argument("DeviceFill: the pattern lacks entry (" + std::to_string(m) +
                                  ", " + std::to_string(c) + ") of " + what);
    return at;
  };
  // The gaps' pairs, where add_gap_loads puts each loaded gap's load.
  std::vector<long long> slots;
  std::vector<int> gap_of;
  std::vector<double> across;
  const std::vector<geometry::LoadedGap> gaps = mesh.loaded_gaps();
  for (std::size_t g = 0; g < gaps.size(); ++g) {
    for (const int m : *gaps[g].basis)
      for (const int c : *gaps[g].basis) {
        slots.push_back(slot_of(m, c, "the loaded gap of " + gaps[g].name));
        gap_of.push_back(static_cast<int>(g));
        across.push_back(gaps[g].across_mm * 1e-3);
      }
  }
  d.gaps = gaps.size();
  d.load_slot = DeviceArray<long long>(slots, d.stream);
  d.load_gap = DeviceArray<int>(gap_of, d.stream);
  d.load_across = DeviceArray<double>(across, d.stream);
  // The strips' loss entries, where add_surface_impedance puts their impedances.
  std::vector<long long> gram_slots;
  std::vector<double> gram_values, image_values;
  for (const GramEntry& e : gram) {
    gram_slots.push_back(slot_of(e.row, e.col, "the strips' loss terms"));
    gram_values.push_back(e.value);
    image_values.push_back(e.image);
  }
  d.gram_slot = DeviceArray<long long>(gram_slots, d.stream);
  d.gram = DeviceArray<double>(gram_values, d.stream);
  d.image = DeviceArray<double>(image_values, d.stream);
  d.tables = DeviceArray<dc>(static_cast<std::size_t>(plan.size));
  check(cudaMemsetAsync(d.tables.data, 0, sizeof(dc) * d.tables.size, d.stream), "cudaMemset");
  d.loads = DeviceArray<dc>(std::max<std::size_t>(d.gaps, 1));
  d.pattern = std::move(pattern);
  check(cudaStreamSynchronize(d.stream), "upload");
}

DeviceFill::~DeviceFill() {
  if (impl_ && impl_->stream) {
    cudaStreamSynchronize(impl_->stream);
    cudaStreamDestroy(impl_->stream);
  }
}

std::size_t DeviceFill::nnz() const { return impl_->pattern.nnz(); }

void DeviceFill::fill(const GreensTable& greens, std::span<const std::complex<double>> loads,
                      std::complex<double>* values, const StripImpedance& strip) {
  start_tables(greens);
  assemble(loads, values, strip);
}

void DeviceFill::start_tables(const GreensTable& greens) {
  Impl& d = *impl_;
  const GreensTableView<std::complex<double>> host = greens.view();
  d.remainder.upload(host.remainder, 2 * static_cast<std::size_t>(host.remainder_count),
                     d.stream);
  d.quasi_static.upload(host.quasi_static, 2 * static_cast<std::size_t>(host.quasi_static_count),
                        d.stream);
  GreensTableView<dc> g;
  g.remainder = d.remainder.data;
  g.quasi_static = d.quasi_static.data;
  g.remainder_count = host.remainder_count;
  g.quasi_static_count = host.quasi_static_count;
  g.scale_rho = host.scale_rho;
  g.inv_length = host.inv_length;
  g.step = host.step;
  g.c_a = dc(host.c_a.real(), host.c_a.imag());
  g.c_v = dc(host.c_v.real(), host.c_v.imag());

  const auto entries = static_cast<long long>(d.entries.size);
  if (entries > 0)
    table_entries<<<blocks(entries), kBlock, 0, d.stream>>>(g, d.rule_start.data, d.rule_t.data,
                                                           d.rule_w.data, d.entries.data, entries,
                                                           d.dx_m, d.dy_m, d.tables.data);
  const auto copies = static_cast<long long>(d.copy_to.size);
  if (copies > 0)
    copy_slots<<<blocks(copies), kBlock, 0, d.stream>>>(d.copy_to.data, d.copy_from.data, copies,
                                                       d.tables.data);
  check(cudaGetLastError(), "kernel launch");
  d.frequency_hz = greens.frequency();
}

void DeviceFill::assemble(std::span<const std::complex<double>> loads,
                          std::complex<double>* values, const StripImpedance& strip) {
  Impl& d = *impl_;
  if (loads.size() != d.gaps)
    throw std::invalid_argument("DeviceFill: " + std::to_string(loads.size()) + " loads for " +
                                std::to_string(d.gaps) + " loaded gaps");
  if (!(d.frequency_hz > 0))
    throw std::logic_error("DeviceFill: assemble() before start_tables()");
  d.loads.upload(loads.data(), loads.size(), d.stream);
  TableViewT<dc> view;
  view.values = d.tables.data;
  view.start = d.table_start.data;
  view.nx = d.nx;
  view.ny = d.ny;
  view.jw = dc(0.0, 2.0 * pi * d.frequency_hz);
  view.inv_a2 = 1.0 / (d.dx_m * d.dx_m);
  view.y_charge = d.dx_m / d.dy_m;
  auto* z = reinterpret_cast<dc*>(values);
  const auto nnz = static_cast<long long>(d.pattern.nnz());
  const long long n2 = static_cast<long long>(d.pattern.n) * d.pattern.n;
  if (d.pattern.dense && n2 > 0)
    dense_entries<<<blocks(n2), kBlock, 0, d.stream>>>(view, d.cells.data, d.pattern.n,
                                                       d.pattern.row_length(), z);
  else if (nnz > 0)
    pattern_entries<<<blocks(nnz), kBlock, 0, d.stream>>>(view, d.cells.data, d.row_of.data,
                                                         d.col_idx.data, nnz,
                                                         d.pattern.charge_reach2, z);
  const auto load_count = static_cast<long long>(d.load_slot.size);
  if (load_count > 0)
    add_loads<<<blocks(load_count), kBlock, 0, d.stream>>>(d.load_slot.data, d.load_gap.data,
                                                          d.load_across.data, load_count,
                                                          d.loads.data, z);
  const auto gram_count = static_cast<long long>(d.gram_slot.size);
  if (gram_count > 0 && !strip.zero())
    add_surface<<<blocks(gram_count), kBlock, 0, d.stream>>>(
        d.gram_slot.data, d.gram.data, d.image.data, gram_count,
        dc(strip.sheet.real(), strip.sheet.imag()), dc(strip.image.real(), strip.image.imag()), z);
  check(cudaGetLastError(), "kernel launch");
  check(cudaStreamSynchronize(d.stream), "fill");
}

TableView DeviceFill::device_tables() const {
  const Impl& d = *impl_;
  d.wait_for_tables("device_tables()");
  TableView view;
  view.values = reinterpret_cast<const std::complex<double>*>(d.tables.data);
  view.start = d.table_start.data;
  view.nx = d.nx;
  view.ny = d.ny;
  view.jw = std::complex<double>(0.0, 2.0 * pi * d.frequency_hz);
  view.inv_a2 = 1.0 / (d.dx_m * d.dx_m);
  view.y_charge = d.dx_m / d.dy_m;
  return view;
}

std::vector<std::complex<double>> DeviceFill::tables() const {
  std::vector<std::complex<double>> host(static_cast<std::size_t>(impl_->table_size));
  check(cudaMemcpy(host.data(), impl_->tables.data, sizeof(dc) * host.size(),
                   cudaMemcpyDeviceToHost),
        "cudaMemcpy");
  return host;
}

InteractionTables DeviceFill::charge_tables() const {
  const Impl& d = *impl_;
  d.wait_for_tables("charge_tables()");
  InteractionTables t;
  t.frequency_hz = d.frequency_hz;
  t.dx_m = d.dx_m;
  t.dy_m = d.dy_m;
  t.nx = d.nx;
  t.ny = d.ny;
  t.edge_profiles = d.edge_profiles;
  t.start.assign(static_cast<std::size_t>(kTables), -1);
  const long long size = static_cast<long long>(2 * d.nx - 1) * (2 * d.ny - 1);
  long long held = 0;
  for (int table = kVectorTables; table < kTables; ++table)
    if (d.start[static_cast<std::size_t>(table)] >= 0) held += size;
  t.values.resize(static_cast<std::size_t>(held));
  long long at = 0;
  for (int table = kVectorTables; table < kTables; ++table) {
    const long long from = d.start[static_cast<std::size_t>(table)];
    if (from < 0) continue;
    t.start[static_cast<std::size_t>(table)] = at;
    check(cudaMemcpy(t.values.data() + at, d.tables.data + from, sizeof(dc) * size,
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    at += size;
  }
  return t;
}

void upload_via_border(const ViaBorder& border, std::complex<double>* z, index_t ld) {
  const auto n_r = static_cast<std::size_t>(border.rooftops);
  const auto n_v = static_cast<std::size_t>(border.vias);
  if (n_v == 0) return;
  if (static_cast<std::size_t>(ld) != n_r + n_v)
    throw std::invalid_argument("upload_via_border: Z's rows of " + std::to_string(ld) +
                                " for a border of " + std::to_string(n_r + n_v));
  // The vias' rows, [B | Z_vv] each, and their columns (Bᵀ beside the functions' rows).
  std::vector<std::complex<double>> rows(n_v * (n_r + n_v)), columns(n_r * n_v);
  for (std::size_t v = 0; v < n_v; ++v) {
    for (std::size_t m = 0; m < n_r; ++m) {
      rows[v * (n_r + n_v) + m] = border.rows[v * n_r + m];
      columns[m * n_v + v] = border.rows[v * n_r + m];
    }
    for (std::size_t u = 0; u < n_v; ++u)
      rows[v * (n_r + n_v) + n_r + u] = border.block[v * n_v + u];
  }
  const std::size_t pitch = sizeof(dc) * static_cast<std::size_t>(ld);
  check(cudaMemcpy(z + n_r * static_cast<std::size_t>(ld), rows.data(), sizeof(dc) * rows.size(),
                   cudaMemcpyHostToDevice),
        "cudaMemcpy");
  check(cudaMemcpy2D(z + n_r, pitch, columns.data(), sizeof(dc) * n_v, sizeof(dc) * n_v, n_r,
                     cudaMemcpyHostToDevice),
        "cudaMemcpy2D");
}

}  // namespace pmom::mom
