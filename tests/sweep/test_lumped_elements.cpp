// Lumped elements (issue 37): their impedance, where the mesh puts them, the config's errors, and
// a series R, L and C in the middle of a straight RO4003 line against circuit theory.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <algorithm>
#include <cstdio>
#include <numbers>
#include <string>

#include "io/temp_dir.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/line_characterisation.hpp"
#include "planarmom/mom/port_loads.hpp"
#include "planarmom/sweep/run.hpp"
#include "support/gpu.hpp"
#include "support/line_config.hpp"
#include "support/sweep_difference.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;
using geometry::LumpedElement;
constexpr double kTwoPi = 2 * std::numbers::pi;

TEST(LumpedElements, ImpedanceOfSeriesAndParallelParts) {
  const double f = 1e9, w = kTwoPi * f;
  LumpedElement e;
  e.r_ohm = 10;
  e.l_nh = 2;
  e.c_pf = 3;
  const cd series = cd(10, w * 2e-9) + 1.0 / cd(0, w * 3e-12);
  EXPECT_LT(std::abs(mom::lumped_impedance(e, f) - series), 1e-12 * std::abs(series));
  e.topology = LumpedElement::Topology::parallel;
  const cd parallel = 1.0 / (0.1 + 1.0 / cd(0, w * 2e-9) + cd(0, w * 3e-12));
  EXPECT_LT(std::abs(mom::lumped_impedance(e, f) - parallel), 1e-12 * std::abs(parallel));
  // A part of value 0 is left out: no capacitor in series (a short), no resistor in parallel.
  e.c_pf = 0;
  e.topology = LumpedElement::Topology::series;
  EXPECT_EQ(mom::lumped_impedance(e, f), cd(10, w * 2e-9));
  e.r_ohm = 0;
  e.topology = LumpedElement::Topology::parallel;
  EXPECT_LT(std::abs(mom::lumped_impedance(e, f) - cd(0, w * 2e-9)), 1e-12);
}

// An 80 mm RO4003 line (0.508 mm) of 1.2 mm (50 Ω) on 0.2 mm cells, its ports' reference planes
// in the middle, where the element `part` sits across the strip; 36 mm feeds, for a
// de-embedding well under 1e-3 (on 16 mm feeds a line with no element is 0.9-2.7e-3 from a
// through at 1-3 GHz).
std::string line_with(const std::string& part, const std::string& where = "x: 40.0, y: 0.6",
                      const std::string& settings = "solver: {backend: cpu}\n") {
  return test::line_config("", "lumped:\n  - {name: Z1, " + where + ", axis: x, " + part + "}\n",
                           settings);
}

TEST(LumpedElements, MeshPutsTheElementAcrossTheWholeStrip) {
  const pmom::test::TempDir scratch("lumped_mesh");
  const SweepJob job = load_sweep(scratch.write("line.yaml", line_with("r_ohm: 50")));
  ASSERT_EQ(job.mesh.lumped().size(), 1u);
  const geometry::MeshLumped& l = job.mesh.lumped().front();
  EXPECT_EQ(l.count, 6);  // 1.2 mm of 0.2 mm cells
  EXPECT_EQ(l.section.basis.size(), 6u);
  for (const int m : l.section.basis)
    EXPECT_NEAR(job.mesh.basis()[static_cast<std::size_t>(m)].centre.x, 40.0, 1e-9);
  EXPECT_EQ(job.mesh.loaded_gaps().size(), 3u);  // two ports' gaps, then the element
}

void expect_config_error(const std::string& text, const std::string& words, int line = 9) {
  const pmom::test::TempDir scratch("lumped_errors");
  try {
    (void)load_sweep(scratch.write("line.yaml", text));
    ADD_FAILURE() << "no error for: " << words;
  } catch (const geometry::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line.yaml:" + std::to_string(line) + ":"),
              std::string::npos)
        << "not at the element's line: " << e.what();
  }
}

