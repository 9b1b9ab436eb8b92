// Fuzz target: a sweep config as `planarmom sweep` reads it: the YAML file, its geometry sections
// (geometry/config_yaml.hpp), its sweep sections (read_sweep_settings) and, when the layout's
// grid is small, the mesh. Contract: a ConfigError naming the file, or settings within the
// ranges the headers promise and a mesh.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>

#include "harness.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/geometry/yaml_reader.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/knob_checks.hpp"

namespace {

using namespace pmom;

// Meshing a larger grid runs the same code, only slower: beyond this many cells over the layout's
// bounding box the target stops after the config checks, to keep executions short. A box whose
// cell count overflows is meshed all the same: make_mesh must refuse it at once.
constexpr double kMaxFuzzCells = 2e4;

// Whether `value` is one of the values `names` names (an enum read from a setting).
template <class E, std::size_t N> bool named(const sweep::Named<E> (&names)[N], E value) {
  return std::any_of(std::begin(names), std::end(names),
                     [value](const sweep::Named<E>& n) { return n.value == value; });
}

void check(const sweep::SweepSettings& s) {
  fuzz::expect_frequencies(s.frequencies_hz);
  fuzz::expect(s.density > 0 && s.density <= 1, "density outside (0, 1]");
  fuzz::expect(s.tolerance > 0 && s.tolerance < 1, "tolerance outside (0, 1)");
  fuzz::expect(s.max_iterations >= 1, "max_iterations < 1");
  fuzz::expect(named(sweep::kRuleNames, s.rule), "unknown rule");
  fuzz::expect(named(sweep::kZFormatNames, s.format), "unknown format");
  fuzz::expect(named(sweep::kSweepMethodNames, s.method), "unknown method");
  fuzz::expect(named(sweep::kBackendNames, s.backend), "unknown backend");
  fuzz::expect(named(sweep::kPreconditionerNames, s.preconditioner), "unknown preconditioner");
  fuzz::expect(s.rule != sweep::Rule::exact || (s.density == 1 && !s.check_dense),
               "rule exact with a density or the dense check");
  fuzz::expect(s.preconditioner != sweep::PreconditionerChoice::lu || s.rule == sweep::Rule::exact,
               "preconditioner lu without rule exact");
  fuzz::expect(s.greens_table_accuracy >= 1e-10 && s.greens_table_accuracy <= 1e-3,
               "greens_table accuracy outside [1e-10, 1e-3]");
  fuzz::expect(s.quadrature >= 1 && s.quadrature <= 4, "quadrature outside 1..4");
  fuzz::expect(s.reach_heights == 0 || (s.rule == sweep::Rule::mpie && s.reach_heights > 0 &&
                                        s.reach_heights <= 1e4),
               "reach_heights set outside (0, 1e4] or without rule mpie");
  fuzz::expect(named(sweep::kTerminationNames, s.termination), "unknown termination");
  fuzz::expect(named(sweep::kDeembeddingNames, s.deembedding), "unknown deembedding");
  for (const std::string* path : {&s.hdf5, &s.touchstone, &s.plot, &s.layout})
    fuzz::expect(!path->empty(), "an empty output path");
}

// Cells in the grid over the layout's bounding box (rectangles and polygons).
double grid_cells(const geometry::Layout& layout, geometry::CellSize cell) {
  const double inf = std::numeric_limits<double>::infinity();
  geometry::Rect box{inf, inf, -inf, -inf};
  const auto cover = [&](double x, double y) {
    box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
  };
  for (const geometry::Rect& r : layout.rects) cover(r.x0, r.y0), cover(r.x1, r.y1);
  for (const geometry::Polygon& p : layout.polygons)
    for (const auto& ring : p.rings)
      for (const geometry::Point& v : ring) cover(v.x, v.y);
  return ((box.x1 - box.x0) / cell.dx_mm + 1) * ((box.y1 - box.y0) / cell.dy_mm + 1);
}

// The mesh, and the sweep's warnings about its knobs (sweep/knob_checks.hpp), for layouts small
// enough to mesh quickly.
void mesh_if_small(const geometry::GeometryConfig& g, const sweep::SweepSettings& s) {
  fuzz::expect(g.mesh.cell_mm.has_value() != g.mesh.cells_per_wavelength.has_value(),
               "not exactly one of cell_mm and cells_per_wavelength");
  if (!g.mesh.cell_mm) return;
  const double cells = grid_cells(g.layout, *g.mesh.cell_mm);
  if (std::isfinite(cells) && cells > kMaxFuzzCells) return;
  const geometry::Mesh mesh = g.make_mesh(*g.mesh.cell_mm);
  fuzz::expect(mesh.ports().size() == g.layout.ports.size(), "a port lost in meshing");
  for (const std::string& w : sweep::knob_warnings(mesh, s))
    fuzz::expect(!w.empty(), "an empty knob warning");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = fuzz::write_input("sweep.yaml", data, size).string();
  try {
    const YAML::Node root = geometry::YamlReader::load(file);
    const geometry::GeometryConfig g = geometry::parse_geometry_config(root, file);
    geometry::validate(g.layout);  // what the reader accepts, the layout's own checks must too
    const sweep::SweepSettings s =
        sweep::read_sweep_settings(root, file, static_cast<int>(g.layout.ports.size()));
    check(s);
    mesh_if_small(g, s);
  } catch (const geometry::ConfigError& error) {
    fuzz::expect_names_file(error.what(), file);
  }
  return 0;
}
