// SPDX-License-Identifier: BSD-3-Clause
// Where an array lives, as the CUDA driver sees it (cudaPointerGetAttributes): the front door checks every
// array a plan is given against the plan's executor, so that host memory handed to a GPU plan (or device
// memory to a CPU plan) is a clear error rather than a fault in a kernel or a segfault in a CPU loop. No
// CUDA type here: the front door includes this header (tests' front_door_cuda_free).
#pragma once

namespace feinterp::backends::cuda {

enum class MemoryKind {
  pageable_host,  ///< ordinary host memory (malloc, std::vector, NumPy), unknown to CUDA
  pinned_host,    ///< page-locked host memory (cudaMallocHost, cudaHostRegister): mapped into every device
  device,         ///< memory of one device (cudaMalloc, cudaMallocAsync, CuPy, PyTorch)
  managed,        ///< unified memory (cudaMallocManaged): readable by the host and every device
};

struct MemoryLocation {
  MemoryKind kind = MemoryKind::pageable_host;
  int device = -1;  ///< the owning device's ordinal, for device memory
};

/// Where `pointer` lives. Pageable host memory wherever no CUDA device is usable: this process can then
/// hold no device memory. Throws CudaError only for a driver failure other than "not a CUDA pointer".
MemoryLocation memory_location(const void* pointer);

/// True where `device` reads pageable host memory coherently through the host's page tables (address
/// translation services: Grace Hopper), so that host arrays are as good as its own there.
bool device_reads_host_page_tables(int device);

/// "pageable host memory", "device memory", ...: for error messages.
const char* memory_kind_name(MemoryKind kind);

}  // namespace feinterp::backends::cuda
