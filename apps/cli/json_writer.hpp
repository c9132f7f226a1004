// SPDX-License-Identifier: BSD-3-Clause
// JsonWriter: the --json output of every command, written by hand (one object on stdout, no Debian
// JSON library needed for ~10 kinds of value). Strings are escaped per RFC 8259 (quote, backslash,
// control characters as \u00XX); doubles are printed with 17 significant digits so that they read
// back bit for bit; NaN and infinities, which JSON cannot represent, become null.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace feinterp::app {

inline std::string json_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out += ch;  // UTF-8 bytes pass through unchanged
        }
    }
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
