// SPDX-License-Identifier: BSD-3-Clause
// The GPU's global nanosecond timer (PTX %globaltimer), for device code that waits for or lasts a given
// time: the stream hold's timeout (stream_hold.cu) and the timing tests' spinning kernel.
#pragma once

namespace feinterp::tuning {

__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

}  // namespace feinterp::tuning
