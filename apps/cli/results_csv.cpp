// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/results_csv.hpp>

#include <charconv>
#include <cmath>

#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::app {

void write_results_csv(const std::string& path, const ResultsTable& table, Progress* progress) {
  AtomicFile file(path);
  std::string header;
  for (const std::string& name : table.columns()) header += (header.empty() ? "" : ",") + name;
  file.write(header + "\n");
  const std::size_t columns = table.columns().size();
  // A row: at most 25 characters per number ("-1.2345678901234567e-308" and a comma).
  std::string line(columns * 26 + 1, '\0');
  table.for_each_row(
      [&](const double* values) {
        char* out = line.data();
        char* const end = line.data() + line.size();
        for (std::size_t i = 0; i < columns; ++i) {
          if (i) *out++ = ',';
          if (std::isnan(values[i])) continue;  // no such direction in this block: an empty field
          // The first three columns (block, element tag, point) are integers: written as such.
          if (i < 3)
            out = std::to_chars(out, end, static_cast<long long>(values[i])).ptr;
          else
            out = std::to_chars(out, end, values[i]).ptr;
        }
        *out++ = '\n';
        file.write(line.data(), std::size_t(out - line.data()));
      },
      [&](std::size_t done) {
        if (progress) progress->update(double(done));
      });
  file.commit();
}

}  // namespace feinterp::app
