// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/node_vectors.hpp>

#include <cuda_runtime.h>

#include <algorithm>

#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/runtime/scoped_device.hpp>

namespace feinterp::backends::cuda {

namespace {

constexpr int node_vector_threads = 256;

// A grid-stride loop's grid: enough blocks for `count`, at most 4096 (a few waves on any GPU).
dim3 grid_for(std::size_t count) {
  return dim3(unsigned(std::min<std::size_t>((count + node_vector_threads - 1) / node_vector_threads, 4096)));
}

template <class Real>
__global__ void fill_kernel(Real* target, const Real* source, Real value, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x)
    target[i] = source ? source[i] : value;
}

template <class Real>
__global__ void assign_at_nodes_kernel(Real* target, const Real* source, Real scale, Real value, const node_index* nodes,
                                       std::size_t count, int components) {
  const std::size_t total = count * std::size_t(components);
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < total; i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t k = i / std::size_t(components);
    const std::size_t at = std::size_t(nodes[k]) * std::size_t(components) + (i - k * std::size_t(components));
    target[at] = source ? scale * source[at] : value;
  }
}

}  // namespace

template <class Real>
void copy_vector(Real* target, const Real* source, std::size_t count, int device, void* stream) {
  if (count == 0) return;
  const ScopedDevice on_device(device);
  fill_kernel<<<grid_for(count), node_vector_threads, 0, static_cast<cudaStream_t>(stream)>>>(target, source, Real(0), count);
  check_launch("copying a nodal vector");
}

template <class Real>
void fill_vector(Real* target, Real value, std::size_t count, int device, void* stream) {
  if (count == 0) return;
  const ScopedDevice on_device(device);
  fill_kernel<<<grid_for(count), node_vector_threads, 0, static_cast<cudaStream_t>(stream)>>>(target, static_cast<const Real*>(nullptr), value, count);
  check_launch("filling a nodal vector");
}

template <class Real>
void assign_at_nodes(Real* target, const Real* source, Real scale, Real value, const node_index* nodes,
                     std::size_t count, int components, int device, void* stream) {
  if (count == 0) return;
  const ScopedDevice on_device(device);
  assign_at_nodes_kernel<<<grid_for(count * std::size_t(components)), node_vector_threads, 0,
                           static_cast<cudaStream_t>(stream)>>>(target, source, scale, value, nodes, count, components);
  check_launch("writing the constrained nodes");
}

template void copy_vector<double>(double*, const double*, std::size_t, int, void*);
template void copy_vector<float>(float*, const float*, std::size_t, int, void*);
template void fill_vector<double>(double*, double, std::size_t, int, void*);
template void fill_vector<float>(float*, float, std::size_t, int, void*);
template void assign_at_nodes<double>(double*, const double*, double, double, const node_index*, std::size_t, int, int, void*);
template void assign_at_nodes<float>(float*, const float*, float, float, const node_index*, std::size_t, int, int, void*);

}  // namespace feinterp::backends::cuda
