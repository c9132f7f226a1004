// SPDX-License-Identifier: BSD-3-Clause
// An output of more than 2^31 entries on the GPU (ctest labels gpu and large; run alone): reference
// gradients of a fresh random field on the structured box (fem/structured_box.hpp) of 229^3 =
// 12,008,989 p3 hexahedra (325,660,672 nodes), C = 1, at Q = 64 points (the element's nodes):
// 12,008,989 * 64 * 1 * 3 = 2,305,725,888 entries, 158M past 2^31 = 2,147,483,648; 18.4 GB in FP64.
// Every offset into it must be 64-bit (core/config.hpp's offset_t): one 32-bit product anywhere in the
// launch, the kernel's group loop or its store would wrap and write the elements past 11,184,810 (the
// first whose output reaches 2^31) over the first ones.
//
//   1. The output is poisoned with NaN (every byte 0xff: a quiet NaN), the GPU plan runs once through
//      the front door.
//   2. Every entry is read back, in 1 GiB slices: none is NaN, so every entry past 2^31 was written.
//   3. ~4,000 sampled elements (random ones, the first and last 64, and 64 around element 11,184,810)
//      are computed by the CPU plan on a sub-block of just those elements (the same nodes, the same
//      field) and compared with the GPU's entries: to 1e-12 relative.
//
// Needs ~24.1 GB of free device memory (connectivity 3.1 GB, field 2.6 GB, output 18.4 GB) and ~14 GB of
// free host memory; skipped, saying which, with less. Takes ~30 s on the H100 machine, most of it
// building the mesh and the field and reading the output back.
#include <gtest/gtest.h>

#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/structured_box.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/random_block.hpp>

