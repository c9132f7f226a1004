// SPDX-License-Identifier: BSD-3-Clause
// Results at points as one table: one row per (block, element, point), with the point's physical
// coordinates and every computed quantity. The CSV (results_csv.hpp) and NumPy (results_npy.hpp) writers
// write this table, row by row from each chunk (point_results.hpp), so writing it needs memory for one
// row, whatever the mesh.
//
//   block,element,point,x,y,z,u0,...,du0/dxi,...,du0/dx,...,detj
//
// `element` is the element's tag in the mesh file; columns of quantities not computed are absent.
// Reference gradients have as many directions as the largest reference dimension among the blocks (a
// lower-dimensional block has no value in the others: NaN in the row, an empty CSV field); physical
// gradients have the mesh's space dimension.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <feinterp/io/point_results.hpp>

namespace feinterp::io {

/// Column names: u0.. for values; du0/dxi, du0/deta, du0/dzeta for reference gradients; du0/dx.. for
/// physical ones. With one component the index is dropped (u, du/dx).
std::vector<std::string> value_columns(int components);
std::vector<std::string> gradient_columns(int components, int dimension, bool physical);

/// Every column of the table for `layout`, in order.
std::vector<std::string> table_columns(const PointLayout& layout);

/// Calls `row(values)` for each row of `chunk` in order, `values` holding table_columns(layout).size()
/// numbers (NaN where a lower-dimensional block has no reference-gradient direction).
template <class Row>
void for_each_row(const PointLayout& layout, const PointChunk& chunk, std::vector<double>& buffer, Row&& row);

}  // namespace feinterp::io

#include <feinterp/io/detail/results_rows.hpp>
