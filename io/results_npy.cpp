// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/results_npy.hpp>

#include <cstdint>
#include <stdexcept>

#include <feinterp/io/results_table.hpp>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "results_npy.cpp writes this machine's doubles as '<f8' (little-endian): add a byte swap for this machine"
#endif

namespace feinterp::io {

std::string npy_structured_header(const std::vector<std::string>& fields, std::size_t rows) {
  std::string descr;
  for (const std::string& name : fields) {
    for (char c : name)  // the names go into a Python string literal between single quotes
      if (c == '\'' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
        throw std::invalid_argument("npy: a field name with a quote, backslash or non-ASCII character: '" + name + "'");
    descr += (descr.empty() ? "" : ", ") + ("('" + name + "', '<f8')");
  }
  std::string header = "{'descr': [" + descr + "], 'fortran_order': False, 'shape': (" + std::to_string(rows) + ",), }";
  // magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64 (NPY 1.0 aligns the data).
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 65535)
    throw std::invalid_argument("npy: " + std::to_string(fields.size()) +
                                " fields make an NPY 1.0 header longer than 65535 bytes");
  const std::uint16_t length = std::uint16_t(header.size());
  const char preamble[10] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0, char(length & 0xff), char(length >> 8)};
  return std::string(preamble, sizeof preamble) + header;
}

NpyWriter::NpyWriter(std::string path) : path_(std::move(path)) {}

void NpyWriter::begin(const PointLayout& layout) {
  layout.check();
  layout_ = layout;
  const std::string header = npy_structured_header(table_columns(layout_), layout_.rows());
  file_ = std::make_unique<AtomicFile>(path_);
  file_->write(header);
}

void NpyWriter::write(const PointChunk& chunk) {
  static_assert(sizeof(double) == 8, "NPY '<f8' is an 8-byte IEEE double");
  order_.next(layout_, chunk);
  for_each_row(layout_, chunk, row_, [&](const double* values) { file_->write(values, row_.size() * sizeof(double)); });
}

void NpyWriter::finish() {
  order_.finish(layout_);
  file_->commit();
}

}  // namespace feinterp::io
