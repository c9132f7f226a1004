// SPDX-License-Identifier: BSD-3-Clause
// GPU tests skip, visibly, where no CUDA device is usable (CI's machine has nvcc but no GPU).
#pragma once

#include <gtest/gtest.h>

#include <feinterp/cuda/runtime/device.hpp>

#define FEINTERP_REQUIRE_GPU()                                                                             \
  do {                                                                                                     \
    if (!::feinterp::backends::cuda::cuda_available())                                                     \
      GTEST_SKIP() << "GPU test skipped: " << ::feinterp::backends::cuda::cuda_unavailable_reason();      \
  } while (0)
