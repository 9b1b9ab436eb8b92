// Layouts of any dimension (mesh: {cell_mm: auto}): the coupler with the Hammerstad-Jensen
// 50 Ω width (1.177 mm) instead of the grid's 1.2 mm snaps to the example's own mesh on
// 0.4 mm cells; a snap too small for an edge, and too many unknowns, are errors at the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "io/temp_dir.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/sweep/run.hpp"

namespace pmom::sweep {
namespace {

// The example with its 1.2 mm strips (feeds and shunt arms) drawn 1.177 mm wide about the same
// centre lines, and `mesh` for its mesh line.
std::string hj_coupler(const std::string& mesh) {
  std::ifstream in(PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
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
  return std::regex_replace(s, std::regex("\nmesh:[^\n]*"), "\n" + mesh);
}

TEST(AutoCell, HammerstadJensenWidthSnapsToTheExamplesMesh) {
  const pmom::test::TempDir scratch("auto_cell");
  const SweepJob example = load_sweep(PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler.yaml");
  const SweepJob hj = load_sweep(scratch.write("c.yaml", hj_coupler("mesh: {cell_mm: auto, max_unknowns: 5000}")));
  EXPECT_EQ(hj.mesh.grid().cell_mm, 0.4);
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
      0.4, 0.04, &moves);
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

}  // namespace
}  // namespace pmom::sweep
