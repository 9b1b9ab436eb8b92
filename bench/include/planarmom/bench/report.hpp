// Output of benchmark results: an aligned text table and a JSON document.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "planarmom/bench/matrix_bench.hpp"

namespace pmom::bench {

void print_table(std::ostream& os, const std::vector<BenchRow>& rows);
// Writes JSON with the options, the machine description and every row.
void write_json(const std::filesystem::path& file, const BenchOptions& options,
                const std::vector<BenchRow>& rows);

}  // namespace pmom::bench
