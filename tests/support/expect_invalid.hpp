// SPDX-License-Identifier: BSD-3-Clause
// Test support: a call that must throw std::invalid_argument whose message names what was wrong.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace feinterp::test {

inline void expect_invalid(const std::function<void()>& call, const std::string& fragment) {
  try {
    call();
    ADD_FAILURE() << "expected std::invalid_argument mentioning '" << fragment << "'";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
        << "message '" << error.what() << "' does not mention '" << fragment << "'";
  }
}

}  // namespace feinterp::test
