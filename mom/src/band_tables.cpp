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
  const std::function<Entries(double)> one = [&](double f) {
    return evaluate_entries(plan_, greens(f));
  };
  const auto batch = [&](const std::vector<double>& frequencies) {
    if (share) return share(frequencies, plan_, one);
    std::vector<Entries> entries;
    for (const double f : frequencies) entries.push_back(one(f));
    return entries;
  };
  // The entries' exact values by node index on the fine grid (2^kFine + 1 nodes): every
  // level's nodes and checks are nodes of it, so nothing is evaluated twice. Only the entries
  // are kept (every other slot is 0 or a copy of one): a twentieth of the tables' memory.
  std::map<int, Entries> exact;
  const auto evaluate_level = [&](int level) {
    const int stride = 1 << (kFine - level);
    std::vector<int> wanted;
    for (int fine = 0; fine <= (1 << kFine); fine += stride)
      if (exact.count(fine) == 0) wanted.push_back(fine);
    for (const int check : {stride / 2, (1 << (kFine - 1)) + stride / 2})
      if (exact.count(check) == 0) wanted.push_back(check);
    std::vector<double> frequencies;
    for (const int fine : wanted) frequencies.push_back(lobatto(lo_, hi_, kFine, fine));
    std::vector<Entries> values = batch(frequencies);
    if (values.size() != wanted.size())
      throw std::logic_error("BandTables: the batch came back with another count");
    for (std::size_t k = 0; k < wanted.size(); ++k) {
      if (values[k].size() != plan_.entries.size())
        throw std::logic_error("BandTables: an evaluation came back with another size");
      exact.emplace(wanted[k], std::move(values[k]));
    }
    evaluations_ += static_cast<int>(wanted.size());
  };
  evaluate_level(kFirstLevel);
  // Each entry's centre distance, from its offset in cells and the cell's sides along it.
  for (const TablePlan::Entry& e : plan_.entries) {
    const auto [a, b] = entry_sides(e, plan_.dx_m, plan_.dy_m);
    const double u = e.cx, v = b / a * e.cy;
    distance_m_.push_back(a * std::sqrt(u * u + v * v));
  }
  const std::size_t entries = plan_.entries.size();
  for (int level = kFirstLevel; level <= kLastLevel; ++level) {
    if (level > kFirstLevel) evaluate_level(level);
    const int count = (1 << level) + 1, stride = 1 << (kFine - level);
    nodes_hz_.clear();
    weights_.clear();
    stripped_.clear();
    for (int k = 0; k < count; ++k) {
      const double f = lobatto(lo_, hi_, level, k);
      const std::vector<cd>& t = exact.at(k * stride);
      std::vector<cd> u(entries);
      const double wave = wavenumber(f);
#pragma omp parallel for schedule(static)
      for (std::size_t e = 0; e < entries; ++e)
        u[e] = t[e] * std::polar(1.0, wave * distance_m_[e]);
      nodes_hz_.push_back(f);
      weights_.push_back(((k % 2) != 0 ? -1.0 : 1.0) * (k == 0 || k == count - 1 ? 0.5 : 1.0));
      stripped_.push_back(std::move(u));
    }
    // Checks halfway (in angle) between the first two nodes and between the middle ones: nodes
    // of the next level.
    error_ = 0;
    for (const int check : {stride / 2, (1 << (kFine - 1)) + stride / 2}) {
      const Entries& t = exact.at(check);
      const Entries guess = interpolate(lobatto(lo_, hi_, kFine, check));
      double worst = 0, largest = 0;  // over the entries: every other slot is 0 or a copy
      for (std::size_t e = 0; e < entries; ++e) {
        worst = std::max(worst, std::abs(guess[e] - t[e]));
        largest = std::max(largest, std::abs(t[e]));
      }
      error_ = std::max(error_, largest > 0 ? worst / largest : 0.0);
    }
    if (error_ <= tolerance) return;
  }
  nodes_hz_.clear();  // 33 nodes were not enough: every frequency evaluated
  stripped_.clear();
}

InteractionTables BandTables::at(const GreensTable& greens) const {
  InteractionTables t;
  at(greens, t);
  return t;
}

void BandTables::at(const GreensTable& greens, InteractionTables& into) const {
  const double f = greens.frequency();
  if (nodes_hz_.empty() || f < lo_ || f > hi_) {
    into = evaluate_tables(plan_, greens);
    return;
  }
  const Entries values = interpolate(f);
  if (static_cast<long long>(into.values.size()) != plan_.size) {
    into = tables_from_entries(plan_, f, values);
    return;
  }
  into.frequency_hz = f;
  into.greens_evaluations = 0;
  plan_.place(values, into.values);
}

BandTables::Entries BandTables::interpolate(double f) const {
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
  const double wave = -wavenumber(f);
  const std::size_t entries = plan_.entries.size();
  Entries values(entries);
#pragma omp parallel for schedule(static)
  for (std::size_t e = 0; e < entries; ++e) {
    cd v(0.0);
    for (std::size_t k = 0; k < c.size(); ++k) v += c[k] * stripped_[k][e];
    values[e] = v * std::polar(1.0, wave * distance_m_[e]);
  }
  return values;
}

}  // namespace pmom::mom
