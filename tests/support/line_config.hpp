// The sweep tests' straight line: an 80 mm strip 1.2 mm wide on lossless 0.508 mm RO4003 with
// perfect metal, ports a and b at its ends (36 mm feeds, reference planes at the middle), as a
// config's text. more_ports: further lines of `ports:`; sections: whole sections after them
// (`lumped:`); then the mesh's cell, the frequencies and the settings.
#pragma once

#include <string>

namespace pmom::test {

inline std::string line_config(const std::string& more_ports, const std::string& sections,
                               const std::string& settings = "solver: {backend: cpu}\n",
                               const std::string& cell_mm = "0.2",
                               const std::string& frequencies = "[1.0e9, 2.0e9, 3.0e9]") {
  return "substrate: {eps_r: 3.38, height_mm: 0.508, loss_tangent: 0}\n"
         "metal: {pec: true}\n"
         "layout:\n"
         "  - {x0: 0, y0: 0, x1: 80.0, y1: 1.2}\n"
         "ports:\n"
         "  - {name: a, x: 0, y: 0.6, direction: \"+x\", feed_length_mm: 36, "
         "reference_plane_mm: 40}\n"
         "  - {name: b, x: 80.0, y: 0.6, direction: \"-x\", feed_length_mm: 36, "
         "reference_plane_mm: 40}\n" +
         more_ports + sections + "mesh: {cell_mm: " + cell_mm + "}\n" +
         "frequencies: " + frequencies + "\n" + settings;
}

}  // namespace pmom::test
