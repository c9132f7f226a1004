// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/results_csv.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

#include <feinterp/io/results_table.hpp>

namespace feinterp::io {

CsvWriter::CsvWriter(std::string path) : path_(std::move(path)) {}

CsvWriter::CsvWriter(std::FILE* stream, std::string name) : path_(std::move(name)), stream_(stream) {}

void CsvWriter::put(const char* data, std::size_t size) {
  if (file_) return file_->write(data, size);
  if (std::fwrite(data, 1, size, stream_) != size)
    throw OutputError(path_ + ": writing failed: " + std::strerror(errno));
}

void CsvWriter::begin(const PointLayout& layout) {
  layout.check();
  layout_ = layout;
  if (!stream_) file_ = std::make_unique<AtomicFile>(path_);
  std::string header;
  const std::vector<std::string> columns = table_columns(layout_);
  for (const std::string& name : columns) header += (header.empty() ? "" : ",") + name;
  header += '\n';
  put(header.data(), header.size());
  // A row: at most 25 characters per number ("-1.2345678901234567e-308" and a comma).
  line_.assign(columns.size() * 26 + 1, '\0');
}

void CsvWriter::write(const PointChunk& chunk) {
  order_.next(layout_, chunk);
  for_each_row(layout_, chunk, row_, [&](const double* values) {
    char* out = line_.data();
    char* const end = line_.data() + line_.size();
    for (std::size_t i = 0; i < row_.size(); ++i) {
      if (i) *out++ = ',';
      if (std::isnan(values[i])) continue;  // no such direction in this block: an empty field
      // The first three columns (block, element tag, point) are integers: written as such.
      if (i < 3)
        out = std::to_chars(out, end, static_cast<long long>(values[i])).ptr;
      else
        out = std::to_chars(out, end, values[i]).ptr;
    }
    *out++ = '\n';
    put(line_.data(), std::size_t(out - line_.data()));
  });
}

void CsvWriter::finish() {
  order_.finish(layout_);
  if (file_) return file_->commit();
  if (std::fflush(stream_) != 0) throw OutputError(path_ + ": writing failed: " + std::strerror(errno));
}

}  // namespace feinterp::io
