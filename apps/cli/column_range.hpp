// SPDX-License-Identifier: BSD-3-Clause
// The smallest and largest value of each column of a row-major table (one row per point): the
// summary that tells at a glance whether an interpolation produced sensible numbers.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace feinterp::app {

struct ColumnRange {
  std::vector<double> min, max;

  explicit ColumnRange(std::size_t columns = 0)
      : min(columns, std::numeric_limits<double>::infinity()), max(columns, -std::numeric_limits<double>::infinity()) {}

  /// Adds the rows of `data` (data.size() / columns of them). A NaN makes both ends NaN: it must show.
  void add(const std::vector<double>& data) {
    const std::size_t columns = min.size();
    for (std::size_t i = 0; i < data.size(); ++i) add(i % columns, data[i]);
  }

  /// Adds rows of `row_columns.size()` numbers whose j-th goes to column row_columns[j] (a block whose
  /// rows are narrower than the table: the reference gradients of a lower-dimensional block).
  void add(const std::vector<double>& data, const std::vector<std::size_t>& row_columns) {
    for (std::size_t i = 0; i < data.size(); ++i) add(row_columns[i % row_columns.size()], data[i]);
  }

 private:
  void add(std::size_t c, double x) {
    if (std::isnan(x)) {
      min[c] = max[c] = x;
    } else if (!std::isnan(min[c])) {
      if (x < min[c]) min[c] = x;
      if (x > max[c]) max[c] = x;
    }
  }
};

}  // namespace feinterp::app
