#include "tuned_elements_per_block.hpp"

#include "../tuning/registry.hpp"
#include "launch_config.hpp"

namespace feinterp::cuda {

namespace {

tuning::LaunchLimits limits(ElementType type, Operation op, int points, int components, int space_dimension,
                            const DeviceInfo& device) {
  tuning::LaunchLimits l;
  l.heuristic = heuristic_elements_per_block(type, op, points, components, space_dimension, device);
  l.max_fitting = max_elements_per_block(type, op, points, components, space_dimension, device);
  l.threads_per_element = &threads_per_element;
  return l;
}

// A view of the cached DeviceInfo's name: no copy per launch.
tuning::DeviceIdentity identity(const DeviceInfo& device) { return {device.name, device.major, device.minor}; }

}  // namespace

int choose_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                              const DeviceInfo& device) {
  return tuning::select_elements_per_block({type, op, components, points}, identity(device),
                                           limits(type, op, points, components, space_dimension, device));
}

int choose_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                              const DeviceInfo& device, const tuning::TuningTable& table) {
  return tuning::elements_per_block_from(&table, {type, op, components, points}, identity(device),
                                         limits(type, op, points, components, space_dimension, device));
}

}  // namespace feinterp::cuda
