// The hook through which the tuning table chooses elements_per_block. Until the tuning layer provides
// measured tables, this is the heuristic.
#pragma once

#include "../elements/element_type.hpp"
#include "../fem/operation.hpp"
#include "device.hpp"

namespace feinterp::cuda {

/// elements_per_block for (element, operation, points, components) on `device`: the tuned value
/// where the device's table has one, the heuristic otherwise.
int choose_elements_per_block(ElementType type, Operation op, int points, int components, const DeviceInfo& device);

}  // namespace feinterp::cuda
