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
  // The entries' exact values by node index on the fine grid (2^kFine + 1 nodes): every
  // level's nodes and checks are nodes of it, so nothing is evaluated twice. Only the entries
  // are kept (every other slot is 0 or a copy of one): a tenth of the tables' memory.
  std::map<int, std::vector<cd>> exact;
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
    for (std::size_t k = 0; k < wanted.size(); ++k) {
      std::vector<cd> values(plan_.entries.size());
      for (std::size_t e = 0; e < values.size(); ++e)
        values[e] = tables[k].values[static_cast<std::size_t>(plan_.entries[e].slot)];
      exact.emplace(wanted[k], std::move(values));
      tables[k] = {};  // its memory goes now, not with the batch
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
      const std::vector<cd>& t = exact.at(check);
      InteractionTables guess;
      interpolate(lobatto(lo_, hi_, kFine, check), guess);
      double worst = 0, largest = 0;  // over the entries: every other slot is 0 or a copy
      for (std::size_t e = 0; e < entries; ++e) {
        const cd at = guess.values[static_cast<std::size_t>(plan_.entries[e].slot)];
        worst = std::max(worst, std::abs(at - t[e]));
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
  if (nodes_hz_.empty() || f < lo_ || f > hi_)
    into = evaluate_tables(plan_, greens);
  else
    interpolate(f, into);
}

void BandTables::interpolate(double f, InteractionTables& into) const {
  if (static_cast<long long>(into.values.size()) != plan_.size)
    into = tables_with_values(plan_, f, std::vector<cd>(static_cast<std::size_t>(plan_.size)));
  into.frequency_hz = f;
  into.greens_evaluations = 0;
  std::vector<cd>& values = into.values;
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
#pragma omp parallel for schedule(static)
  for (std::size_t e = 0; e < entries; ++e) {
    cd v(0.0);
    for (std::size_t k = 0; k < c.size(); ++k) v += c[k] * stripped_[k][e];
    values[static_cast<std::size_t>(plan_.entries[e].slot)] =
        v * std::polar(1.0, wave * distance_m_[e]);
  }
  plan_.copy_slots(values);
}

}  // namespace pmom::mom