TEST(LumpedElements, BadElementsAreOneLineAtTheirItem) {
  expect_config_error(line_with("r_ohm: 50", "x: 40.1, y: 0.6"), "grid");
  expect_config_error(line_with("r_ohm: 50", "x: 40.0, y: 3.0"), "not inside the metal");
  expect_config_error(line_with("r_ohm: 50", "x: 10.0, y: 0.6"), "sits on port 'a''s feed line");
  expect_config_error(line_with("l_nh: -1"), "l_nh must be finite and >= 0");
  expect_config_error(line_with("topology: series"), "has no part");
  // Across the strip along y, on the horizontal grid line through the feeds' metal.
  std::string along_y = line_with("r_ohm: 50", "x: 40.0, y: 0.6");
  along_y.replace(along_y.find("axis: x"), 7, "axis: y");
  expect_config_error(along_y, "sits on port 'a''s feed line");
  // A strip of one cell: its gap cannot be measured on a line of one cell across.
  std::string stub = line_with("r_ohm: 50", "x: 40.1, y: 2.0");
  stub.replace(stub.find("axis: x"), 7, "axis: y");
  stub.replace(stub.find("ports:"), 6,
               "  - {x0: 40.0, y0: 1.2, x1: 40.2, y1: 3.0}\nports:");
  expect_config_error(stub, "sits across a strip of one cell", 10);
}

// The gap of zero width under an element holds a charge: a shunt jω C_gap across it, which the
// sweep takes out of the element's load (port_loads.hpp, gap_loads). On the line above:
// 0.0424 pF (0.0431 pF measured through the whole sweep, from a 50 Ω resistor's S before it was
// taken out), the lines' voltage across the gap the source's within 1.2e-3 (a pure shunt), the
// same on a line half as long again.
TEST(LumpedElements, TheGapIsAShuntCapacitance) {
  mom::LineSpec spec;
  spec.eps_r = 3.38;
  spec.height_mm = 0.508;
  spec.width_mm = 1.2;
  spec.cells_across = 6;
  spec.periodic = true;
  spec.half_length_mm = mom::load_half_length_mm(spec);
  for (const double f : {1e9, 3e9}) {
    const mom::GapParasitics g = mom::host_gap_check(spec, f);
    const double c_gap = g.shunt.imag() / (kTwoPi * f);
    std::printf("[lumped] gap at %.0f GHz: C_gap %.4f pF, G %.1e S, line voltage %.5f%+.5fj\n",
                f * 1e-9, c_gap * 1e12, g.shunt.real(), g.line_voltage.real(),
                g.line_voltage.imag());
    EXPECT_NEAR(c_gap, 0.0424e-12, 0.002e-12);
    EXPECT_LT(std::abs(g.shunt.real()), 1e-2 * g.shunt.imag());  // no loss: a capacitance
    EXPECT_LT(std::abs(g.line_voltage - 1.0), 2e-3);
  }
  mom::LineSpec longer = spec;
  longer.half_length_mm *= 1.5;
  const double f = 3e9;
  EXPECT_LT(std::abs(mom::host_gap_check(longer, f).shunt - mom::host_gap_check(spec, f).shunt),
            1e-2 * std::abs(mom::host_gap_check(spec, f).shunt));
}

// The largest |ΔS| of a 2-port record from circuit theory of the ideal series impedance z
// between its reference planes: S11 = z/(z + 2 Z0), S21 = 2 Z0/(z + 2 Z0), Z0 the ports' 50 Ω.
double from_ideal_series(const io::FrequencyRecord& r, cd z) {
  const cd s11 = z / (z + 100.0), s21 = 100.0 / (z + 100.0);
  return std::max({std::abs(r.s[0] - s11), std::abs(r.s[1] - s21), std::abs(r.s[2] - s21),
                   std::abs(r.s[3] - s11)});
}

