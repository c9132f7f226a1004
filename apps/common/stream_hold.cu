// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/common/stream_hold.hpp>

#include <atomic>

#include <feinterp/cuda/runtime/error.hpp>

#include <feinterp/apps/common/globaltimer.cuh>

namespace feinterp::tuning {

namespace {

// One thread polls the host's flag (a volatile read of mapped host memory each time) every microsecond or
// so, and gives up after timeout_ns, saying so in flags[1].
__global__ void hold_until_released(volatile unsigned* flags, unsigned long long timeout_ns) {
  const unsigned long long start = globaltimer_ns();
  while (flags[0] == 0u) {
    if (globaltimer_ns() - start > timeout_ns) {
      flags[1] = 1u;
      return;
    }
#if __CUDA_ARCH__ >= 700
    __nanosleep(1000);
#endif
  }
}

}  // namespace

StreamHold::StreamHold(double timeout_seconds) : timeout_seconds_(timeout_seconds) {
  void* host = nullptr;
  backends::cuda::check(cudaHostAlloc(&host, 2 * sizeof(unsigned), cudaHostAllocMapped), "allocating a stream hold's flags");
  flags_ = static_cast<volatile unsigned*>(host);
  flags_[0] = 1u;
  flags_[1] = 0u;
  void* device = nullptr;
  backends::cuda::check(cudaHostGetDevicePointer(&device, host, 0), "mapping a stream hold's flags");
  device_flags_ = static_cast<unsigned*>(device);
}

StreamHold::~StreamHold() {
  release();
  // cudaFreeHost waits for the device: a hold kernel still polling sees the release first.
  cudaFreeHost(const_cast<unsigned*>(flags_));
}

void StreamHold::hold(cudaStream_t stream) {
  flags_[0] = 0u;
  flags_[1] = 0u;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  held_ = true;
  hold_until_released<<<1, 1, 0, stream>>>(device_flags_, static_cast<unsigned long long>(timeout_seconds_ * 1e9));
  const cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) {
    release();
    backends::cuda::check(code, "launching a stream hold");
  }
}

void StreamHold::release() {
  if (!held_) return;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flags_[0] = 1u;
  held_ = false;
}

bool StreamHold::timed_out() const { return flags_[1] != 0u; }

}  // namespace feinterp::tuning
