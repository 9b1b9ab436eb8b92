// The figures and layout of the BiCGSTAB paper's Tables 3 and 5 (paper_tables.hpp).
#include "planarmom/bench/paper_tables.hpp"

#include <algorithm>
#include <optional>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "planarmom/bench/flops.hpp"

namespace pmom::bench {

std::vector<Format> parse_formats(const std::string& list) {
  std::vector<Format> formats;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) formats.push_back(parse_format(item));
  if (formats.empty()) throw std::invalid_argument("no formats given");
  return formats;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

double spmv_gflops(const MatrixInfo& m, double seconds) {
  return spmv_flops(m.nnz, m.field == "complex") / seconds * 1e-9;
}

namespace {

std::vector<MarkdownTable::Column> matrix_columns() {
  return {{"matrix", false}, {"field", false}, {"n"}, {"nnz"}};
}

std::vector<std::string> matrix_cells(const MatrixInfo& m) {
  return {m.name, m.field, std::to_string(m.n), std::to_string(m.nnz)};
}

}  // namespace

void write_spmv_table(std::ostream& os, const std::vector<SpmvRow>& rows,
                      const std::vector<Format>& formats) {
  std::vector<MarkdownTable::Column> columns = matrix_columns();
  columns.push_back({"nnz/row"});
  columns.push_back({"cuSPARSE csr GFLOP/s"});
  for (Format f : formats) columns.push_back({to_string(f) + " GFLOP/s"});
  columns.push_back({"best", false});
  columns.push_back({"best / cuSPARSE"});
  MarkdownTable table(std::move(columns));
  for (const SpmvRow& r : rows) {
    std::vector<std::string> cells = matrix_cells(r.matrix);
    cells.push_back(fixed(static_cast<double>(r.matrix.nnz) / std::max<index_t>(r.matrix.n, 1), 1));
    cells.push_back(fixed(spmv_gflops(r.matrix, r.library_seconds), 1));
    std::optional<Format> best;
    for (Format f : formats) {
      const auto it = r.seconds.find(f);
      if (it == r.seconds.end()) {
        cells.emplace_back("-");
        continue;
      }
      cells.push_back(fixed(spmv_gflops(r.matrix, it->second), 1));
      if (!best || it->second < r.seconds.at(*best)) best = f;
    }
    cells.push_back(best ? to_string(*best) : "-");
    cells.push_back(best ? fixed(r.library_seconds / r.seconds.at(*best), 2) : "-");
    table.add_row(std::move(cells));
  }
  table.write(os);
}

Saving split_saving(const RouteTiming& library, const RouteTiming& merged) {
  constexpr double spmvs = 2;  // per BiCGSTAB iteration, either route
  Saving s;
  s.total = library.seconds_per_iteration - merged.seconds_per_iteration;
  s.spmv = spmvs * (library.spmv_seconds - merged.spmv_seconds);
  s.fusion = (library.seconds_per_iteration - spmvs * library.spmv_seconds) -
             (merged.seconds_per_iteration - spmvs * merged.spmv_seconds);
  return s;
}

void write_saving_table(std::ostream& os, const std::vector<SavingRow>& rows) {
  std::vector<MarkdownTable::Column> columns = matrix_columns();
  columns.insert(columns.end(), {{"format", false},
                                 {"iterations library / merged", false},
                                 {"outcome library / merged", false},
                                 {"library us/it"},
                                 {"merged us/it"},
                                 {"saving us/it"},
                                 {"saving %"},
                                 {"from fusion %"},
                                 {"from SpMV %"},
                                 {"library GB/s"},
                                 {"merged GB/s"},
                                 {"floor us/it"},
                                 {"library t/floor"},
                                 {"merged t/floor"}});
  MarkdownTable table(std::move(columns));
  for (const SavingRow& r : rows) {
    const Saving s = split_saving(r.library, r.merged);
    const double lib = r.library.seconds_per_iteration, mer = r.merged.seconds_per_iteration;
    const double floor = r.floor_bytes / (r.bandwidth_gbs * 1e9);
    const auto percent = [&](double part) { return fixed(100 * part / lib, 1); };
    std::vector<std::string> cells = matrix_cells(r.matrix);
    cells.push_back(to_string(r.format));
    cells.push_back(std::to_string(r.library.iterations) + " / " +
                    std::to_string(r.merged.iterations));
    cells.push_back(to_string(r.library.outcome) + " / " + to_string(r.merged.outcome));
    cells.push_back(fixed(lib * 1e6, 1));
    cells.push_back(fixed(mer * 1e6, 1));
    cells.push_back(fixed(s.total * 1e6, 1));
    cells.push_back(percent(s.total));
    cells.push_back(percent(s.fusion));
    cells.push_back(percent(s.spmv));
    cells.push_back(fixed(r.library_bytes / lib * 1e-9, 1));
    cells.push_back(fixed(r.merged_bytes / mer * 1e-9, 1));
    cells.push_back(fixed(floor * 1e6, 2));
    cells.push_back(fixed(lib / floor, 2));
    cells.push_back(fixed(mer / floor, 2));
    table.add_row(std::move(cells));
  }
  table.write(os);
}

MarkdownTable::MarkdownTable(std::vector<Column> columns) : columns_(std::move(columns)) {
  if (columns_.empty()) throw std::invalid_argument("MarkdownTable: no columns");
}

void MarkdownTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw std::invalid_argument("MarkdownTable: a row of " + std::to_string(cells.size()) +
                                " cells for " + std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
}

void MarkdownTable::write(std::ostream& os) const {
  // Widths in bytes; the titles and the numbers are ASCII, so bytes are characters here.
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = std::max<std::size_t>(columns_[c].title.size(), 3);
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  const auto line = [&](const auto& cell_of) {
    os << '|';
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string cell = cell_of(c);
      const std::string pad(width[c] - cell.size(), ' ');
      os << ' ' << (columns_[c].numeric ? pad + cell : cell + pad) << " |";
    }
    os << '\n';
  };
  line([&](std::size_t c) { return columns_[c].title; });
  line([&](std::size_t c) {
    const std::string dashes(width[c] - 1, '-');
    return columns_[c].numeric ? dashes + ":" : dashes + "-";
  });
  for (const auto& row : rows_) line([&](std::size_t c) { return row[c]; });
}

}  // namespace pmom::bench
