// Logging set-up: the file sink records debug and above with timestamps, the console sink
// follows the verbosity, re-initialisation replaces the sinks, bad log paths throw.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "io/temp_dir.hpp"
#include "planarmom/logging/heartbeat.hpp"
#include "planarmom/logging/logging.hpp"

namespace pmom::logging {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::TempDir;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Routes std::clog (the console sink's stream) into a string while alive.
class ClogCapture {
 public:
  ClogCapture() : previous_(std::clog.rdbuf(text_.rdbuf())) {}
  ~ClogCapture() { std::clog.rdbuf(previous_); }
  ClogCapture(const ClogCapture&) = delete;
  ClogCapture& operator=(const ClogCapture&) = delete;
  [[nodiscard]] std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* previous_;
};

// Console output goes to `console_` rather than the test log; every test leaves a plain
// console set-up behind, closing any file sink it opened.
class Logging : public testing::Test {
 protected:
  void TearDown() override { init_logging({}); }

  ClogCapture console_;
};

void log_every_level(const std::string& tag) {
  PMOM_LOG(trace) << tag << " trace message";
  PMOM_LOG(debug) << tag << " debug message";
  PMOM_LOG(info) << tag << " info message";
  PMOM_LOG(warning) << tag << " warning message";
  PMOM_LOG(error) << tag << " error message";
  PMOM_LOG(fatal) << tag << " fatal message";
}

TEST_F(Logging, FileSinkRecordsDebugAndAboveWithTimestamps) {
  const TempDir dir("log_file");
  const fs::path file = dir.path() / "run.log";
  init_logging({Verbosity::quiet, file});
  log_every_level("A");
  init_logging({});  // closes the file sink
  const std::string text = read_text(file);
  EXPECT_FALSE(contains(text, "A trace message")) << text;
  for (const std::string level : {"debug", "info", "warning", "error", "fatal"}) {
    std::ostringstream line;
    line << "[" << level << "] A " << level << " message";
    EXPECT_TRUE(contains(text, line.str())) << text;
  }
  EXPECT_EQ(text.rfind("[20", 0), 0U) << "expected a timestamp first: " << text;
}

TEST_F(Logging, ReinitialisingReplacesTheSinks) {
  const TempDir dir("log_reinit");
  const fs::path first = dir.path() / "first.log";
  const fs::path second = dir.path() / "second.log";
  init_logging({Verbosity::normal, first});
  PMOM_LOG(info) << "goes to the first file";
  init_logging({Verbosity::normal, second});
  PMOM_LOG(info) << "goes to the second file";
  init_logging({});
  PMOM_LOG(info) << "goes to no file";
  const std::string first_text = read_text(first);
  const std::string second_text = read_text(second);
  EXPECT_TRUE(contains(first_text, "goes to the first file"));
  EXPECT_FALSE(contains(first_text, "second"));
  EXPECT_TRUE(contains(second_text, "goes to the second file"));
  EXPECT_FALSE(contains(second_text, "first"));
  EXPECT_FALSE(contains(first_text + second_text, "no file"));
}

TEST_F(Logging, ReinitialisingDoesNotDuplicateConsoleOutput) {
  init_logging({});
  init_logging({});
  PMOM_LOG(warning) << "once";
  const std::string text = console_.text();
  EXPECT_EQ(text, "[warning] once\n");
}

TEST_F(Logging, QuietConsoleShowsWarningsAndAbove) {
  init_logging({Verbosity::quiet, std::nullopt});
  log_every_level("Q");
  init_logging({});
  const std::string text = console_.text();
  EXPECT_FALSE(contains(text, "Q info message")) << text;
  EXPECT_FALSE(contains(text, "Q debug message")) << text;
  EXPECT_TRUE(contains(text, "[warning] Q warning message")) << text;
  EXPECT_TRUE(contains(text, "[error] Q error message")) << text;
  EXPECT_TRUE(contains(text, "[fatal] Q fatal message")) << text;
}

TEST_F(Logging, NormalConsoleShowsInfoAndAbove) {
  init_logging({Verbosity::normal, std::nullopt});
  log_every_level("N");
  init_logging({});
  const std::string text = console_.text();
  EXPECT_FALSE(contains(text, "N debug message")) << text;
  EXPECT_TRUE(contains(text, "[info] N info message")) << text;
  EXPECT_TRUE(contains(text, "[warning] N warning message")) << text;
}

TEST_F(Logging, VerboseConsoleShowsDebugButNotTrace) {
  init_logging({Verbosity::verbose, std::nullopt});
  log_every_level("V");
  init_logging({});
  const std::string text = console_.text();
  EXPECT_FALSE(contains(text, "V trace message")) << text;
  EXPECT_TRUE(contains(text, "[debug] V debug message")) << text;
  EXPECT_TRUE(contains(text, "[info] V info message")) << text;
}

TEST_F(Logging, LogFileThatCannotBeOpenedThrowsNamingThePathAndKeepsTheOldSetUp) {
  const TempDir dir("log_bad");
  const fs::path good = dir.path() / "good.log";
  const fs::path bad = dir.path() / "no_such_dir" / "run.log";
  init_logging({Verbosity::normal, good});
  try {
    init_logging({Verbosity::normal, bad});
    ADD_FAILURE() << "a log file in a missing directory was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), bad.string())) << e.what();
  }
  PMOM_LOG(info) << "still logging";
  init_logging({});
  EXPECT_TRUE(contains(read_text(good), "still logging"));
}

TEST_F(Logging, PercentInTheLogFileNameIsTakenLiterally) {
  const TempDir dir("log_percent");
  const fs::path file = dir.path() / "run%N_100%.log";
  init_logging({Verbosity::normal, file});
  PMOM_LOG(info) << "percent file";
  init_logging({});
  ASSERT_TRUE(fs::exists(file)) << "missing " << file;
  EXPECT_TRUE(contains(read_text(file), "percent file"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1);
}

// A step longer than the period is reported while it runs, one line a period; a short one
// says nothing.
TEST_F(Logging, HeartbeatReportsALongStepAndNotAShortOne) {
  const TempDir dir("heartbeat");
  const fs::path file = dir.path() / "run.log";
  init_logging({Verbosity::quiet, file});
  {
    const Heartbeat beat("short step", std::chrono::milliseconds(500));
  }
  {
    const Heartbeat beat("long step", std::chrono::milliseconds(40));
    std::this_thread::sleep_for(std::chrono::milliseconds(230));
  }
  init_logging({});
  const std::string text = read_text(file);
  EXPECT_FALSE(contains(text, "short step")) << text;
  std::size_t beats = 0;
  for (std::size_t at = text.find("long step: still working"); at != std::string::npos;
       at = text.find("long step: still working", at + 1))
    ++beats;
  EXPECT_GE(beats, 3u) << text;  // 230 ms at 40 ms: five beats, three allow for a slow machine
  EXPECT_LE(beats, 6u) << text;
}

}  // namespace
}  // namespace pmom::logging
