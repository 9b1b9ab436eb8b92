// A sweep through the installed package, as a C++ user runs one: a straight 50 Ω line between
// two ports (the config is written here), two frequencies on the CPU; the line must come out
// matched and transparent. Argument: a scratch folder.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "planarmom/sweep/run.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: sweep_consumer SCRATCH_FOLDER\n";
    return 2;
  }
  const std::filesystem::path folder = argv[1];
  std::filesystem::create_directories(folder);
  const std::filesystem::path config = folder / "line.yaml";
  std::ofstream(config) << R"(substrate: {eps_r: 3.38, height_mm: 0.508, loss_tangent: 0}
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 78.0, y1: 1.2}
ports:
  - {name: a, x: 0, y: 0.6, direction: "+x", feed_length_mm: 30, reference_plane_mm: 30}
  - {name: b, x: 78.0, y: 0.6, direction: "-x", feed_length_mm: 30, reference_plane_mm: 30}
mesh: {cell_mm: 0.4}
frequencies: [2.5e9, 2.75e9]
sparsify: {density: 1.0}
solver: {backend: cpu}
)";
  const pmom::sweep::SweepJob job = pmom::sweep::load_sweep(config);
  pmom::sweep::RunOptions options;
  options.line_cache = false;
  const pmom::io::SweepData data = pmom::sweep::run_sweep(job, options);
  if (data.records.size() != 2) {
    std::cerr << "sweep_consumer: " << data.records.size() << " frequencies, expected 2\n";
    return 1;
  }
  for (const auto& r : data.records) {
    const double s11 = std::abs(r.s[0]), s21 = std::abs(r.s[2]);  // row-major 2 x 2
    if (s11 > 0.05 || s21 < 0.99 || s21 > 1.001) {
      std::cerr << "sweep_consumer: the line is not matched and transparent: |S11| " << s11
                << ", |S21| " << s21 << '\n';
      return 1;
    }
  }
  std::cout << "sweep through find_package(planarmom): 2 frequencies, line matched\n";
  return 0;
}
