// What the geometry config's readers share: a number read with its line recorded for later
// errors, and a check whose GeometryError becomes a ConfigError at the line recorded for it.
#pragma once

#include <string>

#include "planarmom/geometry/config_yaml.hpp"

namespace pmom::geometry::detail {

// map[key], required, as a number; its line recorded in config.lines for (item, index, key).
inline double read_field(const YamlReader& reader, GeometryConfig& config, const YAML::Node& map,
                         const std::string& path, const std::string& key, Item item, int index) {
  const YAML::Node value = reader.require(map, path, key);
  config.lines[{item, index, key}] = YamlReader::line_of(value);
  return reader.number(value, path + "/" + key);
}

// check()'s result; a GeometryError it throws becomes a ConfigError at the line config.lines
// has for its item and field (GeometryConfig::line_of).
template <class F> decltype(auto) validated(const GeometryConfig& config, F&& check) {
  try {
    return check();
  } catch (const ConfigError&) {
    throw;
  } catch (const GeometryError& e) {
    throw ConfigError(config.file, config.line_of(e), e.what());
  }
}

}  // namespace pmom::geometry::detail
