// The geometry sections of a planarmom YAML config (DESIGN §7): substrate, metal, layout,
// ports, lumped, vias and mesh. The sweep (sweep/config.hpp, sweep/run.hpp) loads the file, hands the parsed
// document here and reads the other top-level sections itself. docs/CONFIG.md lists every key.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "planarmom/geometry/config_schema.hpp"
#include "planarmom/geometry/error.hpp"
#include "planarmom/geometry/layout.hpp"
#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {

// A config mistake: what() reads "FILE:LINE: message" (line 1-based; "FILE: message" when
// the line is unknown, i.e. 0).
class ConfigError : public GeometryError {
 public:
  ConfigError(const std::string& file, int line, const std::string& message);
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

// cell_mm (one size, square cells, or [dx, dy]), or cells_per_wavelength, or auto_cell (`cell_mm: auto`, with cells_per_wavelength
// optional). cells_per_wavelength needs the highest frequency: the caller turns it into a
// maximum cell size and calls largest_dividing_cell, or largest_snapping_cell for auto_cell.
// snap_mm (> 0 when given; auto's default a tenth of the cell): how far an edge may move onto
// the grid (snapped_layout). max_unknowns (0: no limit): more is an error.
struct MeshSpec {
  std::optional<CellSize> cell_mm;
  std::optional<double> cells_per_wavelength;
  bool auto_cell = false;
  double snap_mm = 0;
  int max_unknowns = 0;
};

struct GeometryConfig {
  std::string file;  // for messages
  Layout layout;
  MeshSpec mesh;
  // 1-based lines of items (field "") and of their fields by key, so that errors found
  // later, when meshing, can name them; index is -1 for substrate, metal, layout, mesh.
  std::map<std::tuple<Item, int, std::string>, int> lines;
  // The line for a GeometryError: its field's, else its item's, else 0.
  [[nodiscard]] int line_of(const GeometryError& error) const;

  // make_mesh(layout, cell), with any GeometryError rethrown as a ConfigError at the line
  // of the item it is about.
  [[nodiscard]] Mesh make_mesh(CellSize cell) const;
};

// The keys parse_geometry_config accepts, section by section (its root section: the geometry's
// top-level sections).
[[nodiscard]] const ConfigSchema& geometry_config_schema();

// The top-level sections that the sweep's reader owns in the same file (frequencies, sparsify,
// solver, output, termination, deembedding, accuracy); parse_geometry_config skips them.
[[nodiscard]] const YamlReader::Keys& other_config_sections();

// Reads the geometry sections of `root` (a parsed config file; `file` is its name for
// messages). Layout rectangles are written {x0, y0, x1, y1} in mm. Top-level keys owned by
// the sweep (other_config_sections()) are skipped; any other unknown key,
// at the top level or inside the geometry sections, is an error naming its path and line
// (with a suggestion when a known key is close), as are missing required keys, wrong types,
// duplicate keys and values the layout validators reject. Throws ConfigError.
[[nodiscard]] GeometryConfig parse_geometry_config(const YAML::Node& root,
                                                   const std::string& file);

}  // namespace pmom::geometry
