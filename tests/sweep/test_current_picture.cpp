// Current pictures: |J| per cell from the rooftops' amplitudes, and the files of a picture.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "io/temp_dir.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/sweep/current_picture.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// A strip of 6 x 2 cells of 0.5 mm with a port at its left end, and one cell of a stub above.
geometry::Mesh strip() {
  const std::string text = R"(
substrate: {eps_r: 3.38, height_mm: 0.508}
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 3.0, y1: 1.0}
  - {x0: 1.0, y0: 1.0, x1: 1.5, y1: 1.5}
ports:
  - {name: a, x: 0, y: 0.5, direction: "+x", feed_length_mm: 1.0}
mesh: {cell_mm: 0.5}
)";
  const geometry::GeometryConfig g = geometry::parse_geometry_config(YAML::Load(text), "s.yaml");
  return g.make_mesh(*g.mesh.cell_mm);
}

// Every x-rooftop at amplitude 2 - 1i (|.| = √5), every y-rooftop and bubble at 0: a cell
// between two x-rooftops carries √5, one at the strip's end half of it; off the metal NaN.
TEST(CurrentPicture, CellsTakeHalfOfEachRooftopOnTheirEdges) {
  const geometry::Mesh mesh = strip();
  std::vector<cd> currents(mesh.basis().size(), cd(0.0));
  for (std::size_t n = 0; n < currents.size(); ++n)
    if (mesh.basis()[n].axis == geometry::Axis::x && !mesh.basis()[n].bubble)
      currents[n] = cd(2.0, -1.0);
  const std::vector<double> j = current_density(mesh, currents);
  const int nx = mesh.grid().nx;
  ASSERT_EQ(j.size(), static_cast<std::size_t>(nx * mesh.grid().ny));
  EXPECT_NEAR(j[0 * nx + 2], std::sqrt(5.0), 1e-14);        // inside the strip
  EXPECT_NEAR(j[1 * nx + 0], 0.5 * std::sqrt(5.0), 1e-14);  // its left end
  EXPECT_NEAR(j[0 * nx + 5], 0.5 * std::sqrt(5.0), 1e-14);  // its right end
  EXPECT_EQ(j[2 * nx + 2], 0.0);                            // the stub: no x-rooftop in it
  EXPECT_TRUE(std::isnan(j[2 * nx + 0]));                   // beside the stub, no metal
  EXPECT_THROW((void)current_density(mesh, std::vector<cd>(3)), std::invalid_argument);
}

// Metal on two layers: each layer's picture holds its own rooftops' currents and its own
// metal, and each layer has its own files.
TEST(CurrentPicture, OnePicturePerMetalLayer) {
  const std::string text = R"(
stackup:
  layers:
    - {eps_r: 3.38, height_mm: 0.5}
    - {eps_r: 3.38, height_mm: 0.2}
  metal_on: 1
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 3.0, y1: 1.0, layer: 1}
  - {x0: 1.0, y0: 0, x1: 1.5, y1: 2.0, layer: 2}
ports:
  - {name: a, x: 0, y: 0.5, direction: "+x", feed_length_mm: 1.0, layer: 1}
mesh: {cell_mm: 0.5}
)";
  const geometry::GeometryConfig g = geometry::parse_geometry_config(YAML::Load(text), "l.yaml");
  const geometry::Mesh mesh = g.make_mesh(*g.mesh.cell_mm);
  ASSERT_EQ(mesh.layers(), (std::vector<int>{1, 2}));
  std::vector<cd> currents(mesh.basis().size(), cd(0.0));
  for (std::size_t n = 0; n < currents.size(); ++n)
    if (mesh.basis()[n].layer == 1) currents[n] = cd(0.0, 3.0);  // the upper layer's only
  const int nx = mesh.grid().nx;
  const std::vector<double> lower = current_density(mesh, currents, 0);
  const std::vector<double> upper = current_density(mesh, currents, 1);
  EXPECT_EQ(lower[0 * nx + 2], 0.0);             // under the upper strip: no current of its own
  EXPECT_NEAR(upper[1 * nx + 2], 3.0, 1e-14);    // the upper strip's middle: two y-rooftops
  EXPECT_TRUE(std::isnan(upper[0 * nx + 0]));    // no upper metal there
  EXPECT_FALSE(std::isnan(lower[0 * nx + 0]));
  const auto pictures = current_pictures("run.h5", std::vector<double>{3e9}, {"a"}, mesh.layers());
  ASSERT_EQ(pictures.size(), 2u);
  EXPECT_EQ(pictures[1].svg, std::filesystem::path("run_J_3GHz_a_layer2.svg"));
  EXPECT_EQ(pictures[1].layer, 1);
}

// The picture's names, and its CSV's rows: one a metal cell, at the cell's centre.
TEST(CurrentPicture, WritesAnSvgAndACsvPerPortAndFrequency) {
  const geometry::Mesh mesh = strip();
  const pmom::test::TempDir scratch("current_picture");
  const std::filesystem::path& folder = scratch.path();
  const std::vector<double> f{3e9};
  const auto pictures = current_pictures(folder / "run.h5", f, {"a"});
  ASSERT_EQ(pictures.size(), 1u);
  EXPECT_EQ(pictures[0].svg, folder / "run_J_3GHz_a.svg");
  EXPECT_EQ(pictures[0].png, folder / "run_J_3GHz_a.png");
  std::vector<cd> currents(mesh.basis().size(), cd(1.0));
  write_current_picture(mesh, current_density(mesh, currents), pictures[0], "|J| <test> & co");
  std::ifstream csv(pictures[0].csv);
  std::string line;
  int rows = 0;
  while (std::getline(csv, line)) rows += line.empty() || line[0] == '#' || line[0] == 'x' ? 0 : 1;
  EXPECT_EQ(rows, mesh.metal_cell_count());
  std::stringstream svg;
  svg << std::ifstream(pictures[0].svg).rdbuf();
  EXPECT_NE(svg.str().find("|J| &lt;test&gt; &amp; co"), std::string::npos);
  EXPECT_NE(svg.str().find(" A/m</text>"), std::string::npos);
}

}  // namespace
}  // namespace pmom::sweep
