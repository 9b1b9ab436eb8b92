// Where the current flows: |J| on the meshed layout for one port's solution (`output:
// {currents: [Hz, ...]}`), per driven port and requested frequency, as an SVG picture with a
// colour bar and a CSV of the numbers (tools/plot_currents.py draws the PNG from it).
#pragma once

#include <complex>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "planarmom/geometry/mesh.hpp"

namespace pmom::sweep {

// |J| at each cell's centre, row-major (j · nx + i), NaN off the metal: the magnitude of the
// surface current density (A/m for the port's 1 V gap) from the x- and y-rooftops on the cell's
// edges, each at half its amplitude there (a rooftop falls linearly from its edge to the
// neighbouring cells' far edges), and the cell's bubbles at their full amplitude. On one metal
// layer (an index into Mesh::layers()).
[[nodiscard]] std::vector<double> current_density(const geometry::Mesh& mesh,
                                                  std::span<const std::complex<double>> currents,
                                                  int layer = 0);

// The files of one picture: STEM_J_<GHz>GHz_<port>.svg and .csv beside the HDF5 file's stem,
// and the .png that tools/plot_currents.py draws from the CSV; with metal on several layers one
// picture per layer, STEM_J_<GHz>GHz_<port>_layer<k>.* (k the interface, `interfaces`).
struct CurrentPicture {
  double frequency_hz = 0;
  int port = 0;
  std::filesystem::path svg, csv, png;
  int layer = 0;  // an index into Mesh::layers()
};
[[nodiscard]] std::vector<CurrentPicture> current_pictures(const std::filesystem::path& hdf5,
                                                           std::span<const double> frequencies_hz,
                                                           const std::vector<std::string>& ports,
                                                           const std::vector<int>& interfaces = {});

// Writes the picture's SVG (cells coloured by |J| on a linear scale from 0 to the largest, the
// metal's outline, a colour bar in A/m, a title) and CSV (x_mm, y_mm, |J| per metal cell).
// Throws std::runtime_error naming a file it cannot write.
void write_current_picture(const geometry::Mesh& mesh, std::span<const double> density,
                           const CurrentPicture& picture, const std::string& title);

}  // namespace pmom::sweep
