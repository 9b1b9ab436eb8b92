// The coupler example drawn in a GDSII file gives the YAML layout's mesh and S.
#include <gtest/gtest.h>

#include <complex>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "io/temp_dir.hpp"
#include "planarmom/sweep/run.hpp"
#include "support/gds_writer.hpp"

namespace pmom::sweep {
namespace {

namespace fs = std::filesystem;

// The example's text at one frequency (3 GHz) on the cpu backend, its layout list replaced
// by `layout`.
std::string coupler_text(const std::string& layout) {
  std::ifstream in(PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  s = std::regex_replace(s, std::regex("\nfrequencies:[^\n]*"), "\nfrequencies: [3.0e9]");
  s = std::regex_replace(s, std::regex("\nsolver:[^\n]*"), "\nsolver: {tolerance: 1.0e-9, backend: cpu}");
  if (layout.empty()) return s;
  const std::size_t from = s.find("\nlayout:"), to = s.find("\nports:");
  return s.substr(0, from) + "\n" + layout + s.substr(to);
}

TEST(GdsLayout, CouplerFromGdsHasTheYamlMeshAndS) {
  const pmom::test::TempDir scratch("gds_layout");
  const fs::path& dir = scratch.path();
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return dir / name;
  };
  const SweepJob yaml = load_sweep(write("yaml.yaml", coupler_text("")));
  pmom::test::GdsWriter w;
  w.begin_cell("COUPLER");
  for (const geometry::Rect& r : yaml.geometry.layout.rects) w.rectangle(5, r.x0, r.y0, r.x1, r.y1);
  w.end_cell();
  w.write(dir / "coupler.gds");
  const SweepJob gds =
      load_sweep(write("gds.yaml", coupler_text("layout: {gds: coupler.gds, cell: COUPLER, layer: 5}")));

  const auto& a = yaml.mesh.basis();
  const auto& b = gds.mesh.basis();
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(yaml.mesh.metal_cell_count(), gds.mesh.metal_cell_count());
  for (std::size_t n = 0; n < a.size(); ++n)
    ASSERT_TRUE(a[n].axis == b[n].axis && a[n].minus.i == b[n].minus.i &&
                a[n].minus.j == b[n].minus.j && a[n].plus.i == b[n].plus.i &&
                a[n].plus.j == b[n].plus.j && a[n].bubble == b[n].bubble)
        << "basis function " << n;
  const io::SweepData sa = run_sweep(yaml), sb = run_sweep(gds);
  ASSERT_EQ(sa.records.size(), 1u);
  ASSERT_EQ(sb.records.size(), 1u);
  double largest = 0;
  for (std::size_t k = 0; k < sa.records[0].s.size(); ++k)
    largest = std::max(largest, std::abs(sa.records[0].s[k] - sb.records[0].s[k]));
  EXPECT_LE(largest, 1e-12) << "S from the GDS layout differs by " << largest;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pmom::sweep
