// GPU interpolation: the same three operations and layouts as the CPU path (fem/interpolate.hpp), on
// device pointers, on any stream.
//
//   DeviceBlock       a block's connectivity on the device, validated once (never per call);
//   DeviceTabulation  the shape-function table of an (element type, point set), computed on the device
//                     by the element's own __host__ __device__ code;
//   interpolate_*     one kernel launch each, asynchronous on options.stream, except that physical
//                     gradients wait for the stream to check the orientation policy of
//                     fem/orientation.hpp (a degenerate or tangled element throws).
//
// Host arrays in and out: interpolate_host_arrays, which uploads, runs and downloads.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "../fem/block.hpp"
#include "../fem/interpolate.hpp"
#include "../fem/operation.hpp"
#include "../fem/point_set.hpp"
#include "device_buffer.hpp"

namespace feinterp::cuda {

enum class Kernel {
  packed,    ///< several elements per block along threadIdx.z (the product)
  baseline,  ///< one element per block, the seed's port (for benchmarks)
};

struct LaunchOptions {
  int elements_per_block = 0;  ///< packed kernel only; 0: the tuning table's choice (or the heuristic)
  Kernel kernel = Kernel::packed;
  cudaStream_t stream = nullptr;
};

/// A block's connectivity on the device, checked against the node count once. Its space dimension and
/// element tags (host memory, copied here for error messages) come from the BlockView it is made from.
class DeviceBlock {
 public:
  /// Copies the connectivity of a host block to the device after validating it on the host.
  static DeviceBlock upload(const BlockView& host_block, offset_t node_count, cudaStream_t stream = nullptr);
  /// Uses connectivity already on the device (not owned: it must outlive this object). Validated on the
  /// device by one pass that finds the first element with an index outside [0, node_count).
  /// `device_block.element_tags`, if any, is host memory.
  static DeviceBlock wrap(const BlockView& device_block, offset_t node_count, cudaStream_t stream = nullptr);

  DeviceBlock(DeviceBlock&& other) noexcept;
  DeviceBlock& operator=(DeviceBlock&& other) noexcept;

  /// Device connectivity; element_tags points to this object's host copy.
  const BlockView& view() const { return view_; }
  offset_t node_count() const { return node_count_; }
  /// Scratch for the orientation check of physical gradients (one 64-bit word).
  unsigned long long* bad_element_flag() const { return flag_.data(); }

 private:
  DeviceBlock() = default;
  void keep_tags(const BlockView& block);
  DeviceBuffer<node_index> owned_;
  std::vector<std::size_t> tags_;
  BlockView view_{};
  offset_t node_count_ = 0;
  mutable DeviceBuffer<unsigned long long> flag_;
};

/// Shape-function values and reference gradients of an element type at a point set, on the device,
/// in the kernels' [n][t][q] order.
class DeviceTabulation {
 public:
  DeviceTabulation(ElementType type, const PointSet& points, cudaStream_t stream = nullptr);
  ElementType type() const { return type_; }
  int points() const { return points_; }
  const double* values() const { return values_.data(); }
  const double* gradients() const { return gradients_.data(); }

 private:
  ElementType type_;
  int points_ = 0;
  DeviceBuffer<double> values_, gradients_;
};

/// out[(e*Q + q)*C + c] (device memory).
void interpolate_values(const DeviceBlock& block, const DeviceTabulation& table, FieldView u, OutputView out,
                        const LaunchOptions& options = {});

/// out[((e*Q + q)*C + c)*D + d] = du_c/dxi_d (device memory).
void interpolate_reference_gradients(const DeviceBlock& block, const DeviceTabulation& table, FieldView u,
                                     OutputView out, const LaunchOptions& options = {});

/// gradients[((e*Q + q)*C + c)*S + k] = du_c/dx_k and detj[e*Q + q] (may be empty), from device
/// coordinates[node*3 + k], S the block's space dimension (the same results as the CPU path,
/// fem/interpolate.hpp). Synchronises options.stream, then applies fem/orientation.hpp's policy:
/// DegenerateElementError or, for a node off the plane z = 0 in a block with S = 2,
/// std::invalid_argument, naming the smallest such element.
void interpolate_physical_gradients(const DeviceBlock& block, const DeviceTabulation& table, const double* coordinates,
                                    FieldView u, OutputView gradients, OutputView detj,
                                    const LaunchOptions& options = {});

/// Host arrays in, host arrays out (coordinates only for physical gradients): uploads, runs `op` on the
/// device, downloads. For tools and tests; a FEM code that keeps its data on the GPU uses the above.
void interpolate_host_arrays(Operation op, const BlockView& host_block, const PointSet& points,
                             const double* coordinates, offset_t node_count, FieldView u, OutputView out,
                             OutputView detj = {}, const LaunchOptions& options = {});

}  // namespace feinterp::cuda
