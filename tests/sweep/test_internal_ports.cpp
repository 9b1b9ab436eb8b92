// Internal ports (issue 37): where the mesh puts them, the config's errors, and a series port in
// the middle of a straight RO4003 line against circuit theory of an ideal series port.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <string>

#include "io/temp_dir.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/sweep/run.hpp"
#include "support/gpu.hpp"
#include "support/line_config.hpp"
#include "support/sweep_difference.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// An 80 mm RO4003 line (0.508 mm) of 1.2 mm on 0.2 mm cells between edge ports a and b, their
// reference planes in the middle, where internal port c sits across the strip (`where`, `c`'s
// other keys); 36 mm feeds, as the lumped elements' test line.
std::string line_with(const std::string& c = "x: 40.0, y: 0.6, axis: x",
                      const std::string& settings = "solver: {backend: cpu}\n",
                      const std::string& extra = "") {
  return test::line_config("  - {name: c, " + c + "}\n", extra, settings);
}

TEST(InternalPorts, MeshPutsThePortAcrossTheWholeStrip) {
  const pmom::test::TempDir scratch("internal_mesh");
  const SweepJob job = load_sweep(scratch.write("line.yaml", line_with()));
  ASSERT_EQ(job.mesh.ports().size(), 3u);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(job.mesh.ports()[static_cast<std::size_t>(p)].port, p);
  const geometry::MeshPort& c = job.mesh.ports()[2];
  EXPECT_TRUE(c.internal);
  EXPECT_FALSE(job.mesh.ports()[0].internal);
  EXPECT_EQ(c.count, 6);  // 1.2 mm of 0.2 mm cells
  EXPECT_DOUBLE_EQ(c.width_mm, 1.2);
  EXPECT_EQ(c.sign, 1);
  ASSERT_EQ(c.samples.size(), 1u);
  EXPECT_EQ(c.delta_gap().basis.size(), 6u);
  for (const int m : c.delta_gap().basis)
    EXPECT_NEAR(job.mesh.basis()[static_cast<std::size_t>(m)].centre.x, 40.0, 1e-9);
  EXPECT_NEAR(c.edge_centre.x, 40.0, 1e-12);
  EXPECT_NEAR(c.edge_centre.y, 0.6, 1e-12);
  EXPECT_EQ(job.mesh.loaded_gaps().size(), 3u);  // the three ports' gaps
}

void expect_config_error(const std::string& text, const std::string& words, int line = 8) {
  const pmom::test::TempDir scratch("internal_errors");
  try {
    (void)load_sweep(scratch.write("line.yaml", text));
    ADD_FAILURE() << "no error for: " << words;
  } catch (const geometry::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    if (line > 0) {
      EXPECT_NE(std::string(e.what()).find("line.yaml:" + std::to_string(line) + ":"),
                std::string::npos)
          << "not at the port's line: " << e.what();
    }
  }
}

TEST(InternalPorts, BadPortsAreOneLineAtTheirItem) {
  expect_config_error(line_with("x: 40.0, y: 0.6, axis: x, direction: \"+x\""), "not both");
  expect_config_error(line_with("x: 40.0, y: 0.6"), "needs a direction");
  expect_config_error(line_with("x: 40.0, y: 0.6, axis: z"), "axis");
  expect_config_error(line_with("x: 40.0, y: 0.6, axis: x, feed_length_mm: 5"),
                      "internal port (it has an axis): it has no feed line");
  expect_config_error(line_with("x: 40.0, y: 0.6, axis: x, reference_plane_mm: 5"),
                      "its reference plane is its gap");
  expect_config_error(line_with("x: 40.1, y: 0.6, axis: x"), "grid");
  expect_config_error(line_with("x: 40.0, y: 3.0, axis: x"), "not inside the metal");
  expect_config_error(line_with("x: 10.0, y: 0.6, axis: x"), "sits on port 'a''s feed line");
  expect_config_error(line_with("x: 40.0, y: 0.6, axis: x", "solver: {backend: cpu}\n",
                                "  - {name: d, x: 40.0, y: 0.2, axis: x}\n"),
                      "internal port 'd' sits on port 'c'", 9);
  expect_config_error(line_with("x: 40.0, y: 0.6, axis: x", "solver: {backend: cpu}\n",
                                "lumped:\n  - {name: R, x: 40.0, y: 0.6, axis: x, r_ohm: 5}\n"),
                      "lumped element 'R' sits on port 'c'", 10);
  // A thresholded Z: the gap's calibration needs every entry.
  expect_config_error(line_with("x: 40.0, y: 0.6, axis: x",
                                "sparsify: {density: 0.5}\nsolver: {backend: cpu}\n"),
                      "internal port 'c' needs every entry of Z", 0);
}

