// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/msh_cursor.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>

#include <feinterp/mesh/error.hpp>
#include <feinterp/core/printable_text.hpp>

namespace feinterp::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

// A token quoted for a message: at most 40 bytes of it, escaped (core/printable_text.hpp).
std::string quote(std::string_view token) { return "'" + printable_text(token, 40) + "'"; }

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

}  // namespace

std::string range_text(long long min, long long max) {
  return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
}

MshCursor::MshCursor(std::string_view bytes, std::string file) : bytes_(bytes), file_(std::move(file)) {}

MshCursor::Position MshCursor::position() const {
  Position p{offset_, line_};
  if (byte_offsets_) return p;
  while (p.offset < bytes_.size() && is_space(bytes_[p.offset])) {
    if (bytes_[p.offset] == '\n') ++p.line;
    ++p.offset;
  }
  return p;
}

std::string MshCursor::describe(Position p) const {
  return byte_offsets_ ? "byte offset " + std::to_string(p.offset) : "line " + std::to_string(p.line);
}

std::string MshCursor::where(Position p) const {
  return "cannot load mesh '" + printable_text(file_) + "': " +
         (section_.empty() ? "" : "section $" + printable_text(section_) + ", ") + describe(p);
}

void MshCursor::fail_at(Position p, const std::string& problem) const { throw MeshError(where(p) + ": " + problem); }

void MshCursor::fail_truncated(const char* what) const {
  fail("the file ends here, in the middle of " +
       std::string(section_.empty() ? "it" : "section $" + printable_text(section_)) + " (it is truncated); expected " +
       what);
}

// ---- ASCII ----------------------------------------------------------------------------------------------

void MshCursor::skip_whitespace() {
  while (offset_ < bytes_.size() && is_space(bytes_[offset_])) {
    if (bytes_[offset_] == '\n') ++line_;
    ++offset_;
  }
}

std::string_view MshCursor::token(const char* what, Span span) {
  if (span == Span::same_line) {
    while (offset_ < bytes_.size() && (bytes_[offset_] == ' ' || bytes_[offset_] == '\t')) ++offset_;
    if (offset_ < bytes_.size() && is_space(bytes_[offset_]))
      fail_at(here(), std::string("the line ends where ") + what + " should be; expected it on the same line");
  } else {
    skip_whitespace();
  }
  if (offset_ >= bytes_.size()) fail_truncated(what);
  const std::size_t begin = offset_;
  while (offset_ < bytes_.size() && !is_space(bytes_[offset_])) ++offset_;
  const std::string_view t = bytes_.substr(begin, offset_ - begin);
  if (offset_ >= bytes_.size()) {  // a number cut by the end of the file may be another number
    offset_ = begin;
    fail("the file ends inside " + std::string(what) + " " + quote(t) + " (it is truncated); expected the rest of " +
         (section_.empty() ? std::string("the file") : "section $" + printable_text(section_)));
  }
  return t;
}

long long MshCursor::integer(long long min, long long max, const char* what, Span span) {
  const Position at = position();
  std::string_view t = token(what, span);
  std::string_view digits = t;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
  long long value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  const bool whole = end == digits.data() + digits.size() && !digits.empty() && !(t[0] == '+' && digits[0] == '-');
  if (error == std::errc::result_out_of_range)
    fail_at({at.offset, at.line}, std::string(what) + " " + quote(t) + " is out of range; expected " +
                                      range_text(min, max));
  if (error != std::errc() || !whole)
    fail_at(at, "found " + quote(t) + " where " + what + " should be; expected " + range_text(min, max));
  if (value < min || value > max)
    fail_at(at, std::string(what) + " is " + std::to_string(value) + "; expected " + range_text(min, max));
  return value;
}

double MshCursor::real(const char* what, bool finite, Span span) {
  const Position at = position();
  std::string_view t = token(what, span);
  std::string_view text = t;
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  // out_of_range: 1e400 (or 1e-400) does not fit a double. Gmsh's fscanf would give inf (or 0).
  if (error == std::errc::result_out_of_range)
    fail_at(at, std::string(what) + " " + quote(t) + " does not fit a double; expected a finite number");
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || (t[0] == '+' && text[0] == '-'))
    fail_at(at, "found " + quote(t) + " where " + what + " should be; expected a number");
  if (finite && !std::isfinite(value))
    fail_at(at, std::string(what) + " is " + number_text(value) + "; expected a finite number");
  return value;
}

