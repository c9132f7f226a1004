// SPDX-License-Identifier: BSD-3-Clause
// Counts the shared-memory wavefronts per element of the sum-factorised forward kernel (reference
// gradients, Q = nodes) at every per-element buffer stride modulo 16, with Gmsh's real node and point
// maps: the question is whether a stride chosen for the line pattern, instead of the smallest odd one,
// takes the bank conflicts out of the p2 hexahedra, whose 9 line threads per field put two elements in
// one half warp. Modelled: the gather's writes (and its node_lattice and connectivity reads), every
// stage's line loads and stores (fem/sum_factorisation_lines.hpp), the last stage's point_of_lattice
// reads, and the store's reads; 8-byte words in phases of 16 lanes on 16 bank pairs, 4-byte words in
// one phase of 32 lanes on 32 banks; one instruction per (line round, a, variant) or (round, q, variant).
// Not modelled: the per-element orientation words and the maps' one-time load. From the repository root:
//   g++ -std=c++17 -O1 -I. backends/cuda/tuning/results/nvidia-h100-80gb-hbm3/element-stride-count.cpp
//       fem/tensor_structure.cpp fem/point_set.cpp -o /tmp/element-stride-count
//   /tmp/element-stride-count hex 2 1 32     (shape order components elements_per_block)
// Prints the kernel's strides' count and the five best pairs of residues; results: element-stride.md.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backends/cuda/launch/tensor_launch_shape.hpp"
#include "fem/point_set.hpp"
#include "fem/sum_factorisation_lines.hpp"
#include "fem/tensor_structure.hpp"

using namespace feinterp;
using namespace feinterp::backends::cuda;

