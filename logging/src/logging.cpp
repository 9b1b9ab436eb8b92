// Boost.Log set-up: a stderr sink filtered by verbosity and an optional file sink that
// records everything from debug up, with timestamps.
#include "planarmom/logging/logging.hpp"

#include <boost/log/core.hpp>
#include <boost/log/expressions.hpp>
#include <boost/log/sinks/sync_frontend.hpp>
#include <boost/log/sinks/text_ostream_backend.hpp>
#include <boost/log/support/date_time.hpp>
#include <boost/log/utility/setup/common_attributes.hpp>
#include <boost/log/utility/setup/console.hpp>
#include <boost/smart_ptr/make_shared_object.hpp>
#include <cerrno>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace pmom::logging {

namespace {

namespace blog = boost::log;
namespace expr = boost::log::expressions;
namespace keywords = boost::log::keywords;
namespace sinks = boost::log::sinks;
using blog::trivial::severity_level;
using FileSink = sinks::synchronous_sink<sinks::text_ostream_backend>;

severity_level console_threshold(Verbosity verbosity) {
  switch (verbosity) {
    case Verbosity::quiet: return severity_level::warning;
    case Verbosity::verbose: return severity_level::debug;
    case Verbosity::normal: break;
  }
  return severity_level::info;
}

void add_console_sink(Verbosity verbosity, const std::string& prefix) {
  auto sink = blog::add_console_log(
      std::clog, keywords::format = expr::stream << "[" << blog::trivial::severity << "] "
                                                 << prefix << expr::smessage,
      keywords::auto_flush = true);
  sink->set_filter(blog::trivial::severity >= console_threshold(verbosity));
}

// An ostream sink on a stream opened here rather than add_file_log: that one treats the
// name as a pattern (%N, %d, ... are substituted, with no escape) and opens the file only
// at the first record, so a bad path would surface in some later log statement.
boost::shared_ptr<FileSink> make_file_sink(const std::filesystem::path& file,
                                           const std::string& prefix) {
  errno = 0;
  // Appending keeps the history of earlier runs that wrote to the same log.
  auto stream = boost::make_shared<std::ofstream>(file, std::ios::out | std::ios::app);
  if (!*stream) {
    std::string message = "cannot open log file ";
    message += file.string();
    message += ": ";
    message += std::generic_category().message(errno != 0 ? errno : EIO);
    throw std::runtime_error(message);
  }
  auto backend = boost::make_shared<sinks::text_ostream_backend>();
  backend->add_stream(stream);
  backend->auto_flush(true);
  auto sink = boost::make_shared<FileSink>(backend);
  sink->set_formatter(expr::stream << "["
                                   << expr::format_date_time<boost::posix_time::ptime>(
                                          "TimeStamp", "%Y-%m-%d %H:%M:%S.%f")
                                   << "] [" << blog::trivial::severity << "] " << prefix
                                   << expr::smessage);
  sink->set_filter(blog::trivial::severity >= severity_level::debug);
  return sink;
}

}  // namespace

void init_logging(const LogOptions& options) {
  // Opened before touching the core, so a bad path leaves the previous set-up working.
  const auto file_sink = options.file ? make_file_sink(*options.file, options.prefix) : nullptr;
  const auto core = blog::core::get();
  core->remove_all_sinks();
  blog::add_common_attributes();
  add_console_sink(options.verbosity, options.prefix);
  if (file_sink) core->add_sink(file_sink);
}

}  // namespace pmom::logging
