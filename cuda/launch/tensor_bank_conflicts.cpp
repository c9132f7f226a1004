// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/launch/tensor_bank_conflicts.hpp>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/sum_factorisation_lines.hpp>

namespace feinterp::backends::cuda {

namespace {

/// One block's accesses, accumulated per buffer. An instruction is executed by every thread of the block;
/// word(thread) is the word it touches, relative to the buffer's start, or -1 for an idle thread.
class WavefrontCounter {
 public:
  WavefrontCounter(int threads, int banks) : threads_(threads), banks_(banks) {}

  template <class Word>
  void instruction(int buffer, Word word) {
    for (int phase = 0; phase < threads_; phase += banks_) {
      // Distinct words per bank, for the banks_ lanes of this wavefront.
      long words[32];
      int count = 0;
      for (int lane = phase; lane < phase + banks_ && lane < threads_; ++lane) {
        const long w = word(lane);
        if (w >= 0) words[count++] = w;
      }
      if (count == 0) continue;
      std::sort(words, words + count);
      count = int(std::unique(words, words + count) - words);
      int per_bank[32] = {};
      int most = 0;
      for (int i = 0; i < count; ++i) most = std::max(most, ++per_bank[words[i] % banks_]);
      wavefronts_[buffer] += most;
    }
  }

  long wavefronts(int buffer) const { return wavefronts_[buffer]; }

