// Damage done to a sweep file through the HDF5 C API, as decoded from a fuzz input: datasets
// removed, replaced by ones of other shapes and types, grown or cut to other row counts,
// overwritten with odd values, and attributes removed or rewritten. The file stays a valid
// HDF5 file (HDF5's own parser is not under test); what planarmom makes of its content is.
#pragma once

#include <filesystem>

#include "fuzz_bytes.hpp"

namespace pmom::fuzz {

// Applies the edits the input asks for (at most a few) and returns how many were tried: the
// file may have changed when that is not 0. HDF5 refusing an edit (a contiguous dataset cannot
// change its row count) is part of the game. With PLANARMOM_FUZZ_TRACE set in the environment,
// each edit is printed to stderr.
int edit_sweep_file(const std::filesystem::path& file, FuzzBytes& in);

}  // namespace pmom::fuzz
