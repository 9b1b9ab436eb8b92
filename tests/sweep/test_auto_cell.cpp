// Layouts of any dimension (mesh: {cell_mm: auto}): the coupler with the Hammerstad-Jensen
// 50 Ω width (1.177 mm) instead of the grid's 1.2 mm snaps to the example's own mesh on
// 0.4 mm cells; a snap too small for an edge, and too many unknowns, are errors at the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "geometry/layouts.hpp"
#include "io/temp_dir.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/sweep/run.hpp"

namespace pmom::sweep {
namespace {

// The example's text with `mesh` for its mesh line.
std::string example_with(const std::string& mesh) {
  std::ifstream in(PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler.yaml");
  std::stringstream text;
  text << in.rdbuf();
  return std::regex_replace(text.str(), std::regex("\nmesh:[^\n]*"), "\n" + mesh);
}

// The example with its 1.2 mm strips (feeds and shunt arms) drawn 1.177 mm wide about the same
// centre lines, and `mesh` for its mesh line.
std::string hj_coupler(const std::string& mesh) {
  std::string s = example_with(mesh);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"y0: 16.4, x1: 20.0, y1: 17.6", "y0: 16.4115, x1: 20.0, y1: 17.5885"},
           {"y0: 16.4, x1: 56.8, y1: 17.6", "y0: 16.4115, x1: 56.8, y1: 17.5885"},
           {"y0: 0.4, x1: 56.8, y1: 1.6", "y0: 0.4115, x1: 56.8, y1: 1.5885"},
           {"y0: 0.4, x1: 20.0, y1: 1.6", "y0: 0.4115, x1: 20.0, y1: 1.5885"},
           {"x0: 20.0, y0: 0.0, x1: 21.2", "x0: 20.0115, y0: 0.0, x1: 21.1885"},
           {"x0: 35.6, y0: 0.0, x1: 36.8", "x0: 35.6115, y0: 0.0, x1: 36.7885"}}) {
    const std::size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    s.replace(at, from.size(), to);
  }
  return s;
}

TEST(AutoCell, HammerstadJensenWidthSnapsToTheExamplesMesh) {
  const pmom::test::TempDir scratch("auto_cell");
  // The example's layout on the square 0.4 mm cells of its drawing grid (it ships 0.2 x 0.4 mm).
  const SweepJob example = load_sweep(scratch.write("e.yaml", example_with("mesh: {cell_mm: 0.4}")));
  const SweepJob hj = load_sweep(scratch.write("c.yaml", hj_coupler("mesh: {cell_mm: auto, max_unknowns: 5000}")));
  EXPECT_EQ(hj.mesh.grid().dx_mm, 0.4);
  EXPECT_EQ(hj.mesh.grid().dy_mm, 0.4);
  EXPECT_EQ(hj.mesh.metal_cell_count(), example.mesh.metal_cell_count());
  ASSERT_EQ(hj.mesh.basis().size(), example.mesh.basis().size());
  for (std::size_t k = 0; k < hj.geometry.layout.rects.size(); ++k) {
    const geometry::Rect a = hj.geometry.layout.rects[k], b = example.geometry.layout.rects[k];
    EXPECT_NEAR(a.x0, b.x0, 1e-12);
    EXPECT_NEAR(a.y0, b.y0, 1e-12);
    EXPECT_NEAR(a.x1, b.x1, 1e-12);
    EXPECT_NEAR(a.y1, b.y1, 1e-12);
  }
  std::vector<geometry::SnapMove> moves;
  (void)geometry::snapped_layout(
      geometry::parse_geometry_config(YAML::Load(hj_coupler("mesh: {cell_mm: auto}")), "c.yaml").layout,
      geometry::CellSize{0.4, 0.4}, 0.04, &moves);
  EXPECT_EQ(moves.size(), 12u);  // both edges of the four feeds and the two shunt arms
}

