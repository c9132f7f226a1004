// SPDX-License-Identifier: BSD-3-Clause
// TagSet: the node or element tags of a file, as the pre-scan collects them: does a tag exist, and
// which tag appears twice. Tags are 1 .. 2^31 - 1 (checked before they get here: Gmsh 4.8 looks them
// up as int), kept as 4 bytes each while a section is read. seal() then keeps a bitmap when the tags
// are dense (largest tag / 8 bytes at most the count + 4 KiB) and a sorted array otherwise, so that
// memory is at most ~9 bytes per tag while sealing and 4 (sparse) or ~1 (dense) after: bounded by the
// file's size (a tag takes at least 2 bytes of an ASCII file, 4 of a binary one), never by the largest
// tag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace feinterp::detail {

class TagSet {
 public:
  /// Room for `count` tags (a count from the file: the caller bounds it by the bytes left).
  void reserve(std::size_t count) { tags_.reserve(count); }
  void add(std::uint32_t tag) {
    tags_.push_back(tag);
    if (tag > max_) max_ = tag;
  }
  /// Builds the lookup. Returns the first tag, in the order added, that was added before; 0 if none.
  std::uint32_t seal();
  bool contains(std::uint32_t tag) const;
  std::size_t size() const { return count_; }
  bool sealed() const { return sealed_; }

 private:
  std::vector<std::uint32_t> tags_;    // sorted after seal() when sparse, empty when dense
  std::vector<std::uint64_t> bitmap_;  // bit t set <=> tag t present, when dense
  std::uint32_t max_ = 0;
  std::size_t count_ = 0;
  bool sealed_ = false;
};

}  // namespace feinterp::detail
