// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/ordering/hilbert_curve.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace feinterp {

int max_hilbert_bits(int dimensions) {
  if (dimensions < 1 || dimensions > 3)
    throw std::invalid_argument("Hilbert curve in " + std::to_string(dimensions) + " dimensions, expected 1, 2 or 3");
  return dimensions == 1 ? 32 : 63 / dimensions;
}

std::uint64_t hilbert_index(const std::uint32_t* cell, int dimensions, int bits) {
  const int max_bits = max_hilbert_bits(dimensions);
  if (bits < 1 || bits > max_bits)
    throw std::invalid_argument("Hilbert curve with " + std::to_string(bits) + " bits per axis in " +
                                std::to_string(dimensions) + "D, expected 1 to " + std::to_string(max_bits));
  std::uint32_t x[3] = {0, 0, 0};
  for (int i = 0; i < dimensions; ++i) {
    if (bits < 32 && cell[i] >> bits)
      throw std::invalid_argument("Hilbert curve cell coordinate " + std::to_string(cell[i]) + " on axis " +
                                  std::to_string(i) + ", expected below 2^" + std::to_string(bits));
    x[i] = cell[i];
  }
  const int n = dimensions;
  const std::uint32_t top = std::uint32_t(1) << (bits - 1);
  // Skilling's AxestoTranspose: inverse undo, from the top bit down...
  for (std::uint32_t q = top; q > 1; q >>= 1) {
    const std::uint32_t p = q - 1;
    for (int i = 0; i < n; ++i) {
      if (x[i] & q) {
        x[0] ^= p;  // invert
      } else {
        const std::uint32_t t = (x[0] ^ x[i]) & p;  // exchange
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  // ...then Gray encode.
  for (int i = 1; i < n; ++i) x[i] ^= x[i - 1];
  std::uint32_t t = 0;
  for (std::uint32_t q = top; q > 1; q >>= 1)
    if (x[n - 1] & q) t ^= q - 1;
  for (int i = 0; i < n; ++i) x[i] ^= t;
  // The transposed index: bit b of axis i is bit (b*n + n-1-i) of the index.
  std::uint64_t index = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < n; ++i) index = (index << 1) | ((x[i] >> b) & 1u);
  return index;
}

HilbertBox::HilbertBox(const double* coordinates, offset_t count) {
  double lower[3] = {0, 0, 0}, upper[3] = {0, 0, 0};
  for (offset_t i = 0; i < count; ++i)
    for (int k = 0; k < 3; ++k) {
      const double x = coordinates[i * 3 + k];
      if (!std::isfinite(x))
        throw std::invalid_argument("Hilbert ordering: point " + std::to_string(i) + " has coordinate " +
                                    std::to_string(k) + " = " + std::to_string(x) + ", expected a finite number");
      lower[k] = i == 0 ? x : std::min(lower[k], x);
      upper[k] = i == 0 ? x : std::max(upper[k], x);
    }
  double side = 0;
  for (int k = 0; k < 3; ++k) side = std::max(side, upper[k] - lower[k]);
  if (!(side > 0)) return;  // no points, or all in one place: every key is 0
  dimensions_ = 0;
  for (int k = 0; k < 3; ++k)
    if (upper[k] - lower[k] > 1e-9 * side) {
      axes_[dimensions_] = k;
      lower_[dimensions_] = lower[k];
      ++dimensions_;
    }
  bits_ = max_hilbert_bits(dimensions_);
  cells_per_unit_ = std::ldexp(1.0, bits_) / side;
}

std::uint64_t HilbertBox::key(const double* x) const {
  if (dimensions_ == 0) return 0;
  const double last = std::ldexp(1.0, bits_) - 1;
  std::uint32_t cell[3] = {0, 0, 0};
  for (int i = 0; i < dimensions_; ++i) {
    double c = std::floor((x[axes_[i]] - lower_[i]) * cells_per_unit_);
    if (!(c > 0)) c = 0;  // below the box, or NaN
    if (c > last) c = last;
    cell[i] = std::uint32_t(c);
  }
  return hilbert_index(cell, dimensions_, bits_);
}

}  // namespace feinterp
