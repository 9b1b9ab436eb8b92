// The sweep config's accepted keys, declared once: the readers in config.cpp check against
// these lists.
#include "planarmom/sweep/config_schema.hpp"

#include <string_view>
#include <utility>

#include "planarmom/geometry/config_yaml.hpp"

namespace pmom::sweep {

const geometry::ConfigSchema& settings_schema() {
  static const geometry::ConfigSchema schema({
      {"/frequencies", {"start_hz", "stop_hz", "points"}},  // the mapping form; else a list
      {"/sparsify", {"density", "rule", "check_dense", "format", "reach_heights"}},
      {"/solver", {"method", "tolerance", "max_iterations", "backend", "preconditioner"}},
      {"/accuracy", {"greens_table", "quadrature", "interpolate_tables"}},
      {"/output", {"hdf5", "touchstone", "plot", "layout", "currents"}},
  });
  return schema;
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
