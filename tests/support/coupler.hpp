// The coupler example's mesh (examples/branch_line_coupler.yaml as it is drawn), and a dense
// row-major matrix as a CSR holding every entry (dense_csr.hpp): what the sweep's
// preconditioner tests solve.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "planarmom/geometry/config_yaml.hpp"
#include "support/dense_csr.hpp"

namespace pmom::test {

inline geometry::Mesh coupler_example_mesh() {
  const std::string file = PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler.yaml";
  const YAML::Node root = YAML::LoadFile(file);
  const geometry::GeometryConfig g = geometry::parse_geometry_config(root, file);
  return g.make_mesh(*g.mesh.cell_mm);
}

}  // namespace pmom::test
