// Checked reading of YAML config values, each mistake a ConfigError at its line.
#include "planarmom/geometry/yaml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "planarmom/geometry/config_yaml.hpp"

namespace pmom::geometry {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// " (did you mean 'X'?)" for the name in `names` closest to `given`, when it is near; else "".
std::string did_you_mean(const std::string& given, const YamlReader::Keys& names) {
  const auto best = std::min_element(names.begin(), names.end(), [&](auto a, auto b) {
    return edit_distance(given, a) < edit_distance(given, b);
  });
  if (best != names.end() &&
      edit_distance(given, *best) <= std::max<std::size_t>(2, std::max(given.size(), best->size()) / 3)) {
    return " (did you mean '" + std::string(*best) + "'?)";
  }
  return "";
}

// node.as<T>() for a scalar `node`; `kind` ("a number") names T in the messages.
template <class T>
T scalar_as(const YamlReader& reader, const YAML::Node& node, const std::string& path,
            const std::string& kind) {
  if (!node.IsScalar()) reader.fail(node, path + " must be " + kind);
  try {
    return node.as<T>();
  } catch (const YAML::BadConversion&) {
    reader.fail(node, path + " must be " + kind + ", got '" + node.Scalar() + "'");
  }
}

}  // namespace

int YamlReader::line_of(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

void YamlReader::fail(const YAML::Node& at, const std::string& message) const {
  throw ConfigError(file_, line_of(at), message);
}

void YamlReader::check_keys(const YAML::Node& node, const std::string& path, const Keys& known,
                            const Keys& skipped) const {
  if (!node.IsMap()) fail(node, shown(path) + " must be a mapping");
  std::set<std::string> seen;
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    if (!seen.insert(key).second) fail(entry.first, "duplicate key '" + key + "' in " + shown(path));
    if (std::find(known.begin(), known.end(), key) != known.end() ||
        std::find(skipped.begin(), skipped.end(), key) != skipped.end()) {
      continue;
    }
    fail(entry.first, "unknown key '" + key + "' in " + shown(path) + did_you_mean(key, known));
  }
}

std::string YamlReader::choice(const YAML::Node& node, const std::string& path,
                               const Keys& choices) const {
  std::string value = text(node, path);
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return value;
  std::string list;
  for (const auto c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
  fail(node, path + " must be one of " + list + ", got '" + value + "'" +
                 did_you_mean(value, choices));
}

YAML::Node YamlReader::require(const YAML::Node& map, const std::string& path,
                               const std::string& key) const {
  const YAML::Node value = map[key];
  if (!value) fail(map, "missing required key '" + key + "' in " + shown(path));
  return value;
}

double YamlReader::number(const YAML::Node& node, const std::string& path) const {
  const double value = scalar_as<double>(*this, node, path, "a number");
  if (!std::isfinite(value)) fail(node, path + " must be finite, got '" + node.Scalar() + "'");
  return value;
}

double YamlReader::positive(const YAML::Node& node, const std::string& path) const {
  const double value = number(node, path);
  if (!(value > 0)) fail(node, path + " must be > 0, got " + node.Scalar());
  return value;
}

int YamlReader::integer(const YAML::Node& node, const std::string& path, int lo, int hi) const {
  const int value = scalar_as<int>(*this, node, path, "a whole number");
  if (value < lo || value > hi) {
    fail(node, path + " must be " +
                   (hi == std::numeric_limits<int>::max()
                        ? ">= " + std::to_string(lo)
                        : "in " + std::to_string(lo) + ".." + std::to_string(hi)) +
                   ", got " + node.Scalar());
  }
  return value;
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& path) const {
  try {
    if (node.IsScalar()) return node.as<bool>();
  } catch (const YAML::BadConversion&) {
  }
  fail(node, path + " must be true or false");
}

std::string YamlReader::text(const YAML::Node& node, const std::string& path) const {
  if (!node.IsScalar()) fail(node, path + " must be a string");
  return node.Scalar();
}

namespace {

ConfigError syntax_error(const std::string& file, const YAML::Exception& e) {
  return ConfigError(file, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.msg);
}

}  // namespace

YAML::Node YamlReader::load(const std::string& file) {
  try {
    return YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    throw ConfigError(file, 0, "cannot be opened");
  } catch (const YAML::Exception& e) {
    throw syntax_error(file, e);
  }
}

YAML::Node YamlReader::parse(const std::string& text, const std::string& file) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw syntax_error(file, e);
  }
}

}  // namespace pmom::geometry
