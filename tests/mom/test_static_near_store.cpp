// The near static parts kept on disk (static_near_store.hpp): a plan writes what it computed,
// another process's plan reads it instead of computing, and a damaged file is recomputed.
// A process keeps every part it has seen in memory, so each case meshes cells of an aspect no
// other case uses: a "fresh process" for that aspect's files. Reading is shown by planting: the
// files of one aspect, values doubled, renamed to another aspect whose mesh has the same
// cells, must come back doubled in that mesh's plan, with nothing computed.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "geometry/layouts.hpp"
#include "io/temp_dir.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/static_near_store.hpp"
#include "planarmom/mom/table_plan.hpp"

namespace pmom::mom {
namespace {

namespace fs = std::filesystem;

// An L of strips 20 x 3 and 3 x 12 cells on cells of dx x dy mm.
geometry::Mesh l_mesh(double dx, double dy) {
  const geometry::Layout layout =
      geometry::test::layout_of({{0, 0, 20 * dx, 3 * dy}, {17 * dx, 3 * dy, 20 * dx, 15 * dy}});
  return geometry::make_mesh(layout, geometry::CellSize{dx, dy});
}

// The store's file of one order and aspect (static_near_cache.cpp's naming).
fs::path group_file(const fs::path& folder, int order, double eta) {
  char name[64];
  std::snprintf(name, sizeof name, "o%d-eta%016llx.bin", order,
                static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(eta)));
  return folder / name;
}

std::vector<char> bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The header (8 bytes of magic, a count) then (key, value) pairs: every value times `factor`.
void write_scaled(const fs::path& from, const fs::path& to, double factor) {
  std::vector<char> b = bytes_of(from);
  ASSERT_GT(b.size(), 16u);
  ASSERT_EQ((b.size() - 16) % 16, 0u);
  for (std::size_t at = 16 + 8; at < b.size(); at += 16) {
    double v = 0;
    std::memcpy(&v, &b[at], sizeof v);
    v *= factor;
    std::memcpy(&b[at], &v, sizeof v);
  }
  std::ofstream(to, std::ios::binary).write(b.data(), static_cast<std::streamsize>(b.size()));
}

long long near_entries(const TablePlan& plan) {
  long long n = 0;
  for (const TablePlan::Entry& e : plan.entries) n += (e.flags & TablePlan::near) != 0 ? 1 : 0;
  return n;
}

class StaticNearStore : public ::testing::Test {
 protected:
  void TearDown() override { store_static_near_parts({}); }
  test::TempDir dir{"static_near"};
};

TEST_F(StaticNearStore, APlanWritesItsPartsAndAnotherReadsThem) {
  const AssemblyOptions options;
  store_static_near_parts(dir.path());
  const TablePlan written = make_table_plan(l_mesh(0.2, 0.35), options);
  ASSERT_GT(near_entries(written), 0);
  EXPECT_EQ(written.static_parts_computed, near_entries(written));
  EXPECT_TRUE(static_near_write_failures().empty());
  for (const double eta : {0.35 / 0.2, 0.2 / 0.35})
    ASSERT_TRUE(fs::exists(group_file(dir.path(), options.outer_order, eta))) << eta;

  // The same cells at another aspect, its files planted from the first's, values doubled.
  for (const auto& [from, to] : {std::pair{0.35 / 0.2, 0.45 / 0.2}, {0.2 / 0.35, 0.2 / 0.45}})
    write_scaled(group_file(dir.path(), options.outer_order, from),
                 group_file(dir.path(), options.outer_order, to), 2.0);
  const TablePlan read = make_table_plan(l_mesh(0.2, 0.45), options);
  // The aspect moves the near radius (in the longer side's units) over a few offsets: those
  // near only here are computed, every other one is read.
  ASSERT_EQ(read.entries.size(), written.entries.size());
  long long compared = 0, near_only_here = 0;
  for (std::size_t k = 0; k < read.entries.size(); ++k) {
    if ((read.entries[k].flags & TablePlan::near) == 0) continue;
    if ((written.entries[k].flags & TablePlan::near) == 0) {
      ++near_only_here;
      continue;
    }
    EXPECT_EQ(read.entries[k].static_part, 2.0 * written.entries[k].static_part) << k;
    ++compared;
  }
  EXPECT_GT(compared, near_entries(read) / 2);
  EXPECT_EQ(read.static_parts_computed, near_only_here);
}

TEST_F(StaticNearStore, ADamagedFileIsComputedAgainAndRewritten) {
  const AssemblyOptions options;
  const double dx = 0.2, dy = 0.55;
  // Both of this aspect's files cut short after their magic.
  for (const double eta : {dy / dx, dx / dy}) {
    const fs::path file = group_file(dir.path(), options.outer_order, eta);
    std::ofstream(file, std::ios::binary) << "PMSNP001 truncated";
  }
  store_static_near_parts(dir.path());
  const TablePlan plan = make_table_plan(l_mesh(dx, dy), options);
  EXPECT_EQ(plan.static_parts_computed, near_entries(plan));
  // Rewritten whole: the header and one record per near entry of each aspect (rooftops along
  // y have the inverse aspect).
  std::size_t along_x = 0, along_y = 0;
  for (const TablePlan::Entry& e : plan.entries) {
    if ((e.flags & TablePlan::near) == 0) continue;
    EXPECT_TRUE(std::isfinite(e.static_part));
    ++((e.flags & TablePlan::y_axis) != 0 ? along_y : along_x);
  }
  EXPECT_EQ(bytes_of(group_file(dir.path(), options.outer_order, dy / dx)).size(), 16 + 16 * along_x);
  EXPECT_EQ(bytes_of(group_file(dir.path(), options.outer_order, dx / dy)).size(), 16 + 16 * along_y);
}

TEST_F(StaticNearStore, AFolderThatCannotBeWrittenIsReportedNotThrown) {
  const fs::path blocked = dir.path() / "a_file";
  std::ofstream(blocked) << "not a folder";
  store_static_near_parts(blocked / "static-near");
  const TablePlan plan = make_table_plan(l_mesh(0.2, 0.65), AssemblyOptions{});
  EXPECT_EQ(plan.static_parts_computed, near_entries(plan));
  EXPECT_FALSE(static_near_write_failures().empty());
  EXPECT_TRUE(static_near_write_failures().empty());  // reported once
}

}  // namespace
}  // namespace pmom::mom
