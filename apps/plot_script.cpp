// The plot scripts' runner: checks for the Python modules first, so that a missing module and
// a failing script give different messages.
#include "plot_script.hpp"

#include <cstdlib>

#include "planarmom/logging/logging.hpp"

namespace pmom::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPython = "/usr/bin/python3";

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
  const std::string probe =
      std::string(kPython) + " -c 'import h5py, matplotlib' >/dev/null 2>&1";
  if (std::system(probe.c_str()) != 0) {
    PMOM_LOG(warning) << "no plot written: " << kPython
                      << " with h5py and matplotlib is needed (Debian: python3-h5py, "
                         "python3-matplotlib)";
    return false;
  }
  const std::string command = std::string(kPython) + " " + quoted(path.string()) + " " +
                              quoted(hdf5.string()) + " " + quoted(png.string());
  if (std::system(command.c_str()) != 0) {
    PMOM_LOG(warning) << "no plot written: " << path.string() << " failed on "
                      << hdf5.string();
    return false;
  }
  return true;
}

}  // namespace pmom::app
