// A scratch directory for one test, unique per process and test, removed afterwards.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>

namespace pmom::test {

class TempDir {
 public:
  explicit TempDir(std::string_view tag) {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("planarmom_" + std::string(tag) + "_" + std::to_string(::getpid()) + "_" +
             std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;  // a leftover scratch directory must not fail the test
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  // Writes `content` byte for byte (binary mode keeps CR characters) and returns the path.
  std::filesystem::path write(const std::string& name, std::string_view content) const {
    const auto file = path_ / name;
    std::ofstream(file, std::ios::binary).write(content.data(),
                                                static_cast<std::streamsize>(content.size()));
    return file;
  }

 private:
  std::filesystem::path path_;
};

// The whole content of a text file.
inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace pmom::test
