// Checked reading of YAML config values, shared by the geometry config and the app's own
// settings files: every mistake is a ConfigError "FILE:LINE: what" naming the key path.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planarmom/geometry/named.hpp"

namespace pmom::geometry {

// Paths are written "/section/key" ("" is the root, shown as "/"). Every check throws
// ConfigError (config_yaml.hpp) at the line of the offending node.
class YamlReader {
 public:
  using Keys = std::vector<std::string_view>;

  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  // Parses `file`; a file that cannot be opened or has a YAML syntax error throws ConfigError
  // ("FILE: cannot be opened", "FILE:LINE: <yaml-cpp's message>").
  [[nodiscard]] static YAML::Node load(const std::string& file);
  // Parses config `text` that `file` names in messages; a syntax error throws as load's does.
  [[nodiscard]] static YAML::Node parse(const std::string& text, const std::string& file);

  [[nodiscard]] const std::string& file() const { return file_; }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const;

  // `node` must be a mapping whose keys are all in `known` (or in `skipped`), each once; an
  // unknown key names the closest known one when it is near.
  void check_keys(const YAML::Node& node, const std::string& path, const Keys& known,
                  const Keys& skipped = {}) const;

  // map[key], which must be present.
  [[nodiscard]] YAML::Node require(const YAML::Node& map, const std::string& path,
                                   const std::string& key) const;

  [[nodiscard]] double number(const YAML::Node& node, const std::string& path) const;  // finite
  [[nodiscard]] double positive(const YAML::Node& node, const std::string& path) const;  // > 0
  [[nodiscard]] int integer(const YAML::Node& node, const std::string& path, int lo,
                            int hi) const;  // in lo..hi
  [[nodiscard]] bool boolean(const YAML::Node& node, const std::string& path) const;
  [[nodiscard]] std::string text(const YAML::Node& node, const std::string& path) const;
  // text() that must be one of `choices`, e.g. "/solver/method must be one of auto, bicg, ...,
  // got 'bicgg' (did you mean 'bicg'?)" (the closest-name rule of check_keys).
  [[nodiscard]] std::string choice(const YAML::Node& node, const std::string& path,
                                   const Keys& choices) const;
  // The value named at `node`, one of `names`.
  template <class E, std::size_t N>
  [[nodiscard]] E choice(const YAML::Node& node, const std::string& path,
                         const Named<E> (&names)[N]) const {
    Keys choices;
    for (const Named<E>& n : names) choices.emplace_back(n.name);
    const std::string given = choice(node, path, choices);
    for (const Named<E>& n : names)
      if (n.name == given) return n.value;
    throw std::logic_error("YamlReader::choice returned no choice");
  }

  // 1-based line of `node`, 0 when unknown.
  [[nodiscard]] static int line_of(const YAML::Node& node);
  // `path` for messages: the root "" reads "/".
  [[nodiscard]] static std::string shown(const std::string& path) {
    return path.empty() ? "/" : path;
  }

 private:
  std::string file_;
};

}  // namespace pmom::geometry
