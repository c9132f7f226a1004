#include "kernel_set.hpp"

#include "../elements/visit.hpp"

namespace feinterp::cuda {

KernelSet kernel_set(ElementType type, Operation op, int components) {
  return visit(type, [&](auto element) { return kernel_set<decltype(element)>(op, components); });
}

}  // namespace feinterp::cuda
