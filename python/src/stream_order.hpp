// SPDX-License-Identifier: BSD-3-Clause
// Stream ordering between a plan's stream and the streams of the arrays it is given, for arrays read
// through __cuda_array_interface__ v3 (DLPack arrays are ordered by their producer: arrays.hpp).
//
//   before the launch: the plan's stream waits for each input's and output's stream (the producer may
//                      still be writing u, or zeroing r for an accumulate);
//   after the launch:  each output's stream waits for the plan's stream, so the caller's next operation
//                      on its own stream sees the results.
//
// Each wait is an event recorded on one stream and waited for on the other: no host synchronisation,
// a few microseconds of host time. Streams equal to the plan's need nothing. CAI's stream integers are
// CUDA's own handles, with 1 = cudaStreamLegacy and 2 = cudaStreamPerThread; a plan's null stream is the
// legacy default stream, the same as 1. Every call runs with the plan's device current (the legacy
// stream and the event are that device's), and leaves the caller's as it was. Without CUDA
// (FEINTERP_PYTHON_CUDA unset) this does nothing: no device array can reach a CPU plan.
#pragma once

#include <cstdint>
#include <vector>

namespace feinterp::python {

class StreamOrder {
 public:
  /// `device`: the plan's device (-1: the current one, for a cpu plan, which orders nothing).
  StreamOrder(std::intptr_t plan_stream, int device);
  ~StreamOrder();
  StreamOrder(const StreamOrder&) = delete;
  StreamOrder& operator=(const StreamOrder&) = delete;

  /// The plan's stream waits for each of `streams`.
  void plan_waits_for(const std::vector<std::intptr_t>& streams);
  /// Each of `streams` waits for the plan's stream.
  void wait_for_plan(const std::vector<std::intptr_t>& streams);

 private:
  bool same_as_plan(std::intptr_t stream) const;
  void* event();  ///< the event, created at its first use
  std::intptr_t plan_stream_;
  int device_;
  void* event_ = nullptr;  // a cudaEvent_t without timing, created at the first wait
};

}  // namespace feinterp::python