TEST(AutoCell, EdgesBeyondTheSnapAndTooManyUnknownsAreErrors) {
  const pmom::test::TempDir scratch("auto_cell");
  try {
    (void)load_sweep(scratch.write("c.yaml", hj_coupler("mesh: {cell_mm: 0.4, snap_mm: 0.01}")));
    ADD_FAILURE() << "an edge 0.0115 mm off the grid snapped within 0.01 mm";
  } catch (const geometry::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("rectangle 2 x0 = 20.0115 mm is 0.0115 mm from the grid "
                                         "of 0.4 mm cells, more than the snap of 0.01 mm"),
              std::string::npos)
        << e.what();
  }
  try {
    (void)load_sweep(scratch.write("c.yaml", hj_coupler("mesh: {cell_mm: auto, max_unknowns: 1000}")));
    ADD_FAILURE() << "2126 unknowns passed max_unknowns 1000";
  } catch (const geometry::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/mesh: cells of 0.4 mm give 2126 unknowns, more than "
                                         "max_unknowns 1000"),
              std::string::npos)
        << e.what();
  }
  // Without a snap the grid must hold every edge, as before.
  EXPECT_THROW((void)load_sweep(scratch.write("c.yaml", hj_coupler("mesh: {cell_mm: 0.4}"))), geometry::ConfigError);
}

// A line with a stub whose x edges lie on a 0.4 mm grid and whose y edges on a 0.3 mm one:
// auto gives each axis its own side (with three cells across every rectangle, 0.3 is the
// largest in y), and the port's feed takes the sides along and across it.
geometry::Layout line_with_stub() {
  geometry::Layout layout;
  layout.substrate = {3.38, 0.508, 0.0};
  layout.rects = {{0, 0, 20, 0.9}, {8.0, 0.9, 9.2, 6.0}};
  geometry::Port port;
  port.name = "in";
  port.x_mm = 0;
  port.y_mm = 0.45;
  port.direction = geometry::Direction::pos_x;
  port.feed_length_mm = 4;
  layout.ports = {port};
  return layout;
}

TEST(AutoCell, OblongCellsWhereTheLayoutsXAndYEdgesHaveDifferentGrids) {
  const geometry::Layout layout = line_with_stub();
  // A snap of 1 µm: the grids exactly (with a tenth of the cell 0.301 mm would do in y).
  const geometry::CellSize cell = geometry::largest_snapping_cell(layout, 0.4, 0.001, 3);
  EXPECT_EQ(cell.dx_mm, 0.4);
  EXPECT_EQ(cell.dy_mm, 0.3);
  const geometry::Mesh mesh = geometry::make_mesh(layout, cell);
  EXPECT_EQ(mesh.grid().nx, 50);
  EXPECT_EQ(mesh.grid().ny, 20);
  ASSERT_EQ(mesh.ports().size(), 1u);
  EXPECT_EQ(mesh.ports()[0].count, 3);
  EXPECT_EQ(mesh.ports()[0].along_mm, 0.4);
  EXPECT_EQ(mesh.ports()[0].across_mm, 0.3);
  EXPECT_EQ(mesh.ports()[0].samples.size(), 10u);  // 4 mm of 0.4 mm steps
  // Without the stub the x edges (0 and 20 mm) would allow much longer cells; the longer side
  // stays within kMaxCellAspect of the shorter.
  geometry::Layout bare = layout;
  bare.rects.pop_back();
  const geometry::CellSize long_x = geometry::largest_snapping_cell(bare, 4.0, 0, 3);
  EXPECT_LE(long_x.dx_mm, geometry::kMaxCellAspect * long_x.dy_mm + 1e-12);
  EXPECT_GT(long_x.dx_mm, long_x.dy_mm);
}

