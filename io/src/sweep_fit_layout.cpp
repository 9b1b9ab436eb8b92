// The adaptive sweep's /fit group (sweep_layout.hpp): S at every frequency, which were solved,
// the error estimate and the rational model, readable with h5py as plain arrays.
#include <hdf5.h>

#include <string>
#include <type_traits>

#include "hdf5_values.hpp"
#include "message_text.hpp"
#include "sweep_layout.hpp"

namespace pmom::io::sweep_layout {
namespace {

using cd = std::complex<double>;

// Each array of the group, its path and its rows' shape after the first extent.
struct FitArrays {
  std::size_t p;
  template <class Fit, class Visit> void each(Fit& f, Visit&& visit) const {
    visit("fit/frequency", f.frequency_hz, std::vector<hsize_t>{});
    visit("fit/s", f.s, std::vector<hsize_t>{p, p});
    visit("fit/solved", f.solved, std::vector<hsize_t>{});
    visit("fit/estimate", f.estimate, std::vector<hsize_t>{});
    visit("fit/model/support_hz", f.support_hz, std::vector<hsize_t>{});
    visit("fit/model/weights", f.weights, std::vector<hsize_t>{});
    visit("fit/model/support_s", f.support_s, std::vector<hsize_t>{p, p});
    visit("fit/model/poles_hz", f.poles_hz, std::vector<hsize_t>{});
    visit("fit/model/residues", f.residues, std::vector<hsize_t>{p, p});
    visit("fit/model/constant", f.constant, std::vector<hsize_t>{p});
  }
};

template <class T> std::pair<h5::Type, hid_t> types() {
  if constexpr (std::is_same_v<T, cd>)
    return {h5::complex_type(H5T_IEEE_F64LE), H5T_NATIVE_DOUBLE};
  else
    return {h5::Type(H5Tcopy(h5::file_type<T>())), h5::memory_type<T>()};
}

}  // namespace

void write_fit(hid_t file, const SweepFit& fit, std::size_t ports) {
  const std::size_t k = fit.frequency_hz.size(), pp = ports * ports;
  if (fit.s.size() != k * pp || fit.solved.size() != k || fit.estimate.size() != k ||
      fit.weights.size() != fit.support_hz.size() ||
      fit.support_s.size() != fit.support_hz.size() * pp ||
      fit.residues.size() != fit.poles_hz.size() * pp || fit.constant.size() != pp)
    throw std::invalid_argument("write_fit: the fit's arrays do not match in length");
  remove_fit(file);  // a resumed finished file has one: the new fit replaces it
  FitArrays{ports}.each(fit, [&](const char* path, const auto& values, std::vector<hsize_t> row) {
    using T = typename std::remove_cvref_t<decltype(values)>::value_type;
    std::size_t per_row = 1;
    for (const hsize_t e : row) per_row *= e;
    row.insert(row.begin(), values.size() / per_row);
    const auto [file_type, memory_part] = types<T>();
    static const T nothing{};  // HDF5 wants a buffer even for no elements (a model of one pole)
    const void* data = values.empty() ? &nothing : values.data();
    if constexpr (std::is_same_v<T, cd>) {
      const h5::Type memory = h5::complex_type(memory_part);
      h5::write_array(file, path, file_type.get(), memory.get(), row, data);
    } else {
      h5::write_array(file, path, file_type.get(), memory_part, row, data);
    }
  });
  h5::write_attribute(h5::open_dataset(file, "fit/frequency").get(), kFitTolerance,
                      fit.tolerance);
}

void remove_fit(hid_t file) {
  if (H5Lexists(file, kFit, H5P_DEFAULT) > 0)
    h5::check(H5Ldelete(file, kFit, H5P_DEFAULT), file, "cannot remove the group '/fit'");
}

std::optional<SweepFit> read_fit(hid_t file, std::size_t ports) {
  if (H5Lexists(file, kFit, H5P_DEFAULT) <= 0) return std::nullopt;
  SweepFit fit;
  FitArrays{ports}.each(fit, [&](const char* path, auto& values, const std::vector<hsize_t>&) {
    using T = typename std::remove_reference_t<decltype(values)>::value_type;
    const h5::Dataset dataset = h5::open_dataset(file, path);
    const std::vector<hsize_t> shape = h5::dataset_shape(dataset.get());
    hsize_t count = 1;
    for (const hsize_t e : shape) count *= e;
    values.resize(static_cast<std::size_t>(count));
    if (count == 0) return;
    const auto [file_type, memory_part] = types<T>();
    (void)file_type;
    if constexpr (std::is_same_v<T, cd>) {
      const h5::Type memory = h5::complex_type(memory_part);
      h5::read_rows(dataset.get(), shape.front(), memory.get(), values.data());
    } else {
      h5::read_rows(dataset.get(), shape.front(), memory_part, values.data());
    }
  });
  fit.tolerance =
      h5::read_double_attribute(h5::open_dataset(file, "fit/frequency").get(), kFitTolerance);
  const std::size_t pp = ports * ports, k = fit.frequency_hz.size();
  if (fit.s.size() != k * pp || fit.solved.size() != k || fit.estimate.size() != k ||
      fit.constant.size() != pp)
    h5::fail(file, cat("group '/", kFit, "' does not match its frequencies and ports: the file "
                       "is damaged"));
  return fit;
}

}  // namespace pmom::io::sweep_layout
