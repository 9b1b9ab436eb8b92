// An on-disk cache of line-check results: the same substrate, width, cells, length and
// frequency give the same feed Z0 and matched load, so a second sweep of a board reads them
// instead of solving the lines again. One small JSON file per result, named by a hash of its
// key and holding the key, so a hash collision or a damaged file is a miss, never a wrong
// answer; written to a temporary file renamed into place, so that concurrent sweeps never read
// half a file. A cache that cannot be written costs a warning, not the sweep.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pmom::sweep {

class LineCache {
 public:
  // $PLANARMOM_CACHE_DIR if set, else $XDG_CACHE_HOME/planarmom/lines, else
  // ~/.cache/planarmom/lines (relative to the current folder when HOME is unset).
  static std::filesystem::path default_folder();

  explicit LineCache(std::filesystem::path folder) : folder_(std::move(folder)) {}

  // The values stored under `key`, or nothing (absent, unreadable, another key, malformed).
  [[nodiscard]] std::optional<std::vector<double>> get(const std::string& key) const;
  // Stores them (creating the folder); a failure is logged as a warning.
  void put(const std::string& key, const std::vector<double>& values) const;

  [[nodiscard]] const std::filesystem::path& folder() const { return folder_; }

 private:
  [[nodiscard]] std::filesystem::path file_of(const std::string& key) const;
  std::filesystem::path folder_;
};

}  // namespace pmom::sweep
