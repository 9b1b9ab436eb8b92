// Pictures drawn by the Python scripts in tools/ under Debian's /usr/bin/python3 (h5py,
// matplotlib): an optional extra, skipped with a warning saying why where they are missing.
#pragma once

#include <filesystem>
#include <string>

namespace pmom::app {

// Runs `/usr/bin/python3 tools/SCRIPT HDF5 PNG` from the source tree. Returns whether the
// picture was written; otherwise a warning has said why (no script, no python3 with h5py and
// matplotlib, or the script failed).
bool plot_with_script(const std::string& script, const std::filesystem::path& hdf5,
                      const std::filesystem::path& png);

}  // namespace pmom::app
