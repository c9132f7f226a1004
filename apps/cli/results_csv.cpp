// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/results_csv.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include <feinterp/apps/cli/output_path.hpp>
#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::app {

namespace {

/// Where the rows go: the file, written whole or not at all (AtomicFile), or standard output, a stream
/// whose reader sees the rows as they come (an error then stops the output where it is: the exit status
/// says so).
class CsvSink {
 public:
  explicit CsvSink(const std::string& path) {
    if (path != standard_output) file_.emplace(path);
  }
  void write(const char* data, std::size_t size) {
    if (file_) return file_->write(data, size);
    if (std::fwrite(data, 1, size, stdout) != size) fail();
  }
  void write(const std::string& text) { write(text.data(), text.size()); }
  void commit() {
    if (file_) return file_->commit();
    if (std::fflush(stdout) != 0) fail();
  }

 private:
  [[noreturn]] static void fail() {
    throw OutputError(std::string("--csv -: writing to standard output failed: ") + std::strerror(errno));
  }
  std::optional<AtomicFile> file_;
};

}  // namespace

void write_results_csv(const std::string& path, const ResultsTable& table, Progress* progress) {
  CsvSink file(path);
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
