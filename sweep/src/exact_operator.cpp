// ExactOperator (exact_operator.hpp): the layout and the correction's pattern once; per
// frequency the product's kernels, the correction's values and Z's exact entries.
#include "planarmom/sweep/exact_operator.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <utility>

#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/convolution_operator.hpp"
#include "planarmom/mom/via_border.hpp"
#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/dense_product.hpp"
#include "planarmom/mom/port_loads.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// The pattern (zero values) of the pairs added to `pairs`.
void add_pair(Coo<cd>& pairs, index_t row, index_t col) { pairs.push_back(row, col, cd(0.0)); }

}  // namespace

struct ExactOperator::Impl {
  const geometry::Mesh& mesh;
  const mom::TablePlan& plan;
  std::vector<mom::GramEntry> gram;
  Backend<cd>& backend;
  BlockJacobi* blocks = nullptr;
  index_t n = 0;         // the unknowns: the rooftops, then the via cells
  index_t rooftops = 0;  // the basis functions, which the tables and the FFTs hold
  int columns = 1;
  double seconds_setup = 0;
  std::shared_ptr<const mom::ConvolutionLayout> layout;
  Csr<cd> correction;  // its pattern fixed, values per frequency
  std::vector<mom::RooftopCells> cells;  // the host path's entries
  mom::InteractionTables tables;         // the host path's, of the last at()
  bool host_dense = false;               // on the host, Z itself in place of the FFTs
  mom::HostTables host_tables;           // the host's tables of a frequency
  ViaSource vias;                        // the vias' kernels of a frequency
  std::optional<mom::ViaBorder> border;  // the FFT path's via rows, of the last at()
  mom::ImpedanceMatrix z;                // host_dense: Z of the last at()
  // On a CUDA backend: the fill of Z's exact entries on `entries` (the correction's and the
  // blocks' pairs), the product, and where the diagonal is among the entries.
  std::unique_ptr<mom::DeviceFill> fill;
  std::unique_ptr<mom::DeviceConvolution> device_product;
  std::unique_ptr<mom::DeviceFill> dense_fill;  // dense(): every entry, made at its first call
  mom::FillPattern entries;
  // The blocks' pairs in a via's row or column, whose values follow the fill's entries in
  // `values`: the border's, copied there every frequency (the fill holds the rooftops' alone).
  std::vector<std::pair<index_t, index_t>> via_pairs;
  std::vector<cd> via_values;
  Block<cd> values, diagonal;
  Block<std::int64_t> diagonal_positions;

  Impl(const geometry::Mesh& m, const mom::TablePlan& p, std::vector<mom::GramEntry> g,
       Backend<cd>& b, BlockJacobi* bl)
      : mesh(m), plan(p), gram(std::move(g)), backend(b), blocks(bl) {}

  void make_on_device(int columns);
  // Z with every entry from the host tables, the loads and the strips' impedances, into `into`.
  void assemble(std::span<const cd> loads, const mom::StripImpedance& strip,
                mom::ImpedanceMatrix& into) const;
  // The vias' rows and columns at a frequency from the host's offset tables there
  // (host_tables_now gives them; not called without vias); none without vias.
  template <class Tables> void make_border(double frequency_hz, Tables&& host_tables_now) {
    border.reset();
    if (mesh.vias().empty()) return;
    const std::optional<mom::ViaKernels> kernels = vias(frequency_hz);
    border = mom::via_border(mesh, host_tables_now(), *kernels);
  }
  // The border's values of via_pairs copied after the fill's entries in `values`.
  void upload_via_pairs();
  // at() on a device: Z's exact entries and the FFT product's kernels filled there (work: a
  // product's multiply-adds).
  std::shared_ptr<Operator<cd>> device_at(const mom::GreensTable& greens,
                                          std::span<const cd> loads,
                                          const mom::StripImpedance& strip, bool tables_started,
                                          std::size_t work);
  // at() on the host with host_dense: Z assembled and multiplied as it is.
  std::shared_ptr<Operator<cd>> dense_at(std::span<const cd> loads,
                                         const mom::StripImpedance& strip);
};

void ExactOperator::Impl::assemble(std::span<const cd> loads, const mom::StripImpedance& strip,
                                   mom::ImpedanceMatrix& into) const {
  const std::optional<mom::ViaKernels> kernels =
      mesh.vias().empty() ? std::nullopt : vias(tables.frequency_hz);
  mom::assemble_impedance(mesh, tables, into, kernels ? &*kernels : nullptr);
  mom::add_gap_loads(mesh, loads, into);
  if (!gram.empty() && !strip.zero()) mom::add_surface_impedance(gram, strip, into);
}

