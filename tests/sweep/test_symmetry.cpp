// The layout's mirror symmetry in the sweep's preconditioner (solver.symmetry, mom/
// mesh_symmetry.hpp, gpusolver's preconditioners/folded_inverse.hpp): which symmetry a layout
// has, and that Z's LU made on its two parities is the same preconditioner as one LU of all of
// Z (the same iterations) and the sweep the same S, with vias and cell bubbles in, on both
// backends.
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/temp_dir.hpp"
#include "planarmom/mom/mesh_symmetry.hpp"
#include "planarmom/sweep/run.hpp"
#include "support/gpu.hpp"
#include "support/sweep_difference.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

const std::string kHead = "substrate: {eps_r: 3.38, height_mm: 0.508}\nmetal: {pec: true}\n";
// Two frequencies: the second solve runs on the first one's LU whatever the LUs cost (a third's
// LU would be placed by measured times, recycled_lu.hpp, which the two runs need not share).
const std::string kTail = "mesh: {cell_mm: 0.4}\nfrequencies: [2.0e9, 4.0e9]\n";

// A line with a stub up and a stub down near one end, a via on each: mirror x ↦ W − x only
// where the stubs sit in the middle.
std::string stubs(double stub_x) {
  const std::string x0 = std::to_string(stub_x), x1 = std::to_string(stub_x + 1.6),
                    xv = std::to_string(stub_x + 0.8);
  return kHead + "layout:\n  - {x0: 0, y0: -0.6, x1: 24, y1: 0.6}\n  - {x0: " + x0 +
         ", y0: 0.6, x1: " + x1 + ", y1: 8.6}\n  - {x0: " + x0 + ", y0: -8.6, x1: " + x1 +
         ", y1: -0.6}\nports:\n  - {name: a, x: 0, y: 0, direction: \"+x\", feed_length_mm: 8}\n"
         "  - {name: b, x: 24, y: 0, direction: \"-x\", feed_length_mm: 8}\nvias:\n"
         "  - {name: up, x: " + xv + ", y: 8.0, diameter_mm: 0.8}\n"
         "  - {name: down, x: " + xv + ", y: -8.0, diameter_mm: 0.8}\n" + kTail;
}

// Two coupled strips offset along their length, ports at the far ends: a half turn maps the
// layout onto itself, no mirror does.
const std::string kOffsetPair =
    kHead + "layout:\n  - {x0: 0, y0: 0, x1: 20, y1: 1.2}\n  - {x0: 10, y0: 1.6, x1: 30, y1: 2.8}\n"
            "ports:\n  - {name: a, x: 0, y: 0.6, direction: \"+x\", feed_length_mm: 6}\n"
            "  - {name: b, x: 30, y: 2.2, direction: \"-x\", feed_length_mm: 6}\n" + kTail;

geometry::Mesh mesh_of(const std::string& text) {
  return load_sweep_text(text, "sym.yaml").mesh;
}

// The names of a mesh's symmetries, "none" for none.
std::string symmetries(const geometry::Mesh& mesh) {
  std::string out;
  for (const mom::LayoutMirror& m : mom::layout_mirrors(mesh))
    out += std::string(out.empty() ? "" : ", ") + mom::name(m.mirror);
  return out.empty() ? "none" : out;
}

TEST(Symmetry, EachLayoutHasTheSymmetryItIsDrawnWith) {
  const std::string x = mom::name(mom::Mirror::x), y = mom::name(mom::Mirror::y);
  EXPECT_EQ(symmetries(mesh_of(stubs(11.2))), x + ", " + y);  // the half turn adds nothing
  EXPECT_EQ(symmetries(mesh_of(kOffsetPair)), mom::name(mom::Mirror::half_turn));
  // Stubs off the middle: the mirror y ↦ H − y is left (the vias map, up onto down).
  EXPECT_EQ(symmetries(mesh_of(stubs(13.6))), y);
  // The loads must map too: the two ports' gaps are each other's images under x.
  const std::vector<mom::LayoutMirror> middle = mom::layout_mirrors(mesh_of(stubs(11.2)));
  const std::vector<cd> equal{50.0, 50.0}, unequal{50.0, 75.0};
  EXPECT_TRUE(middle[0].keeps(equal));
  EXPECT_FALSE(middle[0].keeps(unequal));
  EXPECT_TRUE(middle[1].keeps(unequal));  // y maps each port onto itself
  // One via moved: no symmetry at all.
  std::string moved = stubs(13.6);
  moved.replace(moved.find("y: -8.0"), 7, "y: -7.2");
  EXPECT_EQ(symmetries(mesh_of(moved)), "none");
}

// The examples as shipped: each has the symmetry it is drawn with (the ring hybrid, the
// stepped low-pass of unequal ends and the mitred bend, symmetric about a diagonal, none of
// these three).
TEST(Symmetry, TheExamplesHaveTheirs) {
  const auto of = [](const std::string& example) {
    return symmetries(load_sweep(PLANARMOM_SOURCE_DIR "/examples/" + example + ".yaml").mesh);
  };
  const std::string x = mom::name(mom::Mirror::x), y = mom::name(mom::Mirror::y);
  EXPECT_EQ(of("branch_line_coupler"), x + ", " + y);
  EXPECT_EQ(of("edge_coupled_filter"), mom::name(mom::Mirror::half_turn));
  EXPECT_EQ(of("wilkinson_fr4"), y);
  EXPECT_EQ(of("stub_bandpass_ro4003"), x + ", " + y);
  EXPECT_EQ(of("rat_race"), "none");
}

// Both runs to a tolerance of 1e-10: the same S to 1e-8, and the same iterations (±1) at both
// frequencies (the second on the first's LU), which only the same preconditioner gives.
void expect_same_as_one_lu(const std::string& layout, const std::string& backend) {
  const pmom::test::TempDir scratch("symmetry");
  const auto sweep = [&](const std::string& symmetry) {
    return run_sweep(load_sweep(scratch.write(
        "sym_" + symmetry + ".yaml",
        layout + "solver: {tolerance: 1.0e-10, preconditioner: lu, backend: " + backend +
            ", symmetry: " + symmetry + "}\n")));
  };
  const io::SweepData folded = sweep("auto"), whole = sweep("off");
  const double difference = test::largest_s_difference(folded, whole);
  std::printf("[symmetry] %s: folded against one LU max |dS| %.1e; iterations", backend.c_str(),
              difference);
  ASSERT_EQ(folded.records.size(), whole.records.size());
  for (std::size_t k = 0; k < folded.records.size(); ++k) {
    std::printf(" %d/%d", folded.records[k].iterations, whole.records[k].iterations);
    EXPECT_LE(std::abs(folded.records[k].iterations - whole.records[k].iterations), 1);
  }
  std::printf("\n");
  EXPECT_LT(difference, 1e-8);
}

TEST(Symmetry, TheFoldedLuIsOneLusPreconditionerOnTheHost) {
  expect_same_as_one_lu(stubs(11.2), "cpu");  // vias, cell bubbles, the mirrors x and y
  expect_same_as_one_lu(kOffsetPair, "cpu");  // the half turn
}

TEST(Symmetry, TheFoldedLuIsOneLusPreconditionerOnTheGpu) {
  PMOM_REQUIRE_GPU();
  expect_same_as_one_lu(stubs(11.2), "cuda");
  expect_same_as_one_lu(kOffsetPair, "cuda");
}

}  // namespace
}  // namespace pmom::sweep
