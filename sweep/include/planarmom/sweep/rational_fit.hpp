// A rational model of a sampled S(f): the set-valued AAA algorithm (Nakatsukasa, Sète and
// Trefethen 2018; Lietaert, Meerbergen, Pérez and Vandereycken 2022 for many functions at once).
// Every entry of S shares one barycentric denominator, so the model's poles are the circuit's,
// and a reciprocal S (S = Sᵀ at every sample) gives a reciprocal model at every frequency.
#pragma once

#include <complex>
#include <cstddef>
#include <vector>

namespace pmom::sweep {

// r(f) = Σ_l w_l F_l / (f − f_l)  /  Σ_l w_l / (f − f_l), equal to F_l at the support f_l.
class RationalModel {
 public:
  using cd = std::complex<double>;
  RationalModel() = default;
  // `values`: support.size() rows of `components` entries each, row-major.
  RationalModel(std::vector<double> support_hz, std::vector<cd> weights, std::vector<cd> values,
                std::size_t components);

  // The model's `components` entries at f (the support value at a support frequency).
  [[nodiscard]] std::vector<cd> operator()(double frequency_hz) const;

  [[nodiscard]] const std::vector<double>& support_hz() const { return support_hz_; }
  [[nodiscard]] const std::vector<cd>& weights() const { return weights_; }
  [[nodiscard]] const std::vector<cd>& values() const { return values_; }
  [[nodiscard]] std::size_t components() const { return components_; }

  // The same model as poles and residues: r(f) = constant + Σ_p residue_p / (f − pole_p), the
  // poles in Hz (complex: a resonance's pole lies below the real axis by its half bandwidth).
  struct PoleResidue {
    std::vector<cd> poles_hz;
    std::vector<cd> residues;  // poles × components, row-major, in Hz
    std::vector<cd> constant;  // components: r at infinite frequency
  };
  [[nodiscard]] PoleResidue pole_residue() const;

 private:
  std::vector<double> support_hz_;
  std::vector<cd> weights_;
  std::vector<cd> values_;
  std::size_t components_ = 0;
};

// The AAA model of `samples` (samples.size() / frequencies.size() components a frequency,
// row-major) at distinct `frequencies_hz`: support points are added greedily where the model is
// furthest from a sample, until every sample is within `tolerance` (absolute, on each entry) or
// the samples outside the support no longer determine more weights (at least half as many
// frequencies outside the support as in it). Throws std::invalid_argument for fewer than
// one frequency, repeated frequencies or a ragged sample array.
[[nodiscard]] RationalModel aaa_fit(const std::vector<double>& frequencies_hz,
                                    const std::vector<std::complex<double>>& samples,
                                    double tolerance);

}  // namespace pmom::sweep
