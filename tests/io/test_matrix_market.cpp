// Matrix Market reader and writer: every malformed-input case names the right line, every
// legal field/symmetry/format combination expands correctly, write-read round trips are
// exact, and the shared SuiteSparse matrices read with the stated sizes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "io/temp_dir.hpp"
#include "planarmom/io/matrix_market.hpp"

namespace pmom::io {
namespace {

namespace fs = std::filesystem;
using Complex = std::complex<double>;
using test::TempDir;

// One expanded entry, 0-based, for readable comparisons and failure output.
struct Triplet {
  index_t row;
  index_t col;
  double re;
  double im = 0.0;
  bool operator==(const Triplet&) const = default;
};

void PrintTo(const Triplet& t, std::ostream* os) {
  *os << "(" << t.row << ", " << t.col << ": " << t.re << (t.im < 0 ? "" : "+") << t.im << "i)";
}

std::vector<Triplet> triplets(const Coo<Complex>& coo) {
  std::vector<Triplet> out;
  for (std::size_t e = 0; e < coo.nnz(); ++e)
    out.push_back({coo.row_idx[e], coo.col_idx[e], coo.values[e].real(), coo.values[e].imag()});
  return out;
}

void write_gzip(const fs::path& file, const std::string& content) {
  gzFile gz = gzopen(file.c_str(), "wb");
  ASSERT_NE(gz, nullptr) << file;
  ASSERT_EQ(gzwrite(gz, content.data(), static_cast<unsigned>(content.size())),
            static_cast<int>(content.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
}

// Expects read_matrix_market to throw MatrixMarketError at `line` with `message` in what().
void expect_error(const fs::path& file, std::size_t line, const std::string& message) {
  try {
    read_matrix_market(file);
    ADD_FAILURE() << "no error for " << file << ", expected line " << line << ": " << message;
  } catch (const MatrixMarketError& e) {
    const std::string what = e.what();
    const std::string location =
        line == 0 ? file.string() + ": " : file.string() + ":" + std::to_string(line) + ": ";
    EXPECT_EQ(e.line(), line) << what;
    EXPECT_EQ(what.rfind(location, 0), 0U) << "what() = " << what;
    EXPECT_NE(what.find(message), std::string::npos) << "what() = " << what;
  }
}

// ---------------------------------------------------------------------------------------
// Malformed files

struct BadFile {
  const char* name;
  const char* content;
  std::size_t line;
  const char* message;
};

void PrintTo(const BadFile& b, std::ostream* os) { *os << b.name; }

class MalformedFile : public testing::TestWithParam<BadFile> {};

TEST_P(MalformedFile, ThrowsWithFileLineAndReason) {
  const TempDir dir("mm_bad");
  const BadFile& bad = GetParam();
  expect_error(dir.write(std::string(bad.name) + ".mtx", bad.content), bad.line, bad.message);
}

TEST_P(MalformedFile, GzipCompressedCopyReportsTheSameLine) {
  const TempDir dir("mm_badgz");
  const BadFile& bad = GetParam();
  const fs::path file = dir.path() / (std::string(bad.name) + ".mtx.gz");
  write_gzip(file, bad.content);
  expect_error(file, bad.line, bad.message);
}

// Line numbers count the banner as line 1; errors at the end of the file name the line
// after the last one.
const BadFile kBadFiles[] = {
    {"EmptyFile", "", 0, "file is empty"},
    {"MissingBanner", "3 3 1\n1 1 1\n", 1, "missing banner"},
    {"BannerWithOnePercent", "%MatrixMarket matrix coordinate real general\n1 1 0\n", 1,
     "missing banner"},
    {"BannerTooFewFields", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1,
     "banner needs 5 fields (%%MatrixMarket matrix format field symmetry), found 4"},
    {"BannerTooManyFields", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1,
     "banner needs 5 fields"},
    {"BannerMagicWithSuffix", "%%MatrixMarketX matrix coordinate real general\n1 1 0\n", 1,
     "banner must start with '%%MatrixMarket', found '%%MatrixMarketX'"},
    {"UnsupportedObjectVector", "%%MatrixMarket vector coordinate real general\n1 1 0\n", 1,
     "unsupported object 'vector'"},
    {"UnknownFormat", "%%MatrixMarket matrix coord real general\n1 1 0\n", 1,
     "unknown format 'coord' (expected coordinate or array)"},
    {"UnknownField", "%%MatrixMarket matrix coordinate float general\n1 1 0\n", 1,
     "unknown field 'float'"},
    {"UnknownSymmetry", "%%MatrixMarket matrix coordinate real upper\n1 1 0\n", 1,
     "unknown symmetry 'upper'"},
    {"PatternArrayUnsupported", "%%MatrixMarket matrix array pattern general\n1 1\n", 1,
     "pattern field needs coordinate format"},
    {"HermitianRealUnsupported", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
     "hermitian symmetry needs the complex field, not real"},
    {"HermitianIntegerUnsupported",
     "%%MatrixMarket matrix coordinate integer hermitian\n1 1 0\n", 1,
     "hermitian symmetry needs the complex field, not integer"},
    {"SkewPatternUnsupported",
     "%%MatrixMarket matrix coordinate pattern skew-symmetric\n1 1 0\n", 1,
     "skew-symmetric symmetry cannot be combined with the pattern field"},
    {"NoSizeLine", "%%MatrixMarket matrix coordinate real general\n% only a comment\n\n", 4,
     "file ends before the size line"},
    {"SizeLineNotANumber",
     "%%MatrixMarket matrix coordinate real general\n% c\n3 x 1\n1 1 1\n", 3,
     "size line: columns 'x' is not an integer"},
    {"SizeLineFloatRows", "%%MatrixMarket matrix coordinate real general\n3.0 3 1\n1 1 1\n", 2,
     "size line: rows '3.0' is not an integer"},
    {"SizeLineNegative", "%%MatrixMarket matrix coordinate real general\n-3 3 1\n1 1 1\n", 2,
     "size line: rows must not be negative, found -3"},
    {"SizeLineNegativeEntries",
     "%%MatrixMarket matrix coordinate real general\n3 3 -1\n", 2,
     "size line: entries must not be negative, found -1"},
    {"SizeLineMissingField", "%%MatrixMarket matrix coordinate real general\n\n3 3\n", 3,
     "size line: expected 3 fields (rows cols entries), found 2"},
    {"SizeLineTooManyFields", "%%MatrixMarket matrix coordinate real general\n3 3 1 1\n", 2,
     "size line: expected 3 fields (rows cols entries), found 4"},
    {"ArraySizeLineTooManyFields", "%%MatrixMarket matrix array real general\n2 2 4\n", 2,
     "size line: expected 2 fields (rows cols), found 3"},
    {"SizeLineDimensionTooLarge",
     "%%MatrixMarket matrix coordinate real general\n3000000000 3 1\n", 2,
     "size line: rows 3000000000 exceeds the supported maximum 2147483647"},
    {"SizeLineNonSquareSymmetric",
     "%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n", 2,
     "symmetric storage needs a square matrix, the size line gives 3 x 4"},
    {"SizeLineNonSquareArraySkew", "%%MatrixMarket matrix array real skew-symmetric\n2 3\n", 2,
     "skew-symmetric storage needs a square matrix, the size line gives 2 x 3"},
    {"SizeLineMoreEntriesThanFit",
     "%%MatrixMarket matrix coordinate real skew-symmetric\n4 4 7\n", 2,
     "size line states 7 entries, but a 4 x 4 skew-symmetric matrix stores at most 6"},
    {"TruncatedAfterTenOfTwelve",
     "%%MatrixMarket matrix coordinate real general\n4 4 12\n"
     "1 1 1\n2 1 1\n3 1 1\n4 1 1\n1 2 1\n2 2 1\n3 2 1\n4 2 1\n1 3 1\n2 3 1\n",
     13, "file ends after 10 of 12 entries"},
    {"TruncatedWithoutFinalNewline",
     "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1", 4,
     "file ends after 1 of 2 entries"},
    {"TruncatedWithTrailingBlankLines",
     "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n\n\n", 6,
     "file ends after 1 of 2 entries"},
    {"NoEntriesAfterSizeLine", "%%MatrixMarket matrix coordinate real general\n3 3 2\n", 3,
     "file ends after 0 of 2 entries"},
    {"MoreEntriesThanStated",
     "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 1\n\n3 3 1\n", 6,
     "extra data after the last entry (the size line states 2 entries)"},
    {"TrailingGarbage", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\nend\n",
     4, "extra data after the last entry"},
    {"RowIndexZero", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n0 1 1\n", 4,
     "row index 0 out of range 1..3"},
    {"ColumnIndexTooLarge",
     "%%MatrixMarket matrix coordinate real general\n5 5 2\n1 1 1\n\n2 7 1\n", 5,
     "column index 7 out of range 1..5"},
    {"RowIndexNegative", "%%MatrixMarket matrix coordinate real general\n3 3 1\n-1 1 1\n", 3,
     "row index -1 out of range 1..3"},
    {"RowIndexHuge",
     "%%MatrixMarket matrix coordinate real general\n3 3 1\n99999999999999999999 1 1\n", 3,
     "row index 99999999999999999999 out of range 1..3"},
    {"IndexNotAnInteger", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1.5 1 1\n", 3,
     "row index '1.5' is not an integer"},
    {"AboveDiagonalSymmetric",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n1 2 1\n", 4,
     "entry (1, 2) is above the diagonal; symmetric storage lists only the lower triangle"},
    {"AboveDiagonalHermitian",
     "%%MatrixMarket matrix coordinate complex hermitian\n3 3 1\n2 3 1 1\n", 3,
     "entry (2, 3) is above the diagonal; hermitian storage"},
    {"AboveDiagonalSkew",
     "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n1 3 1\n", 3,
     "entry (1, 3) is above the diagonal; skew-symmetric storage"},
    {"AboveDiagonalSymmetricPattern",
     "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 3\n", 3,
     "entry (2, 3) is above the diagonal"},
    {"DiagonalInSkew",
     "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n", 4,
     "diagonal entry (2, 2) in skew-symmetric storage"},
    {"ValueNotANumber", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 abc\n", 3,
     "value 'abc' is not a real number"},
    {"ValueWithTrailingJunk",
     "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1.5x\n", 3,
     "value '1.5x' is not a real number"},
    {"ValueFortranExponent",
     "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1.5D+00\n", 3,
     "value '1.5D+00' is not a real number"},
    {"ValueNaN", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 nan\n", 3,
     "NaN value"},
    {"ImaginaryPartNaN",
     "%%MatrixMarket matrix coordinate complex general\n3 3 2\n1 1 1 0\n2 2 1 NaN\n", 4,
     "NaN imaginary part"},
    {"ValueInfinite", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 -inf\n", 3,
     "infinite value"},
    {"ValueOverflows", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1e400\n", 3,
     "value '1e400' overflows to an infinite value"},
    {"ComplexMissingImaginary",
     "%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 1 1.0\n", 3,
     "expected 4 fields (row col real imag), found 3"},
    {"RealExtraField", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1.0 2.0\n",
     3, "expected 3 fields (row col value), found 4"},
    {"RealMissingValue", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n", 3,
     "expected 3 fields (row col value), found 2"},
    {"PatternWithValue", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", 3,
     "expected 2 fields (row col), found 3"},
    {"IntegerFieldWithReal",
     "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3,
     "value '1.5' is not an integer"},
    {"CommentAmongEntries",
     "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n% late\n2 2 1\n", 4,
     "comment among the entries"},
    {"ArrayTooFewValues", "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n", 8,
     "file ends after 5 of 6 entries"},
    {"ArraySymmetricTooFewValues",
     "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n", 8,
     "file ends after 5 of 6 entries"},
    {"ArrayExtraValue", "%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n", 5,
     "extra data after the last entry"},
    {"ArrayComplexMissingImaginary",
     "%%MatrixMarket matrix array complex general\n1 2\n1 0\n2\n", 4,
     "expected 2 fields (real imag), found 1"},
    {"ArrayRealTwoValuesOnALine", "%%MatrixMarket matrix array real general\n1 2\n1 2\n", 3,
     "expected 1 field (value), found 2"},
    {"ArrayValueInfinite", "%%MatrixMarket matrix array real general\n1 2\n1\ninf\n", 4,
     "infinite value"},
    {"CrlfLineEndingsCountLines",
     "%%MatrixMarket matrix coordinate real general\r\n3 3 2\r\n1 1 1\r\n1 4 1\r\n", 4,
     "column index 4 out of range 1..3"},
    {"DuplicateEntry",
     "%%MatrixMarket matrix coordinate real general\n% c\n% c\n5 5 4\n"
     "1 1 1\n3 2 1\n2 2 1\n3 2 1\n",
     8, "duplicate entry (3, 2), first at line 6"},
    {"DuplicateAfterBlankLines",
     "%%MatrixMarket matrix coordinate real general\n% c\n% c\n5 5 5\n"
     "1 1 1\n2 2 1\n\n3 2 1\n1 3 1\n3 2 2\n",
     10, "duplicate entry (3, 2), first at line 8"},
    {"DuplicateInSymmetricStorage",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 1\n3 3 1\n2 1 1\n", 5,
     "duplicate entry (2, 1), first at line 3"},
};

INSTANTIATE_TEST_SUITE_P(Reader, MalformedFile, testing::ValuesIn(kBadFiles),
                         [](const testing::TestParamInfo<BadFile>& param) {
                           return std::string(param.param.name);
                         });

TEST(MatrixMarketReader, MissingFileThrowsAtLineZeroWithOsReason) {
  const TempDir dir("mm_missing");
  expect_error(dir.path() / "absent.mtx", 0, "cannot open: No such file or directory");
}

TEST(MatrixMarketReader, DirectoryThrowsAtLineZero) {
  const TempDir dir("mm_directory");
  expect_error(dir.path(), 0, "cannot open: Is a directory");
}

TEST(MatrixMarketReader, TruncatedGzipStreamIsReported) {
  const TempDir dir("mm_gzcut");
  std::string content = "%%MatrixMarket matrix coordinate real general\n200 200 200\n";
  for (int i = 1; i <= 200; ++i)
    content += std::to_string(i) + " " + std::to_string(i) + " " + std::to_string(i * 0.37) + "\n";
  const fs::path whole = dir.path() / "whole.mtx.gz";
  write_gzip(whole, content);
  const std::string bytes = test::read_text(whole);
  const fs::path cut = dir.write("cut.mtx.gz", bytes.substr(0, bytes.size() / 2));
  try {
    read_matrix_market(cut);
    ADD_FAILURE() << "a gzip stream cut in half was accepted";
  } catch (const MatrixMarketError& e) {
    EXPECT_GT(e.line(), 2U) << e.what();
    EXPECT_NE(std::string(e.what()).find("corrupt gzip data"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------
// Legal files: every field x symmetry combination, both formats

struct GoodFile {
  const char* name;
  const char* content;
  MmHeader header;
  index_t rows;
  index_t cols;
  std::size_t stored;
  std::vector<Triplet> expected;  // 0-based, in file order after expansion
};

void PrintTo(const GoodFile& g, std::ostream* os) { *os << g.name; }

using F = MmField;
using S = MmSymmetry;
constexpr auto kCoord = MmFormat::coordinate;
constexpr auto kArray = MmFormat::array;

const GoodFile kGoodFiles[] = {
    {"RealGeneral",
     "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.5\n3 2 -2\n1 3 4e-1\n",
     {kCoord, F::real, S::general}, 3, 3, 3,
     {{0, 0, 1.5}, {2, 1, -2.0}, {0, 2, 0.4}}},
    {"RealSymmetric",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1.5\n2 1 -2\n3 3 4\n",
     {kCoord, F::real, S::symmetric}, 3, 3, 3,
     {{0, 0, 1.5}, {1, 0, -2.0}, {0, 1, -2.0}, {2, 2, 4.0}}},
    {"RealSkewSymmetric",
     "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 -2\n3 2 0.5\n",
     {kCoord, F::real, S::skew_symmetric}, 3, 3, 2,
     {{1, 0, -2.0}, {0, 1, 2.0}, {2, 1, 0.5}, {1, 2, -0.5}}},
    {"ComplexGeneral",
     "%%MatrixMarket matrix coordinate complex general\n2 3 2\n1 3 1 -1\n2 1 0 2.5\n",
     {kCoord, F::complex, S::general}, 2, 3, 2,
     {{0, 2, 1.0, -1.0}, {1, 0, 0.0, 2.5}}},
    {"ComplexSymmetricMirrorsWithoutConjugate",
     "%%MatrixMarket matrix coordinate complex symmetric\n2 2 2\n1 1 1 1\n2 1 2 -3\n",
     {kCoord, F::complex, S::symmetric}, 2, 2, 2,
     {{0, 0, 1.0, 1.0}, {1, 0, 2.0, -3.0}, {0, 1, 2.0, -3.0}}},
    {"ComplexHermitianMirrorsConjugate",
     "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 1 0\n2 1 2 -3\n",
     {kCoord, F::complex, S::hermitian}, 2, 2, 2,
     {{0, 0, 1.0, 0.0}, {1, 0, 2.0, -3.0}, {0, 1, 2.0, 3.0}}},
    {"ComplexSkewSymmetricNegates",
     "%%MatrixMarket matrix coordinate complex skew-symmetric\n2 2 1\n2 1 2 -3\n",
     {kCoord, F::complex, S::skew_symmetric}, 2, 2, 1,
     {{1, 0, 2.0, -3.0}, {0, 1, -2.0, 3.0}}},
    {"IntegerGeneral",
     "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 7\n2 1 -3\n",
     {kCoord, F::integer, S::general}, 2, 2, 2,
     {{0, 1, 7.0}, {1, 0, -3.0}}},
    {"IntegerSymmetric",
     "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 5\n2 1 -3\n",
     {kCoord, F::integer, S::symmetric}, 2, 2, 2,
     {{0, 0, 5.0}, {1, 0, -3.0}, {0, 1, -3.0}}},
    {"IntegerSkewSymmetric",
     "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 4\n",
     {kCoord, F::integer, S::skew_symmetric}, 2, 2, 1,
     {{1, 0, 4.0}, {0, 1, -4.0}}},
    {"PatternGeneral",
     "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 2\n",
     {kCoord, F::pattern, S::general}, 2, 2, 2,
     {{0, 1, 1.0}, {1, 1, 1.0}}},
    {"PatternSymmetric",
     "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n2 2\n",
     {kCoord, F::pattern, S::symmetric}, 2, 2, 2,
     {{1, 0, 1.0}, {0, 1, 1.0}, {1, 1, 1.0}}},
    {"ArrayRealGeneralIsColumnMajor",
     "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n",
     {kArray, F::real, S::general}, 2, 3, 6,
     {{0, 0, 1.0}, {1, 0, 2.0}, {0, 1, 3.0}, {1, 1, 4.0}, {0, 2, 5.0}, {1, 2, 6.0}}},
    {"ArrayComplexGeneral",
     "%%MatrixMarket matrix array complex general\n1 2\n1 -1\n0 2\n",
     {kArray, F::complex, S::general}, 1, 2, 2,
     {{0, 0, 1.0, -1.0}, {0, 1, 0.0, 2.0}}},
    {"ArrayIntegerGeneral",
     "%%MatrixMarket matrix array integer general\n2 1\n-4\n9\n",
     {kArray, F::integer, S::general}, 2, 1, 2,
     {{0, 0, -4.0}, {1, 0, 9.0}}},
    {"ArrayRealSymmetricLowerTriangleByColumns",
     "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n",
     {kArray, F::real, S::symmetric}, 3, 3, 6,
     {{0, 0, 1.0}, {1, 0, 2.0}, {2, 0, 3.0},
      {0, 1, 2.0}, {1, 1, 4.0}, {2, 1, 5.0},
      {0, 2, 3.0}, {1, 2, 5.0}, {2, 2, 6.0}}},
    {"ArrayRealSkewSymmetricHasZeroDiagonal",
     "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n",
     {kArray, F::real, S::skew_symmetric}, 3, 3, 3,
     {{0, 0, 0.0}, {1, 0, 1.0}, {2, 0, 2.0},
      {0, 1, -1.0}, {1, 1, 0.0}, {2, 1, 3.0},
      {0, 2, -2.0}, {1, 2, -3.0}, {2, 2, 0.0}}},
    {"ArrayComplexHermitian",
     "%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n2 3\n4 0\n",
     {kArray, F::complex, S::hermitian}, 2, 2, 3,
     {{0, 0, 1.0, 0.0}, {1, 0, 2.0, 3.0}, {0, 1, 2.0, -3.0}, {1, 1, 4.0, 0.0}}},
    {"ArrayComplexSymmetric",
     "%%MatrixMarket matrix array complex symmetric\n2 2\n1 0\n2 3\n4 0\n",
     {kArray, F::complex, S::symmetric}, 2, 2, 3,
     {{0, 0, 1.0, 0.0}, {1, 0, 2.0, 3.0}, {0, 1, 2.0, 3.0}, {1, 1, 4.0, 0.0}}},
    {"ArrayComplexSkewSymmetric",
     "%%MatrixMarket matrix array complex skew-symmetric\n2 2\n2 3\n",
     {kArray, F::complex, S::skew_symmetric}, 2, 2, 1,
     {{0, 0, 0.0, 0.0}, {1, 0, 2.0, 3.0}, {0, 1, -2.0, -3.0}, {1, 1, 0.0, 0.0}}},
    {"BannerIsCaseInsensitive",
     "%%matrixmarket MATRIX Coordinate REAL Symmetric\n2 2 1\n2 1 3\n",
     {kCoord, F::real, S::symmetric}, 2, 2, 1,
     {{1, 0, 3.0}, {0, 1, 3.0}}},
    {"CommentsBlankLinesAndWhitespace",
     "%%MatrixMarket matrix coordinate real general\n"
     "% a comment\n\n%\n   \n% another\n"
     "  3\t3   2  \n\n1 1 +1.25\n\n\t2   3 -.5e1\n\n\n",
     {kCoord, F::real, S::general}, 3, 3, 2,
     {{0, 0, 1.25}, {1, 2, -5.0}}},
    {"CrlfLineEndingsAndNoFinalNewline",
     "%%MatrixMarket matrix coordinate real general\r\n% c\r\n2 2 2\r\n1 1 1\r\n2 2 2",
     {kCoord, F::real, S::general}, 2, 2, 2,
     {{0, 0, 1.0}, {1, 1, 2.0}}},
    {"ExtremeValuesUnderflowToZero",
     "%%MatrixMarket matrix coordinate real general\n2 2 4\n"
     "1 1 1e-400\n2 1 -1e-400\n1 2 4.9e-324\n2 2 1.7976931348623157e308\n",
     {kCoord, F::real, S::general}, 2, 2, 4,
     {{0, 0, 0.0}, {1, 0, -0.0}, {0, 1, 4.9e-324}, {1, 1, 1.7976931348623157e308}}},
    {"EmptyMatrix", "%%MatrixMarket matrix coordinate real general\n0 0 0\n",
     {kCoord, F::real, S::general}, 0, 0, 0, {}},
    {"ZeroEntries", "%%MatrixMarket matrix coordinate complex hermitian\n4 4 0\n",
     {kCoord, F::complex, S::hermitian}, 4, 4, 0, {}},
};

void expect_matrix(const MatrixMarketMatrix& m, const GoodFile& good) {
  EXPECT_EQ(m.header.format, good.header.format);
  EXPECT_EQ(m.header.field, good.header.field);
  EXPECT_EQ(m.header.symmetry, good.header.symmetry);
  EXPECT_EQ(m.entries.rows, good.rows);
  EXPECT_EQ(m.entries.cols, good.cols);
  EXPECT_EQ(m.stored_entries, good.stored);
  EXPECT_EQ(triplets(m.entries), good.expected);
}

class LegalFile : public testing::TestWithParam<GoodFile> {};

TEST_P(LegalFile, ParsesToExpandedEntries) {
  const TempDir dir("mm_good");
  const GoodFile& good = GetParam();
  expect_matrix(read_matrix_market(dir.write(std::string(good.name) + ".mtx", good.content)),
                good);
}

TEST_P(LegalFile, GzipCompressedCopyParsesTheSame) {
  const TempDir dir("mm_goodgz");
  const GoodFile& good = GetParam();
  const fs::path file = dir.path() / (std::string(good.name) + ".mtx.gz");
  write_gzip(file, good.content);
  expect_matrix(read_matrix_market(file), good);
}

INSTANTIATE_TEST_SUITE_P(Reader, LegalFile, testing::ValuesIn(kGoodFiles),
                         [](const testing::TestParamInfo<GoodFile>& param) {
                           return std::string(param.param.name);
                         });

// Packed lower-triangle array storage against a dense reference for several sizes, so
// that column offsets are checked beyond the 3 x 3 table cases.
TEST(MatrixMarketReader, ArraySymmetricStorageMatchesDenseReference) {
  const TempDir dir("mm_array_sizes");
  const struct {
    const char* symmetry;
    Complex (*mirror)(Complex);
    bool diagonal;
  } kinds[] = {
      {"symmetric", [](Complex v) { return v; }, true},
      {"hermitian", [](Complex v) { return std::conj(v); }, true},
      {"skew-symmetric", [](Complex v) { return -v; }, false},
  };
  for (const auto& kind : kinds) {
    for (index_t n = 1; n <= 6; ++n) {
      SCOPED_TRACE(std::string(kind.symmetry) + " n=" + std::to_string(n));
      std::vector<Complex> dense(static_cast<std::size_t>(n * n));
      std::ostringstream text;
      text << "%%MatrixMarket matrix array complex " << kind.symmetry << "\n" << n << " " << n
           << "\n";
      for (index_t j = 0; j < n; ++j) {
        for (index_t i = kind.diagonal ? j : j + 1; i < n; ++i) {
          // Real diagonal keeps the hermitian case a genuine hermitian matrix.
          const Complex v(10 * i + j + 1, i == j ? 0 : -(i + 2 * j + 1));
          text << v.real() << " " << v.imag() << "\n";
          dense[static_cast<std::size_t>(j * n + i)] = v;
          dense[static_cast<std::size_t>(i * n + j)] = i == j ? v : kind.mirror(v);
        }
      }
      const auto m = read_matrix_market(dir.write("a.mtx", text.str()));
      ASSERT_EQ(m.entries.nnz(), dense.size());
      for (std::size_t e = 0; e < dense.size(); ++e) {
        EXPECT_EQ(static_cast<std::size_t>(m.entries.col_idx[e] * n + m.entries.row_idx[e]), e);
        EXPECT_EQ(m.entries.values[e], dense[e]) << "entry " << e;
      }
    }
  }
}

TEST(MatrixMarketReader, SignOfUnderflowedZeroIsKept) {
  const TempDir dir("mm_signzero");
  const auto m = read_matrix_market(dir.write(
      "z.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -1e-999\n"));
  ASSERT_EQ(m.entries.nnz(), 1U);
  EXPECT_TRUE(std::signbit(m.entries.values[0].real()));
}

TEST(MatrixMarketReader, CompressionIsDetectedByContentNotName) {
  const TempDir dir("mm_byname");
  const std::string content = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n";
  const fs::path gzip_named_plain = dir.path() / "gzip_inside.mtx";
  write_gzip(gzip_named_plain, content);
  const fs::path plain_named_gz = dir.write("plain.mtx.gz", content);
  EXPECT_EQ(triplets(read_matrix_market(gzip_named_plain).entries),
            (std::vector<Triplet>{{0, 0, 2.0}}));
  EXPECT_EQ(triplets(read_matrix_market(plain_named_gz).entries),
            (std::vector<Triplet>{{0, 0, 2.0}}));
}

TEST(MatrixMarketReader, LinesLongerThanTheReadBufferAreHandled) {
  const TempDir dir("mm_longline");
  const std::string long_comment = "%" + std::string(100000, 'x') + "\n";
  const std::string content = "%%MatrixMarket matrix coordinate real general\n" + long_comment +
                              long_comment + "2 2 1\n" + "2 1 " + std::string(20000, '0') +
                              "3.5\n";
  const auto m = read_matrix_market(dir.write("long.mtx", content));
  EXPECT_EQ(triplets(m.entries), (std::vector<Triplet>{{1, 0, 3.5}}));
  // Line numbers still count whole lines, however long.
  expect_error(dir.write("long_bad.mtx", content + "1 1 1\n"), 6, "extra data");
}

// ---------------------------------------------------------------------------------------
// Writer

Coo<Complex> random_coo(index_t rows, index_t cols, std::size_t count, bool complex_values,
                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<index_t> row(0, rows - 1);
  std::uniform_int_distribution<index_t> col(0, cols - 1);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-300, 300);
  Coo<Complex> coo;
  coo.rows = rows;
  coo.cols = cols;
  std::vector<bool> used(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  while (coo.nnz() < count) {
    const index_t i = row(rng);
    const index_t j = col(rng);
    if (used[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + j]) continue;
    used[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + j] = true;
    const double re = std::ldexp(mantissa(rng), exponent(rng));
    const double im = complex_values ? std::ldexp(mantissa(rng), exponent(rng)) : 0.0;
    coo.push_back(i, j, {re, im});
  }
  return coo;
}

// Bitwise comparison: -0.0 and 0.0 must both survive, so operator== is not enough.
void expect_same_bits(const std::vector<Complex>& a, const std::vector<Complex>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    ASSERT_EQ(std::memcmp(&a[k], &b[k], sizeof(Complex)), 0)
        << "entry " << k << ": " << a[k] << " != " << b[k];
}

void expect_round_trip(const fs::path& file, const Coo<Complex>& coo, bool complex_field) {
  write_matrix_market(file, coo, complex_field, "written by test\nsecond line");
  const auto m = read_matrix_market(file);
  EXPECT_EQ(m.header.format, MmFormat::coordinate);
  EXPECT_EQ(m.header.field, complex_field ? MmField::complex : MmField::real);
  EXPECT_EQ(m.header.symmetry, MmSymmetry::general);
  EXPECT_EQ(m.entries.rows, coo.rows);
  EXPECT_EQ(m.entries.cols, coo.cols);
  EXPECT_EQ(m.entries.row_idx, coo.row_idx);
  EXPECT_EQ(m.entries.col_idx, coo.col_idx);
  expect_same_bits(m.entries.values, coo.values);
}

TEST(MatrixMarketWriter, ComplexRoundTripIsExact) {
  const TempDir dir("mm_rt_complex");
  auto coo = random_coo(37, 23, 300, true, 1);
  coo.values.front() = {-0.0, 4.9e-324};  // signed zero and the smallest subnormal
  expect_round_trip(dir.path() / "complex.mtx", coo, true);
}

TEST(MatrixMarketWriter, RealRoundTripIsExact) {
  const TempDir dir("mm_rt_real");
  auto coo = random_coo(50, 60, 500, false, 2);
  expect_round_trip(dir.path() / "real.mtx", coo, false);
}

TEST(MatrixMarketWriter, GzipRoundTripIsExactAndCompressed) {
  const TempDir dir("mm_rt_gzip");
  const auto coo = random_coo(100, 100, 2000, true, 3);
  const fs::path file = dir.path() / "complex.mtx.gz";
  expect_round_trip(file, coo, true);
  const std::string bytes = test::read_text(file);
  ASSERT_GE(bytes.size(), 2U);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1fU);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8bU);
}

TEST(MatrixMarketWriter, RealFieldRequestWithImaginaryPartsWritesComplex) {
  const TempDir dir("mm_force_complex");
  Coo<Complex> coo;
  coo.rows = coo.cols = 2;
  coo.push_back(1, 0, {1.0, 0.5});
  const fs::path file = dir.path() / "c.mtx";
  write_matrix_market(file, coo, false);
  EXPECT_EQ(read_matrix_market(file).header.field, MmField::complex);
}

TEST(MatrixMarketWriter, WritesBannerCommentsAndOneBasedIndices) {
  const TempDir dir("mm_text");
  Coo<Complex> coo;
  coo.rows = 3;
  coo.cols = 4;
  coo.push_back(2, 3, {0.1, 0.0});
  coo.push_back(0, 0, {-2.0, 0.0});
  const fs::path file = dir.path() / "text.mtx";
  write_matrix_market(file, coo, false, "first\n second");
  EXPECT_EQ(test::read_text(file),
            "%%MatrixMarket matrix coordinate real general\n"
            "%first\n"
            "% second\n"
            "3 4 2\n"
            "3 4 0.10000000000000001\n"
            "1 1 -2\n");
}

TEST(MatrixMarketWriter, ArrayRoundTripIsColumnMajorAndExact) {
  const TempDir dir("mm_array");
  const std::vector<Complex> values = {{1.0, -1.0}, {0.1, 0.0}, {0.0, 0.0},
                                       {-3e-200, 2e300}, {1.0 / 3.0, 0.0}, {0.0, 7.0}};
  for (const char* name : {"block.mtx", "block.mtx.gz"}) {
    const fs::path file = dir.path() / name;
    write_matrix_market_array(file, 2, 3, values, true, "rhs");
    const auto m = read_matrix_market(file);
    EXPECT_EQ(m.header.format, MmFormat::array);
    EXPECT_EQ(m.header.field, MmField::complex);
    EXPECT_EQ(m.stored_entries, 6U);
    EXPECT_EQ(m.entries.rows, 2);
    EXPECT_EQ(m.entries.cols, 3);
    EXPECT_EQ(m.entries.row_idx, (std::vector<index_t>{0, 1, 0, 1, 0, 1}));
    EXPECT_EQ(m.entries.col_idx, (std::vector<index_t>{0, 0, 1, 1, 2, 2}));
    expect_same_bits(m.entries.values, values);
  }
}

TEST(MatrixMarketWriter, RealArrayUsesRealField) {
  const TempDir dir("mm_array_real");
  const fs::path file = dir.path() / "real_block.mtx";
  write_matrix_market_array(file, 2, 1, {{1.5, 0.0}, {-2.0, 0.0}}, false);
  EXPECT_EQ(test::read_text(file), "%%MatrixMarket matrix array real general\n2 1\n1.5\n-2\n");
}

TEST(MatrixMarketWriter, UnwritablePathThrowsNamingTheFile) {
  const TempDir dir("mm_unwritable");
  const fs::path file = dir.path() / "no_such_dir" / "out.mtx";
  Coo<Complex> coo;
  coo.rows = coo.cols = 1;
  try {
    write_matrix_market(file, coo, false);
    ADD_FAILURE() << "writing into a missing directory succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
}

TEST(MatrixMarketWriter, InconsistentInputIsRejected) {
  const TempDir dir("mm_invalid");
  Coo<Complex> coo;
  coo.rows = coo.cols = 2;
  coo.push_back(2, 0, {1.0, 0.0});
  EXPECT_THROW(write_matrix_market(dir.path() / "bad.mtx", coo, false), std::invalid_argument);
  EXPECT_THROW(write_matrix_market_array(dir.path() / "bad_array.mtx", 2, 2, {{1.0, 0.0}}, false),
               std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// Shared SuiteSparse matrices

const fs::path kSharedMatrices = fs::path(PLANARMOM_SOURCE_DIR) / ".." / "shared" / "matrices";

// rows, cols and stated entries from the size line, read independently of the reader.
struct StatedSize {
  index_t rows = 0;
  index_t cols = 0;
  std::size_t entries = 0;
  bool general = true;
};

StatedSize stated_size(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  StatedSize size;
  size.general = line.find("general") != std::string::npos;
  while (std::getline(in, line) && (line.empty() || line[0] == '%')) {
  }
  std::istringstream(line) >> size.rows >> size.cols >> size.entries;
  return size;
}

TEST(SharedMatrices, EveryFileReadsWithItsStatedSize) {
  if (!fs::is_directory(kSharedMatrices))
    GTEST_SKIP() << "shared matrices are not present (looked in " << kSharedMatrices << ")";
  int files = 0;
  for (const auto& item : fs::directory_iterator(kSharedMatrices)) {
    if (item.path().extension() != ".mtx") continue;
    SCOPED_TRACE(item.path().filename().string());
    ++files;
    const auto m = read_matrix_market(item.path());
    const StatedSize size = stated_size(item.path());
    EXPECT_EQ(m.entries.rows, size.rows);
    EXPECT_EQ(m.entries.cols, size.cols);
    EXPECT_EQ(m.stored_entries, size.entries);
    if (size.general) EXPECT_EQ(m.entries.nnz(), size.entries);
    else EXPECT_GT(m.entries.nnz(), size.entries);
  }
  EXPECT_GT(files, 0) << "no .mtx files in " << kSharedMatrices;
}

struct KnownMatrix {
  const char* name;
  MmField field;
  MmSymmetry symmetry;
  index_t n;
  std::size_t stored;
  std::size_t expanded;
};

TEST(SharedMatrices, KnownMatricesExpandToTheirFullEntryCount) {
  if (!fs::is_directory(kSharedMatrices))
    GTEST_SKIP() << "shared matrices are not present (looked in " << kSharedMatrices << ")";
  const KnownMatrix known[] = {
      {"qc324", MmField::complex, MmSymmetry::symmetric, 324, 13527, 26730},
      {"mhd1280b", MmField::complex, MmSymmetry::hermitian, 1280, 12029, 22778},
      {"sherman1", MmField::real, MmSymmetry::symmetric, 1000, 2375, 3750},
      {"memplus", MmField::real, MmSymmetry::general, 17758, 126150, 126150},
  };
  for (const KnownMatrix& k : known) {
    SCOPED_TRACE(k.name);
    const auto m = read_matrix_market(kSharedMatrices / (std::string(k.name) + ".mtx"));
    EXPECT_EQ(m.header.field, k.field);
    EXPECT_EQ(m.header.symmetry, k.symmetry);
    EXPECT_EQ(m.entries.rows, k.n);
    EXPECT_EQ(m.entries.cols, k.n);
    EXPECT_EQ(m.stored_entries, k.stored);
    EXPECT_EQ(m.entries.nnz(), k.expanded);
  }
}

TEST(SharedMatrices, HermitianExpansionConjugatesTheMirror) {
  const fs::path file = kSharedMatrices / "mhd1280b.mtx";
  if (!fs::exists(file)) GTEST_SKIP() << "shared matrices are not present (no " << file << ")";
  const auto m = read_matrix_market(file);
  // Each stored off-diagonal entry is followed by its mirror.
  std::size_t mirrors = 0;
  for (std::size_t e = 0; e + 1 < m.entries.nnz(); ++e) {
    if (m.entries.row_idx[e] == m.entries.col_idx[e]) continue;
    ASSERT_EQ(m.entries.row_idx[e + 1], m.entries.col_idx[e]);
    ASSERT_EQ(m.entries.col_idx[e + 1], m.entries.row_idx[e]);
    ASSERT_EQ(m.entries.values[e + 1], std::conj(m.entries.values[e]));
    ++mirrors;
    ++e;
  }
  EXPECT_EQ(mirrors, 22778U - 12029U);
}

TEST(SharedMatrices, MemplusReadsWellUnderASecond) {
  const fs::path file = kSharedMatrices / "memplus.mtx";
  if (!fs::exists(file)) GTEST_SKIP() << "shared matrices are not present (no " << file << ")";
  const auto start = std::chrono::steady_clock::now();
  const auto m = read_matrix_market(file);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(m.entries.nnz(), 126150U);
  EXPECT_LT(elapsed.count(), 1.0) << "memplus (126150 entries) took " << elapsed.count() << " s";
}

}  // namespace
}  // namespace pmom::io
