// SPDX-License-Identifier: BSD-3-Clause
// Counts the shared-memory wavefronts (FP64: 16 lanes per phase, 16 eight-byte bank slots) of the
// sum-factorised forward kernel's two accesses to its output rows, per element, with Gmsh's real point
// maps (Q = nodes, reference gradients): the last stage's writes through point_of_lattice and the store's
// reads in global order. Modes: 0 the rows [c*R + r][q] with Q rounded up to odd (before), 1 [q][cr]
// with CR rounded up to odd, 2 [q][cr] unpadded, 3 and 4 as 1 and 2 but written in lattice order and
// permuted on the read. The figures of output-rows.md. From the repository root:
//   g++ -std=c++17 -O1 -I. backends/cuda/tuning/results/nvidia-h100-80gb-hbm3/output-rows-count.cpp
//       fem/tensor_structure.cpp fem/point_set.cpp -o /tmp/output-rows-count
//   /tmp/output-rows-count hex 3 1 8     (shape order components elements_per_block)
#include "fem/tensor_structure.hpp"
#include "fem/point_set.hpp"
#include "fem/sum_factorisation_lines.hpp"
#include "backends/cuda/launch/tensor_launch_shape.hpp"  // tensor_forward_threads_per_element
#include <cstdio>
#include <map>
#include <set>
#include <vector>
using namespace feinterp;
using namespace feinterp::backends::cuda;
// wavefronts of one 32-lane request of 8-byte words (phases of 16 lanes, 16 bank pairs)
static int wavefronts(const std::vector<long>& addr) {
  int total = 0;
  for (int h = 0; h < 32; h += 16) {
    std::map<int, std::set<long>> bank;
    bool any = false;
    for (int t = h; t < h + 16 && t < (int)addr.size(); ++t) if (addr[t] >= 0) { bank[addr[t] % 16].insert(addr[t]); any = true; }
    int m = 0; for (auto& [b, s] : bank) m = std::max<int>(m, s.size());
    total += any ? m : 0;
  }
  return total;
}
int main(int argc, char** argv) {
  Shape shape = argv[1][0] == 'h' ? Shape::hexahedron : Shape::quadrilateral;
  int order = atoi(argv[2]), C = atoi(argv[3]), E = atoi(argv[4]);
  ElementType type{shape, order};
  auto t = *tensor_structure(type, element_nodes(type));
  const int D = shape == Shape::hexahedron ? 3 : 2, P1 = order + 1, Q1 = P1, Q = integer_power(Q1, D), R = D, CR = C * R;
  const int lines = integer_power(Q1, D - 1);  // last stage lines per field, inner = Q1^(D-1)
  const int workers = tensor_forward_threads_per_element(D, P1, Q1, C);
  std::vector<int> lattice_of_point(Q); for (int l = 0; l < Q; ++l) lattice_of_point[t.point_of_lattice[l]] = l;
  for (int mode = 0; mode < 5; ++mode) {  // 0 old [cr][Qp], 1 new [q][CR|1], 2 [q][CR]
    const int Qp = Q | 1, CRp = (mode == 1 || mode == 3) ? (CR | 1) : CR;
    // The element's stride in the buffer that holds the output rows: the largest item of that buffer.
    int items[5] = {C * tensor_lines_lattice_size(D, P1), 0, 0, 0, 0}, count = 1;
    for (int s = 0; s + 1 < D; ++s) items[count++] = tensor_lines_stage_size(D, P1, Q1, C, true, s);
    items[count++] = mode == 0 ? C * R * Qp : Q * CRp;
    int largest[2] = {1, 1};
    for (int i = 0; i < count; ++i) if (items[i] > largest[i % 2]) largest[i % 2] = items[i];
    const int stride = largest[(count - 1) % 2] | 1;
    auto addr_of = [&](int e, int q, int cr) -> long { return mode == 0 ? long(e) * stride + cr * Qp + q : long(e) * stride + q * CRp + cr; };
    // writes: thread (z, worker); worker w takes lines w, w+workers..; per (q1, v) one instruction
    long wf_w = 0, wf_r = 0; int threads = workers * E;
    int iters = (C * lines + workers - 1) / workers;
    for (int it = 0; it < iters; ++it)
      for (int qq = 0; qq < Q1; ++qq)
        for (int v = 0; v < R; ++v)
          for (int warp = 0; warp * 32 < threads; ++warp) {
            std::vector<long> a(32, -1);
            for (int lane = 0; lane < 32; ++lane) {
              int th = warp * 32 + lane; if (th >= threads) break;
              int z = th / workers, w = th % workers, line = w + it * workers;
              if (line >= C * lines) continue;
              int i = line % lines, f = line / lines;
              int l = qq * lines + i;
              a[lane] = mode >= 3 ? long(z) * stride + l * CRp + f * R + v : addr_of(z, t.point_of_lattice[l], f * R + v);
            }
            wf_w += wavefronts(a);
          }
    int per_element = Q * CR;
    for (int base = 0; base < E * per_element; base += threads)
      for (int warp = 0; warp * 32 < threads; ++warp) {
        std::vector<long> a(32, -1);
        for (int lane = 0; lane < 32; ++lane) {
          int i = base + warp * 32 + lane; if (warp * 32 + lane >= threads || i >= E * per_element) continue;
          int e = i / per_element, r = i % per_element;
          a[lane] = mode >= 3 ? long(e) * stride + lattice_of_point[r / CR] * CRp + r % CR : addr_of(e, r / CR, r % CR);
        }
        wf_r += wavefronts(a);
      }
    printf("%s p%d C=%d E=%d mode %d stride %d: last-stage write wf/elem %.1f, store read wf/elem %.1f, output buffer bytes/elem %d\n",
           argv[1], order, C, E, mode, stride, double(wf_w) / E, double(wf_r) / E, stride * 8);
  }
}
