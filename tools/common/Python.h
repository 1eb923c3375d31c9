//===- Python.h - the tools' Python helpers ---------------------*- C++ -*-===//
//
// Drawing (matplotlib: heatmaps, the benchmark report) and the numpy baseline are Python scripts
// that live in the source tree beside the tool that uses them. The tools run them with Debian's
// python3 (which has numpy and matplotlib; a pyenv `python3` on PATH may not).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_COMMON_PYTHON_H
#define ATTN_TOOLS_COMMON_PYTHON_H

#include <string>
#include <vector>

namespace attn::tools {

/// The path of a tool script, e.g. scriptPath("tools/attn-run/heatmap.py"): under PREFIX/share/attn
/// for an installed tool, else in the source tree the tool was built from.
std::string scriptPath(const std::string &relative);

/// Runs `python3 SCRIPT ARGS...`; `output` receives its stdout. On failure returns false and
/// sets `error` to the script's stderr (or why it could not start).
bool runPython(const std::string &script, const std::vector<std::string> &args, std::string &output,
               std::string &error);

} // namespace attn::tools

#endif // ATTN_TOOLS_COMMON_PYTHON_H
