// The sweep config's accepted keys, declared once: the readers in config.cpp check against
// these lists.
#include "planarmom/sweep/config_schema.hpp"

#include <string_view>
#include <utility>

#include "planarmom/geometry/config_yaml.hpp"

namespace pmom::sweep {

const geometry::ConfigSchema& settings_schema() {
  static const geometry::ConfigSchema schema({
      // The mapping form (else a list).
      {"/frequencies", {"start_hz", "stop_hz", "points", "adaptive", "adaptive_tolerance"}},
      {"/sparsify", {"density", "rule", "check_dense", "format", "reach_heights"}},
      {"/solver", {"method", "tolerance", "max_iterations", "backend", "preconditioner",
                   "symmetry"}},
      {"/accuracy", {"greens_table", "quadrature", "interpolate_tables"}},
      {"/output", {"hdf5", "touchstone", "plot", "layout", "currents", "keep_solutions"}},
  });
  return schema;
}

const geometry::ConfigSection& frequency_range_section() {
  static const geometry::ConfigSection section{"/frequencies", {"start_hz", "stop_hz", "points"}};
  return section;
}

std::vector<std::string> config_key_paths() {
  std::vector<std::string> paths = geometry::geometry_config_schema().key_paths();
  // The sweep's top-level sections are checked, with the geometry's, by the geometry reader.
  for (const std::string_view section : geometry::other_config_sections())
    paths.push_back(std::string("/").append(section));
  for (std::string& path : settings_schema().key_paths()) paths.push_back(std::move(path));
  return paths;
}

}  // namespace pmom::sweep
