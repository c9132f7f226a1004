// SPDX-License-Identifier: BSD-3-Clause
// Holding a stream while the host issues a timed batch (gpu_timing.hpp). Without it the batch's start
// event is recorded on an idle GPU, which then waits for the host to prepare and issue the first launch
// (the plan's checks, the driver's submission: several µs, Timing::host_us measures part of it), and that
// wait is timed as if it were the kernels'. Held, the start event and every launch of the batch queue
// behind one small kernel that spins until the host releases it, after the last launch is issued: the
// GPU then runs the batch back to back from the start event, as it would in the middle of a long stream
// of work, and the events time the kernels alone. (NVIDIA's nvbench times its kernels behind a blocking
// kernel for the same reason.)
#pragma once

#include <cuda_runtime.h>

namespace feinterp::tuning {

class StreamHold {
 public:
  /// The longest a hold waits for its release before it lets the stream go by itself, by default: a host
  /// that has not issued a batch in that time (a launch that waits for the stream it holds) can never
  /// hang the stream.
  static constexpr double default_timeout_seconds = 10.0;

  explicit StreamHold(double timeout_seconds = default_timeout_seconds);
  ~StreamHold();
  StreamHold(const StreamHold&) = delete;
  StreamHold& operator=(const StreamHold&) = delete;

  /// Enqueues on `stream` the kernel that holds it: what is enqueued after it waits until release().
  /// Only kernels launched before may be launched behind a hold: CUDA loads a kernel at its first launch
  /// (lazy loading), and that load waits for the running hold, until its timeout.
  void hold(cudaStream_t stream);
  /// Lets the held stream go on. The destructor releases a hold that is still on.
  void release();
  /// After the stream has passed the hold (synchronise first): whether it gave up waiting (timed out)
  /// instead of being released, in which case the batch behind it was not issued in time.
  bool timed_out() const;
  double timeout_seconds() const { return timeout_seconds_; }

 private:
  double timeout_seconds_;
  volatile unsigned* flags_ = nullptr;  // [0] released, [1] timed out: host memory mapped to the device
  unsigned* device_flags_ = nullptr;
  bool held_ = false;
};

}  // namespace feinterp::tuning
