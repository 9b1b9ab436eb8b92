// docs/CONFIG.md against the readers: the keys in its tables ("key" column) under "## Sweep
// config" and "## Line config" are exactly the keys the sweep's and the line command's readers
// accept (their schemas), so that no key goes undocumented and no documented key is refused.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "io/temp_dir.hpp"
#include "line_config.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/config_schema.hpp"

namespace pmom {
namespace {

const char* const kConfigDoc = PLANARMOM_SOURCE_DIR "/docs/CONFIG.md";

// A table row's cells, trimmed, without the outer pipes: "| a | b \| c |" is {"a", "b | c"}
// (an escaped pipe is the character, as Markdown reads it).
std::vector<std::string> cells(const std::string& row) {
  const auto trimmed = [](const std::string& cell) {
    const auto first = cell.find_first_not_of(" \t");
    const auto last = cell.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : cell.substr(first, last - first + 1);
  };
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      out.push_back(trimmed(cell));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  if (!trimmed(cell).empty()) out.push_back(trimmed(cell));  // a row without its closing pipe
  return out;
}

// A key cell "`/solver/tolerance`" as "/solver/tolerance".
std::string unquoted(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`')
    return cell.substr(1, cell.size() - 2);
  return cell;
}

// The documented keys per part of CONFIG.md ("## Sweep config ...", "## Line config ..."):
// the first column of the tables whose header's first cell is "key". Each row must fill its
// four columns (key, type, default, meaning), and each key appears once per part.
std::map<std::string, std::vector<std::string>> documented_keys() {
  std::ifstream in(kConfigDoc);
  if (!in) throw std::runtime_error(std::string("cannot open ") + kConfigDoc);
  std::map<std::string, std::vector<std::string>> keys;
  std::string part;        // "Sweep config", "Line config" or "" (no keys)
  bool in_table = false;   // inside a key table, past its header
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      part = line.rfind("## Sweep config", 0) == 0 ? "Sweep config"
             : line.rfind("## Line config", 0) == 0 ? "Line config"
                                                    : "";
    }
    if (line.empty() || line.front() != '|') {
      in_table = false;
      continue;
    }
    const std::vector<std::string> row = cells(line);
    if (!in_table) {
      in_table = !row.empty() && row[0] == "key";
      continue;
    }
    if (row[0].rfind("---", 0) == 0) continue;  // the header's rule
    if (part.empty()) {
      ADD_FAILURE() << "a key table outside the sweep and line parts: " << line;
      continue;
    }
    EXPECT_EQ(row.size(), 4u) << "a key row needs key, type, default and meaning: " << line;
    for (const std::string& cell : row) EXPECT_FALSE(cell.empty()) << "an empty cell: " << line;
    keys[part].push_back(unquoted(row[0]));
  }
  return keys;
}

// "missing in docs/CONFIG.md: ..., not accepted by the reader: ..." for the differences.
std::string differences(const std::vector<std::string>& code, const std::vector<std::string>& doc) {
  const std::set<std::string> in_code(code.begin(), code.end());
  const std::set<std::string> in_doc(doc.begin(), doc.end());
  std::string undocumented, unknown;
  for (const std::string& key : in_code) {
    if (!in_doc.count(key)) undocumented += " " + key;
  }
  for (const std::string& key : in_doc) {
    if (!in_code.count(key)) unknown += " " + key;
  }
  if (undocumented.empty() && unknown.empty()) return "";
  return "keys the reader accepts missing in docs/CONFIG.md:" +
         (undocumented.empty() ? std::string(" none") : undocumented) +
         "; keys in docs/CONFIG.md the reader does not accept:" +
         (unknown.empty() ? std::string(" none") : unknown);
}

std::vector<std::string> duplicates(const std::vector<std::string>& keys) {
  std::set<std::string> seen;
  std::vector<std::string> twice;
  for (const std::string& key : keys) {
    if (!seen.insert(key).second) twice.push_back(key);
  }
  return twice;
}

// Each key's parent is itself a key: "/solver/tolerance" needs "/solver", "/layout/*/x0"
// (an item of the list /layout) needs "/layout".
void expect_rooted(const std::vector<std::string>& keys) {
  const std::set<std::string> all(keys.begin(), keys.end());
  for (const std::string& key : keys) {
    std::string parent = key.substr(0, key.rfind('/'));
    if (parent.size() >= 2 && parent.substr(parent.size() - 2) == "/*")
      parent.resize(parent.size() - 2);
    if (!parent.empty()) {
      EXPECT_TRUE(all.count(parent)) << key << " has no section " << parent;
    }
  }
}

TEST(ConfigDocs, SweepConfigKeysAreTheReadersKeys) {
  const std::vector<std::string> code = sweep::config_key_paths();
  const std::vector<std::string> doc = documented_keys()["Sweep config"];
  EXPECT_EQ(differences(code, doc), "");
  EXPECT_EQ(duplicates(doc), std::vector<std::string>{}) << "documented twice";
}

TEST(ConfigDocs, LineConfigKeysAreTheReadersKeys) {
  const std::vector<std::string> code = app::line_config_schema().key_paths();
  const std::vector<std::string> doc = documented_keys()["Line config"];
  EXPECT_EQ(differences(code, doc), "");
  EXPECT_EQ(duplicates(doc), std::vector<std::string>{}) << "documented twice";
}

// The ```yaml blocks under "## A complete sweep config": the sweep config, then the line config.
std::vector<std::string> example_configs() {
  std::ifstream in(kConfigDoc);
  std::vector<std::string> blocks;
  bool in_part = false, in_block = false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_part = line == "## A complete sweep config";
    if (!in_part) continue;
    if (in_block && line == "```") {
      in_block = false;
    } else if (in_block) {
      blocks.back() += line + "\n";
    } else if (line == "```yaml") {
      in_block = true;
      blocks.emplace_back();
    }
  }
  return blocks;
}

// The complete examples are accepted by the readers, and the sweep's names every key (given or
// commented out as an alternative).
TEST(ConfigDocs, CompleteExamplesAreAcceptedAndComplete) {
  const std::vector<std::string> examples = example_configs();
  ASSERT_EQ(examples.size(), 2u) << "a sweep config and a line config";
  const YAML::Node root = YAML::Load(examples[0]);
  const geometry::GeometryConfig g = geometry::parse_geometry_config(root, "sweep.yaml");
  const sweep::SweepSettings s =
      sweep::read_sweep_settings(root, "sweep.yaml", static_cast<int>(g.layout.ports.size()));
  EXPECT_EQ(s.frequencies_hz.size(), 101u);
  for (const std::string& key : sweep::config_key_paths()) {
    const std::string name = key.substr(key.rfind('/') + 1);
    EXPECT_NE(examples[0].find(name + ":"), std::string::npos) << key << " not in the example";
  }
  const test::TempDir dir("config_docs");
  const app::LineConfig line = app::read_line_config(dir.write("line.yaml", examples[1]).string());
  EXPECT_EQ(line.frequencies_hz.size(), 6u);
}

TEST(ConfigSchema, EveryKeyBelongsToADeclaredSectionOnce) {
  for (const std::vector<std::string>& keys :
       {sweep::config_key_paths(), app::line_config_schema().key_paths()}) {
    EXPECT_EQ(duplicates(keys), std::vector<std::string>{}) << "declared twice";
    expect_rooted(keys);
  }
}

TEST(ConfigSchema, UndeclaredSectionIsAProgrammingError) {
  EXPECT_THROW((void)sweep::settings_schema().keys("/solvers"), std::logic_error);
}

}  // namespace
}  // namespace pmom
