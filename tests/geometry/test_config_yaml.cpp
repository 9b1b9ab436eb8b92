// The geometry sections of a YAML config: a valid file, and each kind of mistake reported as
// "config.yaml:LINE: ..." at the line of the offending key or value.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/config_yaml.hpp"

namespace pmom::geometry {
namespace {

using test::expect_error;

// Line numbers below refer to this text (line 1 is "substrate:").
const std::string kValid = R"(substrate:
  eps_r: 3.38
  height_mm: 0.8
  loss_tangent: 0.0027
metal:
  pec: true
layout:
  - {x0: 0, y0: 0, x1: 23, y1: 1.15}
  - {x0: 11.5, y0: 1.15, x1: 12.65, y1: 5.75}
ports:
  - name: P1
    x: 0
    y: 0.575
    direction: "+x"
    feed_length_mm: 2.3
    reference_plane_mm: 1
  - name: P2
    x: 23
    y: 0.575
    direction: "-x"
    feed_length_mm: 2.3
    impedance_ohm: 75
mesh:
  cell_mm: 0.115
frequencies: {start_hz: 1e9, stop_hz: 5e9, points: 5}
solver: {method: cocg, whatever: 1}
)";

GeometryConfig parse(const std::string& text) {
  return parse_geometry_config(YAML::Load(text), "config.yaml");
}

// kValid with the first occurrence of `from` replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(ConfigYaml, ValidConfigParses) {
  const GeometryConfig config = parse(kValid);
  EXPECT_DOUBLE_EQ(config.layout.substrate.eps_r, 3.38);
  EXPECT_DOUBLE_EQ(config.layout.substrate.height_mm, 0.8);
  EXPECT_DOUBLE_EQ(config.layout.substrate.loss_tangent, 0.0027);
  EXPECT_TRUE(config.layout.metal.pec);
  ASSERT_EQ(config.layout.rects.size(), 2u);
  EXPECT_DOUBLE_EQ(config.layout.rects[1].x1, 12.65);
  ASSERT_EQ(config.layout.ports.size(), 2u);
  EXPECT_EQ(config.layout.ports[1].name, "P2");
  EXPECT_EQ(config.layout.ports[1].direction, Direction::neg_x);
  EXPECT_DOUBLE_EQ(config.layout.ports[0].reference_plane_mm, 1.0);
  EXPECT_DOUBLE_EQ(config.layout.ports[0].impedance_ohm, 50.0);  // default
  EXPECT_DOUBLE_EQ(config.layout.ports[1].impedance_ohm, 75.0);
  EXPECT_DOUBLE_EQ(config.layout.ports[1].reference_plane_mm, 0.0);  // default
  ASSERT_TRUE(config.mesh.cell_mm.has_value());
  EXPECT_FALSE(config.mesh.cells_per_wavelength.has_value());
  const Mesh mesh = config.make_mesh(*config.mesh.cell_mm);
  EXPECT_EQ(mesh.ports().size(), 2u);
  EXPECT_EQ(mesh.metal_cell_count(), 200 * 10 + 10 * 40);
}

TEST(ConfigYaml, AlternativesAndDefaults) {
  const auto config =
      parse(edited("  pec: true", "  conductivity_s_per_m: 5.8e7\n  thickness_um: 35"));
  EXPECT_FALSE(config.layout.metal.pec);
  EXPECT_DOUBLE_EQ(config.layout.metal.conductivity_s_per_m, 5.8e7);
  EXPECT_DOUBLE_EQ(config.layout.metal.thickness_um, 35.0);
  const auto by_wavelength = parse(edited("  cell_mm: 0.115", "  cells_per_wavelength: 20"));
  EXPECT_FALSE(by_wavelength.mesh.cell_mm.has_value());
  EXPECT_DOUBLE_EQ(*by_wavelength.mesh.cells_per_wavelength, 20.0);
  EXPECT_DOUBLE_EQ(parse(edited("  loss_tangent: 0.0027\n", "")).layout.substrate.loss_tangent, 0);
}

