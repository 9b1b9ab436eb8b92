// knob_warnings: which knobs the cheap checks flag on the two coupler examples, with the
// numbers they quote worked out here from the meshes' own sizes.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/knob_checks.hpp"

namespace pmom::sweep {
namespace {

struct Example {
  geometry::Mesh mesh;
  SweepSettings settings;
};

Example load(const std::string& name) {
  const std::string file = PLANARMOM_SOURCE_DIR "/examples/" + name;
  const YAML::Node root = YAML::LoadFile(file);
  const geometry::GeometryConfig g = geometry::parse_geometry_config(root, file);
  return {g.make_mesh(*g.mesh.cell_mm), read_sweep_settings(root, file, 4)};
}

int count_containing(const std::vector<std::string>& lines, const std::string& text) {
  int n = 0;
  for (const std::string& l : lines) n += l.find(text) != std::string::npos ? 1 : 0;
  return n;
}

TEST(KnobChecks, CouplerExampleInThePapersModeWarnsOfItsDensityAndItsFeeds) {
  Example e = load("branch_line_coupler.yaml");
  // The example keeps every interaction (rule exact): only its feeds are flagged.
  ASSERT_EQ(knob_warnings(e.mesh, e.settings).size(), 1u);
  e.settings.density = 0.05;
  e.settings.rule = Rule::mpie;
  const std::vector<std::string> w = knob_warnings(e.mesh, e.settings);
  ASSERT_EQ(w.size(), 2u) << testing::PrintToString(w);
  EXPECT_EQ(count_containing(w, "sparsify keeps 5% of Z (rule mpie)"), 1);
  // 20 mm feeds of 0.2 mm cells along them, 99 samples; the near fields take
  // ceil(3 * 1.2 / 0.2) = 18 cells at each end and the gap one more: samples 19..81 are fitted,
  // 62 cells = 12.4 mm. The four feeds have one width: one line naming them all.
  EXPECT_EQ(count_containing(w, "ports in, through, coupled, isolated: the de-embedding fits "
                                "the feed's waves over 12.4 mm"), 1);
  EXPECT_EQ(count_containing(w, "cell"), 0);
}

TEST(KnobChecks, EveryEntryKeptIsNotFlagged) {
  Example e = load("branch_line_coupler.yaml");
  e.settings.density = 1.0;
  EXPECT_EQ(count_containing(knob_warnings(e.mesh, e.settings), "sparsify"), 0);
}

TEST(KnobChecks, FeedsLongEnoughAreNotFlagged) {
  // The fit's window reaches λg/4 at 2 GHz (λg ≈ 92 mm on the 1.2 mm strip: 23 mm) only above
  // 30.9 mm: a single frequency of 20 GHz has λg/4 under 3 mm, well inside the 12.4 mm window.
  Example e = load("branch_line_coupler.yaml");
  e.settings.frequencies_hz = {2.0e10};
  const std::vector<std::string> w = knob_warnings(e.mesh, e.settings);
  EXPECT_EQ(count_containing(w, "de-embedding"), 0);
  // At 20 GHz the wavelength in εr 3.38 is c / (f √εr) = 8.15 mm, a twentieth 0.41 mm: the
  // cell's longer side of 0.4 mm passes; at 25 GHz (0.33 mm) it does not.
  EXPECT_EQ(count_containing(w, "the cell (its longer side, 0.4 mm)"), 0);
  e.settings.frequencies_hz = {2.5e10};
  EXPECT_EQ(count_containing(knob_warnings(e.mesh, e.settings),
                             "the cell (its longer side, 0.4 mm)"),
            1);
}

TEST(KnobChecks, Fr4ExampleWarnsOfItsShortFeedsOnly) {
  const Example e = load("branch_line_coupler_fr4.yaml");
  const std::vector<std::string> w = knob_warnings(e.mesh, e.settings);
  ASSERT_EQ(w.size(), 1u) << testing::PrintToString(w);
  // 24.8 mm feeds of 0.2 mm cells along them, 123 samples; 3 · 3.2 / 0.2 = 48 cells at each
  // end: samples 49..75 are fitted, 26 cells = 5.2 mm.
  EXPECT_EQ(count_containing(w, "fits the feed's waves over 5.2 mm"), 1);
}

}  // namespace
}  // namespace pmom::sweep

namespace pmom::sweep {
namespace {

// Two records of a 3-port sweep: reciprocal to 1e-9, then with S23 and S32 3e-3 apart at
// 2.5 GHz (the size measured on the FR-4 pinwheel). The first passes silently; the second
// names the pair, the ports and the frequency, once.
// The FR-4 low-pass's 5 mm feeds are calibrated (no room for the fit): one line for both, with
// their length in widths or heights (5 / 3.2) and the length that keeps the error near 1e-3.
TEST(KnobChecks, ShortCalibratedFeedsWarnOnce) {
  const Example e = load("stepped_lowpass_fr4.yaml");
  const std::vector<std::string> w = knob_warnings(e.mesh, e.settings);
  ASSERT_EQ(w.size(), 1u) << testing::PrintToString(w);
  EXPECT_EQ(count_containing(w, "ports in, out: calibrated on feeds from 5 mm, 1.56 widths or "
                                "heights"), 1) << w[0];
  EXPECT_EQ(count_containing(w, "feeds of 19.2 mm keep it near 1e-3"), 1) << w[0];
}

TEST(KnobChecks, NonReciprocalSWarnsOnceNamingWhere) {
  io::SweepData data;
  data.info.port_names = {"in", "through", "coupled"};
  const std::vector<std::complex<double>> s{{0.1, 0.0},   {0.5, 0.2}, {0.3, -0.1},
                                            {0.5, 0.2},   {0.1, 0.1}, {0.2, 0.4},
                                            {0.3, -0.1},  {0.2, 0.4}, {0.05, 0.0}};
  io::FrequencyRecord a;
  a.frequency_hz = 2e9;
  a.s = s;
  a.s[1] += 1e-9;
  data.records = {a};
  EXPECT_FALSE(reciprocity_warning(data).has_value());
  io::FrequencyRecord b = a;
  b.frequency_hz = 2.5e9;
  b.s[5] += std::complex<double>(0.0, 3e-3);  // S23
  data.records.push_back(b);
  const std::optional<std::string> w = reciprocity_warning(data);
  ASSERT_TRUE(w.has_value());
  EXPECT_NE(w->find("S is reciprocal only to 0.003 (|S23 - S32|, ports through and coupled, "
                    "at 2.5 GHz"),
            std::string::npos)
      << *w;
}

}  // namespace
}  // namespace pmom::sweep
