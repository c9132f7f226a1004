// SPDX-License-Identifier: BSD-3-Clause
// The results table (results_table.hpp) as a NumPy .npz archive: one member "COLUMN.npy" per CSV column,
// in its order, each a 1-D '<f8' (float64, little-endian) array of the rows. numpy.load(FILE)["du/dx"] is
// a column, numpy.load(FILE).files the CSV's header, pandas.DataFrame(dict(numpy.load(FILE))) the table;
// one column is read without reading the others. Numbers as in the .npy output (results_npy.hpp): block,
// element and point as float64, NaN where a lower-dimensional block lacks a reference direction.
//
// Format: what numpy.savez writes. A ZIP archive (written by libzip; ZIP64 where a member or the archive
// passes 4 GiB) of stored, uncompressed members, each an NPY 1.0 file byte for byte as numpy.save writes
// the column: numpy's header (padded to 128 bytes for any row count below 10^21), then the rows. A '/' in a
// column's name ("du/dx.npy") is a folder in ZIP terms: numpy keys members by their whole name, unzip
// makes a folder "du". Every member's time is 1980-01-01 00:00 (the earliest ZIP can hold), so that the
// same results give the same bytes.
//
// NpzWriter streams: each column goes into a scratch file of its own beside the output (scratch_file.hpp)
// as chunks come, its NPY header first (the row count is the layout's); finish() has libzip copy them
// into the AtomicFile's temporary and commits it. Memory does not grow with the rows; disk holds the
// columns twice until finish.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <feinterp/io/point_results.hpp>
#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::io {

class ScratchFile;

/// Whether this build writes .npz files (it was built with libzip).
bool npz_available();

/// What numpy.save writes in front of a 1-D float64 array of `rows` numbers (128 bytes below 10^21 rows).
std::string npy_column_header(std::size_t rows);

class NpzWriter final : public PointResultsWriter {
 public:
  /// Throws std::invalid_argument where feinterp was built without libzip (Debian: libzip-dev).
  explicit NpzWriter(std::string path);
  ~NpzWriter() override;

  void begin(const PointLayout& layout) override;
  void write(const PointChunk& chunk) override;
  void finish() override;

 private:
  void flush_columns();
  std::string path_;
  std::unique_ptr<AtomicFile> file_;
  PointLayout layout_;
  ChunkOrder order_;
  std::vector<std::string> columns_;
  std::vector<std::unique_ptr<ScratchFile>> scratch_;  // one per column
  std::vector<double> row_;
  std::vector<std::vector<double>> pending_;  // each column's rows not yet in its scratch file
};

}  // namespace feinterp::io
