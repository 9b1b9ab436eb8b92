// The set-valued AAA fit and its barycentric model (rational_fit.hpp).
#include "planarmom/sweep/rational_fit.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// Frequencies mapped onto about [-1, 1]: the Loewner matrix and the pole problem are then of
// order one (the weights do not change under an affine map of f).
struct Scale {
  double centre = 0, half = 1;
  explicit Scale(const std::vector<double>& f) {
    const auto [lo, hi] = std::minmax_element(f.begin(), f.end());
    centre = 0.5 * (*lo + *hi);
    half = *hi > *lo ? 0.5 * (*hi - *lo) : std::max(std::abs(*lo), 1.0);
  }
  [[nodiscard]] double operator()(double hz) const { return (hz - centre) / half; }
};

}  // namespace

RationalModel::RationalModel(std::vector<double> support_hz, std::vector<cd> weights,
                             std::vector<cd> values, std::size_t components)
    : support_hz_(std::move(support_hz)),
      weights_(std::move(weights)),
      values_(std::move(values)),
      components_(components) {
  if (support_hz_.empty() || weights_.size() != support_hz_.size() ||
      values_.size() != support_hz_.size() * components_ || components_ == 0)
    throw std::invalid_argument("rational model: support, weights and values do not match");
}

std::vector<cd> RationalModel::operator()(double frequency_hz) const {
  std::vector<cd> numerator(components_, cd(0.0));
  cd denominator(0.0);
  for (std::size_t l = 0; l < support_hz_.size(); ++l) {
    const double d = frequency_hz - support_hz_[l];
    if (d == 0.0)
      return {values_.begin() + static_cast<std::ptrdiff_t>(l * components_),
              values_.begin() + static_cast<std::ptrdiff_t>((l + 1) * components_)};
    const cd c = weights_[l] / d;
    denominator += c;
    for (std::size_t k = 0; k < components_; ++k) numerator[k] += c * values_[l * components_ + k];
  }
  for (cd& v : numerator) v /= denominator;
  return numerator;
}

RationalModel::PoleResidue RationalModel::pole_residue() const {
  const std::size_t m = support_hz_.size();
  const Scale scale(support_hz_);
  PoleResidue out;
  cd sum_w(0.0);
  out.constant.assign(components_, cd(0.0));
  for (std::size_t l = 0; l < m; ++l) {
    sum_w += weights_[l];
    for (std::size_t k = 0; k < components_; ++k)
      out.constant[k] += weights_[l] * values_[l * components_ + k];
  }
  for (cd& v : out.constant) v /= sum_w;
  if (m < 2) return out;
  // The denominator's zeros: with a_l = x_l − σ, Σ w_l/(x − x_l) = 0 is 1 = Σ c_l/(μ − a_l)
  // for μ = x − σ and c_l = −w_l a_l / Σw, whose roots are the eigenvalues of diag(a) + 1 cᵀ;
  // one of them is μ = 0 (x = σ), not a pole. σ lies off the band, above the real axis.
  const cd sigma(0.0, 3.0);
  Eigen::MatrixXcd a = Eigen::MatrixXcd::Zero(static_cast<Eigen::Index>(m),
                                              static_cast<Eigen::Index>(m));
  for (std::size_t l = 0; l < m; ++l) {
    const cd al = scale(support_hz_[l]) - sigma;
    const cd cl = -weights_[l] * al / sum_w;
    for (std::size_t r = 0; r < m; ++r)
      a(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(l)) += cl;
    a(static_cast<Eigen::Index>(l), static_cast<Eigen::Index>(l)) += al;
  }
  const Eigen::ComplexEigenSolver<Eigen::MatrixXcd> eig(a, false);
  const Eigen::VectorXcd& mu = eig.eigenvalues();
  Eigen::Index spurious = 0;
  mu.cwiseAbs().minCoeff(&spurious);
  for (Eigen::Index e = 0; e < mu.size(); ++e) {
    if (e == spurious) continue;
    const cd x = sigma + mu(e);
    // residue = N(x) / D'(x), D'(x) = −Σ w_l/(x − x_l)², in Hz: × the half span.
    cd d_prime(0.0);
    std::vector<cd> numerator(components_, cd(0.0));
    for (std::size_t l = 0; l < m; ++l) {
      const cd c = weights_[l] / (x - scale(support_hz_[l]));
      d_prime -= c / (x - scale(support_hz_[l]));
      for (std::size_t k = 0; k < components_; ++k)
        numerator[k] += c * values_[l * components_ + k];
    }
    out.poles_hz.push_back(scale.centre + scale.half * x);
    for (const cd v : numerator) out.residues.push_back(v / d_prime * scale.half);
  }
  return out;
}

