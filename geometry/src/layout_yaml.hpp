// Reading one item of a config's `layout:` list: a rectangle, or a polygon, path, circle or arc
// (polygon.hpp), with its line recorded for later errors.
#pragma once

#include <string>

#include "planarmom/geometry/config_yaml.hpp"

namespace pmom::geometry::detail {

// The largest `layer` a config's shape, port or GDSII layer map may name before the stack is
// known (validate checks it against the stack's interfaces).
inline constexpr int kMostLayers = 1000;

// Every key a layout item may have (the union of the shapes' keys, for the config schema).
[[nodiscard]] const YamlReader::Keys& layout_item_keys();

// Appends the item at `path` to config.layout (a rectangle, or one or more polygons), recording
// its line under its index; every mistake throws ConfigError at the offending line.
void read_layout_item(const YamlReader& reader, const YAML::Node& item, const std::string& path,
                      GeometryConfig& config);

}  // namespace pmom::geometry::detail
