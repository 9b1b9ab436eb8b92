// Fuzz target: the Touchstone 1.1 reader, each input read as a 1-, 2-, 3- and 4-port file (the
// port count comes from the name). Contract: a TouchstoneError naming the file, or finite,
// non-negative, increasing frequencies, each with a P x P matrix of finite S-parameters.
#include <cmath>
#include <cstdint>
#include <string>

#include "harness.hpp"
#include "planarmom/io/touchstone.hpp"

namespace {

using namespace pmom;

void check(const io::TouchstoneData& t, std::size_t ports) {
  fuzz::expect(t.ports == ports, "port count differs from the file name's");
  fuzz::expect(std::isfinite(t.reference_impedance_ohm) && t.reference_impedance_ohm > 0,
               "reference impedance not finite and positive");
  fuzz::expect_frequencies(t.frequency_hz, true);
  fuzz::expect(t.s.size() == t.frequency_hz.size(), "S and frequencies of different counts");
  for (std::size_t f = 0; f < t.frequency_hz.size(); ++f) {
    if (t.s[f].size() != ports * ports) fuzz::fail("point " + std::to_string(f) + ": S not P x P");
    for (const auto& s : t.s[f])
      if (!std::isfinite(s.real()) || !std::isfinite(s.imag()))
        fuzz::fail("point " + std::to_string(f) + ": S not finite");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (std::size_t ports = 1; ports <= 4; ++ports) {
    const auto file = fuzz::write_input("input.s" + std::to_string(ports) + "p", data, size);
    try {
      check(io::read_touchstone(file), ports);
    } catch (const io::TouchstoneError& error) {
      fuzz::expect_names_file(error.what(), file);
    }
  }
  return 0;
}
