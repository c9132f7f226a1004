// SPDX-License-Identifier: BSD-3-Clause
// The results table (results_table.hpp) as CSV: a header line, then one line per row. Rows are
// formatted with std::to_chars (the shortest text that reads back to the same double) into a buffer of
// one row and streamed, chunk by chunk, to the file's temporary (AtomicFile), so memory does not grow
// with the mesh and the file is still written whole or not at all; or to a stream (standard output),
// whose reader sees the rows as they come (an error then stops the output where it is: the exception
// says so).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <feinterp/io/point_results.hpp>
#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::io {

class CsvWriter final : public PointResultsWriter {
 public:
  /// A file, replaced whole at finish().
  explicit CsvWriter(std::string path);
  /// A stream the caller owns (stdout); `name` names it in errors.
  CsvWriter(std::FILE* stream, std::string name);

  void begin(const PointLayout& layout) override;
  void write(const PointChunk& chunk) override;
  void finish() override;

 private:
  void put(const char* data, std::size_t size);
  std::string path_;
  std::FILE* stream_ = nullptr;
  std::unique_ptr<AtomicFile> file_;
  PointLayout layout_;
  ChunkOrder order_;
  std::vector<double> row_;
  std::string line_;
};

}  // namespace feinterp::io