// A feed too short for the de-embedding's fit, where the fit is asked for (deembedding: fit,
// or a thresholded Z, which cannot be calibrated), is the config's error, at the port's line,
// before anything is solved or written (it used to stop the sweep at its first frequency,
// after the line checks, leaving a partial file). By default such a port is calibrated.
TEST(AutoCell, FeedsTooShortForTheFitAreAnErrorAtTheirPortWhereTheFitIsAskedFor) {
  const pmom::test::TempDir scratch("short_feed");
  const std::string config =
      "substrate: {eps_r: 3.38, height_mm: 0.508}\nmetal: {pec: true}\n"
      "layout:\n  - {x0: 0, y0: 0, x1: 24, y1: 1.2}\n"
      "ports:\n  - {name: a, x: 0, y: 0.6, direction: '+x', feed_length_mm: 8}\n"
      "  - {name: b, x: 24, y: 0.6, direction: '-x', feed_length_mm: 16}\n"
      "mesh: {cell_mm: 0.4}\nfrequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: 3}\n";
  geometry::test::expect_error<geometry::ConfigError>(
      [&] { (void)load_sweep(scratch.write("fit.yaml", config + "deembedding: fit\n")); },
      "fit.yaml:6: de-embedding: the feed line of port 'a' (8 mm) leaves fewer than 6 samples "
      "clear of the near fields of its gap, open end and circuit; make it at least 10 mm long "
      "(deembedding: auto calibrates such a port)");
  geometry::test::expect_error<geometry::ConfigError>(
      [&] { (void)load_sweep(scratch.write("thin.yaml", config + "sparsify: {density: 0.5}\n")); },
      "thin.yaml:6: de-embedding: the feed line of port 'a' (8 mm) leaves fewer than 6 samples "
      "clear of the near fields of its gap, open end and circuit; make it at least 10 mm long "
      "(or keep every entry of Z, which calibrates such a port)");
  EXPECT_NO_THROW((void)load_sweep(scratch.write("c.yaml", config)));
  geometry::test::expect_error<geometry::ConfigError>(
      [&] {
        (void)load_sweep(scratch.write(
            "both.yaml", config + "sparsify: {density: 0.5}\ndeembedding: calibrated\n"));
      },
      "both.yaml: /deembedding: calibrated ports need every entry of Z (as on their line "
      "standard): drop sparsify's density and reach_heights, or use deembedding: fit");
}

TEST(AutoCell, TwoSidesAreReadAndCheckedAndTheMpieRuleRefusesThem) {
  const auto config = [](const std::string& mesh) {
    return geometry::parse_geometry_config(
        YAML::Load("substrate: {eps_r: 3.38, height_mm: 0.508}\nmetal: {pec: true}\n"
                   "layout:\n  - {x0: 0, y0: 0, x1: 8, y1: 1.2}\n"
                   "ports:\n  - {name: a, x: 0, y: 0.6, direction: '+x', feed_length_mm: 2}\n" +
                   mesh),
        "c.yaml");
  };
  const geometry::GeometryConfig ok = config("mesh: {cell_mm: [0.4, 0.2]}");
  ASSERT_TRUE(ok.mesh.cell_mm.has_value());
  EXPECT_EQ(ok.mesh.cell_mm->dx_mm, 0.4);
  EXPECT_EQ(ok.mesh.cell_mm->dy_mm, 0.2);
  geometry::test::expect_error<geometry::ConfigError>([&] { (void)config("mesh: {cell_mm: [0.4]}"); },
                                     "/mesh/cell_mm must be one size or two, [dx, dy], not 1");
  geometry::test::expect_error<geometry::ConfigError>([&] { (void)config("mesh: {cell_mm: [0.4, -0.2]}"); },
                                     "/mesh/cell_mm/1 must be > 0, got -0.2");
  const geometry::Mesh mesh = ok.make_mesh(*ok.mesh.cell_mm);
  geometry::test::expect_error<std::invalid_argument>(
      [&] { (void)mom::choose_mpie_sparsity(mesh, 0.05); },
      "cells are 0.4 x 0.2 mm: use sparsify rule exact or magnitude");
}

}  // namespace
}  // namespace pmom::sweep
