//===- TextLimits.h - how deep a text the tools parse may nest --*- C++ -*-===//
//
// MLIR's parser descends recursively into every nested region, list and type: 5,000 nested modules
// or 10,000 nested `[` overflowed the stack of every tool. The tools refuse text that nests deeper
// than any attention graph does before handing it to the parser, as LLVM's and MLIR's parsers
// refuse other inputs past their limits.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_TEXTLIMITS_H
#define ATTN_RUNTIME_TEXTLIMITS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace attn {

/// The deepest nesting of brackets ( [ { < the tools parse.
constexpr int kMaxNesting = 256;

/// Where `text` (MLIR) first opens a bracket beyond kMaxNesting levels, as a byte offset, or -1
/// when it does not. String literals and `//` comments are skipped; `->` is no bracket.
int64_t tooDeepNesting(std::string_view text);

/// The message for such an input.
std::string tooDeepNestingMessage();

} // namespace attn

#endif // ATTN_RUNTIME_TEXTLIMITS_H
