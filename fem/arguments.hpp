// Validation of one interpolation call's arguments, shared by the CPU and GPU paths so that both
// refuse the same inputs with the same messages. Connectivity is validated separately, once per
// block (validate_connectivity in block.hpp).
#pragma once

#include <string>

#include "../elements/element_type.hpp"
#include "operation.hpp"

namespace feinterp {

struct InterpolationArguments {
  Operation op;
  ElementType block_type;
  offset_t element_count;
  int space_dimension;           ///< the block's s, default applied (space_dimension(BlockView))
  ElementType table_type;
  int points;
  offset_t node_count;
  FieldView u;
  OutputView out;
  OutputView detj;               ///< physical gradients only; may be empty
  const double* coordinates;     ///< physical gradients only
};

/// Throws std::invalid_argument "<where>: <what was wrong>, expected <what>" for a table of another
/// element type, a component count outside 1..max_components, a field whose size is not
/// node_count * components, an output or det J array too small, or null data where data is needed.
void check_interpolation_arguments(const std::string& where, const InterpolationArguments& args);

}  // namespace feinterp
