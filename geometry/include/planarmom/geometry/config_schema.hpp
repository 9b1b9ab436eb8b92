// The keys a YAML config reader accepts, declared once per reader: its check_keys calls read
// them here, and docs/CONFIG.md documents the same list (tests/apps/test_config_docs.cpp
// compares the two).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "planarmom/geometry/yaml_reader.hpp"

namespace pmom::geometry {

// One mapping of a config: its path and the keys it accepts. Paths are written as in the
// messages, "" for the root and "/solver" for a section, with "*" standing for every item of a
// list: "/layout/*" is each rectangle of the list /layout.
struct ConfigSection {
  std::string path;
  YamlReader::Keys keys;  // string literals
};

class ConfigSchema {
 public:
  explicit ConfigSchema(std::vector<ConfigSection> sections);

  // The section at `path` and its keys; a path the schema does not declare is a programming
  // error (std::logic_error).
  [[nodiscard]] const ConfigSection& section(std::string_view path) const;
  [[nodiscard]] const YamlReader::Keys& keys(std::string_view path) const {
    return section(path).keys;
  }

  // Every accepted key as a path, section path + "/" + key: "/solver", "/solver/tolerance",
  // "/layout/*/x0".
  [[nodiscard]] std::vector<std::string> key_paths() const;

 private:
  std::vector<ConfigSection> sections_;
};

}  // namespace pmom::geometry
