// Benchmark output: the aligned table for people, JSON for scripts.
#include "planarmom/bench/report.hpp"

#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace pmom::bench {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

std::string host_name() {
  char buf[256] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : "unknown";
}

std::string format_double(double v, int precision, bool scientific) {
  std::ostringstream os;
  if (scientific) os << std::scientific;
  else os << std::fixed;
  os << std::setprecision(precision) << v;
  return os.str();
}

// The method, with a preconditioner other than the default Jacobi and the sweep order:
// "cg+ssor/natural", "gauss-seidel/multicolour".
std::string solver_label(const BenchRow& r) {
  std::string label =
      (r.automatic ? (r.trial ? "auto+trial:" : "auto:") : "") + to_string(r.method);
  if (!r.preconditioner.empty() && r.preconditioner != "jacobi") label += "+" + r.preconditioner;
  if (!r.ordering.empty()) label += "/" + r.ordering;
  if (r.precision != "double") label += " " + r.precision;
  return label;
}

}  // namespace

void print_table(std::ostream& os, const std::vector<BenchRow>& rows) {
  const std::vector<std::string> head{"matrix", "n", "nnz", "solver", "rhs", "iters",
                                      "outcome", "true res", "time ms", "ms/iter", "GFLOP/s"};
  std::vector<std::vector<std::string>> cells;
  for (const BenchRow& r : rows)
    cells.push_back({r.matrix, std::to_string(r.n), std::to_string(r.nnz), solver_label(r),
                     std::to_string(r.nrhs), std::to_string(r.iterations), to_string(r.outcome),
                     format_double(r.true_residual, 2, true),
                     format_double(r.time.median * 1e3, 3, false),
                     format_double(r.seconds_per_iteration * 1e3, 4, false),
                     format_double(r.gflops, 3, false)});
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& v) {
    for (std::size_t c = 0; c < v.size(); ++c)
      os << (c ? "  " : "") << (c == 0 || c == 3 || c == 6 ? std::left : std::right)
         << std::setw(static_cast<int>(width[c])) << v[c];
    os << '\n';
  };
  line(head);
  std::size_t total = 2 * (head.size() - 1);
  for (auto w : width) total += w;
  os << std::string(total, '-') << '\n';
  for (const auto& row : cells) line(row);
}

void write_json(const std::filesystem::path& file, const BenchOptions& options,
                const std::vector<BenchRow>& rows) {
  nlohmann::json j;
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::ostringstream date;
  date << std::put_time(std::gmtime(&now), "%Y-%m-%dT%H:%M:%SZ");
  j["date"] = date.str();
  j["machine"] = {{"host", host_name()}, {"cpu", cpu_model()},
                  {"threads", omp_get_max_threads()}};
  j["options"] = {{"backend", options.backend},
                  {"rhs", to_string(options.rhs)},
                  {"nrhs", options.nrhs},
                  {"seed", options.seed},
                  {"tolerance", options.solver.tolerance},
                  {"max_iterations", options.solver.max_iterations},
                  {"omega", options.solver.omega},
                  {"summation", to_string(options.solver.summation)},
                  {"inner_tolerance", options.refinement.inner_tolerance},
                  {"warmup", options.warmup},
                  {"repetitions", options.repetitions}};
  auto& out = j["runs"] = nlohmann::json::array();
  for (const BenchRow& r : rows)
    out.push_back({{"matrix", r.matrix},
                   {"field", r.field},
                   {"n", r.n},
                   {"nnz", r.nnz},
                   {"backend", r.backend},
                   {"format", r.format},
                   {"solver", to_string(r.method)},
                   {"automatic", r.automatic},
                   {"precision", r.precision},
                   {"refinements", r.refinements},
                   {"finished_in_double", r.finished_in_double},
                   {"auto_trial", r.trial},
                   {"preconditioner", r.preconditioner},
                   {"ordering", r.ordering},
                   {"colours", r.colours},
                   {"nrhs", r.nrhs},
                   {"outcome", to_string(r.outcome)},
                   {"converged", r.outcome == Outcome::converged},
                   {"iterations", r.iterations},
                   {"true_residual", r.true_residual},
                   {"true_residual_inf", r.true_residual_inf},
                   {"recurrence_residual", r.recurrence_residual},
                   {"seconds_median", r.time.median},
                   {"seconds_min", r.time.min},
                   {"seconds_max", r.time.max},
                   {"seconds_per_iteration", r.seconds_per_iteration},
                   {"gflops", r.gflops}});
  std::ofstream f(file);
  if (!f) throw std::runtime_error(file.string() + ": cannot open for writing");
  f << j.dump(2) << '\n';
  if (!f) throw std::runtime_error(file.string() + ": write failed");
}

}  // namespace pmom::bench