// S of an ideal series port between two ports at one point (port 3 in series between ports 1
// and 2, its + terminal on port 2's side): V3 = V2 − V1, I1 = I3, I2 = −I3, with power waves at
// each port's reference impedance, V = √Z (a + b), I = (a − b)/√Z.
Eigen::Matrix3cd ideal_series_port(double z1, double z2, double z3) {
  const double r1 = std::sqrt(z1), r2 = std::sqrt(z2), r3 = std::sqrt(z3);
  // Rows: the three constraints as M_a a + M_b b = 0.
  Eigen::Matrix3cd ma, mb;
  ma << -r1, r2, -r3,  // V2 − V1 − V3 = 0
      1 / r1, 0, -1 / r3,  // I1 − I3 = 0
      0, 1 / r2, 1 / r3;   // I2 + I3 = 0
  mb << -r1, r2, -r3,  //
      -1 / r1, 0, 1 / r3,  //
      0, -1 / r2, -1 / r3;
  return -mb.inverse() * ma;
}

double largest_difference(const io::FrequencyRecord& r, const Eigen::Matrix3cd& s) {
  double d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      d = std::max(d, std::abs(r.s[static_cast<std::size_t>(3 * i + j)] - s(i, j)));
  return d;
}

// The series port at 1, 2 and 3 GHz against the ideal: at 50 ohm S = [[1, 2, −2], [2, 1, 2],
// [−2, 2, 1]] / 3 at every frequency (port c's + terminal on port b's side); at 25 ohm (port c's
// waves at its own impedance, the Touchstone file then of version 2.0) S33 = 0.6. Without the
// gap's shunt taken out (Y = 0 in the launch) the 50 ohm port was 1.2e-2, 2.4e-2, 3.6e-2 off.
TEST(InternalPorts, SeriesPortOnALineAgainstCircuitTheory) {
  const pmom::test::TempDir scratch("internal_line");
  for (const double zc : {50.0, 25.0}) {
    const std::string c = "x: 40.0, y: 0.6, axis: x, impedance_ohm: " + std::to_string(zc);
    const io::SweepData data = run_sweep(load_sweep(scratch.write("line.yaml", line_with(c))));
    ASSERT_EQ(data.records.size(), 3u);
    const Eigen::Matrix3cd ideal = ideal_series_port(50, 50, zc);
    for (const io::FrequencyRecord& r : data.records) {
      const double error = largest_difference(r, ideal);
      std::printf("[internal] series port of %.0f ohm, %.0f GHz: |dS| against the ideal %.2e "
                  "(S33 %.4f%+.4fj, S13 %.4f%+.4fj)\n",
                  zc, r.frequency_hz * 1e-9, error, r.s[8].real(), r.s[8].imag(), r.s[2].real(),
                  r.s[2].imag());
      // The lumped elements' bar, on the same line and gap calibration.
      EXPECT_LT(error, 1e-3) << zc << " ohm at " << r.frequency_hz;
    }
  }
}

// Along y, on a horizontal grid line: the same ideal series port.
TEST(InternalPorts, SeriesPortAlongYAgainstCircuitTheory) {
  const pmom::test::TempDir scratch("internal_y");
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
      "  - {name: c, x: 0.6, y: 40.0, axis: y}\n"
      "mesh: {cell_mm: 0.2}\n"
      "frequencies: [1.0e9, 3.0e9]\n"
      "solver: {backend: cpu}\n";
  const io::SweepData data = run_sweep(load_sweep(scratch.write("line.yaml", config)));
  ASSERT_EQ(data.records.size(), 2u);
  for (const io::FrequencyRecord& r : data.records) {
    const double error = largest_difference(r, ideal_series_port(50, 50, 50));
    std::printf("[internal] series port along y, %.0f GHz: |dS| against the ideal %.2e\n",
                r.frequency_hz * 1e-9, error);
    EXPECT_LT(error, 1e-3) << r.frequency_hz;
  }
}

// The launch of an internal port: (V, I) = E (F, B) gives the power waves of V and I − Y V at
// Zr, exactly.
TEST(InternalPorts, LaunchGivesThePowerWavesOfTheGap) {
  const double zr = 25;
  const cd y(0, 2.7e-4), v(0.3, -0.1), i_ext(4e-3, 2e-3);
  const auto [f, b] = mom::internal_port_launch(zr, y).waves(v, i_ext + y * v);
  const cd a = (v + zr * i_ext) / (2 * std::sqrt(zr)), bw = (v - zr * i_ext) / (2 * std::sqrt(zr));
  EXPECT_LT(std::abs(std::sqrt(zr) * f - a), 1e-15);
  EXPECT_LT(std::abs(-std::sqrt(zr) * b - bw), 1e-15);
}

// On the GPU (the device fill's and the FFT operator's loads on the port's gap) the CPU's S to
// 1e-9, both solved to 1e-10: the default route on each backend, and rule exact (FFTs) on the
// GPU against every entry kept on the CPU.
TEST(InternalPorts, GpuGivesTheCpusS) {
  PMOM_REQUIRE_GPU();
  const pmom::test::TempDir scratch("internal_gpu");
  const auto [route, exact] = pmom::test::cuda_against_cpu([&](const std::string& settings) {
    return run_sweep(load_sweep(
        scratch.write("line.yaml", line_with("x: 40.0, y: 0.6, axis: x", settings))));
  });
  std::printf("[internal] cuda against cpu %.1e (default routes), %.1e (FFTs against every "
              "entry)\n", route, exact);
  EXPECT_LT(route, 1e-9);
  EXPECT_LT(exact, 1e-9);
}

}  // namespace
}  // namespace pmom::sweep