std::shared_ptr<Operator<cd>> ExactOperator::Impl::dense_at(std::span<const cd> loads,
                                                            const mom::StripImpedance& strip) {
  assemble(loads, strip, z);  // in place: the last frequency's Z is no longer read
  std::vector<cd> diag(static_cast<std::size_t>(n));
  for (index_t m = 0; m < n; ++m) diag[static_cast<std::size_t>(m)] = z(m, m);
  if (blocks) blocks->update([this](index_t i, index_t j) { return z(i, j); });
  const mom::ImpedanceMatrix* matrix = &z;  // read in place: at() documents the lifetime
  const index_t size = n;
  const FunctionOperator<cd>::Apply apply =
      host_apply<cd>(n, [matrix, size](const cd* x, cd* y, index_t k) {
        symmetric_dense_product(matrix->values.data(), size, x, y, k);
      });
  return std::make_shared<FunctionOperator<cd>>(
      n, apply, std::move(diag), static_cast<std::size_t>(n) * static_cast<std::size_t>(n),
      host_symmetric_adjoint<cd>(n, apply));
}

std::shared_ptr<Operator<cd>> ExactOperator::Impl::device_at(const mom::GreensTable& greens,
                                                             std::span<const cd> loads,
                                                             const mom::StripImpedance& strip,
                                                             bool tables_started,
                                                             std::size_t work) {
  if (!tables_started) fill->start_tables(greens);
  fill->assemble(loads, values.data(), strip);
  device_product->update(fill->device_tables(), correction);
  make_border(greens.frequency(), [this] { return fill->charge_tables(); });
  if (border) device_product->set_border(*border);
  backend.gather(values.data(), diagonal_positions, diagonal);
  std::vector<cd> diag = backend.download(diagonal);
  if (border)  // the vias' own entries
    for (index_t v = 0; v < border->vias; ++v)
      diag.push_back(border->block[static_cast<std::size_t>(v * border->vias + v)]);
  if (blocks) {
    upload_via_pairs();
    blocks->update_on_backend(values.data());
  }
  const mom::DeviceConvolution* product = device_product.get();
  return std::make_shared<FunctionOperator<cd>>(
      n,
      [product](const cd* x, cd* y, index_t k, cd alpha, cd beta, void* stream) {
        product->apply(x, y, static_cast<int>(k), alpha, beta, stream);
      },
      std::move(diag), work,
      // Z and the correction are symmetric: BiCG's Aᴴ product from the same FFTs.
      [product](const cd* x, cd* y, index_t k, cd alpha, cd beta, void* stream) {
        product->apply(x, y, static_cast<int>(k), alpha, beta, stream, true);
      });
}

void ExactOperator::Impl::upload_via_pairs() {
  if (via_pairs.empty()) return;
  via_values.resize(via_pairs.size());
  for (std::size_t k = 0; k < via_pairs.size(); ++k)
    via_values[k] = mom::via_border_entry(*border, via_pairs[k].first, via_pairs[k].second);
  backend.copy_bytes(values.data() + entries.nnz(), via_values.data(),
                     via_values.size() * sizeof(cd), CopyKind::to_backend);
}

