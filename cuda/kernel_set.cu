#include "kernel_set.hpp"

#include "../elements/visit.hpp"

namespace feinterp::cuda {

KernelSet kernel_set(ElementType type, Operation op, int components, int space_dimension) {
  return visit(type, [&](auto element) { return kernel_set<decltype(element)>(op, components, space_dimension); });
}

}  // namespace feinterp::cuda
