// The per-frequency fill on a CUDA device: the offset tables of a TablePlan (table_entry per
// entry) and Z on a fixed sparse pattern (basis_entry per stored entry, gap loads added), by
// kernels writing into device memory, so that a GPU sweep's Z never passes through the host.
// The host path (evaluate_tables, assemble_sparse_impedance, add_gap_loads) is the reference
// it is tested against. In a build without CUDA, constructing one throws.
#pragma once

#include <cmath>
#include <complex>
#include <memory>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/scalar.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/mom/via_border.hpp"

namespace pmom::mom {

// A sparse pattern (CSR without values, sorted columns, the mesh's basis order) and the
// charge-piece reach its scalar part keeps (sparse_assembly.hpp; HUGE_VAL keeps all); or,
// dense, every entry in row-major order (row_ptr and col_idx unused), the dense Z of
// assemble_impedance.
// Dense with ld > n: the n x n block at the top left of an ld x ld matrix (a mesh with vias,
// whose rows and columns follow: upload_via_border).
struct FillPattern {
  index_t n = 0;
  std::vector<index_t> row_ptr{0}, col_idx;
  double charge_reach2 = HUGE_VAL;
  bool dense = false;
  index_t ld = 0;  // dense: the row length; 0: n

  [[nodiscard]] static FillPattern all(index_t n, index_t ld = 0) {
    return {n, {}, {}, HUGE_VAL, true, ld};
  }
  [[nodiscard]] index_t row_length() const { return ld > 0 ? ld : n; }
  [[nodiscard]] std::size_t nnz() const {
    return dense ? static_cast<std::size_t>(row_length()) * static_cast<std::size_t>(row_length())
                 : col_idx.size();
  }
};

// Writes the vias' rows and columns into a dense Z in device memory (ld x ld, row-major or
// column-major alike: Z is symmetric), after its border.rooftops functions. Returns when done.
void upload_via_border(const ViaBorder& border, std::complex<double>* z, index_t ld);

class DeviceFill {
 public:
  // Uploads what does not change with frequency: the plan, the mesh's basis functions, the
  // pattern and the places in it of the port gaps' entries and of `gram`'s (the strips' loss
  // entries, surface_loss.hpp, where the metal is lossy; empty for perfect metal). Throws
  // std::invalid_argument when the plan or pattern does not fit the mesh or a gap pair or loss
  // entry is missing from the pattern,
  // std::runtime_error when there is no CUDA device (or no CUDA in this build).
  DeviceFill(const geometry::Mesh& mesh, const TablePlan& plan, FillPattern pattern,
             std::span<const GramEntry> gram = {});
  ~DeviceFill();
  DeviceFill(const DeviceFill&) = delete;
  DeviceFill& operator=(const DeviceFill&) = delete;

  // Z at the Green's table's frequency, the loads (Ω, one per loaded gap: add_gap_loads) added
  // and the strips' impedances on the loss entries given at construction, into `values`:
  // device memory for nnz() values in the pattern's order (a dense pattern's rows of
  // row_length(), of which the first n are written).
  // Returns when done.
  void fill(const GreensTable& greens, std::span<const std::complex<double>> loads,
            std::complex<double>* values, const StripImpedance& strip = {});
  // fill() in two steps, so that the tables of the next frequency are computed while the
  // solver works on this one (the tables do not touch Z): start_tables queues the tables'
  // kernels on the fill's own stream and returns at once; assemble then writes Z from them
  // (waiting for them first) and returns when done.
  void start_tables(const GreensTable& greens);
  void assemble(std::span<const std::complex<double>> loads, std::complex<double>* values,
                const StripImpedance& strip = {});

  [[nodiscard]] std::size_t nnz() const;
  // The tables of the last start_tables, in device memory (waits for them): for kernels that
  // read them in place, as the exact operator's (device_convolution.hpp). Valid until the next
  // start_tables.
  [[nodiscard]] TableView device_tables() const;
  // The tables of the last fill, copied to the host (InteractionTables::values' layout).
  [[nodiscard]] std::vector<std::complex<double>> tables() const;
  // The charge tables alone of the last fill (the scalar potential's, what a via's row reads:
  // via_border.hpp), copied to the host as InteractionTables whose vector tables are absent:
  // a small part of the tables.
  [[nodiscard]] InteractionTables charge_tables() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmom::mom
