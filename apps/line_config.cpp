// Reading the settings of `planarmom line` from YAML with the geometry config's checks
// (geometry::YamlReader): every mistake reads "FILE:LINE: what", naming the key path.
#include "line_config.hpp"

#include <yaml-cpp/yaml.h>

#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/geometry/yaml_reader.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/config_schema.hpp"

namespace pmom::app {
namespace {

using geometry::YamlReader;

void read_substrate(const YamlReader& r, const YAML::Node& node, LineConfig& c) {
  r.check_keys(node, "/substrate", line_config_schema().keys("/substrate"));
  const YAML::Node eps_r = r.require(node, "/substrate", "eps_r");
  c.eps_r = r.number(eps_r, "/substrate/eps_r");
  if (!(c.eps_r >= 1)) r.fail(eps_r, "/substrate/eps_r must be >= 1, got " + eps_r.Scalar());
  c.height_mm = r.positive(r.require(node, "/substrate", "height_mm"), "/substrate/height_mm");
  // Accepted so that a geometry config's substrate can be pasted, but the line check is
  // lossless.
  if (const YAML::Node loss = node["loss_tangent"];
      loss && r.number(loss, "/substrate/loss_tangent") != 0)
    r.fail(loss, "/substrate/loss_tangent must be 0: the line check is lossless, got " +
                     loss.Scalar());
}

void read_line(const YamlReader& r, const YAML::Node& node, LineConfig& c) {
  r.check_keys(node, "/line", line_config_schema().keys("/line"));
  const YAML::Node z0 = node["z0_ohm"], width = node["width_mm"];
  if (z0.IsDefined() == width.IsDefined())
    r.fail(z0.IsDefined() ? width : node, "/line needs exactly one of 'z0_ohm' or 'width_mm'");
  if (z0) c.z0_ohm = r.positive(z0, "/line/z0_ohm");
  if (width) c.width_mm = r.positive(width, "/line/width_mm");
  if (const YAML::Node n = node["cells_across"])
    c.cells_across = r.integer(n, "/line/cells_across", 2, 64);
  if (const YAML::Node n = node["half_length_mm"])
    c.half_length_mm = r.positive(n, "/line/half_length_mm");
}

}  // namespace

const geometry::ConfigSchema& line_config_schema() {
  // The substrate's keys are the geometry config's, so that its substrate can be pasted; the
  // frequency range is the sweep's.
  static const geometry::ConfigSchema schema({
      {"", {"substrate", "line", "frequencies"}},
      geometry::geometry_config_schema().section("/substrate"),
      {"/line", {"z0_ohm", "width_mm", "cells_across", "half_length_mm"}},
      sweep::frequency_range_section(),
  });
  return schema;
}

LineConfig read_line_config(const std::string& file) {
  const YAML::Node root = YamlReader::load(file);
  const YamlReader r(file);
  if (!root.IsMap()) r.fail(root, "the config must be a mapping of sections");
  r.check_keys(root, "", line_config_schema().keys(""));
  LineConfig c;
  read_substrate(r, r.require(root, "", "substrate"), c);
  read_line(r, r.require(root, "", "line"), c);
  c.frequencies_hz = sweep::read_frequencies(r.require(root, "", "frequencies"), file,
                                             line_config_schema().keys("/frequencies"));
  return c;
}

}  // namespace pmom::app
