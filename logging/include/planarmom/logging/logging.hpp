// Logging set-up for the command-line tools and the libraries: Boost.Log with a console sink
// (stderr) and an optional file sink. Libraries log through PMOM_LOG(severity).
#pragma once

#include <boost/log/trivial.hpp>
#include <filesystem>
#include <optional>
#include <string>

#define PMOM_LOG(severity) BOOST_LOG_TRIVIAL(severity)

namespace pmom::logging {

enum class Verbosity { quiet, normal, verbose };

struct LogOptions {
  Verbosity verbosity = Verbosity::normal;  // quiet: warnings and errors; verbose: debug
  std::optional<std::filesystem::path> file;  // receives everything down to debug
  std::string prefix{};  // put before every message (an MPI rank's "rank 1 (host): ")
};

// Replaces any earlier set-up; safe to call more than once (tests do).
void init_logging(const LogOptions& options);

}  // namespace pmom::logging