 private:
  int threads_, banks_;
  long wavefronts_[2] = {0, 0};
};

void check_shape(const LaunchShape& s, const std::vector<int>& node_lattice, const std::vector<int>& point_of_lattice) {
  const int d = dimension(s.type.shape), P1 = s.type.order + 1, Q1 = s.points_per_direction;
  if ((s.type.shape != Shape::quadrilateral && s.type.shape != Shape::hexahedron) || is_transpose(s.op) ||
      Q1 < min_tensor_points_per_direction || Q1 > max_tensor_points_per_direction(s.type.order) ||
      s.points != integer_power(Q1, d))
    throw std::invalid_argument("no sum-factorised forward launch for " + describe_launch(s));
  if (node_lattice.size() != std::size_t(integer_power(P1, d)) || point_of_lattice.size() != std::size_t(s.points))
    throw std::invalid_argument("tensor maps of " + std::to_string(node_lattice.size()) + " nodes and " +
                                std::to_string(point_of_lattice.size()) + " points for " + describe_launch(s));
}

}  // namespace

TensorBufferWavefronts count_tensor_wavefronts(const LaunchShape& s, const std::vector<int>& node_lattice,
                                               const std::vector<int>& point_of_lattice, TensorBufferResidues residues) {
  check_shape(s, node_lattice, point_of_lattice);
  const int D = dimension(s.type.shape), P1 = s.type.order + 1, Q1 = s.points_per_direction;
  const int N = integer_power(P1, D), Q = s.points, C = s.components, S = s.space_dimension;
  const bool gradients = s.op != Operation::values, physical = s.op == Operation::physical_gradients;
  const int F = tensor_forward_fields(s.op, C, S), R = result_directions(s.op, D, S), CR = C * R;
  const int L = tensor_lines_lattice_size(D, P1);
  const std::size_t real_bytes = s.precision == Precision::fp64 ? 8 : 4;
  const int banks = shared_bank_words(real_bytes);
  const int workers = tensor_forward_threads_per_element(D, P1, Q1, F);
  const int E = 32 / std::gcd(workers, 32);  // the warps' alignment to the elements repeats after E
  const int threads = E * workers;
  const TensorSharedLayout layout = tensor_shared_layout(D, P1, Q1, S, s.op, C, E, real_bytes, residues);
  const int CRp = layout.padded_results;
  auto element_word = [&](int buffer, int element) { return long(element) * layout.stride[buffer]; };
  WavefrontCounter counter(threads, banks);

  // The gather, i = (element, node, component); for physical gradients then the S coordinates as fields
  // C .. C + S - 1 (kernels/sum_factorised/sum_factorised_block.cuh's gather_lattice_coordinates).
  auto gather = [&](int per_node, int first_field) {
    for (int round = 0; round * threads < E * N * per_node; ++round)
      counter.instruction(0, [&](int thread) -> long {
        const int i = round * threads + thread;
        if (i >= E * N * per_node) return -1;
        const int k = i % per_node, n = i / per_node % N, element = i / per_node / N;
        return element_word(0, element) + (first_field + k) * L + tensor_lines_lattice_slot(node_lattice[n], P1);
      });
  };
  gather(C, 0);
  if (physical) gather(S, C);

  // The stages: thread = element * workers + worker, stage s from buffer s % 2 to (s + 1) % 2.
  for (int stage = 0; stage < D; ++stage) {
    const bool last = stage == D - 1;
    const int inner = integer_power(Q1, stage), outer = integer_power(P1, D - 1 - stage);
    const int Vin = tensor_variants_in(gradients, stage), Vout = tensor_variants_out(D, gradients, stage);
    const int lines = F * outer * inner;
    const int in_step = stage == 0 ? 1 : tensor_lines_stage_row(Q1, stage - 1);
    const int in_outer_step = stage == 0 ? (P1 | 1) : P1 * in_step, in_size = outer * in_outer_step;
    const int out_outer_step = last ? Q1 * inner : tensor_lines_stage_row(Q1, stage), out_size = outer * out_outer_step;
    const int in = stage % 2, out = (stage + 1) % 2;
    for (int round = 0; round * workers < lines; ++round) {
      struct Line {
        int element, f, o, i;
      };
      auto line_of = [&](int thread, Line& l) {
        const int line = round * workers + thread % workers;
        if (line >= lines) return false;
        l = {thread / workers, line / inner / outer, line / inner % outer, line % inner};
        return true;
      };
      for (int a = 0; a < P1; ++a)
        for (int t = 0; t < Vin; ++t)
          counter.instruction(in, [&](int thread) -> long {
            Line l;
            if (!line_of(thread, l)) return -1;
            return element_word(in, l.element) + (l.f * Vin + t) * in_size + l.o * in_outer_step + l.i + a * in_step;
          });
      for (int q = 0; q < Q1; ++q)
        for (int v = 0; v < Vout; ++v)
          counter.instruction(out, [&](int thread) -> long {
            Line l;
            if (!line_of(thread, l)) return -1;
            const int position = l.o * out_outer_step + q * inner + l.i;
            const long base = element_word(out, l.element);
            if (!last) return base + (l.f * Vout + v) * out_size + position;
            if (physical) return base + (l.f * Vout + v) * Q + position;  // [(f * D + d) * Q + l]
            return base + (l.f * Vout + v) + long(point_of_lattice[position]) * CRp;
          });
    }
  }

  // Physical gradients, the points step: J's rows, then each component's D reference gradients read and
  // S physical ones written to the output rows, in the other buffer (fem/sum_factorisation.hpp's
  // tensor_physical_gradients, one lattice point per worker).
  if (physical) {
    const int gradients_buffer = D % 2, rows_buffer = (D + 1) % 2;
    for (int round = 0; round * workers < Q; ++round) {
      auto point = [&](int thread) { return round * workers + thread % workers; };
      auto read = [&](int row) {
        counter.instruction(gradients_buffer, [&](int thread) -> long {
          const int l = point(thread);
          return l < Q ? element_word(gradients_buffer, thread / workers) + long(row) * Q + l : -1;
        });
      };
      for (int row = C * D; row < (C + S) * D; ++row) read(row);
      for (int c = 0; c < C; ++c) {
        for (int d = 0; d < D; ++d) read(c * D + d);
        for (int k = 0; k < S; ++k)
          counter.instruction(rows_buffer, [&](int thread) -> long {
            const int l = point(thread);
            return l < Q ? element_word(rows_buffer, thread / workers) + long(point_of_lattice[l]) * CRp + c * S + k : -1;
          });
      }
    }
  }

  // The store: consecutive threads read the group's consecutive results, each element's rows in order.
  const int per_element = Q * CR;
  for (int round = 0; round * threads < E * per_element; ++round)
    counter.instruction(layout.output_buffer, [&](int thread) -> long {
      const int i = round * threads + thread;
      if (i >= E * per_element) return -1;
      const int element = i / per_element, r = i % per_element;
      return element_word(layout.output_buffer, element) + (CRp == CR ? r : r + r / CR);
    });

  TensorBufferWavefronts result;
  for (int b = 0; b < 2; ++b) result.buffer[b] = double(counter.wavefronts(b)) / E;
  return result;
}

TensorBufferResidues choose_tensor_buffer_residues(const LaunchShape& s, const std::vector<int>& node_lattice,
                                                   const std::vector<int>& point_of_lattice) {
  const std::size_t real_bytes = s.precision == Precision::fp64 ? 8 : 4;
  const int banks = shared_bank_words(real_bytes);
  const TensorSharedLayout layout =
      tensor_shared_layout(dimension(s.type.shape), s.type.order + 1, s.points_per_direction, s.space_dimension, s.op,
                           s.components, 1, real_bytes);
  // The default first, then the residues by the stride they give (the least padding first).
  const TensorBufferWavefronts odd = count_tensor_wavefronts(s, node_lattice, point_of_lattice, {});
  if (layout.alternating) {
    // One residue for both buffers, so that every group sees the strides the count assumed: the one with
    // the fewest wavefronts of the two together.
    TensorBufferResidues common;
    double fewest = odd.total();
    int common_stride = layout.stride[0];
    for (int r = 0; r < banks; ++r) {
      const double counted = count_tensor_wavefronts(s, node_lattice, point_of_lattice, {{r, r}}).total();
      const int stride = tensor_buffer_stride(layout.needed[0], r, banks);
      if (counted < fewest || (counted == fewest && common.buffer[0] >= 0 && stride < common_stride)) {
        fewest = counted;
        common = {{r, r}};
        common_stride = stride;
      }
    }
    return common;
  }
  TensorBufferResidues best;
  double fewest[2] = {odd.buffer[0], odd.buffer[1]};
  int best_stride[2] = {layout.stride[0], layout.stride[1]};
  for (int r = 0; r < banks; ++r) {
    const TensorBufferWavefronts counted = count_tensor_wavefronts(s, node_lattice, point_of_lattice, {{r, r}});
    for (int b = 0; b < 2; ++b) {
      const int stride = tensor_buffer_stride(layout.needed[b], r, banks);
      if (counted.buffer[b] < fewest[b] || (counted.buffer[b] == fewest[b] && best.buffer[b] >= 0 && stride < best_stride[b])) {
        fewest[b] = counted.buffer[b];
        best.buffer[b] = r;
        best_stride[b] = stride;
      }
    }
  }
  return best;
}

}  // namespace feinterp::backends::cuda
