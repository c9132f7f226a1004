// SPDX-License-Identifier: BSD-3-Clause
// printable_text (core/printable_text.hpp): what a message may quote of a file's bytes. Valid UTF-8
// passes unchanged; control characters (C0, DEL, C1), NULs inside the string and every byte of invalid
// UTF-8 become \xHH; the result is valid UTF-8 with no control byte, and escaping it again changes nothing.
#include <gtest/gtest.h>

#include <string>

#include <feinterp/core/printable_text.hpp>

using namespace feinterp;
using namespace std::string_literals;

namespace {

// Whether `text` is well-formed UTF-8 with no control byte at all (what a terminal or a JSON parser gets).
bool is_printable_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
    std::size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n == 0 || i + n > text.size()) return false;
    if (n == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) return false;  // C1 control
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return false;
    i += n;
  }
  return true;
}

TEST(PrintableText, ValidUtf8PassesUnchanged) {
  for (const std::string text : {""s, "domain"s, "Température"s, "領域"s, "поверхность"s, "𝜕Ω boundary"s,
                                 "a 'quoted' \"name\" with a \\ backslash"s, "\u00a0no-break space"s,
                                 "\U0010ffff"s, "\ud7ff\ue000"s})
    EXPECT_EQ(printable_text(text), text) << text;
}

TEST(PrintableText, ControlCharactersBecomeHexEscapes) {
  EXPECT_EQ(printable_text("\x1b[2J"), "\\x1b[2J");                      // clear the screen
  EXPECT_EQ(printable_text("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");   // set the window title
  EXPECT_EQ(printable_text("a\tb\nc\rd"), "a\\x09b\\x0ac\\x0dd");
  EXPECT_EQ(printable_text("\x7f"), "\\x7f");                             // DEL
  EXPECT_EQ(printable_text("\x01\x1f"), "\\x01\\x1f");
  EXPECT_EQ(printable_text("\xc2\x9b" "2J"), "\\xc2\\x9b2J");             // U+009B, the C1 CSI
  EXPECT_EQ(printable_text("\xc2\x80\xc2\x9f\xc2\xa0"), "\\xc2\\x80\\xc2\\x9f\xc2\xa0");  // C1, then U+00A0 kept
}

TEST(PrintableText, NulInsideTheStringIsEscapedAndNothingAfterItIsLost) {
  const std::string text("wall\0\x1b[2J end", 13);
  ASSERT_EQ(text.size(), 13u);
  EXPECT_EQ(printable_text(text), "wall\\x00\\x1b[2J end");
  EXPECT_EQ(printable_text(std::string(3, '\0')), "\\x00\\x00\\x00");
}

TEST(PrintableText, InvalidUtf8BytesAreEscapedOneByOne) {
  EXPECT_EQ(printable_text("\xff"), "\\xff");
  EXPECT_EQ(printable_text("\xfe\xff name"), "\\xfe\\xff name");
  EXPECT_EQ(printable_text("\x80"), "\\x80");                         // a stray continuation byte
  EXPECT_EQ(printable_text("a\xbf" "b"), "a\\xbfb");
  // Overlong encodings: '/' in two bytes, NUL in two bytes, and 3- and 4-byte forms of small code points.
  EXPECT_EQ(printable_text("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(printable_text("\xc1\xbf"), "\\xc1\\xbf");
  EXPECT_EQ(printable_text("\xc0\x80"), "\\xc0\\x80");
  EXPECT_EQ(printable_text("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
  EXPECT_EQ(printable_text("\xe0\x9f\xbf"), "\\xe0\\x9f\\xbf");
  EXPECT_EQ(printable_text("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf");
  EXPECT_EQ(printable_text("\xf0\x8f\xbf\xbf"), "\\xf0\\x8f\\xbf\\xbf");
  // Surrogates (U+D800, U+DFFF) and code points past U+10FFFF.
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(printable_text("\xed\xbf\xbf"), "\\xed\\xbf\\xbf");
  EXPECT_EQ(printable_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(printable_text("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
  // Truncated sequences: at the end, and followed by ASCII or by a valid character, which is kept.
  EXPECT_EQ(printable_text("Temp\xc3"), "Temp\\xc3");
  EXPECT_EQ(printable_text("\xe9\xa0"), "\\xe9\\xa0");
  EXPECT_EQ(printable_text("\xf0\x9f\x98"), "\\xf0\\x9f\\x98");
  EXPECT_EQ(printable_text("\xe9\xa0x"), "\\xe9\\xa0x");
  EXPECT_EQ(printable_text("\xc3\xc3\xa9"), "\\xc3\xc3\xa9");
  EXPECT_EQ(printable_text("\xf0\x9f\x98\xe9\xa0\x98"), "\\xf0\\x9f\\x98\xe9\xa0\x98");
  // Latin-1 text (not UTF-8): each accented byte escaped, the ASCII around it kept.
  EXPECT_EQ(printable_text("Temp\xe9rature"), "Temp\\xe9rature");
}

TEST(PrintableText, TheResultIsPrintableUtf8AndEscapingItAgainChangesNothing) {
  std::string every_byte;
  for (int b = 0; b < 256; ++b) every_byte += char(b);
  const std::string texts[] = {every_byte, "\x1b[2J\0\xff"s, "\xc2\x9b\xed\xa0\x80\xf4\x90"s, "領域\x1b\xe9\xa0"s};
  for (const std::string& text : texts) {
    const std::string once = printable_text(text);
    EXPECT_TRUE(is_printable_utf8(once)) << once;
    EXPECT_EQ(printable_text(once), once);
  }
}

TEST(PrintableText, MaxBytesNeverCutsACharacter) {
  EXPECT_EQ(printable_text("abcdef", 3), "abc...");
  EXPECT_EQ(printable_text("abc", 3), "abc");
  EXPECT_EQ(printable_text("ab領域", 4), "ab...");     // 領 takes 3 bytes: not cut
  EXPECT_EQ(printable_text("ab領域", 5), "ab領...");
  EXPECT_EQ(printable_text("\x1b[2J", 1), "\\x1b...");
  EXPECT_EQ(printable_text("abc", 0), "...");
}

}  // namespace
