// SPDX-License-Identifier: BSD-3-Clause
// The results table (results_table.hpp) as one NumPy structured array: one named field per CSV column,
// in its order, each '<f8' (float64, little-endian), shape (rows,). numpy.load(FILE)['du/dx'] is a
// column, pandas.DataFrame(numpy.load(FILE)) a table with the CSV's column names, and
// numpy.lib.recfunctions.structured_to_unstructured(numpy.load(FILE)) the plain (rows, columns) matrix;
// 8 bytes a number (a third of the CSV's ~24 characters), read at disk speed. Block, element and point
// are stored as float64 (exact: they are below 2^53). A reference-gradient direction a
// lower-dimensional block lacks is NaN.
//
// Format: NPY version 1.0 (numpy.lib.format): magic "\x93NUMPY", 1, 0, a 2-byte header length, the
// header (a Python dict literal, padded with spaces to a multiple of 64 bytes and ended by '\n'), then
// the rows. The header holds the row count, known from the layout at begin(); rows are streamed chunk by
// chunk through AtomicFile, like the CSV.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <feinterp/io/point_results.hpp>
#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::io {

/// The NPY header (preamble included) for a structured array of these float64 fields and rows.
/// Throws std::invalid_argument if it is longer than NPY 1.0 allows.
std::string npy_structured_header(const std::vector<std::string>& fields, std::size_t rows);

class NpyWriter final : public PointResultsWriter {
 public:
  explicit NpyWriter(std::string path);

  void begin(const PointLayout& layout) override;
  void write(const PointChunk& chunk) override;
  void finish() override;

 private:
  std::string path_;
  std::unique_ptr<AtomicFile> file_;
  PointLayout layout_;
  ChunkOrder order_;
  std::vector<double> row_;
};

}  // namespace feinterp::io
