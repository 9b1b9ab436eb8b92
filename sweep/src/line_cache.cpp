// LineCache (line_cache.hpp): JSON files {"key": ..., "values": [...]} named by FNV-1a.
#include "planarmom/sweep/line_cache.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>

#include "planarmom/logging/logging.hpp"

namespace pmom::sweep {
namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

std::filesystem::path LineCache::default_folder() {
  if (const char* dir = std::getenv("PLANARMOM_CACHE_DIR"); dir != nullptr && *dir != '\0')
    return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    return std::filesystem::path(xdg) / "planarmom" / "lines";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : ".") / ".cache" / "planarmom" / "lines";
}

std::filesystem::path LineCache::file_of(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.json", static_cast<unsigned long long>(fnv1a(key)));
  return folder_ / name;
}

std::optional<std::vector<double>> LineCache::get(const std::string& key) const {
  std::ifstream in(file_of(key));
  if (!in) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("key") || !j.contains("values") || j["key"] != key ||
      !j["values"].is_array())
    return std::nullopt;
  std::vector<double> values;
  for (const auto& v : j["values"]) {
    if (!v.is_number()) return std::nullopt;
    values.push_back(v.get<double>());
  }
  return values;
}

void LineCache::put(const std::string& key, const std::vector<double>& values) const {
  const std::filesystem::path file = file_of(key);
  std::error_code error;
  std::filesystem::create_directories(folder_, error);
  // Unique per process and call: ranks or sweeps writing the same entry never share a file.
  static std::atomic<int> serial{0};
  const std::filesystem::path temporary =
      file.string() + "." + std::to_string(::getpid()) + "." + std::to_string(serial++) + ".tmp";
  {
    std::ofstream out(temporary);
    out << nlohmann::json{{"key", key}, {"values", values}}.dump() << '\n';
    if (!out.flush()) {
      PMOM_LOG(warning) << "line cache: cannot write " << temporary.string()
                        << " (the result is used but not kept)";
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  std::filesystem::rename(temporary, file, error);
  if (error) {
    PMOM_LOG(warning) << "line cache: cannot store " << file.string() << ": " << error.message();
    std::filesystem::remove(temporary, error);
  }
}

}  // namespace pmom::sweep
