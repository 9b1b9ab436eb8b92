// What every fuzz target shares: the input written to a file for readers that take a path, and
// the abort that turns a broken contract into a crash libFuzzer (or the replay driver) reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace pmom::fuzz {

// Writes the input to `name` in a folder of this process's own (on /dev/shm when there, so
// that millions of executions do not wear a disk), replacing the previous input, and returns
// the file's path. The folder is removed when the process exits normally.
std::filesystem::path write_input(std::string_view name, const std::uint8_t* data,
                                  std::size_t size);

// The folder write_input uses, for targets that create files of their own.
const std::filesystem::path& scratch_folder();

// Aborts, printing `what`: the code under test broke its contract.
[[noreturn]] void fail(std::string_view what);
// fail(what) when `holds` is false; for fixed texts (fail() builds a computed one only when
// needed, which keeps executions fast).
void expect(bool holds, std::string_view what);

// Aborts unless every frequency is finite and above zero (at zero too when `zero_allowed`) and
// each exceeds the one before it.
void expect_frequencies(const std::vector<double>& hz, bool zero_allowed = false);

// Aborts unless `message` (an exception's what()) names `file` first, as every reader's error
// messages must ("FILE:LINE: ..." or "FILE: ...").
void expect_names_file(std::string_view message, const std::filesystem::path& file);

}  // namespace pmom::fuzz
