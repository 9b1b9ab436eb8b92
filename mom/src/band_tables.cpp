// BandTables (band_tables.hpp): Chebyshev-Lobatto nodes, barycentric interpolation of the
// phase-stripped tables, nodes doubled until two checks between them agree.
#include "planarmom/mom/band_tables.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <numbers>
#include <stdexcept>

#include "planarmom/mom/constants.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;
constexpr int kFirstLevel = 2, kLastLevel = 5;  // 2^level + 1 nodes: 5 ... 33
constexpr int kFine = kLastLevel + 1;            // the grid holding every node and check

double wavenumber(double frequency_hz) { return 2 * std::numbers::pi * frequency_hz / c0; }

// Node k of 2^level + 1 on [lo, hi] (node 0 at hi): f = mid + half cos(πk / 2^level).
double lobatto(double lo, double hi, int level, int k) {
  return 0.5 * (lo + hi) +
         0.5 * (hi - lo) * std::cos(std::numbers::pi * k / static_cast<double>(1 << level));
}

}  // namespace

BandTables::BandTables(const TablePlan& plan, std::function<GreensTable(double)> greens,
                       double lo_hz, double hi_hz, double tolerance, const Share& share)
    : plan_(plan), lo_(lo_hz), hi_(hi_hz) {
  if (!(lo_hz < hi_hz)) throw std::invalid_argument("BandTables: the band needs lo < hi");
  if (!(tolerance > 0 && tolerance < 1))
    throw std::invalid_argument("BandTables: the tolerance must be in (0, 1)");
  const std::function<InteractionTables(double)> one = [&](double f) {
    return evaluate_tables(plan_, greens(f));
  };
  const auto batch = [&](const std::vector<double>& frequencies) {
    if (share) return share(frequencies, plan_, one);
    std::vector<InteractionTables> tables;
    for (const double f : frequencies) tables.push_back(one(f));
    return tables;
  };
  // Exact tables by node index on the fine grid (2^kFine + 1 nodes): every level's nodes and
  // checks are nodes of it, so nothing is evaluated twice.
  std::map<int, InteractionTables> exact;
  const auto evaluate_level = [&](int level) {
    const int stride = 1 << (kFine - level);
    std::vector<int> wanted;
    for (int fine = 0; fine <= (1 << kFine); fine += stride)
      if (exact.count(fine) == 0) wanted.push_back(fine);
    for (const int check : {stride / 2, (1 << (kFine - 1)) + stride / 2})
      if (exact.count(check) == 0) wanted.push_back(check);
    std::vector<double> frequencies;
    for (const int fine : wanted) frequencies.push_back(lobatto(lo_, hi_, kFine, fine));
    std::vector<InteractionTables> tables = batch(frequencies);
    if (tables.size() != wanted.size())
      throw std::logic_error("BandTables: the batch came back with another count");
    for (std::size_t k = 0; k < wanted.size(); ++k) exact.emplace(wanted[k], std::move(tables[k]));
    evaluations_ += static_cast<int>(wanted.size());
  };
  evaluate_level(kFirstLevel);
  const InteractionTables& first = exact.at(0);
  // Values are laid out by offset_index, (dj + ny − 1)(2nx − 1) + di + nx − 1, in each table
  // from its start: every table shares the offsets' distances.
  const auto row = static_cast<std::size_t>(2 * first.nx - 1);
  distance_m_.resize(row * static_cast<std::size_t>(2 * first.ny - 1));
  for (std::size_t c = 0; c < distance_m_.size(); ++c) {
    const double di = static_cast<double>(c % row) - (first.nx - 1);
    const double dj = static_cast<double>(c / row) - (first.ny - 1);
    distance_m_[c] = first.cell_m * std::sqrt(di * di + dj * dj);
  }
  for (const long long start : first.start)
    if (start >= 0) starts_.push_back(static_cast<std::size_t>(start));
  for (int level = kFirstLevel; level <= kLastLevel; ++level) {
    if (level > kFirstLevel) evaluate_level(level);
    const int count = (1 << level) + 1, stride = 1 << (kFine - level);
    nodes_hz_.clear();
    weights_.clear();
    stripped_.clear();
    for (int k = 0; k < count; ++k) {
      const double f = lobatto(lo_, hi_, level, k);
      const InteractionTables& t = exact.at(k * stride);
      std::vector<cd> u = t.values;
      const std::vector<cd> phase = phases(wavenumber(f));
      for (const std::size_t start : starts_)
        for (std::size_t c = 0; c < phase.size(); ++c) u[start + c] *= phase[c];
      nodes_hz_.push_back(f);
      weights_.push_back(((k % 2) != 0 ? -1.0 : 1.0) * (k == 0 || k == count - 1 ? 0.5 : 1.0));
      stripped_.push_back(std::move(u));
    }
    // Checks halfway (in angle) between the first two nodes and between the middle ones: nodes
    // of the next level.
    error_ = 0;
    for (const int check : {stride / 2, (1 << (kFine - 1)) + stride / 2}) {
      const InteractionTables& t = exact.at(check);
      const InteractionTables guess = interpolate(lobatto(lo_, hi_, kFine, check));
      double worst = 0, largest = 0;
      for (std::size_t i = 0; i < t.values.size(); ++i) {
        worst = std::max(worst, std::abs(guess.values[i] - t.values[i]));
        largest = std::max(largest, std::abs(t.values[i]));
      }
      error_ = std::max(error_, largest > 0 ? worst / largest : 0.0);
    }
    if (error_ <= tolerance) return;
  }
  nodes_hz_.clear();  // 33 nodes were not enough: every frequency evaluated
  stripped_.clear();
}

std::vector<cd> BandTables::phases(double k) const {
  std::vector<cd> phase(distance_m_.size());
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < phase.size(); ++c) phase[c] = std::polar(1.0, k * distance_m_[c]);
  return phase;
}

InteractionTables BandTables::at(const GreensTable& greens) const {
  const double f = greens.frequency();
  if (nodes_hz_.empty() || f < lo_ || f > hi_) return evaluate_tables(plan_, greens);
  return interpolate(f);
}

InteractionTables BandTables::interpolate(double f) const {
  std::vector<cd> values(stripped_.front().size(), cd(0.0));
  std::vector<double> c(nodes_hz_.size());
  double sum = 0;
  for (std::size_t k = 0; k < nodes_hz_.size(); ++k) {
    if (f == nodes_hz_[k]) {  // on a node: its values as they were evaluated
      c.assign(c.size(), 0.0);
      c[k] = sum = 1.0;
      break;
    }
    c[k] = weights_[k] / (f - nodes_hz_[k]);
    sum += c[k];
  }
  for (double& w : c) w /= sum;
  const std::vector<cd> phase = phases(-wavenumber(f));
  const std::size_t cells = phase.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < starts_.size() * cells; ++i) {
    const std::size_t at = starts_[i / cells] + i % cells;
    cd v(0.0);
    for (std::size_t k = 0; k < c.size(); ++k) v += c[k] * stripped_[k][at];
    values[at] = v * phase[i % cells];
  }
  return tables_with_values(plan_, f, std::move(values));
}

}  // namespace pmom::mom
