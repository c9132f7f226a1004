#include "tuned_elements_per_block.hpp"

#include "launch_config.hpp"

namespace feinterp::cuda {

int choose_elements_per_block(ElementType type, Operation op, int points, int components, const DeviceInfo& device) {
  return heuristic_elements_per_block(type, op, points, components, device);
}

}  // namespace feinterp::cuda
