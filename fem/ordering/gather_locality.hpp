// SPDX-License-Identifier: BSD-3-Clause
// Gather locality: how well a block's numbering suits the gather of nodal values, in numbers cheap
// enough to compute for any mesh (one pass over the connectivity and a sort per window), for the tests
// of the renumbering (fem/ordering/renumbering.hpp) and for the tools that report it.
//
//   mean_spread        mean over elements of (largest - smallest node index): how far apart in the
//                      field one element's values lie.
//   bandwidth          the largest such spread: the bandwidth of the node adjacency matrix the block
//                      gives, what reverse Cuthill–McKee minimises.
//   sector_efficiency  the share of the bytes fetched that the gather uses, for 32-byte sectors (a GPU's
//                      unit of memory access) of an FP64 scalar field, over windows of 32 consecutive
//                      elements (a few thread blocks of the packed kernel, which the tuning tables give
//                      1 to 16 elements each, sharing one SM's L1): for each window, the distinct nodes
//                      x 8 bytes over the distinct sectors x 32 bytes, summed over the windows. 1 when
//                      every sector a window touches is used whole; a random numbering gives ~0.25
//                      (one useful 8-byte value per sector).
//   sectors_per_element  the distinct sectors of a window per element of it, averaged: the gather's
//                      traffic in sectors when nothing stays in cache beyond a window.
#pragma once

#include <feinterp/fem/block.hpp>

namespace feinterp {

struct GatherLocalityOptions {
  int window_elements = 32;
  int sector_bytes = 32;
  int value_bytes = 8;  ///< FP64, one component
};

struct GatherLocality {
  double mean_spread = 0;
  offset_t bandwidth = 0;
  double sector_efficiency = 1;
  double sectors_per_element = 0;
};

/// The locality of `block` (host connectivity, validated against node_count: std::invalid_argument
/// naming the element and local node; window_elements, sector_bytes and value_bytes must be >= 1, and
/// sector_bytes a multiple of value_bytes). A block of no elements gives the defaults.
GatherLocality measure_gather_locality(const BlockView& block, offset_t node_count, const GatherLocalityOptions& options = {});

}  // namespace feinterp
