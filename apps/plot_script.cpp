// The plot scripts' runner: a missing Python module (the scripts' exit status kMissingModules)
// and a failing script give different messages.
#include "plot_script.hpp"

#include <cstdlib>

#include <sys/wait.h>

#include "planarmom/logging/logging.hpp"

namespace pmom::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPython = "/usr/bin/python3";
// tools/plot_*.py exit with this status where h5py or matplotlib cannot be imported.
constexpr int kMissingModules = 3;

// The argument in single quotes for /bin/sh, with any single quote in it escaped.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

bool plot_with_script(const std::string& script, const fs::path& hdf5, const fs::path& png) {
  const fs::path path = fs::path(PLANARMOM_SOURCE_DIR) / "tools" / script;
  if (!fs::exists(path)) {
    PMOM_LOG(warning) << "no plot written: " << path.string() << " is missing";
    return false;
  }
  const std::string command = std::string(kPython) + " " + quoted(path.string()) + " " +
                              quoted(hdf5.string()) + " " + quoted(png.string());
  const int status = std::system(command.c_str());
  if (status == 0) return true;
  // The scripts exit with kMissingModules where their imports fail (no separate probe: its
  // Python start cost ~0.17 s of every sweep, docs/PERFORMANCE.md v0.37).
  if (WIFEXITED(status) && WEXITSTATUS(status) == kMissingModules) {
    PMOM_LOG(warning) << "no plot written: " << kPython
                      << " with h5py and matplotlib is needed (Debian: python3-h5py, "
                         "python3-matplotlib)";
    return false;
  }
  PMOM_LOG(warning) << "no plot written: " << path.string() << " failed on " << hdf5.string();
  return false;
}

}  // namespace pmom::app
