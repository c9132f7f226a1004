// SPDX-License-Identifier: BSD-3-Clause
// MshCursor: how the pre-scan (detail/msh_scan.hpp) reads an MSH file's bytes, held in memory
// (a sealed snapshot of the file: detail/sealed_file.hpp). ASCII numbers are whitespace-separated
// tokens, read whole (a token that is not entirely a number is an error, where fscanf would read
// "12abc" as 12 and misparse the rest); binary numbers are little-endian, as the integer 1 in
// $MeshFormat says. Every failure is a MeshError that names the user's file, the section, the line
// (ASCII files) or byte offset (binary files), what was found and what was expected:
//
//   cannot load mesh 'a.msh': section $Nodes, line 12: the node tag is 2147483648; expected an
//   integer from 1 to 2147483647
//
// Memory: none beyond the caller's; every read is bounds-checked against the bytes left.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace feinterp::detail {

class MshCursor {
 public:
  MshCursor(std::string_view bytes, std::string file);

  struct Position {
    std::size_t offset = 0;
    std::size_t line = 1;
  };

  /// From here on, positions are byte offsets (binary files: line numbers mean nothing there).
  void use_byte_offsets() { byte_offsets_ = true; }
  bool byte_offsets() const { return byte_offsets_; }
  /// The section that messages name ("" between sections), without the '$'.
  void set_section(std::string_view name) { section_ = name; }

  /// Where the next token starts (ASCII files: past whitespace, so that a message names the line of the
  /// token it is about), or the current byte (binary files).
  Position position() const;
  /// The current byte and line, without skipping anything.
  Position here() const { return {offset_, line_}; }
  /// "line 12" or "byte offset 4242".
  std::string describe(Position p) const;
  /// "cannot load mesh 'FILE': section $Nodes, line 12" (or without the section outside one).
  std::string where(Position p) const;
  std::string where() const { return where(position()); }
  /// Throws MeshError "<where(p)>: <problem>".
  [[noreturn]] void fail_at(Position p, const std::string& problem) const;
  [[noreturn]] void fail(const std::string& problem) const { fail_at(position(), problem); }

  bool at_end() const { return offset_ >= bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - offset_; }
  std::size_t offset() const { return offset_; }
  std::string_view bytes() const { return bytes_; }

  // ---- ASCII ----------------------------------------------------------------------------------------
  /// Tokens are separated by any whitespace, newlines included (as fscanf reads them), unless
  /// `same_line`: then the token must be on the current line, separated by spaces or tabs only (where
  /// Gmsh reads the rest of a line with fgets and parses it with sscanf).
  enum class Span { lines, same_line };

  /// The next token as an integer in [min, max]; `what` names it: "the node tag".
  long long integer(long long min, long long max, const char* what, Span span = Span::lines);
  /// The next token as a number; finite ones only when `finite`.
  double real(const char* what, bool finite, Span span = Span::lines);
  /// The next line, without its "\n" or "\r\n", at most `max_length` bytes long including the newline
  /// (Gmsh reads these lines with fgets into a buffer of that size). Without a newline before the end
  /// of the file, the line is truncated, unless `last_line_may_end_the_file` (a final "$EndNodes").
  std::string_view line(std::size_t max_length, const char* what, bool last_line_may_end_the_file = false);
  /// A line holding exactly one integer in [min, max] (where Gmsh reads a line with fgets into a
  /// buffer of `max_length` bytes and takes its first number with sscanf).
  long long integer_line(long long min, long long max, const char* what, std::size_t max_length = 256);
  /// Only spaces, tabs and '\r' up to the end of the line, which is consumed (or the end of the file).
  void end_of_line(const char* what);
  /// Skips whitespace, newlines included.
  void skip_whitespace();
  /// Moves forward to `offset`, counting the lines passed.
  void advance_to(std::size_t offset);
  /// Fails unless the rest of the current line, newline included, has at most `max_length` bytes.
  void limit_line(std::size_t max_length, const char* what) const;
  /// Whether the next line starts with `prefix` (after no whitespace at all).
  bool line_starts_with(std::string_view prefix) const;
  /// Byte length of the current line from the current position up to and including its '\n'.
  std::size_t rest_of_line_length() const;

  // ---- binary ---------------------------------------------------------------------------------------
  long long int32(long long min, long long max, const char* what);
  std::uint64_t uint64(std::uint64_t min, std::uint64_t max, const char* what);
  double float64(const char* what, bool finite);
  /// Checks that `count` items of `size` bytes are left, before a loop reads them (so that a count
  /// taken from the file cannot make the loop run past the end).
  void need(std::uint64_t count, std::size_t size, const char* what) const;
  /// Advances over `n` bytes known to be there.
  void skip(std::size_t n);

 private:
  std::string_view token(const char* what, Span span);
  [[noreturn]] void fail_truncated(const char* what) const;

  std::string_view bytes_;
  std::string file_;
  std::string section_;
  std::size_t offset_ = 0;
  std::size_t line_ = 1;
  bool byte_offsets_ = false;
};

/// "2147483647" etc. for messages.
std::string range_text(long long min, long long max);

}  // namespace feinterp::detail
