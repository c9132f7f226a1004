// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/tag_set.hpp>

#include <algorithm>

namespace feinterp::detail {

std::uint32_t TagSet::seal() {
  count_ = tags_.size();
  sealed_ = true;
  std::uint32_t duplicate = 0;
  if (std::size_t(max_) / 8 <= tags_.size() + 4096) {
    bitmap_.assign(std::size_t(max_) / 64 + 1, 0);
    for (std::uint32_t t : tags_) {
      std::uint64_t& word = bitmap_[t / 64];
      const std::uint64_t bit = std::uint64_t(1) << (t % 64);
      if ((word & bit) && !duplicate) duplicate = t;
      word |= bit;
    }
    std::vector<std::uint32_t>().swap(tags_);
    return duplicate;
  }
  // Sparse: the first duplicate in file order is the one a later locating pass finds first; here any
  // duplicate will do, the smallest.
  std::sort(tags_.begin(), tags_.end());
  const auto twice = std::adjacent_find(tags_.begin(), tags_.end());
  if (twice != tags_.end()) duplicate = *twice;
  tags_.shrink_to_fit();
  return duplicate;
}

bool TagSet::contains(std::uint32_t tag) const {
  if (!bitmap_.empty()) return tag / 64 < bitmap_.size() && (bitmap_[tag / 64] >> (tag % 64) & 1);
  return std::binary_search(tags_.begin(), tags_.end(), tag);
}

}  // namespace feinterp::detail
