// The hook through which the tuning table chooses elements_per_block (tuning/registry.hpp says which
// table a device uses and what happens when it has no usable entry; the heuristic is the fallback).
#pragma once

#include "../elements/element_type.hpp"
#include "../fem/operation.hpp"
#include "../tuning/table.hpp"
#include "device.hpp"

namespace feinterp::cuda {

/// elements_per_block for (element, operation, points, components) on `device`: the tuned value where
/// the device's table (the override, FEINTERP_TUNING_TABLE or the embedded one) has a usable entry, the
/// heuristic otherwise. Tables are measured per (element, operation, points, components); the space
/// dimension only bounds what fits (a 3D surface block's physical gradients need more shared memory). Throws tuning::TuningTableError if FEINTERP_TUNING_TABLE names a bad file.
int choose_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                              const DeviceInfo& device);

/// The same from the given table, whatever the process uses (for a launch with an explicit table:
/// pass the result as LaunchOptions::elements_per_block).
int choose_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                              const DeviceInfo& device, const tuning::TuningTable& table);

}  // namespace feinterp::cuda
