//===- Pipeline.cpp - one kernel's way from graph to machine code ---------===//

#include "Pipeline.h"
#include "ToolSupport.h"

#include "attn/CodeGen/Halide/Backend.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

namespace attn::bench {

namespace {

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// The first `maxLines` lines of `text`, and a note of how many were left out.
std::string head(const std::string &text, size_t maxLines) {
  size_t pos = 0, lines = 0;
  while (pos != std::string::npos && lines < maxLines) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos)
      ++pos;
    ++lines;
  }
  if (pos == std::string::npos || pos >= text.size())
    return text;
  size_t rest = std::count(text.begin() + pos, text.end(), '\n');
  return text.substr(0, pos) + "... (" + std::to_string(rest) + " more lines)\n";
}

} // namespace

llvm::json::Object summarizeAssembly(const std::string &assembly) {
  int64_t total = 0, fma = 0, zmm = 0, ymm = 0, xmm = 0, broadcast = 0, scalarFp = 0, calls = 0;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(assembly).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::StringRef l = line.trim();
    // Instructions are indented mnemonics; directives start with '.', labels end with ':'.
    if (l.empty() || l.starts_with(".") || l.starts_with("#") || l.ends_with(":") ||
        !line.starts_with("\t"))
      continue;
    ++total;
    llvm::StringRef mnemonic = l.take_until([](char c) { return c == ' ' || c == '\t'; });
    if (mnemonic.starts_with("vfmadd") || mnemonic.starts_with("vfnmadd") ||
        mnemonic.starts_with("vfmsub") || mnemonic.starts_with("vfnmsub"))
      ++fma;
    if (mnemonic.contains("broadcast"))
      ++broadcast;
    if (mnemonic.starts_with("call"))
      ++calls;
    if (l.contains("%zmm"))
      ++zmm;
    else if (l.contains("%ymm"))
      ++ymm;
    else if (l.contains("%xmm")) {
      ++xmm;
      if (mnemonic.ends_with("ss") || mnemonic.ends_with("sd"))
        ++scalarFp;
    }
  }
  return llvm::json::Object{{"instructions", total},
                            {"vector_fma", fma},
                            {"zmm", zmm},
                            {"ymm", ymm},
                            {"xmm", xmm},
                            {"broadcasts", broadcast},
                            {"scalar_fp", scalarFp},
                            {"calls", calls}};
}

std::optional<llvm::json::Object> describePipeline(const BenchShape &shape,
                                                   const std::string &target, std::string &error) {
  std::optional<backend::TargetInfo> info = tools::targetFromFlag(target, /*runsHere=*/false);
  if (!info) {
    error = "unknown target '" + target + "'";
    return std::nullopt;
  }
  mlir::MLIRContext ctx;
  std::string input = shape.mlir(/*fused=*/false, "");
  mlir::OwningOpRef<mlir::ModuleOp> module = tools::parseModuleString(input, shape.name, ctx);
  std::vector<tools::PipelineSnapshot> snapshots;
  if (!module || failed(tools::runPipeline(*module, {true, target}, &snapshots))) {
    error = "the pipeline failed on the graph of " + shape.name;
    return std::nullopt;
  }
  std::string finalIr = snapshots.back().ir;
  std::optional<kernel::ModuleSpec> spec =
      tools::loadKernelsFromString(finalIr, shape.name, ctx, {true, target});
  if (!spec) {
    error = "the optimized graph of " + shape.name + " does not lower";
    return std::nullopt;
  }

  llvm::SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("attn-pipeline", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return std::nullopt;
  }
  const kernel::FunctionSpec &fn = spec->functions.front();
  bool ok = backend::compileKernel(
      fn, *info, std::string(dir),
      {backend::Emit::Stmt, backend::Emit::Assembly, backend::Emit::Schedule}, error);
  std::string base = std::string(dir) + "/" + fn.name;
  std::string stmt = readFile(base + ".stmt"), assembly = readFile(base + ".s"),
              schedule = readFile(base + ".schedule.txt");
  llvm::sys::fs::remove_directories(dir);
  if (!ok)
    return std::nullopt;

  llvm::json::Array passes;
  for (const tools::PipelineSnapshot &s : snapshots)
    passes.push_back(llvm::json::Object{{"pass", s.pass.empty() ? "input" : s.pass}, {"ir", s.ir}});
  llvm::SmallVector<llvm::StringRef> attrs;
  llvm::Regex("#attn.schedule<[^>]*>").match(finalIr, &attrs);
  return llvm::json::Object{
      {"shape", shape.name},
      {"describe", shape.describe()},
      {"target", info->halideTarget},
      {"passes", std::move(passes)},
      {"schedule_attr", attrs.empty() ? "" : attrs.front().str()},
      {"schedule_log", schedule},
      {"stmt", head(stmt, 400)},
      {"stmt_lines", static_cast<int64_t>(std::count(stmt.begin(), stmt.end(), '\n'))},
      {"asm_summary", summarizeAssembly(assembly)}};
}

} // namespace attn::bench