// Series R, L and C at 1, 2 and 3 GHz against circuit theory: with the reference planes at the
// element, S11 = Z/(Z + 2 Z0), S21 = 2 Z0/(Z + 2 Z0) (Z0 = the ports' 50 Ω).
TEST(LumpedElements, SeriesElementOnALineAgainstCircuitTheory) {
  const pmom::test::TempDir scratch("lumped_line");
  struct Case {
    const char* part;
    cd (*z)(double);
  };
  const Case cases[] = {{"r_ohm: 50", [](double) { return cd(50); }},
                        {"l_nh: 2", [](double f) { return cd(0, kTwoPi * f * 2e-9); }},
                        {"c_pf: 1", [](double f) { return 1.0 / cd(0, kTwoPi * f * 1e-12); }}};
  for (const Case& c : cases) {
    const io::SweepData data = run_sweep(load_sweep(scratch.write("line.yaml", line_with(c.part))));
    ASSERT_EQ(data.records.size(), 3u);
    for (const io::FrequencyRecord& r : data.records) {
      const double f = r.frequency_hz;
      const double error = from_ideal_series(r, c.z(f));
      std::printf("[lumped] %-9s %.0f GHz: |dS| against the ideal element %.2e\n", c.part,
                  f * 1e-9, error);
      // The bar. Before the gap's shunt was taken out: up to 1.9e-2 (the 1 pF
      // capacitor, whose 53-160 ohm the gap's 0.043 pF shunts by 2-4%).
      EXPECT_LT(error, 1e-3) << c.part << " at " << f;
    }
  }
}

// A parallel R, L and C on a line along y (the element on a horizontal grid line): 30 ohm,
// 3 nH and 0.5 pF, 9-28 ohm at 1-3 GHz, against circuit theory as above. Measured 1.7e-4 to
// 4.5e-4.
TEST(LumpedElements, ParallelElementAlongYAgainstCircuitTheory) {
  const pmom::test::TempDir scratch("lumped_parallel");
  const std::string config =
      "substrate: {eps_r: 3.38, height_mm: 0.508, loss_tangent: 0}\n"
      "metal: {pec: true}\n"
      "layout:\n"
      "  - {x0: 0, y0: 0, x1: 1.2, y1: 80.0}\n"
      "ports:\n"
      "  - {name: a, x: 0.6, y: 0, direction: \"+y\", feed_length_mm: 36, "
      "reference_plane_mm: 40}\n"
      "  - {name: b, x: 0.6, y: 80.0, direction: \"-y\", feed_length_mm: 36, "
      "reference_plane_mm: 40}\n"
      "lumped:\n"
      "  - {name: RLC, x: 0.6, y: 40.0, axis: y, r_ohm: 30, l_nh: 3, c_pf: 0.5, "
      "topology: parallel}\n"
      "mesh: {cell_mm: 0.2}\n"
      "frequencies: [1.0e9, 2.0e9, 3.0e9]\n"
      "solver: {backend: cpu}\n";
  const io::SweepData data = run_sweep(load_sweep(scratch.write("line.yaml", config)));
  ASSERT_EQ(data.records.size(), 3u);
  for (const io::FrequencyRecord& r : data.records) {
    const double w = kTwoPi * r.frequency_hz;
    const cd z = 1.0 / (1.0 / 30.0 + 1.0 / cd(0, w * 3e-9) + cd(0, w * 0.5e-12));
    const double error = from_ideal_series(r, z);
    std::printf("[lumped] parallel RLC along y, %.0f GHz: |dS| against the ideal element %.2e\n",
                r.frequency_hz * 1e-9, error);
    EXPECT_LT(error, 1e-3) << r.frequency_hz;
  }
}

// Every new piece on the GPU (the device fill's and the FFT operator's loads on the elements'
// gaps) gives the CPU's S to 1e-9, both solved to 1e-10: the default route on each backend, and
// rule exact (FFTs) on the GPU against every entry kept on the CPU. Measured on an H200:
// 1.2e-11 to 1.8e-11.
TEST(LumpedElements, GpuGivesTheCpusS) {
  PMOM_REQUIRE_GPU();
  const pmom::test::TempDir scratch("lumped_gpu");
  for (const char* part : {"r_ohm: 50", "c_pf: 1"}) {
    const auto [route, exact] = pmom::test::cuda_against_cpu([&](const std::string& settings) {
      return run_sweep(
          load_sweep(scratch.write("line.yaml", line_with(part, "x: 40.0, y: 0.6", settings))));
    });
    std::printf("[lumped] %s: cuda against cpu %.1e (default routes), %.1e (FFTs against every "
                "entry)\n", part, route, exact);
    EXPECT_LT(route, 1e-9) << part;
    EXPECT_LT(exact, 1e-9) << part;
  }
}

}  // namespace
}  // namespace pmom::sweep
