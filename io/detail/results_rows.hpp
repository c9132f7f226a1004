// SPDX-License-Identifier: BSD-3-Clause
// for_each_row (results_table.hpp): a template, so that the writers' work per row (a few numbers) is inlined
// rather than a call through std::function per row.
#pragma once

#include <algorithm>
#include <limits>

namespace feinterp::io {

template <class Row>
void for_each_row(const PointLayout& layout, const PointChunk& chunk, std::vector<double>& buffer, Row&& row) {
  const PointLayout::Block& block = layout.blocks[chunk.block];
  const std::size_t C = std::size_t(layout.components), D = std::size_t(layout.reference_directions()),
                    CS = C * std::size_t(layout.space_dimension), Q = std::size_t(block.points),
                    d = std::size_t(block.dimension), Cd = C * d;
  const double missing = std::numeric_limits<double>::quiet_NaN();
  buffer.resize(6 + (layout.values ? C : 0) + (layout.reference_gradients ? C * D : 0) +
                (layout.physical_gradients ? CS + 1 : 0));
  for (std::size_t e = 0; e < chunk.elements; ++e)
    for (std::size_t q = 0; q < Q; ++q) {
      const std::size_t k = e * Q + q;
      double* v = buffer.data();
      *v++ = double(block.block);
      *v++ = double(chunk.element_tags[e]);  // tags are below 2^31: exact in a double
      *v++ = double(q);
      for (std::size_t j = 0; j < 3; ++j) *v++ = chunk.coordinates[3 * k + j];
      if (layout.values) v = std::copy_n(&chunk.values[k * C], C, v);
      if (layout.reference_gradients)
        for (std::size_t c = 0; c < C; ++c)
          for (std::size_t j = 0; j < D; ++j) *v++ = j < d ? chunk.reference_gradients[k * Cd + c * d + j] : missing;
      if (layout.physical_gradients) {
        v = std::copy_n(&chunk.physical_gradients[k * CS], CS, v);
        *v++ = chunk.detj[k];
      }
      row(static_cast<const double*>(buffer.data()));
    }
}

}  // namespace feinterp::io