TEST(ConfigYaml, UnknownKeys) {
  expect_error<ConfigError>([] { (void)parse(edited("substrate:", "substrat:")); },
                            "config.yaml:1: unknown key 'substrat' in / (did you mean 'substrate'?)");
  expect_error<ConfigError>([] { (void)parse(edited("  height_mm", "  height")); },
                            "config.yaml:3: unknown key 'height' in /substrate (did you mean "
                            "'height_mm'?)");
  expect_error<ConfigError>([] { (void)parse(edited("    impedance_ohm", "    colour")); },
                            "config.yaml:22: unknown key 'colour' in /ports/1");
  expect_error<ConfigError>([] { (void)parse(kValid + "plot: yes\n"); },
                            "config.yaml:27: unknown key 'plot' in /");
  expect_error<ConfigError>([] { (void)parse(edited("  eps_r: 3.38", "  eps_r: 3.38\n  eps_r: 2")); },
                            "config.yaml:3: duplicate key 'eps_r' in /substrate");
}

TEST(ConfigYaml, MissingFieldsAndWrongTypes) {
  expect_error<ConfigError>([] { (void)parse(edited("    feed_length_mm: 2.3\n    impedance", "    impedance")); },
                            "config.yaml:17: missing required key 'feed_length_mm' in /ports/1");
  expect_error<ConfigError>([] { (void)parse(edited("mesh:\n  cell_mm: 0.115\n", "")); },
                            "config.yaml:1: missing required key 'mesh' in /");
  expect_error<ConfigError>([] { (void)parse(edited("x1: 23", "x1: abc")); },
                            "config.yaml:8: /layout/0/x1 must be a number, got 'abc'");
  expect_error<ConfigError>([] { (void)parse(edited("direction: \"+x\"", "direction: left")); },
                            "config.yaml:14: /ports/0/direction: port direction must be one of");
  expect_error<ConfigError>(
      [] { (void)parse(edited("  pec: true", "  pec: true\n  conductivity_s_per_m: 1")); },
      "config.yaml:6: /metal needs exactly one of 'pec: true' or 'conductivity_s_per_m: S/m' "
      "(with 'thickness_um')");
  expect_error<ConfigError>(
      [] { (void)parse(edited("  pec: true", "  conductivity_s_per_m: 5.8e7")); },
      "config.yaml:6: missing required key 'thickness_um' in /metal");
  expect_error<ConfigError>(
      [] { (void)parse(edited("  pec: true", "  pec: true\n  thickness_um: 35")); },
      "config.yaml:7: /metal/thickness_um goes with conductivity_s_per_m, not pec");
  expect_error<ConfigError>([] { (void)parse(edited("  cell_mm: 0.115", "  cell_mm: 0")); },
                            "config.yaml:24: /mesh/cell_mm must be > 0, got 0");
  expect_error<ConfigError>(
      [] {
        (void)parse(edited("  - {x0: 0, y0: 0, x1: 23, y1: 1.15}\n"
                           "  - {x0: 11.5, y0: 1.15, x1: 12.65, y1: 5.75}\n", "  []\n"));
      },
      "config.yaml:8: /layout must be a non-empty list of shapes");
}

TEST(ConfigYaml, InvalidValuesAtTheirLines) {
  expect_error<ConfigError>([] { (void)parse(edited("height_mm: 0.8", "height_mm: -1")); },
                            "config.yaml:3: substrate height must be > 0 mm, got -1");
  expect_error<ConfigError>([] { (void)parse(edited("x1: 23", "x1: -2")); },
                            "config.yaml:8: rectangle 0 (x 0..-2 mm, y 0..1.15 mm) is empty");
  expect_error<ConfigError>([] { (void)parse(edited("name: P2", "name: P1")); },
                            "config.yaml:17: port name 'P1' is used twice");
}

TEST(ConfigYaml, MeshTimeErrorsNameTheLine) {
  const auto off_metal = parse(edited("    y: 0.575\n    direction: \"-x\"", "    y: 3\n    direction: \"-x\""));
  expect_error<ConfigError>([&] { (void)off_metal.make_mesh({0.115, 0.115}); },
                            "config.yaml:17: port 'P2' at (23, 3) mm is not on a metal edge");
  const auto config = parse(kValid);
  expect_error<ConfigError>([&] { (void)config.make_mesh({0.2, 0.2}); },
                            "config.yaml:8: rectangle 0 (x 0..23 mm, y 0..1.15 mm) has y1 = 1.15 mm "
                            "off the 0.2 mm grid");
  expect_error<ConfigError>([&] { (void)config.make_mesh({-1, -1}); },
                            "config.yaml:24: the cell size must be > 0 mm, got -1");
}

}  // namespace
}  // namespace pmom::geometry
