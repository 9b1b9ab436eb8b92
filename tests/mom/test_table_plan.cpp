// The offset tables' plan (table_plan.hpp): every slot the dense Z reads, for every pair in both
// orders, is an entry (computed) or a copy of one, and each copy's source is an entry. A slot
// missed is a zero in Z that no comparison of values would name; this names it. Meshes with
// edge kinds on square and oblong cells, and a layout of two pieces (offsets between them only).
#include <gtest/gtest.h>

#include <complex>
#include <cstddef>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/table_plan.hpp"

namespace pmom::mom {
namespace {

// The reader basis_entry reads through: records each slot it reads.
struct SlotRecorder {
  const TablePlan* plan;
  std::unordered_set<long long>* slots;
  std::complex<double> jw{0.0, 1.0};
  double inv_a2 = 1.0, y_charge = 1.0;
  std::complex<double> value(int table, int di, int dj) const {
    const long long start = plan->start[static_cast<std::size_t>(table)];
    EXPECT_GE(start, 0) << "table " << table << " read but not laid out";
    slots->insert(start + offset_index(plan->nx, plan->ny, di, dj));
    return 0.0;
  }
};

void expect_every_read_slot_planned(const geometry::Mesh& mesh) {
  const TablePlan plan = make_table_plan(mesh);
  std::unordered_set<long long> entries;
  for (const TablePlan::Entry& e : plan.entries)
    EXPECT_TRUE(entries.insert(e.slot).second) << "slot " << e.slot << " computed twice";
  std::unordered_map<long long, long long> copies;
  ASSERT_EQ(plan.copy_to.size(), plan.copy_from.size());
  for (std::size_t k = 0; k < plan.copy_to.size(); ++k) {
    EXPECT_TRUE(entries.count(plan.copy_from[k]) == 1) << "a copy of slot " << plan.copy_from[k];
    EXPECT_TRUE(entries.count(plan.copy_to[k]) == 0) << "slot " << plan.copy_to[k];
    EXPECT_TRUE(copies.emplace(plan.copy_to[k], plan.copy_from[k]).second);
  }
  std::unordered_set<long long> read;
  const SlotRecorder recorder{&plan, &read};
  const std::vector<RooftopCells> cells = rooftop_cells(mesh, plan.edge_profiles);
  for (const RooftopCells& m : cells)
    for (const RooftopCells& n : cells) (void)basis_entry(recorder, m, n);
  long long missing = 0;
  for (const long long slot : read) missing += entries.count(slot) + copies.count(slot) == 1 ? 0 : 1;
  EXPECT_EQ(missing, 0) << "of " << read.size() << " slots read";
  // Nothing planned that Z does not read (every entry is read or a copy's source).
  long long unread = 0;
  std::unordered_set<long long> sources(plan.copy_from.begin(), plan.copy_from.end());
  for (const long long slot : entries) unread += read.count(slot) + sources.count(slot) > 0 ? 0 : 1;
  EXPECT_EQ(unread, 0);
}

TEST(TablePlan, EverySlotZReadsIsAnEntryOrACopyOfOne) {
  using geometry::test::layout_of;
  // An L (edge kinds on both axes), square cells.
  expect_every_read_slot_planned(
      geometry::make_mesh(layout_of({{0, 0, 8.0, 1.2}, {6.8, 1.2, 8.0, 6.0}}), 0.4));
  // The same on oblong cells.
  expect_every_read_slot_planned(geometry::make_mesh(
      layout_of({{0, 0, 8.0, 1.2}, {6.8, 1.2, 8.0, 6.0}}), geometry::CellSize{0.4, 0.3}));
  // Two strips apart (coupled lines): the offsets between them.
  expect_every_read_slot_planned(
      geometry::make_mesh(layout_of({{0, 0, 6.0, 1.2}, {0, 2.0, 6.0, 3.2}}), 0.4));
  // A staircase falling to the right (a ring's or a mitre's edge): offsets (k, -k) without
  // (k, k), whose canonical entries the mesh itself does not use.
  std::vector<geometry::Rect> steps;
  for (int k = 0; k < 6; ++k) steps.push_back({0.8 * k, -0.8 * k, 0.8 * k + 1.6, -0.8 * k + 1.6});
  expect_every_read_slot_planned(geometry::make_mesh(layout_of(steps), 0.4));
}

}  // namespace
}  // namespace pmom::mom
