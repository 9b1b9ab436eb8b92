// Building error messages from text and numbers, and the "FILE:LINE: " prefix that the file
// readers put before them.
#pragma once

#include <concepts>
#include <filesystem>
#include <string>
#include <string_view>

namespace pmom::io {

inline std::string_view as_text(std::string_view text) { return text; }
inline std::string as_text(std::integral auto number) { return std::to_string(number); }

// Joins the parts by appending: chains of `"literal" + std::string` trip a false -Wrestrict in
// GCC 12 (PR 105329).
template <class... Parts> std::string cat(const Parts&... parts) {
  std::string text;
  ((text += as_text(parts)), ...);
  return text;
}

// "FILE:LINE: ", or "FILE: " for line 0 (an error about the whole file).
inline std::string locate(const std::filesystem::path& file, std::size_t line) {
  return line == 0 ? cat(file.string(), ": ") : cat(file.string(), ":", line, ": ");
}

}  // namespace pmom::io