std::string_view MshCursor::line(std::size_t max_length, const char* what, bool last_line_may_end_the_file) {
  if (offset_ >= bytes_.size()) fail_truncated(what);
  const std::size_t begin = offset_;
  const void* newline = std::memchr(bytes_.data() + begin, '\n', bytes_.size() - begin);
  const std::size_t end = newline ? std::size_t(static_cast<const char*>(newline) - bytes_.data()) : bytes_.size();
  if (end - begin + 1 > max_length)
    fail(std::string(what) + " is a line of " + std::to_string(end - begin + 1) + " bytes; expected at most " +
         std::to_string(max_length) + " (Gmsh 4.8 reads no more)");
  if (!newline && !last_line_may_end_the_file) fail_truncated(("the end of the line of " + std::string(what)).c_str());
  offset_ = newline ? end + 1 : end;
  line_ += newline ? 1 : 0;
  std::string_view l = bytes_.substr(begin, end - begin);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

void MshCursor::advance_to(std::size_t offset) {
  offset = std::min(offset, bytes_.size());
  if (offset <= offset_) return;
  if (!byte_offsets_) line_ += std::size_t(std::count(bytes_.begin() + std::ptrdiff_t(offset_), bytes_.begin() + std::ptrdiff_t(offset), '\n'));
  offset_ = offset;
}

void MshCursor::limit_line(std::size_t max_length, const char* what) const {
  if (rest_of_line_length() > max_length)
    fail(std::string("the line of ") + what + " has " + std::to_string(rest_of_line_length()) +
         " bytes; expected at most " + std::to_string(max_length) + " (Gmsh 4.8 reads no more)");
}

long long MshCursor::integer_line(long long min, long long max, const char* what, std::size_t max_length) {
  limit_line(max_length, what);
  const long long value = integer(min, max, what, Span::same_line);
  end_of_line(what);
  return value;
}

void MshCursor::end_of_line(const char* what) {
  while (offset_ < bytes_.size() && (bytes_[offset_] == ' ' || bytes_[offset_] == '\t' || bytes_[offset_] == '\r'))
    ++offset_;
  if (offset_ >= bytes_.size()) return;
  if (bytes_[offset_] != '\n') {
    const std::size_t end = std::min(bytes_.size(), offset_ + 40);
    std::size_t stop = offset_;
    while (stop < end && bytes_[stop] != '\n') ++stop;
    fail("found " + quote(bytes_.substr(offset_, stop - offset_)) + " after " + what + "; expected the end of the line");
  }
  ++offset_;
  ++line_;
}

bool MshCursor::line_starts_with(std::string_view prefix) const {
  return bytes_.substr(offset_, prefix.size()) == prefix;
}

std::size_t MshCursor::rest_of_line_length() const {
  const void* newline = std::memchr(bytes_.data() + offset_, '\n', bytes_.size() - offset_);
  return newline ? std::size_t(static_cast<const char*>(newline) - (bytes_.data() + offset_)) + 1 : remaining();
}

// ---- binary ---------------------------------------------------------------------------------------------

void MshCursor::need(std::uint64_t count, std::size_t size, const char* what) const {
  if (count > remaining() / size)
    fail("the file has " + std::to_string(remaining()) + " bytes left, fewer than the " + std::to_string(count) + " x " +
         std::to_string(size) + " bytes of " + what + "; expected that many (a count in the file is too large, or the file "
         "is truncated)");
}

void MshCursor::skip(std::size_t n) { offset_ += std::min(n, remaining()); }

long long MshCursor::int32(long long min, long long max, const char* what) {
  if (remaining() < 4) fail_truncated(what);
  std::int32_t value;
  std::memcpy(&value, bytes_.data() + offset_, 4);
  if (value < min || value > max)
    fail(std::string(what) + " is " + std::to_string(value) + "; expected " + range_text(min, max));
  offset_ += 4;
  return value;
}

std::uint64_t MshCursor::uint64(std::uint64_t min, std::uint64_t max, const char* what) {
  if (remaining() < 8) fail_truncated(what);
  std::uint64_t value;
  std::memcpy(&value, bytes_.data() + offset_, 8);
  if (value < min || value > max)
    fail(std::string(what) + " is " + std::to_string(value) + "; expected an integer from " + std::to_string(min) +
         " to " + std::to_string(max));
  offset_ += 8;
  return value;
}

double MshCursor::float64(const char* what, bool finite) {
  if (remaining() < 8) fail_truncated(what);
  double value;
  std::memcpy(&value, bytes_.data() + offset_, 8);
  if (finite && !std::isfinite(value))
    fail(std::string(what) + " is " + number_text(value) + "; expected a finite number");
  offset_ += 8;
  return value;
}

}  // namespace feinterp::detail
