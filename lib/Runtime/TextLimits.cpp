//===- TextLimits.cpp - how deep a text the tools parse may nest ----------===//

#include "attn/Runtime/TextLimits.h"

namespace attn {

int64_t tooDeepNesting(std::string_view text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // a string literal, with backslash escapes
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNesting)
        return static_cast<int64_t>(i);
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0 &&
               !(c == '>' && i > 0 && text[i - 1] == '-')) {
      --depth;
    }
  }
  return -1;
}

std::string tooDeepNestingMessage() {
  return "the input nests brackets deeper than " + std::to_string(kMaxNesting) +
         " levels; attn's tools refuse it (the parser would run out of stack)";
}

} // namespace attn
