// The coupler example's mesh (examples/branch_line_coupler.yaml as it is drawn) and a dense
// row-major matrix as a CSR holding every entry: what the sweep's preconditioner tests solve.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/gpusolver/csr.hpp"

namespace pmom::test {

inline geometry::Mesh coupler_example_mesh() {
  const std::string file = PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler.yaml";
  const YAML::Node root = YAML::LoadFile(file);
  const geometry::GeometryConfig g = geometry::parse_geometry_config(root, file);
  return g.make_mesh(*g.mesh.cell_mm);
}

template <class T> Csr<T> dense_csr(std::vector<T> row_major, index_t n) {
  Csr<T> csr;
  csr.rows = csr.cols = n;
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < n; ++j) csr.col_idx.push_back(j);
    csr.row_ptr.push_back(static_cast<index_t>(csr.col_idx.size()));
  }
  csr.values = std::move(row_major);
  return csr;
}

}  // namespace pmom::test
