// SPDX-License-Identifier: BSD-3-Clause
// Permutation: a bijection of [0, n) kept in both directions, and the moving of array rows through it.
//
// A renumbering (fem/ordering/renumbering.hpp) gives each node and each element a new index. Data indexed by the
// old numbering (a nodal field u[node*C + c], an element's rows of results) is carried to the new one
// with to_new_order, and results computed on the renumbered mesh back to the original with
// to_old_order: a gather of whole rows, so values are moved, never recomputed (bitwise the same).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace feinterp {

template <class Index>
struct Permutation {
  std::vector<Index> new_to_old;  ///< new_to_old[new index] = old index
  std::vector<Index> old_to_new;  ///< old_to_new[old index] = new index

  std::size_t size() const { return new_to_old.size(); }

  /// The permutation whose new order is `order` (order[new] = old). Throws std::invalid_argument naming
  /// `what` and the first index that is out of [0, n) or appears twice: a renumbering that is not a
  /// bijection would silently lose nodes or elements.
  static Permutation from_new_to_old(std::vector<Index> order, const std::string& what) {
    Permutation p;
    const std::size_t n = order.size();
    p.old_to_new.assign(n, Index(-1));
    for (std::size_t i = 0; i < n; ++i) {
      const Index old = order[i];
      if (old < 0 || std::size_t(old) >= n)
        throw std::invalid_argument(what + ": new index " + std::to_string(i) + " maps to old index " +
                                    std::to_string(old) + ", expected an index in [0, " + std::to_string(n) + ")");
      if (p.old_to_new[std::size_t(old)] != Index(-1))
        throw std::invalid_argument(what + ": old index " + std::to_string(old) + " appears twice (new indices " +
                                    std::to_string(p.old_to_new[std::size_t(old)]) + " and " + std::to_string(i) +
                                    "), expected a permutation");
      p.old_to_new[std::size_t(old)] = Index(i);
    }
    p.new_to_old = std::move(order);
    return p;
  }

  static Permutation identity(std::size_t n) {
    Permutation p;
    p.new_to_old.resize(n);
    for (std::size_t i = 0; i < n; ++i) p.new_to_old[i] = Index(i);
    p.old_to_new = p.new_to_old;
    return p;
  }

  bool is_identity() const {
    for (std::size_t i = 0; i < new_to_old.size(); ++i)
      if (new_to_old[i] != Index(i)) return false;
    return true;
  }

  /// First `this`, then `next` (which permutes this one's new order): the permutation from this one's
  /// old order to next's new order.
  Permutation then(const Permutation& next) const {
    if (next.size() != size())
      throw std::invalid_argument("composing permutations of " + std::to_string(size()) + " and " +
                                  std::to_string(next.size()) + " indices, expected equal sizes");
    Permutation p;
    p.new_to_old.resize(size());
    p.old_to_new.resize(size());
    for (std::size_t i = 0; i < size(); ++i) {
      p.new_to_old[i] = new_to_old[std::size_t(next.new_to_old[i])];
      p.old_to_new[std::size_t(p.new_to_old[i])] = Index(i);
    }
    return p;
  }

  /// `data` in the old order, rows of data.size() / size() values (a nodal field: C per node; an
  /// element's results: Q*C), returned in the new order.
  template <class T>
  std::vector<T> to_new_order(const std::vector<T>& data) const {
    return gather(data, new_to_old, "to_new_order");
  }

  /// `data` in the new order (results computed on the renumbered mesh), returned in the old order.
  template <class T>
  std::vector<T> to_old_order(const std::vector<T>& data) const {
    return gather(data, old_to_new, "to_old_order");
  }

 private:
  template <class T>
  std::vector<T> gather(const std::vector<T>& data, const std::vector<Index>& from, const char* name) const {
    const std::size_t n = size();
    if (n == 0) {
      if (!data.empty())
        throw std::invalid_argument(std::string("Permutation::") + name + ": " + std::to_string(data.size()) +
                                    " values for a permutation of 0 indices, expected none");
      return {};
    }
    if (data.size() % n != 0)
      throw std::invalid_argument(std::string("Permutation::") + name + ": " + std::to_string(data.size()) +
                                  " values for " + std::to_string(n) + " indices, expected a multiple of " +
                                  std::to_string(n) + " (whole rows)");
    const std::size_t row = data.size() / n;
    std::vector<T> out(data.size());
    for (std::size_t i = 0; i < n; ++i) {
      const T* source = data.data() + std::size_t(from[i]) * row;
      for (std::size_t k = 0; k < row; ++k) out[i * row + k] = source[k];
    }
    return out;
  }
};

}  // namespace feinterp