namespace {

/// Wavefronts of one warp-wide access: lanes with address < 0 are inactive.
long wavefronts(const std::vector<long>& address, int word_bytes) {
  const int lanes_per_phase = word_bytes == 8 ? 16 : 32, banks = word_bytes == 8 ? 16 : 32;
  long total = 0;
  for (int phase = 0; phase < 32; phase += lanes_per_phase) {
    std::map<long, std::set<long>> bank;
    for (int lane = phase; lane < phase + lanes_per_phase; ++lane)
      if (address[lane] >= 0) bank[address[lane] % banks].insert(address[lane]);
    std::size_t most = 0;
    for (const auto& [b, words] : bank) most = std::max(most, words.size());
    total += long(most);
  }
  return total;
}

struct Counts {
  long loads = 0, stores = 0;
};

/// One instruction executed by every thread of the block: address(thread) < 0 for an idle thread.
void instruction(int threads, bool store, int word_bytes, const std::function<long(int)>& address, Counts& counts) {
  for (int warp = 0; warp * 32 < threads; ++warp) {
    std::vector<long> lanes(32, -1);
    for (int lane = 0; lane < 32 && warp * 32 + lane < threads; ++lane) lanes[lane] = address(warp * 32 + lane);
    if (std::all_of(lanes.begin(), lanes.end(), [](long a) { return a < 0; })) continue;
    (store ? counts.stores : counts.loads) += wavefronts(lanes, word_bytes);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: element-stride-count hex|quad ORDER COMPONENTS ELEMENTS_PER_BLOCK\n");
    return 1;
  }
  const Shape shape = argv[1][0] == 'h' ? Shape::hexahedron : Shape::quadrilateral;
  const int order = std::atoi(argv[2]), C = std::atoi(argv[3]), E = std::atoi(argv[4]);
  const ElementType type{shape, order};
  const TensorStructure t = *tensor_structure(type, element_nodes(type));
  const int D = shape == Shape::hexahedron ? 3 : 2, P1 = order + 1, Q1 = P1, N = integer_power(P1, D);
  const int Q = integer_power(Q1, D), R = D, CR = C * R, F = C;
  const int CRp = tensor_output_point_stride(D, Q1, CR);
  const int workers = tensor_forward_threads_per_element(D, P1, Q1, C), threads = workers * E;
  const int L = tensor_lines_lattice_size(D, P1);

  // The buffers' items, as tensor_shared_layout places them: item i in buffer i % 2.
  std::vector<int> items = {F * L};
  for (int s = 0; s + 1 < D; ++s) items.push_back(tensor_lines_stage_size(D, P1, Q1, F, true, s));
  items.push_back(Q * CRp);
  int needed[2] = {1, 1};
  for (std::size_t i = 0; i < items.size(); ++i) needed[i % 2] = std::max(needed[i % 2], items[i]);
  const int kernel_stride[2] = {needed[0] | 1, needed[1] | 1};
  std::printf("%s p%d C = %d, %d per block, %d threads per element; strides now %d, %d (mod 16: %d, %d)\n",
              argv[1], order, C, E, workers, kernel_stride[0], kernel_stride[1], kernel_stride[0] % 16,
              kernel_stride[1] % 16);
  std::printf("strides mod 16 (buffer 0, 1) | loads / element | stores / element | total\n");

  struct Result {
    int residue[2];
    double loads, stores;
  };
  std::vector<Result> results;
  for (int pair = -1; pair < 256; ++pair) {  // -1: the kernel's own strides; else both residues mod 16
    int stride[2];
    for (int b = 0; b < 2; ++b) {
      stride[b] = kernel_stride[b];
      if (pair >= 0)
        while (stride[b] % 16 != (b == 0 ? pair / 16 : pair % 16)) ++stride[b];
    }
    // The buffers one after the other, as in shared memory (8-byte words; the maps are 4-byte).
    const long base[2] = {0, long(E) * stride[0]};
    Counts counts;
    // Gather: i = (element, node, component); the node_lattice and connectivity reads, then the write.
    for (int round = 0; round * threads < E * N * C; ++round) {
      auto item = [&](int thread) { return round * threads + thread; };
      instruction(threads, false, 4, [&](int th) { return item(th) < E * N * C ? long(item(th) / C % N) : -1L; }, counts);
      instruction(threads, false, 4, [&](int th) { return item(th) < E * N * C ? long(item(th) / C) : -1L; }, counts);
      instruction(threads, true, 8, [&](int th) -> long {
        const int i = item(th);
        if (i >= E * N * C) return -1;
        const int c = i % C, n = i / C % N, e = i / C / N;
        return base[0] + long(e) * stride[0] + c * L + tensor_lines_lattice_slot(t.node_lattice[n], P1);
      }, counts);
    }
    // Stages: thread = z * workers + worker; buffer s % 2 in, (s + 1) % 2 out.
    for (int s = 0; s < D; ++s) {
      const bool last = s == D - 1;
      const int inner = integer_power(Q1, s), outer = integer_power(P1, D - 1 - s);
      const int Vin = tensor_variants_in(true, s), Vout = tensor_variants_out(D, true, s);
      const int lines = F * outer * inner;
      const int in_step = s == 0 ? 1 : tensor_lines_stage_row(Q1, s - 1);
      const int in_outer_step = s == 0 ? (P1 | 1) : P1 * in_step, in_size = outer * in_outer_step;
      const int out_outer_step = last ? Q1 * inner : tensor_lines_stage_row(Q1, s), out_size = outer * out_outer_step;
      const int in_buffer = s % 2, out_buffer = (s + 1) % 2;
      for (int round = 0; round * workers < lines; ++round) {
        auto line_of = [&](int th) { return round * workers + th % workers; };
        for (int a = 0; a < P1; ++a)
          for (int v = 0; v < Vin; ++v)
            instruction(threads, false, 8, [&](int th) -> long {
              const int line = line_of(th);
              if (line >= lines) return -1;
              const int i = line % inner, o = line / inner % outer, f = line / inner / outer;
              return base[in_buffer] + long(th / workers) * stride[in_buffer] + f * Vin * in_size + o * in_outer_step + i +
                     v * in_size + a * in_step;
            }, counts);
        for (int q = 0; q < Q1; ++q) {
          if (last)  // point_of_lattice[position]
            instruction(threads, false, 4, [&](int th) -> long {
              const int line = line_of(th);
              if (line >= lines) return -1;
              const int i = line % inner, o = line / inner % outer;
              return long(N) + o * out_outer_step + q * inner + i;
            }, counts);
          for (int v = 0; v < Vout; ++v)
            instruction(threads, true, 8, [&](int th) -> long {
              const int line = line_of(th);
              if (line >= lines) return -1;
              const int i = line % inner, o = line / inner % outer, f = line / inner / outer;
              const int position = o * out_outer_step + q * inner + i;
              const long element = base[out_buffer] + long(th / workers) * stride[out_buffer];
              if (last) return element + (f * Vout + v) + long(t.point_of_lattice[position]) * CRp;
              return element + (f * Vout + v) * out_size + position;
            }, counts);
        }
      }
    }
    // Store: consecutive threads read consecutive results of the group's run, element by element.
    const int out_buffer = D % 2, per_element = Q * CR;
    for (int round = 0; round * threads < E * per_element; ++round)
      instruction(threads, false, 8, [&](int th) -> long {
        const int i = round * threads + th;
        if (i >= E * per_element) return -1;
        const int e = i / per_element, r = i % per_element;
        return base[out_buffer] + long(e) * stride[out_buffer] + (CRp == CR ? r : r + r / CR);
      }, counts);
    results.push_back({{stride[0] % 16, stride[1] % 16}, double(counts.loads) / E, double(counts.stores) / E});
  }
  // The kernel's strides, then the five best pairs.
  auto total = [](const Result& r) { return r.loads + r.stores; };
  std::stable_sort(results.begin() + 1, results.end(), [&](const Result& a, const Result& b) { return total(a) < total(b); });
  for (std::size_t i = 0; i < 6 && i < results.size(); ++i)
    std::printf("%-12s %2d, %2d      | %15.1f | %16.1f | %6.1f\n", i == 0 ? "kernel" : "", results[i].residue[0],
                results[i].residue[1], results[i].loads, results[i].stores, total(results[i]));
  return 0;
}
