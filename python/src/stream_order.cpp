// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/python/src/stream_order.hpp>

#include <exception>
#include <stdexcept>
#include <string>

#if FEINTERP_PYTHON_CUDA
#include <cuda_runtime.h>

#include <feinterp/cuda/runtime/scoped_device.hpp>
#endif

namespace feinterp::python {

#if FEINTERP_PYTHON_CUDA

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error while ") + what + ": " + cudaGetErrorString(status));
}

cudaStream_t handle(std::intptr_t stream) { return reinterpret_cast<cudaStream_t>(stream); }

}  // namespace

StreamOrder::StreamOrder(std::intptr_t plan_stream, int device)
    : plan_stream_(plan_stream == 0 ? 1 : plan_stream), device_(device) {}

StreamOrder::~StreamOrder() {
  if (event_ == nullptr) return;
  try {
    const backends::cuda::ScopedDevice on_device(device_);
    cudaEventDestroy(static_cast<cudaEvent_t>(event_));
  } catch (const std::exception&) {
    // The device cannot be made current (the runtime unloading at exit): the event went with it.
  }
}

bool StreamOrder::same_as_plan(std::intptr_t stream) const { return (stream == 0 ? 1 : stream) == plan_stream_; }

void* StreamOrder::event() {
  if (event_ == nullptr) {
    cudaEvent_t e;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "creating the plan's ordering event");
    event_ = e;
  }
  return event_;
}

void StreamOrder::plan_waits_for(const std::vector<std::intptr_t>& streams) {
  if (streams.empty()) return;
  const backends::cuda::ScopedDevice on_device(device_);
  for (std::intptr_t s : streams) {
    if (same_as_plan(s)) continue;
    check(cudaEventRecord(static_cast<cudaEvent_t>(event()), handle(s)), "recording an event on an array's stream");
    check(cudaStreamWaitEvent(handle(plan_stream_), static_cast<cudaEvent_t>(event_), 0),
          "making the plan's stream wait for an array's stream");
  }
}

void StreamOrder::wait_for_plan(const std::vector<std::intptr_t>& streams) {
  if (streams.empty()) return;
  const backends::cuda::ScopedDevice on_device(device_);
  bool recorded = false;
  for (std::intptr_t s : streams) {
    if (same_as_plan(s)) continue;
    if (!recorded) {
      check(cudaEventRecord(static_cast<cudaEvent_t>(event()), handle(plan_stream_)), "recording an event on the plan's stream");
      recorded = true;
    }
    check(cudaStreamWaitEvent(handle(s), static_cast<cudaEvent_t>(event_), 0),
          "making an output's stream wait for the plan's stream");
  }
}

#else

StreamOrder::StreamOrder(std::intptr_t plan_stream, int device) : plan_stream_(plan_stream), device_(device) {}
StreamOrder::~StreamOrder() = default;
bool StreamOrder::same_as_plan(std::intptr_t) const { return true; }
void* StreamOrder::event() { return nullptr; }
void StreamOrder::plan_waits_for(const std::vector<std::intptr_t>&) {}
void StreamOrder::wait_for_plan(const std::vector<std::intptr_t>&) {}

#endif

}  // namespace feinterp::python