ExactOperator::ExactOperator(const geometry::Mesh& mesh, const mom::TablePlan& plan,
                             std::vector<mom::GramEntry> gram, Backend<cd>& backend,
                             BlockJacobi* blocks, int columns, bool host_dense,
                             mom::HostTables host_tables, ViaSource vias)
    : impl_(std::make_unique<Impl>(mesh, plan, std::move(gram), backend, blocks)) {
  Impl& d = *impl_;
  if (!mesh.vias().empty() && !vias)
    throw std::invalid_argument("ExactOperator: a mesh with vias needs the vias' kernels");
  d.vias = std::move(vias);
  d.host_tables = host_tables ? std::move(host_tables)
                              : [&plan = d.plan](const mom::GreensTable& g,
                                                 mom::InteractionTables& into) {
                                  into = mom::evaluate_tables(plan, g);
                                };
  const auto start = std::chrono::steady_clock::now();
  const bool on_device = backend.on_device();
  d.n = static_cast<index_t>(mesh.unknowns());
  d.rooftops = static_cast<index_t>(mesh.basis().size());
  d.host_dense = host_dense && !on_device;
  if (!d.host_dense)
    d.layout = std::make_shared<const mom::ConvolutionLayout>(
        mom::make_convolution_layout(mesh, plan.edge_profiles, plan.start));
  d.columns = columns;
  // The correction's pattern: the gaps' pairs, the loss entries and the diagonal, of the
  // rooftops (the vias' rows and columns are the border's).
  Coo<cd> pairs;
  pairs.rows = pairs.cols = d.rooftops;
  for (const geometry::LoadedGap& gap : mesh.loaded_gaps())
    for (const int m : *gap.basis)
      for (const int k : *gap.basis) add_pair(pairs, m, k);
  for (const mom::GramEntry& e : d.gram) add_pair(pairs, e.row, e.col);
  for (index_t m = 0; m < d.rooftops; ++m) add_pair(pairs, m, m);
  d.correction = to_csr(pairs);
  if (on_device)
    d.make_on_device(columns);
  else if (!d.host_dense)
    d.cells = mom::rooftop_cells(mesh, plan.edge_profiles);
  d.seconds_setup =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string ExactOperator::summary() const {
  const Impl& d = *impl_;
  const double mb = 1.0 / (1024.0 * 1024.0);
  std::ostringstream out;
  if (d.host_dense) {
    out << "Z x by Z itself on the host, " << d.n << " x " << d.n << ", "
        << static_cast<double>(d.n) * static_cast<double>(d.n) * 16 * mb
        << " MB, assembled from the tables every frequency (set-up " << d.seconds_setup << " s)";
    return out.str();
  }
  const mom::ConvolutionFootprint fp = mom::footprint(*d.layout, d.columns);
  out << "Z x by FFT on a " << d.layout->px << " x " << d.layout->py << " grid, " << fp.channels
      << " channels, " << fp.kernels << " kernels: spectra "
      << static_cast<double>(fp.kernel_bytes) * mb << " MB, grids "
      << static_cast<double>(fp.work_bytes) * mb << " MB for " << d.columns
      << " columns, correction " << d.correction.nnz() << " entries";
  if (d.fill) out << ", " << d.entries.nnz() << " exact entries on the device";
  out << " (set-up " << d.seconds_setup << " s)";
  return out.str();
}

// Z's exact entries on the device where the blocks and the diagonal need them, the gaps and
// loss entries included (the device fill adds the loads and the loss there); the blocks'
// entries in a via's row or column after them.
void ExactOperator::Impl::make_on_device(int cols) {
  Coo<cd> pairs = to_coo(correction);
  std::map<std::pair<index_t, index_t>, std::int64_t> via_at;
  if (blocks)
    for (const std::vector<index_t>& group : blocks->members())
      for (const index_t i : group)
        for (const index_t j : group) {
          if (i < rooftops && j < rooftops) {
            add_pair(pairs, i, j);
          } else {
            via_at[{i, j}] = static_cast<std::int64_t>(via_pairs.size());
            via_pairs.emplace_back(i, j);
          }
        }
  const Csr<cd> p = to_csr(pairs);
  entries.n = rooftops;
  entries.row_ptr = p.row_ptr;
  entries.col_idx = p.col_idx;
  fill = std::make_unique<mom::DeviceFill>(mesh, plan, entries, gram);
  device_product = std::make_unique<mom::DeviceConvolution>(layout);
  device_product->reserve(cols);
  values = backend.allocate<cd>(static_cast<index_t>(entries.nnz() + via_pairs.size()), 1);
  std::vector<std::int64_t> at(static_cast<std::size_t>(rooftops));
  for (index_t m = 0; m < rooftops; ++m)
    at[static_cast<std::size_t>(m)] = csr_position(entries.row_ptr, entries.col_idx, m, m);
  diagonal_positions = backend.allocate<std::int64_t>(rooftops, 1);
  backend.upload(std::span<const std::int64_t>(at), diagonal_positions);
  diagonal = backend.allocate<cd>(rooftops, 1);
  if (blocks)
    blocks->set_positions([this, &via_at](index_t i, index_t j) -> std::int64_t {
      if (i >= rooftops || j >= rooftops)
        return static_cast<std::int64_t>(entries.nnz()) + via_at.at({i, j});
      return csr_position(entries.row_ptr, entries.col_idx, i, j);
    });
  backend.synchronize();  // uploads and zeroing are done before the fill writes
}

ExactOperator::~ExactOperator() = default;

mom::DeviceFill* ExactOperator::device_fill() const { return impl_->fill.get(); }

std::shared_ptr<Operator<cd>> ExactOperator::at(const mom::GreensTable& greens,
                                                std::span<const cd> loads,
                                                const mom::StripImpedance& strip,
                                                bool tables_started) {
  Impl& d = *impl_;
  const index_t n = d.n;
  if (d.host_dense) {  // the loads and the loss go into Z itself
    d.host_tables(greens, d.tables);
    return d.dense_at(loads, strip);
  }
  std::fill(d.correction.values.begin(), d.correction.values.end(), cd(0.0));
  mom::add_gap_loads(d.mesh, loads, d.correction);
  if (!d.gram.empty() && !strip.zero()) mom::add_surface_impedance(d.gram, strip, d.correction);
  const mom::ConvolutionFootprint fp = mom::footprint(*d.layout);
  const std::size_t work = static_cast<std::size_t>(fp.kernels) * fp.grid_points;
  if (d.device_product) return d.device_at(greens, loads, strip, tables_started, work);
  d.host_tables(greens, d.tables);
  auto product = std::make_shared<mom::ConvolutionOperator>(d.layout, d.tables);
  d.make_border(greens.frequency(), [&d]() -> const mom::InteractionTables& { return d.tables; });
  // Z's entries where the diagonal and the blocks need them: the tables' kernel (or the vias'
  // border) plus the correction.
  const mom::TableView view = mom::host_view(d.tables);
  const Csr<cd>& c = d.correction;
  const index_t rooftops = d.rooftops;
  const auto entry = [&](index_t i, index_t j) {
    // A via's row or column is the border's alone (no load or loss on it).
    if (i >= rooftops || j >= rooftops) return mom::via_border_entry(*d.border, i, j);
    const std::int64_t at = csr_position(c.row_ptr, c.col_idx, i, j);
    return mom::basis_entry(view, d.cells[static_cast<std::size_t>(i)],
                            d.cells[static_cast<std::size_t>(j)]) +
           (at < 0 ? cd(0.0) : c.values[static_cast<std::size_t>(at)]);
  };
  std::vector<cd> diagonal(static_cast<std::size_t>(n));
  for (index_t m = 0; m < n; ++m) diagonal[static_cast<std::size_t>(m)] = entry(m, m);
  if (d.blocks) d.blocks->update(entry);
  const Csr<cd>* correction = &c;  // read in place: at() documents the operator's lifetime
  const mom::ViaBorder* border = d.border ? &*d.border : nullptr;  // the same
  const FunctionOperator<cd>::Apply apply = host_apply<cd>(
      n, [product, correction, border, rooftops, n](const cd* x, cd* y, index_t columns) {
        const Csr<cd>& k = *correction;
        for (index_t col = 0; col < columns; ++col) {
          const std::size_t base = static_cast<std::size_t>(col) * static_cast<std::size_t>(n);
          product->apply({x + base, static_cast<std::size_t>(rooftops)},
                         {y + base, static_cast<std::size_t>(rooftops)});
          std::fill(y + base + rooftops, y + base + n, cd(0.0));
          if (border) mom::via_border_product(*border, x + base, y + base);
          for (index_t i = 0; i < rooftops; ++i)
            for (index_t e = k.row_ptr[i]; e < k.row_ptr[i + 1]; ++e)
              y[base + static_cast<std::size_t>(i)] +=
                  k.values[static_cast<std::size_t>(e)] *
                  x[base + static_cast<std::size_t>(k.col_idx[static_cast<std::size_t>(e)])];
        }
      });
  // Z and the correction are symmetric: BiCG's Aᴴ product from the same FFTs.
  return std::make_shared<FunctionOperator<cd>>(n, apply, std::move(diagonal), work,
                                                host_symmetric_adjoint<cd>(n, apply));
}

Block<cd> ExactOperator::dense(const mom::GreensTable& greens, std::span<const cd> loads,
                               const mom::StripImpedance& strip) {
  Impl& d = *impl_;
  Block<cd> z = d.backend.allocate<cd>(d.n, d.n);
  if (d.device_product) {
    if (!d.dense_fill)
      d.dense_fill = std::make_unique<mom::DeviceFill>(
          d.mesh, d.plan, mom::FillPattern::all(d.rooftops, d.n), d.gram);
    d.backend.synchronize();  // z's zeroing is queued on the backend's stream
    d.dense_fill->fill(greens, loads, z.data(), strip);
    if (d.border) mom::upload_via_border(*d.border, z.data(), d.n);
    return z;
  }
  if (d.host_dense) {
    d.backend.upload(std::span<const cd>(d.z.values), z);
    return z;
  }
  mom::ImpedanceMatrix host;
  d.assemble(loads, strip, host);
  d.backend.upload(std::span<const cd>(host.values), z);
  return z;
}

}  // namespace pmom::sweep
