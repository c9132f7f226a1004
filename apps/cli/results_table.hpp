// SPDX-License-Identifier: BSD-3-Clause
// The results of feinterp interpolate as one table: one row per (block, element, point), with the
// point's physical coordinates and every computed quantity. The CSV (results_csv.cpp) and NumPy
// (results_npy.cpp) outputs write this table; it is produced row by row from the results, so writing
// it needs memory for one row, whatever the mesh.
//
//   block,element,point,x,y,z,u0,...,du0/dxi,...,du0/dx,...,detj
//
// `element` is the element's tag in the mesh file; columns of quantities not computed are absent.
// Reference gradients have as many directions as the largest reference dimension among the blocks (a
// lower-dimensional block has no value in the others: NaN in the row, an empty CSV field); physical
// gradients have the mesh's space dimension.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <feinterp/fem/point_set.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp::app {

/// What feinterp interpolate computed on one block; empty vectors for operations not asked for.
struct BlockResults {
  std::size_t block = 0;  ///< index into Mesh::blocks
  PointSet points;
  std::vector<double> physical_points;  ///< x[(e*Q + q)*3 + k], for the outputs
  std::vector<double> values, reference_gradients, physical_gradients, detj;
  double seconds[3] = {0, 0, 0};  ///< compute time of each operation (Operation order)
};

/// Column names: u0.. for values; du0/dxi, du0/deta, du0/dzeta for reference gradients; du0/dx.. for
/// physical ones. With one component the index is dropped (u, du/dx).
std::vector<std::string> value_columns(int components);
std::vector<std::string> gradient_columns(int components, int dimension, bool physical);

class ResultsTable {
 public:
  ResultsTable(const Mesh& mesh, const std::vector<BlockResults>& results, int components);

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rows() const { return rows_; }

  /// Calls `row(values)` for every row in order, `values` holding columns().size() numbers (NaN where
  /// a lower-dimensional block has no reference-gradient direction), and `progress(rows done)` every
  /// 65536 rows.
  void for_each_row(const std::function<void(const double* values)>& row,
                    const std::function<void(std::size_t rows_done)>& progress = {}) const;

 private:
  const Mesh& mesh_;
  const std::vector<BlockResults>& results_;
  int components_, reference_directions_ = 1, space_dimension_;
  bool values_ = false, reference_ = false, physical_ = false;
  std::vector<std::string> columns_;
  std::size_t rows_ = 0;
};

}  // namespace feinterp::app
