// SPDX-License-Identifier: BSD-3-Clause
// The CSV output of feinterp interpolate: one row per (element, point), with the point's physical
// coordinates and every computed quantity, for spreadsheets and scripts.
//
//   block,element,point,x,y,z,u0,...,du0/dxi,...,du0/dx,...,detj
//
// `element` is the element's tag in the mesh file; columns of quantities not computed are absent.
// Reference gradients have as many directions as the largest reference dimension among the blocks (a
// lower-dimensional block leaves the others empty); physical gradients have the mesh's space dimension.
#pragma once

#include <string>
#include <vector>

#include <feinterp/fem/point_set.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp::app {

/// What feinterp interpolate computed on one block; empty vectors for operations not asked for.
struct BlockResults {
  std::size_t block = 0;  ///< index into Mesh::blocks
  PointSet points;
  std::vector<double> physical_points;  ///< x[(e*Q + q)*3 + k], for the CSV only
  std::vector<double> values, reference_gradients, physical_gradients, detj;
  double seconds[3] = {0, 0, 0};  ///< compute time of each operation (Operation order)
};

/// Column names: u0.. for values; du0/dxi, du0/deta, du0/dzeta for reference gradients; du0/dx.. for
/// physical ones. With one component the index is dropped (u, du/dx).
std::vector<std::string> value_columns(int components);
std::vector<std::string> gradient_columns(int components, int dimension, bool physical);

std::string results_csv(const Mesh& mesh, const std::vector<BlockResults>& results, int components);

}  // namespace feinterp::app
