// The accepted keys of a config reader, looked up by section path.
#include "planarmom/geometry/config_schema.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace pmom::geometry {

ConfigSchema::ConfigSchema(std::vector<ConfigSection> sections) : sections_(std::move(sections)) {}

const ConfigSection& ConfigSchema::section(std::string_view path) const {
  const auto found = std::find_if(sections_.begin(), sections_.end(),
                                  [path](const ConfigSection& s) { return s.path == path; });
  if (found == sections_.end())
    throw std::logic_error("config schema: no section '" + std::string(path) + "'");
  return *found;
}

std::vector<std::string> ConfigSchema::key_paths() const {
  std::vector<std::string> paths;
  for (const ConfigSection& s : sections_)
    for (const std::string_view key : s.keys) paths.push_back(s.path + "/" + std::string(key));
  return paths;
}

}  // namespace pmom::geometry
