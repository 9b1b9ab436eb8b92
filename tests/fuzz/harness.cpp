// The scratch folder of the fuzz targets and their contract checks.
#include "harness.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace pmom::fuzz {

namespace fs = std::filesystem;

namespace {

// The folder, made on first use; a crash leaves it behind (in tmpfs: gone at reboot).
class Scratch {
 public:
  Scratch() {
    const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm")
                                                       : fs::temp_directory_path();
    std::string pattern = (base / "planarmom-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      fail("cannot create a scratch folder in " + base.string());
    folder_ = pattern;
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(folder_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  [[nodiscard]] const fs::path& folder() const { return folder_; }

 private:
  fs::path folder_;
};

}  // namespace

const fs::path& scratch_folder() {
  static const Scratch scratch;
  return scratch.folder();
}

fs::path write_input(std::string_view name, const std::uint8_t* data, std::size_t size) {
  fs::path file = scratch_folder() / name;
  const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fail("cannot write " + file.string());
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    if (n <= 0) fail("cannot write " + file.string());
    written += static_cast<std::size_t>(n);
  }
  close(fd);
  return file;
}

void fail(std::string_view what) {
  std::fprintf(stderr, "fuzz contract broken: %.*s\n", static_cast<int>(what.size()),
               what.data());
  std::abort();
}

void expect(bool holds, std::string_view what) {
  if (!holds) fail(what);
}

void expect_frequencies(const std::vector<double>& hz, bool zero_allowed) {
  expect(!hz.empty(), "no frequencies");
  for (std::size_t i = 0; i < hz.size(); ++i) {
    const bool in_range = std::isfinite(hz[i]) && (hz[i] > 0 || (zero_allowed && hz[i] == 0));
    if (in_range && (i == 0 || hz[i] > hz[i - 1])) continue;
    fail("frequency " + std::to_string(i) + " (" + std::to_string(hz[i]) + " Hz) is " +
        (in_range ? "not above the one before" : "not finite or not above zero"));
  }
}

void expect_names_file(std::string_view message, const fs::path& file) {
  const std::string prefix = file.string() + ":";
  expect(message.starts_with(prefix) && message.size() > prefix.size() + 1,
         "the error message does not start with '" + prefix + "': " + std::string(message));
}

}  // namespace pmom::fuzz