namespace {

// The samples and the support of one AAA run, on the scaled axis.
struct AaaState {
  const std::vector<cd>& samples;
  std::size_t n, K;
  std::vector<double> x;
  std::vector<bool> in_support;
  std::vector<std::size_t> support;
  [[nodiscard]] cd F(std::size_t i, std::size_t k) const { return samples[i * K + k]; }
};

// The weights: the right singular vector of the stacked Loewner matrix (K rows a sample outside
// the support, a column a support point) with the smallest singular value.
Eigen::VectorXcd loewner_weights(const AaaState& a) {
  const auto rows = static_cast<Eigen::Index>(a.K * (a.n - a.support.size()));
  const auto cols = static_cast<Eigen::Index>(a.support.size());
  if (rows == 0) return Eigen::VectorXcd::Ones(cols);
  Eigen::MatrixXcd loewner(rows, cols);
  Eigen::Index r = 0;
  for (std::size_t i = 0; i < a.n; ++i) {
    if (a.in_support[i]) continue;
    for (std::size_t k = 0; k < a.K; ++k, ++r)
      for (Eigen::Index l = 0; l < cols; ++l) {
        const std::size_t s = a.support[static_cast<std::size_t>(l)];
        loewner(r, l) = (a.F(i, k) - a.F(s, k)) / (a.x[i] - a.x[s]);
      }
  }
  const Eigen::JacobiSVD<Eigen::MatrixXcd> svd(loewner, Eigen::ComputeFullV);
  return svd.matrixV().col(cols - 1);
}

// The barycentric model of weights w at every sample (the samples themselves at the support).
void model_at_samples(const AaaState& a, const Eigen::VectorXcd& w, std::vector<cd>& model) {
  for (std::size_t i = 0; i < a.n; ++i) {
    if (a.in_support[i]) {
      for (std::size_t k = 0; k < a.K; ++k) model[i * a.K + k] = a.F(i, k);
      continue;
    }
    cd den(0.0);
    std::vector<cd> num(a.K, cd(0.0));
    for (std::size_t l = 0; l < a.support.size(); ++l) {
      const std::size_t s = a.support[l];
      const cd c = w(static_cast<Eigen::Index>(l)) / (a.x[i] - a.x[s]);
      den += c;
      for (std::size_t k = 0; k < a.K; ++k) num[k] += c * a.F(s, k);
    }
    for (std::size_t k = 0; k < a.K; ++k) model[i * a.K + k] = num[k] / den;
  }
}

// The sample furthest from the model outside the support, and how far (-1: none left).
std::pair<std::size_t, double> furthest(const AaaState& a, const std::vector<cd>& model) {
  double worst = -1;
  std::size_t at = 0;
  for (std::size_t i = 0; i < a.n; ++i) {
    if (a.in_support[i]) continue;
    for (std::size_t k = 0; k < a.K; ++k)
      if (const double e = std::abs(a.F(i, k) - model[i * a.K + k]); e > worst) {
        worst = e;
        at = i;
      }
  }
  return {at, worst};
}

}  // namespace

RationalModel aaa_fit(const std::vector<double>& frequencies_hz, const std::vector<cd>& samples,
                      double tolerance) {
  const std::size_t n = frequencies_hz.size();
  if (n == 0 || samples.size() % n != 0 || samples.empty())
    throw std::invalid_argument("aaa_fit: needs samples at one frequency or more, the same "
                                "number of entries at each");
  std::vector<double> sorted = frequencies_hz;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw std::invalid_argument("aaa_fit: a frequency is given twice");
  AaaState a{samples, n, samples.size() / n, {}, std::vector<bool>(n, false), {}};
  const Scale scale(frequencies_hz);
  for (const double f : frequencies_hz) a.x.push_back(scale(f));
  // The first model: the samples' mean.
  std::vector<cd> model(n * a.K, cd(0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < a.K; ++k) model[k] += a.F(i, k) / static_cast<double>(n);
  for (std::size_t i = 1; i < n; ++i)
    std::copy_n(model.begin(), a.K, model.begin() + static_cast<std::ptrdiff_t>(i * a.K));
  Eigen::VectorXcd w;
  while (true) {
    const auto [at, worst] = furthest(a, model);
    // Done when every sample is met, or when one more support point would leave too few
    // samples outside the support to fix the weights: fewer Loewner rows than weights, or fewer
    // frequencies outside than half the support. The entries of S are far from independent
    // functions of f, so rows of one frequency count as about one; with fewer, the matrix has
    // more than one small singular value, the solves' noise picks the weights, and the model
    // gains a pole-zero pair wherever the noise puts it (docs/PERFORMANCE.md, v0.34).
    const std::size_t m = a.support.size();
    const std::size_t outside = n - m - 1;
    if (m > 0 && (worst <= tolerance || a.K * outside < m + 1 || 2 * outside < m + 1)) break;
    a.support.push_back(at);
    a.in_support[at] = true;
    w = loewner_weights(a);
    if (a.support.size() == n) break;
    model_at_samples(a, w, model);
  }
  std::vector<double> support_hz;
  std::vector<cd> weights, values;
  for (std::size_t l = 0; l < a.support.size(); ++l) {
    support_hz.push_back(frequencies_hz[a.support[l]]);
    weights.push_back(w(static_cast<Eigen::Index>(l)));
    for (std::size_t k = 0; k < a.K; ++k) values.push_back(a.F(a.support[l], k));
  }
  return {std::move(support_hz), std::move(weights), std::move(values), a.K};
}

}  // namespace pmom::sweep
