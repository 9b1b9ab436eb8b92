// The SVG picture: well-formed, one rect per metal cell, port names (escaped), file output.
#include <gtest/gtest.h>

#include <string>

#include "geometry/layouts.hpp"
#include "io/temp_dir.hpp"
#include "planarmom/geometry/svg.hpp"

namespace pmom::geometry {
namespace {

using test::layout_of;
using test::port;

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

Mesh tee() {
  return make_mesh(layout_of({{0, 0, 10, 1}, {4, 1, 5, 6}},
                             {port("IN", 0, 0.5, Direction::pos_x, 2),
                              port("OUT", 10, 0.5, Direction::neg_x, 2, 1),
                              port("S&<1>", 4.5, 6, Direction::neg_y, 2)}),
                   0.5);
}

TEST(Svg, WellFormedWithOneRectPerMetalCell) {
  const Mesh mesh = tee();
  const std::string svg = svg_text(mesh);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_EQ(count(svg, "<svg"), 1u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(count(svg, "<g"), count(svg, "</g>"));
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  const auto metal_begin = svg.find("<g class=\"metal\"");
  const auto metal_end = svg.find("</g>", metal_begin);
  ASSERT_NE(metal_begin, std::string::npos);
  EXPECT_EQ(count(svg.substr(metal_begin, metal_end - metal_begin), "<rect "),
            static_cast<std::size_t>(mesh.metal_cell_count()));
  EXPECT_EQ(count(svg, "class=\"delta-gap\""), 3u);
  EXPECT_NE(svg.find(">IN</text>"), std::string::npos);
  EXPECT_NE(svg.find(">OUT</text>"), std::string::npos);
  EXPECT_NE(svg.find(">S&amp;&lt;1&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find(" mm (cell 0.5 mm)</text>"), std::string::npos);
}

TEST(Svg, WritesTheFile) {
  const Mesh mesh = tee();
  const pmom::test::TempDir dir("svg");
  const auto file = dir.path() / "tee.svg";
  write_svg(mesh, file);
  EXPECT_EQ(pmom::test::read_text(file), svg_text(mesh));
  EXPECT_THROW(write_svg(mesh, dir.path() / "missing" / "tee.svg"), std::runtime_error);
}

}  // namespace
}  // namespace pmom::geometry
