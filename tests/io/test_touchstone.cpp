// Touchstone 1.1 (and 2.0 for ports of different impedances): exact write-read round trips for 1 to 5 ports, the line layout of the format
// (2-port column order, 4 pairs per line, rows on new lines), the common variants a reader
// meets (MA, DB, any unit, comments, CRLF, no option line, noise data), and malformed input
// reported with its line.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "io/sweep_example.hpp"
#include "io/temp_dir.hpp"
#include "planarmom/io/touchstone.hpp"

namespace pmom::io {
namespace {

namespace fs = std::filesystem;
using Complex = std::complex<double>;
using test::TempDir;

// Random values with full 53-bit mantissas over several decades, so that any loss of digits
// in the written text would show.
TouchstoneData random_data(std::size_t ports, std::size_t points) {
  std::mt19937_64 random(12345 + ports);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> decade(-12, 2);
  const auto value = [&] { return unit(random) * std::pow(10.0, decade(random)); };
  TouchstoneData data;
  data.ports = ports;
  data.reference_impedance_ohm = 50.0;
  data.comments = {"written by the round-trip test", "second comment line"};
  double frequency = 1e6 * std::abs(unit(random));
  for (std::size_t f = 0; f < points; ++f) {
    frequency += 1e8 * (1.0 + std::abs(unit(random)));
    data.frequency_hz.push_back(frequency);
    std::vector<Complex> s;
    for (std::size_t k = 0; k < ports * ports; ++k) s.emplace_back(value(), value());
    data.s.push_back(s);
  }
  return data;
}

fs::path name_for(const TempDir& dir, std::size_t ports) {
  return dir.path() / ("data.s" + std::to_string(ports) + "p");
}

// Lines of the file that are not comments, each split into tokens.
std::vector<std::vector<std::string>> data_lines(const fs::path& file) {
  std::istringstream text(test::read_text(file));
  std::vector<std::vector<std::string>> lines;
  for (std::string line; std::getline(text, line);) {
    if (line.empty() || line[0] == '!' || line[0] == '#') continue;
    std::istringstream fields(line);
    lines.emplace_back();
    for (std::string token; fields >> token;) lines.back().push_back(token);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------
// Round trips

class RoundTrip : public testing::TestWithParam<std::size_t> {};

// Tolerance: none. The writer prints each double in the shortest form that reads back to the
// same double, and the RI format in Hz involves no arithmetic on the way in.
TEST_P(RoundTrip, IsExact) {
  const std::size_t ports = GetParam();
  const TempDir dir("touchstone_roundtrip");
  const TouchstoneData written = random_data(ports, 7);
  const fs::path file = name_for(dir, ports);
  write_touchstone(file, written);
  const TouchstoneData read = read_touchstone(file);
  EXPECT_EQ(read.ports, ports);
  EXPECT_EQ(read.reference_impedance_ohm, 50.0);
  EXPECT_EQ(read.comments, written.comments);
  EXPECT_EQ(read.frequency_hz, written.frequency_hz);
  ASSERT_EQ(read.s.size(), written.s.size());
  for (std::size_t f = 0; f < read.s.size(); ++f)
    EXPECT_EQ(read.s[f], written.s[f]) << "point " << f;
}

INSTANTIATE_TEST_SUITE_P(Touchstone, RoundTrip, testing::Values(1, 2, 3, 4, 5),
                         [](const testing::TestParamInfo<std::size_t>& param) {
                           return std::to_string(param.param) + "Ports";
                         });

// Token counts of the lines of one point: frequency plus 2 per pair, at most 4 pairs a line,
// every matrix row on a new line (P >= 3); 1- and 2-port points on a single line.
TEST(Touchstone, LinesHoldAtMostFourPairsAndRowsStartNewLines) {
  const TempDir dir("touchstone_layout");
  const std::vector<std::vector<std::size_t>> expected = {
      {3}, {9}, {7, 6, 6}, {9, 8, 8, 8}, {9, 2, 8, 2, 8, 2, 8, 2, 8, 2}};
  for (std::size_t ports = 1; ports <= 5; ++ports) {
    const fs::path file = name_for(dir, ports);
    write_touchstone(file, random_data(ports, 2));
    const auto lines = data_lines(file);
    const auto& per_point = expected[ports - 1];
    ASSERT_EQ(lines.size(), 2 * per_point.size()) << ports << " ports";
    for (std::size_t l = 0; l < lines.size(); ++l)
      EXPECT_EQ(lines[l].size(), per_point[l % per_point.size()])
          << ports << " ports, data line " << l;
  }
}

TEST(Touchstone, OptionLineIsHzSRiWithTheReferenceImpedance) {
  const TempDir dir("touchstone_option");
  TouchstoneData data = random_data(1, 1);
  data.reference_impedance_ohm = 75.0;
  const fs::path file = name_for(dir, 1);
  write_touchstone(file, data);
  const std::string text = test::read_text(file);
  EXPECT_NE(text.find("\n# Hz S RI R 75\n"), std::string::npos) << text;
  EXPECT_EQ(read_touchstone(file).reference_impedance_ohm, 75.0);
}

// Touchstone's one irregularity: a 2-port line lists S11 S21 S12 S22. S12 = 2 and S21 = 3 here,
// so a row-major writer or reader would swap them.
TEST(Touchstone, TwoPortLinesListS21BeforeS12) {
  const TempDir dir("touchstone_2port");
  TouchstoneData data;
  data.ports = 2;
  data.frequency_hz = {1e9};
  data.s = {{Complex(1, 0.5), Complex(2, 0.25), Complex(3, 0.125), Complex(4, 0.0625)}};
  const fs::path file = name_for(dir, 2);
  write_touchstone(file, data);
  const auto lines = data_lines(file);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0], (std::vector<std::string>{"1e+09", "1", "0.5", "3", "0.125", "2",
                                                "0.25", "4", "0.0625"}));

  const fs::path handwritten = dir.write("hand.s2p", "# Hz S RI R 50\n1e9 11 0 21 0 12 0 22 0\n");
  const auto s = read_touchstone(handwritten).s.at(0);
  EXPECT_EQ(s[0 * 2 + 1], Complex(12, 0)) << "S12";
  EXPECT_EQ(s[1 * 2 + 0], Complex(21, 0)) << "S21";
}

// ---------------------------------------------------------------------------------------
// Variants a reader meets

// Tolerance 1e-15 absolute on values of magnitude <= 1: MA and DB go through cos, sin of the
// angle in radians and 10^(dB/20), each rounding to within an ulp or two of the true value.
constexpr double kPolarTolerance = 1e-15;

void expect_near(Complex actual, Complex expected, const std::string& what) {
  EXPECT_NEAR(actual.real(), expected.real(), kPolarTolerance) << what;
  EXPECT_NEAR(actual.imag(), expected.imag(), kPolarTolerance) << what;
}

TEST(Touchstone, ReadsMagnitudeAngleInGigahertz) {
  const TempDir dir("touchstone_ma");
  const fs::path file = dir.write("ma.s1p",
                                  "! from a vector network analyser\n"
                                  "# GHz S MA R 50\n"
                                  "1.5 0.5 90\n"
                                  "2.5 1 -135 ! trailing comment\n");
  const TouchstoneData data = read_touchstone(file);
  ASSERT_EQ(data.frequency_hz.size(), 2U);
  // 1.5e9 and 2.5e9 are exact in binary, as are their products with 1e9.
  EXPECT_EQ(data.frequency_hz[0], 1.5e9);
  EXPECT_EQ(data.frequency_hz[1], 2.5e9);
  expect_near(data.s[0][0], Complex(0.0, 0.5), "0.5 at 90 degrees");
  expect_near(data.s[1][0], Complex(-std::sqrt(0.5), -std::sqrt(0.5)), "1 at -135 degrees");
  EXPECT_EQ(data.comments,
            (std::vector<std::string>{"from a vector network analyser", "trailing comment"}));
}

TEST(Touchstone, ReadsDecibelAngleInMegahertzCaseInsensitively) {
  const TempDir dir("touchstone_db");
  const fs::path file = dir.write("db.S2P",
                                  "#mhz s db r 75\n"
                                  "100 -6.020599913279624 0  0 180  -20 45  0 -90\n");
  const TouchstoneData data = read_touchstone(file);
  EXPECT_EQ(data.reference_impedance_ohm, 75.0);
  EXPECT_EQ(data.frequency_hz.at(0), 100e6);
  const auto& s = data.s.at(0);
  expect_near(s[0], Complex(0.5, 0), "S11: -6.02 dB is a half");
  expect_near(s[2], Complex(-1, 0), "S21: 0 dB at 180 degrees");
  expect_near(s[1], Complex(0.1 * std::sqrt(0.5), 0.1 * std::sqrt(0.5)), "S12: -20 dB at 45");
  expect_near(s[3], Complex(0, -1), "S22: 0 dB at -90 degrees");
}

// Tolerance: 4 ulps (EXPECT_DOUBLE_EQ). A value times 10^3k is correctly rounded but need not
// equal the double nearest to the decimal product, e.g. 2.4 x 1e9.
TEST(Touchstone, ReadsEveryFrequencyUnit) {
  const TempDir dir("touchstone_units");
  const std::vector<std::pair<std::string, double>> units = {
      {"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  for (const auto& [unit, scale] : units) {
    const fs::path file = dir.write("u.s1p", "# " + unit + " S RI R 50\n2.4 0.1 0.2\n3.7 0 0\n");
    const TouchstoneData data = read_touchstone(file);
    ASSERT_EQ(data.frequency_hz.size(), 2U) << unit;
    EXPECT_DOUBLE_EQ(data.frequency_hz[0], 2.4 * scale) << unit;
    EXPECT_DOUBLE_EQ(data.frequency_hz[1], 3.7 * scale) << unit;
  }
}

// Touchstone 1.1 defaults: GHz, S, MA, R 50.
TEST(Touchstone, FileWithoutOptionLineUsesTheDefaults) {
  const TempDir dir("touchstone_defaults");
  const TouchstoneData data = read_touchstone(dir.write("d.s1p", "2 0.5 180\n"));
  EXPECT_EQ(data.frequency_hz.at(0), 2e9);
  EXPECT_EQ(data.reference_impedance_ohm, 50.0);
  expect_near(data.s.at(0)[0], Complex(-0.5, 0), "0.5 at 180 degrees");
}

// Tolerance: none, RI values pass through unchanged.
TEST(Touchstone, ReadsCrlfBlankLinesAndWrappedRowsOfOtherWriters) {
  const TempDir dir("touchstone_variants");
  const fs::path file = dir.write("v.s3p",
                                  "! exported\r\n"
                                  "# Hz S RI R 50\r\n"
                                  "\r\n"
                                  "1e9 +1 0 2 0\r\n"      // row 1 wrapped after two pairs
                                  "    3 0 ! S13\r\n"
                                  "4 0 5 0 6 0\r\n"
                                  "7 0 8 0 9 0\r\n");
  const TouchstoneData data = read_touchstone(file);
  ASSERT_EQ(data.s.size(), 1U);
  for (std::size_t k = 0; k < 9; ++k)
    EXPECT_EQ(data.s[0][k], Complex(static_cast<double>(k + 1), 0)) << "entry " << k;
  EXPECT_EQ(data.comments, (std::vector<std::string>{"exported", "S13"}));
}

TEST(Touchstone, TwoPortNoiseParametersAreSkipped) {
  const TempDir dir("touchstone_noise");
  const fs::path file = dir.write("n.s2p",
                                  "# GHz S RI R 50\n"
                                  "1 0.1 0 0.9 0 0.9 0 0.1 0\n"
                                  "2 0.2 0 0.8 0 0.8 0 0.2 0\n"
                                  "! noise parameters\n"
                                  "1 0.5 0.3 45 0.2\n"
                                  "2 0.7 0.35 50 0.25\n");
  const TouchstoneData data = read_touchstone(file);
  EXPECT_EQ(data.frequency_hz, (std::vector<double>{1e9, 2e9}));
}

// ---------------------------------------------------------------------------------------
// From a sweep

TEST(Touchstone, FromSweepSortsByFrequencyAndDescribesTheRun) {
  const TempDir dir("touchstone_sweep");
  SweepData sweep;
  sweep.info = test::example_sweep_info(2);
  sweep.complete = true;
  for (const std::size_t index : {2, 0, 1}) sweep.records.push_back(test::example_record(index, 2));
  const TouchstoneData data = touchstone_from_sweep(sweep);
  EXPECT_EQ(data.frequency_hz, (std::vector<double>{1e9, 2e9, 3e9}));
  EXPECT_EQ(data.s[0], test::example_record(0, 2).s);

  std::string comments;
  for (const auto& c : data.comments) comments += c + "\n";
  for (const char* part : {"planarmom 0.1.0-test", "cpu backend", "port 1 'port 1'",
                           "reference plane at 1.25 mm", "S11 S21 S12 S22"})
    EXPECT_NE(comments.find(part), std::string::npos) << part << " missing in\n" << comments;

  const fs::path file = name_for(dir, 2);
  write_touchstone(file, data);
  EXPECT_EQ(read_touchstone(file).s, data.s);
}

// Ports of different reference impedances (an internal port's and the feeds'): a Touchstone 2.0
// file with [Reference], read back exactly; 1.1 where they are equal.
TEST(Touchstone, DifferentReferenceImpedancesAreVersionTwo) {
  const TempDir dir("touchstone_references");
  for (const std::size_t ports : {2U, 3U}) {
    SweepData sweep;
    sweep.info = test::example_sweep_info(ports);
    sweep.info.reference_impedance_ohm.assign(ports, 50.0);
    sweep.info.reference_impedance_ohm.back() = 25.0;
    sweep.complete = true;
    for (const std::size_t index : {0, 1}) sweep.records.push_back(test::example_record(index, ports));
    const TouchstoneData data = touchstone_from_sweep(sweep);
    EXPECT_EQ(data.port_reference_ohm, sweep.info.reference_impedance_ohm);
    const fs::path file = name_for(dir, ports);
    write_touchstone(file, data);
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string& part :
         {std::string("[Version] 2.0\n# Hz S RI R 50\n[Number of Ports] ") +
              std::to_string(ports),
          std::string("[Number of Frequencies] 2\n[Reference]") +
              (ports == 2 ? " 50 25" : " 50 50 25") + "\n[Network Data]\n",
          std::string("[End]\n")})
      EXPECT_NE(text.find(part), std::string::npos) << part << " missing in\n" << text;
    EXPECT_EQ(text.find("[Two-Port Data Order] 21_12") != std::string::npos, ports == 2);
    const TouchstoneData read = read_touchstone(file);
    EXPECT_EQ(read.s, data.s);
    EXPECT_EQ(read.frequency_hz, data.frequency_hz);
    EXPECT_EQ(read.port_reference_ohm, data.port_reference_ohm);
  }
  SweepData same;
  same.info = test::example_sweep_info(2);
  same.records.push_back(test::example_record(0, 2));
  EXPECT_TRUE(touchstone_from_sweep(same).port_reference_ohm.empty());
}

// A 2.0 file as another program writes it: S12 before S21, [Reference] over two lines.
TEST(Touchstone, ReadsVersionTwoKeywords) {
  const TempDir dir("touchstone_v2");
  const TouchstoneData data = read_touchstone(
      dir.write("v2.s2p", "[Version] 2.0\n# GHz S RI R 50\n[Number of Ports] 2\n"
                          "[Two-Port Data Order] 12_21\n[Number of Frequencies] 1\n"
                          "[Reference] 50\n75\n[Matrix Format] Full\n[Network Data]\n"
                          "1 0.1 0 0.2 0 0.3 0 0.4 0\n[End]\n"));
  ASSERT_EQ(data.s.size(), 1U);
  EXPECT_EQ(data.s[0], (std::vector<std::complex<double>>{0.1, 0.2, 0.3, 0.4}));
  EXPECT_EQ(data.port_reference_ohm, (std::vector<double>{50, 75}));
  EXPECT_EQ(data.frequency_hz, std::vector<double>{1e9});
}

TEST(Touchstone, WriterRejectsInconsistentData) {
  const TempDir dir("touchstone_bad_data");
  const TouchstoneData good = random_data(2, 3);
  EXPECT_THROW(write_touchstone(dir.path() / "x.s3p", good), std::invalid_argument);
  EXPECT_THROW(write_touchstone(dir.path() / "x.txt", good), std::invalid_argument);
  TouchstoneData unordered = good;
  std::swap(unordered.frequency_hz[0], unordered.frequency_hz[1]);
  EXPECT_THROW(write_touchstone(name_for(dir, 2), unordered), std::invalid_argument);
  TouchstoneData short_matrix = good;
  short_matrix.s[1].pop_back();
  EXPECT_THROW(write_touchstone(name_for(dir, 2), short_matrix), std::invalid_argument);
}

TEST(Touchstone, PortCountComesFromTheName) {
  EXPECT_EQ(touchstone_port_count("a/filter.s2p"), 2U);
  EXPECT_EQ(touchstone_port_count("BIG.S12P"), 12U);
  for (const char* name : {"x.s0p", "x.sp", "x.s2", "x.txt", "s2p", "x.s-1p", "x.s2x"})
    EXPECT_EQ(touchstone_port_count(name), std::nullopt) << name;
}

// ---------------------------------------------------------------------------------------
// Malformed input

struct BadFile {
  const char* name;
  const char* file;
  const char* content;
  std::size_t line;
  const char* message;
};

void PrintTo(const BadFile& bad, std::ostream* os) { *os << bad.name; }

class Malformed : public testing::TestWithParam<BadFile> {};

TEST_P(Malformed, ThrowsWithFileLineAndReason) {
  const BadFile& bad = GetParam();
  const TempDir dir("touchstone_bad");
  const fs::path file = dir.write(bad.file, bad.content);
  try {
    read_touchstone(file);
    ADD_FAILURE() << "no error, expected line " << bad.line << ": " << bad.message;
  } catch (const TouchstoneError& e) {
    const std::string what = e.what();
    const std::string location = bad.line == 0
                                     ? file.string() + ": "
                                     : file.string() + ":" + std::to_string(bad.line) + ": ";
    EXPECT_EQ(e.line(), bad.line) << what;
    EXPECT_EQ(what.rfind(location, 0), 0U) << what;
    EXPECT_NE(what.find(bad.message), std::string::npos) << what;
  }
}

const BadFile kBadFiles[] = {
    {"UnknownOption", "a.s1p", "! c\n# Hz S XX R 50\n1 0 0\n", 2, "unknown option 'XX'"},
    {"ImpedanceMissing", "a.s1p", "# Hz S RI R\n1 0 0\n", 1, "R must be followed"},
    {"ImpedanceNegative", "a.s1p", "# Hz S RI R -50\n1 0 0\n", 1, "not a positive number"},
    {"YParameters", "a.s1p", "# Hz Y RI R 50\n1 0 0\n", 1, "Y parameters are not supported"},
    {"NonNumeric", "a.s1p", "# Hz S RI R 50\n1 0 0\n2 0.5 abc\n", 3, "'abc' is not a finite"},
    {"NotANumber", "a.s1p", "# Hz S RI R 50\n1 nan 0\n", 2, "'nan' is not a finite"},
    {"TooManyValues", "a.s1p", "# Hz S RI R 50\n1 0 0 7\n", 2,
     "4 values on the line, but a 1-port frequency point has 3"},
    {"TooFewValuesThenNextPoint", "a.s2p",
     "# Hz S RI R 50\n1 0 0 0 0 0 0 0\n2 0 0 0 0 0 0 0 0\n", 3,
     "begun on line 2 needs only 1 more"},
    {"CutShortAtEnd", "a.s3p", "# Hz S RI R 50\n\n1 0 0 0 0 0 0\n0 0 0 0 0 0\n", 3,
     "cut short by the end of the file: 13 of its 19 values"},
    {"FrequencyDecreases", "a.s1p", "# Hz S RI R 50\n2 0 0\n1 0 0\n", 3, "must increase"},
    {"BadNoiseLine", "a.s2p", "# Hz S RI R 50\n2 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0 0\n", 3,
     "a noise line has 5"},
    {"OptionLineAfterData", "a.s1p", "1 0 0\n# Hz S RI R 50\n", 2, "must come before the data"},
    {"VersionThree", "a.s2p", "[Version] 3.0\n# Hz S RI R 50\n", 1, "versions 1.1 and 2.0"},
    {"PortsDisagree", "a.s2p", "[Version] 2.0\n# Hz S RI R 50\n[Number of Ports] 3\n", 3,
     "the file's name says 2"},
    {"FrequenciesDisagree", "a.s1p",
     "[Version] 2.0\n# Hz S RI R 50\n[Number of Frequencies] 2\n[Network Data]\n1 0 0\n", 0,
     "[Number of Frequencies] is 2 but the file holds 1"},
    {"ReferenceShort", "a.s2p",
     "[Version] 2.0\n# Hz S RI R 50\n[Reference] 50\n[Network Data]\n", 4,
     "holds 1 of the 2 ports"},
    {"ReferenceNegative", "a.s1p", "[Version] 2.0\n# Hz S RI R 50\n[Reference] -5\n", 3,
     "'-5' is not a positive number"},
    {"LowerMatrix", "a.s2p", "[Version] 2.0\n# Hz S RI R 50\n[Matrix Format] Lower\n", 3,
     "only Full"},
    {"UnknownKeyword", "a.s1p", "[Version] 2.0\n# Hz S RI R 50\n[Mixed-Mode Order] D1,2\n", 3,
     "keyword [Mixed-Mode Order] is not supported"},
    {"DataAfterEnd", "a.s1p", "[Version] 2.0\n# Hz S RI R 50\n1 0 0\n[End]\n2 0 0\n", 5,
     "data after [End]"},
    {"NoData", "a.s1p", "! only a comment\n# Hz S RI R 50\n", 0, "no frequency points"},
    {"NameWithoutPortCount", "a.txt", "# Hz S RI R 50\n1 0 0\n", 0, "cannot tell the port count"},
};

INSTANTIATE_TEST_SUITE_P(Touchstone, Malformed, testing::ValuesIn(kBadFiles),
                         [](const testing::TestParamInfo<BadFile>& param) {
                           return std::string(param.param.name);
                         });

TEST(Touchstone, MissingFileNamesTheFile) {
  const TempDir dir("touchstone_missing");
  const fs::path file = dir.path() / "absent.s2p";
  try {
    read_touchstone(file);
    ADD_FAILURE() << "no error";
  } catch (const TouchstoneError& e) {
    EXPECT_EQ(std::string(e.what()), file.string() + ": cannot open: No such file or directory");
  }
}

}  // namespace
}  // namespace pmom::io
