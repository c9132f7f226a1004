// SPDX-License-Identifier: BSD-3-Clause
// JsonWriter: the --json output of every command, written by hand (one object on stdout, no Debian
// JSON library needed for ~10 kinds of value). Every string (a key or a value) is made printable
// first, once, here (core/printable_text.hpp: control characters and bytes of invalid UTF-8 as the
// four characters \xHH), since names and paths from a mesh file may hold any byte and a JSON string
// can hold only valid UTF-8; what is left needs RFC 8259's escapes for the quote and the backslash
// only, so a file's ESC reads \x1b once the document is parsed, as in the table and in messages.
// Doubles are printed with 17 significant digits so that they read back bit for bit; NaN and
// infinities, which JSON cannot represent, become null.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include <feinterp/core/printable_text.hpp>

namespace feinterp::app {

/// The inside of a JSON string holding `text` (any bytes): valid UTF-8 with no control character once
/// printable_text has run, so only '"' and '\\' are left to escape.
inline std::string json_escape(const std::string& text) {
  const std::string printable = printable_text(text);
  std::string out;
  out.reserve(printable.size() + 2);
  for (const char ch : printable) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

inline std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

/// Streams one JSON document; commas and nesting are tracked, so callers only say what comes next.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  JsonWriter& key(const std::string& name) {
    separate();
    out_ << '"' << json_escape(name) << "\":";
    after_key_ = true;
    return *this;
  }

  JsonWriter& value(const std::string& text) { return raw('"' + json_escape(text) + '"'); }
  JsonWriter& value(const char* text) { return value(std::string(text)); }
  JsonWriter& value(double x) { return raw(json_number(x)); }
  JsonWriter& value(int x) { return raw(std::to_string(x)); }
  JsonWriter& value(long x) { return raw(std::to_string(x)); }
  JsonWriter& value(long long x) { return raw(std::to_string(x)); }
  JsonWriter& value(unsigned long x) { return raw(std::to_string(x)); }
  JsonWriter& value(unsigned long long x) { return raw(std::to_string(x)); }
  JsonWriter& value(bool x) { return raw(x ? "true" : "false"); }
  JsonWriter& null() { return raw("null"); }
  template <class T>
  JsonWriter& value(const std::vector<T>& list) {
    begin_array();
    for (const T& x : list) value(x);
    return end_array();
  }

  template <class T>
  JsonWriter& member(const std::string& name, const T& x) {
    key(name);
    return value(x);
  }

 private:
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_ << ',';
      first_.back() = false;
    }
  }
  JsonWriter& raw(const std::string& text) {
    separate();
    out_ << text;
    if (first_.empty()) out_ << '\n';
    return *this;
  }
  JsonWriter& open(char bracket) {
    separate();
    out_ << bracket;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char bracket) {
    first_.pop_back();
    out_ << bracket;
    if (first_.empty()) out_ << '\n';
    return *this;
  }

  std::ostream& out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace feinterp::app
