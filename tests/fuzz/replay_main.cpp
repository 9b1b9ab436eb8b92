// A main for the fuzz targets without libFuzzer (any compiler): runs LLVMFuzzerTestOneInput
// once on every file given, or found under a folder given, so that CTest replays the corpus and
// every crash reproducer in seconds. A broken contract aborts, failing the test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_under(const fs::path& path) {
  if (!fs::is_directory(path)) return {path};
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(path))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());  // the same order on every run
  return files;
}

void replay(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>()};
  std::fprintf(stderr, "replaying %s (%zu bytes)\n", file.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

// Usage: fuzz_replay_NAME PATH...; a PATH that does not exist is skipped (a target that never
// crashed has no crashes/ folder), but finding no input at all is an error.
int main(int argc, char** argv) {
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path path = argv[i];
    if (!fs::exists(path)) {
      std::printf("%s: absent, skipped\n", path.c_str());
      continue;
    }
    const std::vector<fs::path> files = inputs_under(path);
    for (const fs::path& file : files) replay(file);
    replayed += files.size();
    std::printf("%s: %zu inputs replayed\n", path.c_str(), files.size());
  }
  if (replayed == 0) {
    std::fprintf(stderr, "no inputs found: give corpus files or folders\n");
    return 1;
  }
  return 0;
}