namespace feinterp {
namespace {

namespace cuda = backends::cuda;

constexpr offset_t two_to_31 = offset_t(1) << 31;
constexpr double gigabyte = 1e9;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// MemAvailable (free memory plus what the kernel can reclaim, page cache included), else the free pages.
std::size_t free_host_bytes() {
  std::FILE* meminfo = std::fopen("/proc/meminfo", "r");
  if (meminfo) {
    char line[256];
    unsigned long long kilobytes = 0;
    while (std::fgets(line, sizeof line, meminfo))
      if (std::sscanf(line, "MemAvailable: %llu kB", &kilobytes) == 1) break;
    std::fclose(meminfo);
    if (kilobytes) return std::size_t(kilobytes) * 1024;
  }
  return std::size_t(sysconf(_SC_AVPHYS_PAGES)) * std::size_t(sysconf(_SC_PAGESIZE));
}

TEST(LargeOutput, ReferenceGradientsPast2To31EntriesMatchTheCpu) {
  if (!cuda_usable()) GTEST_SKIP() << "GPU test skipped: " << cuda_unusable_reason();
  const ElementType type{Shape::hexahedron, 3};
  const int cells = 229, C = 1, D = 3, N = nodes_per_element(type);
  const PointSet points = element_nodes(type);  // Q = 64
  const int Q = points.size();
  const offset_t elements = structured_box_element_count(type, cells);
  const offset_t nodes = structured_box_node_count(type, cells);
  const offset_t per_element = offset_t(Q) * C * D;  // 192 entries
  const offset_t entries = elements * per_element;
  ASSERT_GT(entries, two_to_31) << "the test's point: an output past 2^31 entries";

  const std::size_t device_bytes = std::size_t(elements) * N * sizeof(node_index) + std::size_t(nodes) * C * sizeof(double) +
                                   std::size_t(entries) * sizeof(double);
  std::size_t free_device = 0, total_device = 0;
  cuda::check(cudaMemGetInfo(&free_device, &total_device), "querying free device memory");
  const std::size_t margin = std::size_t(1) << 30;  // the plan's table, flags, the runtime's own
  if (free_device < device_bytes + margin)
    GTEST_SKIP() << "large GPU test skipped: it needs " << (device_bytes + margin) / gigabyte << " GB of free device memory, the GPU has "
                 << free_device / gigabyte << " GB free of " << total_device / gigabyte;
  // Host: the box's connectivity (3.1 GB) and coordinates (7.8 GB, released at once), then the field (2.6 GB).
  const std::size_t host_bytes = std::size_t(elements) * N * sizeof(node_index) + std::size_t(nodes) * 3 * sizeof(double) +
                                 std::size_t(nodes) * C * sizeof(double);
  if (free_host_bytes() < host_bytes + margin)
    GTEST_SKIP() << "large GPU test skipped: it needs " << (host_bytes + margin) / gigabyte << " GB of free host memory, "
                 << free_host_bytes() / gigabyte << " GB are free";

  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  auto start = std::chrono::steady_clock::now();
  StructuredBox box = structured_box(type, cells);
  ASSERT_EQ(box.element_count, elements);
  ASSERT_EQ(box.node_count(), nodes);
  box.coordinates = std::vector<double>();  // reference gradients need no geometry: 7.8 GB back
  const std::vector<double> u = test::random_field(nodes, C, rng);
  std::printf("[ info ] %lld p3 hexahedra, %lld nodes, %lld output entries (2^31 = %lld): mesh and field built in %.1f s\n",
              (long long)elements, (long long)nodes, (long long)entries, (long long)two_to_31, seconds_since(start));

  // 1. GPU: device arrays, the output poisoned, one call.
  start = std::chrono::steady_clock::now();
  const ExecutorArray<node_index> connectivity(Executor::cuda(), box.connectivity);
  const ExecutorArray<double> field(Executor::cuda(), u);
  ExecutorArray<double> out(Executor::cuda(), std::size_t(entries));
  cuda::check(cudaMemset(out.data(), 0xff, std::size_t(entries) * sizeof(double)), "poisoning the output with NaN");
  BlockView view = box.view();
  view.connectivity = connectivity.data();
  InterpolatorOptions options;
  options.executor = Executor::cuda();
  const Interpolator<double> gpu(view, nodes, points, nullptr, options);
  ASSERT_EQ(gpu.output_size(Operation::reference_gradients, C), std::size_t(entries));
  gpu.apply(Operation::reference_gradients, {field.data(), field.size(), C}, {out.data(), out.size()});
  gpu.check();
  cuda::check(cudaDeviceSynchronize(), "waiting for the kernel");
  std::printf("[ info ] uploaded, poisoned and computed in %.1f s\n", seconds_since(start));

  // 2. Every entry written: read back in slices of 2^27 doubles (1 GiB).
  start = std::chrono::steady_clock::now();
  const std::size_t slice = std::size_t(1) << 27;
  std::vector<double> host(slice);
  offset_t unwritten = 0, first_unwritten = -1, past_2_to_31 = 0;
  for (offset_t begin = 0; begin < entries; begin += offset_t(slice)) {
    const std::size_t count = std::size_t(std::min<offset_t>(offset_t(slice), entries - begin));
    cuda::check(cudaMemcpy(host.data(), out.data() + begin, count * sizeof(double), cudaMemcpyDeviceToHost),
                "reading the output back");
    for (std::size_t i = 0; i < count; ++i) {
      if (std::isnan(host[i])) {
        if (first_unwritten < 0) first_unwritten = begin + offset_t(i);
        ++unwritten;
      } else if (begin + offset_t(i) >= two_to_31) {
        ++past_2_to_31;
      }
    }
  }
  std::printf("[ info ] all %lld entries read back and scanned in %.1f s\n", (long long)entries, seconds_since(start));
  EXPECT_EQ(unwritten, 0) << "entries still NaN after the kernel, the first at " << first_unwritten << " (element "
                          << first_unwritten / per_element << ")";
  EXPECT_EQ(past_2_to_31, entries - two_to_31) << "entries past 2^31 written";

  // 3. Sampled elements against the CPU.
  std::set<offset_t> sampled;
  const offset_t straddling = two_to_31 / per_element;  // 11,184,810: its output runs from below 2^31 to above
  for (offset_t e = 0; e < 64; ++e) {
    sampled.insert(e);
    sampled.insert(elements - 1 - e);
    sampled.insert(straddling - 32 + e);
  }
  std::uniform_int_distribution<offset_t> any(0, elements - 1);
  while (sampled.size() < 4000) sampled.insert(any(rng));
  std::vector<node_index> sub_connectivity;
  std::vector<double> got;
  sub_connectivity.reserve(sampled.size() * N);
  got.resize(sampled.size() * std::size_t(per_element));
  std::size_t row = 0;
  for (offset_t e : sampled) {
    sub_connectivity.insert(sub_connectivity.end(), box.connectivity.begin() + e * N, box.connectivity.begin() + (e + 1) * N);
    cuda::check(cudaMemcpy(&got[row * std::size_t(per_element)], out.data() + e * per_element,
                           std::size_t(per_element) * sizeof(double), cudaMemcpyDeviceToHost),
                "reading a sampled element's output");
    ++row;
  }
  InterpolatorOptions cpu_options;
  cpu_options.executor = Executor::cpu();
  const BlockView sub{type, sub_connectivity.data(), offset_t(sampled.size()), 3};
  const Interpolator<double> cpu(sub, nodes, points, nullptr, cpu_options);
  std::vector<double> expected(cpu.output_size(Operation::reference_gradients, C), std::numeric_limits<double>::quiet_NaN());
  cpu.apply(Operation::reference_gradients, {u.data(), u.size(), C}, {expected.data(), expected.size()});
  EXPECT_LE(test::relative_error(got, expected), 1e-12) << sampled.size() << " sampled elements, the last " << *sampled.rbegin()
                                                        << " (its output at " << *sampled.rbegin() * per_element << ")";
  // The largest offset compared lies past 2^31.
  EXPECT_GT((elements - 1) * per_element, two_to_31);
}

}  // namespace
}  // namespace feinterp
