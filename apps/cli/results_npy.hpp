// SPDX-License-Identifier: BSD-3-Clause
// --output FILE.npy: the results table (results_table.hpp) as one NumPy array, float64, little-endian,
// shape (rows, columns), C order: numpy.load(FILE) reads it directly, at disk speed, 8 bytes a number
// (a third of the CSV's ~24 characters, and no parsing). The columns are the CSV's, in its order; NumPy
// refuses extra keys in the header, so their names are in --json's "table_columns". Block, element and
// point are stored as float64 (exact: they are below 2^53). A reference-gradient direction a
// lower-dimensional block lacks is NaN.
//
// Format: NPY version 1.0 (numpy.lib.format): magic "\x93NUMPY", 1, 0, a 2-byte header length, the
// header (a Python dict literal, padded with spaces to a multiple of 64 bytes and ended by '\n'), then
// the data. Streamed row by row through AtomicFile, like the CSV.
#pragma once

#include <string>

#include <feinterp/apps/common/progress.hpp>
#include <feinterp/apps/cli/results_table.hpp>

namespace feinterp::app {

void write_results_npy(const std::string& path, const ResultsTable& table, Progress* progress = nullptr);

}  // namespace feinterp::app
