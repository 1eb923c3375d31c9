//===- attn-run.cpp - run an attention graph on .npy data -----------------===//
//
// attn-run model.mlir [--entry=NAME] (--input=FILE.npy ... | --random-inputs [--seed=N])
//          [--output=FILE.npy ...] [--print] [--check] [--target=T] [--threads=N] [--bench[=REPS]]
//          [--heatmap=FILE.svg|FILE.png [--labels=k1,k2,...] [--query-labels=q1,...]]
//
// JIT-compiles one function through the same lowering as attn-compile and runs it.
//
//===----------------------------------------------------------------------===//

#include "Python.h"
#include "ToolSupport.h"

#include "attn/CodeGen/Halide/Backend.h"
#include "attn/Kernel/Limits.h"
#include "attn/Kernel/ShapeRules.h"
#include "attn/Reference/Evaluator.h"
#include "attn/Runtime/Npy.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace cl = llvm::cl;
using namespace attn;
using kernel::ElemType;

static cl::OptionCategory category("attn-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"), cl::Required,
                                      cl::cat(category));
static cl::opt<bool>
    fuseFlag("fuse",
             cl::desc("Decompose multi_head and fuse score/mask/softmax/weighted_sum chains "
                      "into attention (default true; --fuse=false lowers every op as written, "
                      "bilinear scores folded into q.W and a dot score as always)"),
             cl::init(true), cl::cat(category));
static cl::opt<std::string> entryFlag("entry",
                                      cl::desc("The function to run (needed when the "
                                               "module has several)"),
                                      cl::value_desc("name"), cl::cat(category));
static cl::list<std::string> inputFlags("input",
                                        cl::desc("An argument's .npy file, once per "
                                                 "argument, in order"),
                                        cl::value_desc("file.npy"), cl::cat(category));
static cl::opt<bool>
    randomInputsFlag("random-inputs",
                     cl::desc("Fill arguments with seeded random data: floats uniform in "
                              "[-1, 1), i1 true with p = 0.75, i32 uniform in "
                              "[0, 2 x the largest argument dimension]"),
                     cl::cat(category));
static cl::list<std::string> argShapes(
    "arg-shapes", cl::CommaSeparated,
    cl::desc("With --random-inputs: each argument's shape (AxBxC, `scalar` for rank 0), in order; "
             "needed when a signature has dynamic sizes"),
    cl::value_desc("shape,..."), cl::cat(category));
static cl::opt<unsigned> seedFlag("seed", cl::desc("Seed of --random-inputs"), cl::init(0),
                                  cl::cat(category));
static cl::list<std::string> outputFlags("output",
                                         cl::desc("A result's .npy file, once per result, "
                                                  "in order"),
                                         cl::value_desc("file.npy"), cl::cat(category));
static cl::opt<bool> printFlag("print", cl::desc("Print the results"), cl::cat(category));
static cl::opt<bool>
    checkFlag("check",
              cl::desc("Compare with the double-precision reference evaluator; exit 1 "
                       "beyond tolerance (1e-4 f32, 2e-3 f16, 1e-2 bf16, relative "
                       "to the result's largest magnitude)"),
              cl::cat(category));
static cl::opt<std::string> targetFlag("target", cl::desc("Halide target string (default: host)"),
                                       cl::value_desc("target"), cl::cat(category));
static cl::opt<std::string>
    benchFlag("bench", cl::ValueOptional,
              cl::desc("Time REPS runs after a warm-up (default 20); report "
                       "the median"),
              cl::value_desc("reps"), cl::cat(category));
static cl::opt<unsigned> maxInputMb("max-input-mb",
                                    cl::desc("Refuse inputs and outputs larger than this many MiB "
                                             "in total (default 4096)"),
                                    cl::init(4096), cl::cat(category));

static cl::opt<std::string> heatmapFlag(
    "heatmap",
    cl::desc("Draw the attention weights the function returns (a result of attn.softmax: rows are "
             "query positions, columns key positions, a panel per leading index such as a head) "
             "into FILE.svg or FILE.png, with matplotlib"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<unsigned> heatmapResult("heatmap-result",
                                       cl::desc("Which result --heatmap draws (default: the first "
                                                "result of attn.softmax)"),
                                       cl::cat(category));
static cl::list<std::string> labelsFlag("labels", cl::CommaSeparated,
                                        cl::desc("--heatmap: the key positions' labels (tokens)"),
                                        cl::value_desc("a,b,..."), cl::cat(category));
static cl::list<std::string> queryLabelsFlag("query-labels", cl::CommaSeparated,
                                             cl::desc("--heatmap: the query positions' labels"),
                                             cl::value_desc("a,b,..."), cl::cat(category));

namespace {

/// The result --heatmap draws: --heatmap-result, or the first result of attn.softmax. -1 with an
/// error when there is none.
int heatmapResultIndex(const kernel::FunctionSpec &fn, std::string &error) {
  if (heatmapResult.getNumOccurrences()) {
    if (heatmapResult >= fn.results.size()) {
      error = "--heatmap-result=" + std::to_string(heatmapResult) + ": @" + fn.name + " has " +
              std::to_string(fn.results.size()) + " results";
      return -1;
    }
    if (fn.resultType(heatmapResult).rank() < 2) {
      error = "--heatmap-result=" + std::to_string(heatmapResult) + ": result #" +
              std::to_string(heatmapResult) + " (" + fn.resultType(heatmapResult).str() +
              ") is not a [..., Tq, Tk] matrix";
      return -1;
    }
    return heatmapResult;
  }
  for (size_t r = 0; r < fn.results.size(); ++r)
    for (const kernel::OpSpec &op : fn.ops)
      if (op.kind == kernel::OpKind::Softmax && op.result == fn.results[r] &&
          fn.resultType(r).rank() >= 2)
        return static_cast<int>(r);
  error = "--heatmap: @" + fn.name +
          " returns no attention weights (a result of attn.softmax); "
          "return them, or choose a result with --heatmap-result";
  return -1;
}

/// Draws result `r`, `weights`, with tools/attn-run/heatmap.py.
bool drawHeatmap(const kernel::FunctionSpec &fn, int r, const HostTensor &weights,
                 std::string &error) {
  llvm::SmallString<128> npy;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("attn-heatmap", "npy", npy)) {
    error = "cannot create a temporary file: " + ec.message();
    return false;
  }
  HostTensor w(ElemType::F32, weights.shape); // f16/bf16 weights are drawn as float32
  for (int64_t e = 0; e < weights.numElements(); ++e)
    w.set(e, weights.get(e));
  bool ok = writeNpy(std::string(npy), w, error);
  std::vector<std::string> args = {std::string(npy), heatmapFlag,
                                   "--title=@" + fn.name + ", result #" + std::to_string(r)};
  if (!labelsFlag.empty())
    args.push_back("--labels=" + llvm::join(labelsFlag, ","));
  if (!queryLabelsFlag.empty())
    args.push_back("--query-labels=" + llvm::join(queryLabelsFlag, ","));
  std::string out;
  if (ok && !tools::runPython(tools::scriptPath("tools/attn-run/heatmap.py"), args, out, error))
    ok = false;
  llvm::sys::fs::remove(npy);
  return ok;
}

/// What a message about the memory budget adds.
std::string budgetNote() {
  return " (inputs and results may take " + std::to_string(maxInputMb) +
         " MiB in all; raise it with --max-input-mb)";
}

std::string argLabel(const kernel::FunctionSpec &fn, int i) {
  return "argument #" + std::to_string(i) + " (" + fn.values[i].str() + ")";
}

std::string shapeText(const std::vector<int64_t> &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + (s[i] == kernel::kDynamic ? std::string("?") : std::to_string(s[i]));
  return r + "]";
}

/// Checks a file's tensor against an argument's declared type.
bool fitsArgument(const kernel::FunctionSpec &fn, int i, const HostTensor &t,
                  const std::string &file, std::string &error) {
  const kernel::TensorType &type = fn.values[i];
  bool dtypeOk = t.elem == type.elem || (type.elem == ElemType::BF16 && t.elem == ElemType::F32);
  if (!dtypeOk) {
    error = argLabel(fn, i) + ": '" + file + "' holds " + npyDtypeName(t.elem) +
            " data, expected " + npyDtypeName(type.elem);
    return false;
  }
  bool shapeOk = t.shape.size() == type.shape.size();
  for (size_t d = 0; shapeOk && d < t.shape.size(); ++d)
    shapeOk = type.shape[d] == kernel::kDynamic || type.shape[d] == t.shape[d];
  if (!shapeOk) {
    error = argLabel(fn, i) + ": '" + file + "' has shape " + shapeText(t.shape) +
            ", the function expects " + shapeText(type.shape);
    return false;
  }
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (t.shape[d] == 0) {
      error = argLabel(fn, i) + ": '" + file + "' has shape " + shapeText(t.shape) +
              "; attn kernels need non-empty tensors";
      return false;
    }
  return true;
}

/// Parses AxBxC (or `scalar`).
bool parseShape(const std::string &text, std::vector<int64_t> &shape) {
  shape.clear();
  if (text == "scalar")
    return true;
  size_t p = 0;
  while (p <= text.size()) {
    size_t x = text.find('x', p);
    std::string part = text.substr(p, x == std::string::npos ? std::string::npos : x - p);
    if (part.empty() || part.size() > 9 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return false;
    shape.push_back(std::stoll(part));
    if (x == std::string::npos)
      break;
    p = x + 1;
  }
  return true;
}

bool makeRandomInputs(const kernel::FunctionSpec &fn, std::vector<HostTensor> &inputs,
                      std::string &error) {
  if (!argShapes.empty() && static_cast<int>(argShapes.size()) != fn.numArgs) {
    error = "--arg-shapes gives " + std::to_string(argShapes.size()) + " shapes, @" + fn.name +
            " has " + std::to_string(fn.numArgs) + " arguments";
    return false;
  }
  std::vector<std::vector<int64_t>> shapes;
  for (int i = 0; i < fn.numArgs; ++i) {
    std::vector<int64_t> shape = fn.values[i].shape;
    if (!argShapes.empty()) {
      std::vector<int64_t> given;
      if (!parseShape(argShapes[i], given)) {
        error = "--arg-shapes: '" + argShapes[i] + "' is not a shape like 2x16x64";
        return false;
      }
      shape = given;
    }
    if (std::count(shape.begin(), shape.end(), kernel::kDynamic)) {
      error = argLabel(fn, i) + " has dynamic sizes; give its shape with --arg-shapes";
      return false;
    }
    shapes.push_back(shape);
  }
  uint64_t bytes = 0;
  for (int i = 0; i < fn.numArgs; ++i) {
    uint64_t n = kernel::elemTypeBytes(fn.values[i].elem);
    for (int64_t d : shapes[i])
      n = d != 0 && n > UINT64_MAX / static_cast<uint64_t>(d) ? UINT64_MAX : n * d;
    bytes = n > UINT64_MAX - bytes ? UINT64_MAX : bytes + n;
  }
  if (bytes > (static_cast<uint64_t>(maxInputMb) << 20)) {
    error = "the random inputs need " + std::to_string(bytes) + " bytes, more than the " +
            std::to_string(maxInputMb) + " MiB budget (raise it with --max-input-mb)";
    return false;
  }
  if (std::string v = kernel::shapeLimitViolation(fn, shapes); !v.empty()) {
    error = "@" + fn.name + " cannot run on these shapes: " + v;
    return false;
  }
  inputs = randomInputs(fn, shapes, seedFlag);
  return true;
}

/// numpy-like printing; large tensors show their first and last 3 entries per dimension.
void printTensor(llvm::raw_ostream &os, const HostTensor &t) {
  bool summarize = t.numElements() > 1000;
  std::vector<int64_t> strides(t.shape.size(), 1);
  for (int d = static_cast<int>(t.shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * t.shape[d + 1];
  std::function<void(size_t, int64_t, int)> rec = [&](size_t dim, int64_t base, int indent) {
    if (dim == t.shape.size()) {
      os << llvm::format("%.6g", t.get(base));
      return;
    }
    os << "[";
    int64_t n = t.shape[dim];
    for (int64_t i = 0; i < n; ++i) {
      if (summarize && n > 6 && i == 3) {
        os << (dim + 1 == t.shape.size() ? "..., " : "...,\n" + std::string(indent + 1, ' '));
        i = n - 3;
      }
      rec(dim + 1, base + i * strides[dim], indent + 1);
      if (i + 1 < n)
        os << (dim + 1 == t.shape.size() ? ", " : ",\n" + std::string(indent + 1, ' '));
    }
    os << "]";
  };
  rec(0, 0, 0);
  os << "\n";
}

/// Why the flags cannot be used together, or "" (checked before anything is read); `benchReps` is
/// --bench's repetitions (0 without it).
std::string flagsProblem(int threads, bool threadsGiven, int &benchReps) {
  if (threadsGiven)
    if (std::string why = tools::threadCountProblem(threads); !why.empty())
      return why;
  benchReps = 0;
  if (benchFlag.getNumOccurrences()) {
    benchReps = 20;
    if (!benchFlag.empty()) {
      if (benchFlag.find_first_not_of("0123456789") != std::string::npos || benchFlag.size() > 6 ||
          (benchReps = std::stoi(benchFlag)) < 1)
        return "--bench takes a positive number of repetitions, got '" + benchFlag + "'";
    }
  }
  if (randomInputsFlag && !inputFlags.empty())
    return "give either --input files or --random-inputs, not both";
  if (!heatmapFlag.empty()) {
    llvm::StringRef ext = llvm::sys::path::extension(heatmapFlag);
    if (ext != ".svg" && ext != ".png")
      return "--heatmap='" + heatmapFlag + "': the heatmap is written as .svg or .png";
    std::string error;
    if (!checkOutputPath(heatmapFlag, error))
      return error;
  } else if (!labelsFlag.empty() || !queryLabelsFlag.empty() || heatmapResult.getNumOccurrences()) {
    return "--labels, --query-labels and --heatmap-result apply to --heatmap";
  }
  if (!randomInputsFlag && !argShapes.empty())
    return "--arg-shapes only applies to --random-inputs";
  return "";
}

/// The function the module's kernels describe, or an error when there are several.
std::string singleFunctionProblem(const kernel::ModuleSpec &spec) {
  if (spec.functions.size() <= 1)
    return "";
  std::string names;
  for (const kernel::FunctionSpec &f : spec.functions)
    names += (names.empty() ? "@" : ", @") + f.name;
  return "the module has several functions (" + names + "); choose one with --entry";
}

/// The --input files, each checked against its argument, within `budget` bytes (`used` says how
/// many they took); bf16 arguments arrive as float32 and are rounded once.
bool readInputs(const kernel::FunctionSpec &fn, uint64_t budget, uint64_t &used,
                std::vector<HostTensor> &inputs, std::string &error) {
  if (static_cast<int>(inputFlags.size()) != fn.numArgs) {
    error = "@" + fn.name + " takes " + std::to_string(fn.numArgs) + " arguments, but " +
            std::to_string(inputFlags.size()) +
            " --input files were given (or use --random-inputs)";
    return false;
  }
  for (int i = 0; i < fn.numArgs; ++i) {
    HostTensor t;
    bool overBudget = false;
    if (!readNpy(inputFlags[i], t, error, budget - used, &overBudget)) {
      error = argLabel(fn, i) + ": " + error + (overBudget ? budgetNote() : "");
      return false;
    }
    used += t.data.size();
    if (!fitsArgument(fn, i, t, inputFlags[i], error))
      return false;
    if (fn.values[i].elem == ElemType::BF16) {
      HostTensor b(ElemType::BF16, t.shape);
      for (int64_t e = 0; e < t.numElements(); ++e)
        b.set(e, t.get(e));
      t = std::move(b);
    }
    inputs.push_back(std::move(t));
  }
  return true;
}

/// Why the --output files (and the heatmap) cannot be written, or "": one per result, each
/// writable, no file named for two outputs (the second would replace the first).
std::string outputsProblem(const kernel::FunctionSpec &fn) {
  if (!outputFlags.empty() && outputFlags.size() != fn.results.size())
    return "@" + fn.name + " has " + std::to_string(fn.results.size()) + " results, but " +
           std::to_string(outputFlags.size()) + " --output files were given";
  std::vector<std::string> written(outputFlags.begin(), outputFlags.end());
  if (!heatmapFlag.empty())
    written.push_back(heatmapFlag);
  return outputPathsProblem(written, [](const std::string &later, const std::string &earlier) {
    return "'" + later + "' is given for two outputs" +
           (earlier != later ? " (as '" + earlier + "')" : std::string()) +
           "; each result needs a file of its own";
  });
}

/// The result the heatmap draws, its labels checked against its shape; -1 with `error`.
int heatmapIndexChecked(const kernel::FunctionSpec &fn, const std::vector<HostTensor> &outputs,
                        std::string &error) {
  int index = heatmapResultIndex(fn, error);
  if (index < 0)
    return -1;
  const std::vector<int64_t> &shape = outputs[index].shape;
  auto checkLabels = [&](const llvm::cl::list<std::string> &labels, int64_t n, const char *flag,
                         const char *what) {
    if (labels.empty() || static_cast<int64_t>(labels.size()) == n)
      return true;
    error = std::string(flag) + " has " + std::to_string(labels.size()) + " labels, but result #" +
            std::to_string(index) + " " + shapeText(shape) + " has " + std::to_string(n) + " " +
            what;
    return false;
  };
  if (!checkLabels(labelsFlag, shape.back(), "--labels", "key positions") ||
      !checkLabels(queryLabelsFlag, shape[shape.size() - 2], "--query-labels", "query positions"))
    return -1;
  return index;
}

/// --bench: the median of `reps` timed runs (the first run, before, was the warm-up).
bool benchmark(const kernel::FunctionSpec &fn, backend::JitKernel &kernel,
               const std::vector<const HostTensor *> &inputs, std::vector<HostTensor> &outputs,
               int reps, std::string &error) {
  std::vector<double> ms;
  for (int rep = 0; rep < reps; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    if (!kernel.run(inputs, outputs, error))
      return false;
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  llvm::outs() << llvm::format(
      "@%s: median %.4f ms over %d runs (min %.4f, max %.4f) after a warm-up\n", fn.name.c_str(),
      ms[ms.size() / 2], reps, ms.front(), ms.back());
  return true;
}

/// --check: every result against the reference evaluator; false when one differs (or the
/// reference fails, with `error`).
bool checkedAgainstReference(const kernel::FunctionSpec &fn,
                             const std::vector<const HostTensor *> &inputs,
                             const std::vector<HostTensor> &outputs, std::string &error) {
  std::vector<reference::Array> want;
  if (!reference::evaluate(fn, inputs, want, error))
    return false;
  bool allPass = true;
  for (size_t r = 0; r < outputs.size(); ++r) {
    reference::Comparison c = reference::compare(outputs[r], want[r]);
    allPass &= c.pass();
    llvm::outs() << "check result #" << r << " " << fn.resultType(r).str() << ": ";
    if (!c.shapeMatches) {
      llvm::outs() << "FAIL: shape " << shapeText(outputs[r].shape) << ", the reference has "
                   << shapeText(want[r].shape) << "\n";
      continue;
    }
    llvm::outs() << llvm::format("max abs error %.3g, max rel error %.3g, max|ref| %.3g, "
                                 "tolerance %.0e x max|ref|",
                                 c.maxAbs, c.maxRel, c.scale, c.tolerance);
    if (c.mismatchedSpecials)
      llvm::outs() << ", " << c.mismatchedSpecials << " inf/nan entries differ";
    llvm::outs() << (c.pass() ? ": ok\n" : ": FAIL\n");
  }
  if (!allPass)
    error = "results differ from the reference beyond tolerance";
  return allPass;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tools::setToolName(argv[0]);
  // libLLVM.so registers its own `threads` option; ours is declared once that one is released.
  tools::releaseLlvmOption("threads");
  static cl::opt<int> threadsFlag("threads",
                                  cl::desc("Threads of the kernel's thread pool "
                                           "(default: all cores)"),
                                  cl::init(0), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "attn-run: run an attention graph on .npy data\n");

  int benchReps = 0;
  if (std::string why = flagsProblem(threadsFlag, threadsFlag.getNumOccurrences(), benchReps);
      !why.empty())
    return tools::fail(why);
  std::optional<backend::TargetInfo> target = tools::targetFromFlag(targetFlag, /*runsHere=*/true);
  if (!target)
    return 1;
  if (threadsFlag > 0)
    backend::setThreadCount(threadsFlag);

  mlir::MLIRContext ctx;
  std::optional<kernel::ModuleSpec> spec =
      tools::loadKernels(inputFile, entryFlag, ctx, {fuseFlag, targetFlag});
  if (!spec)
    return 1;
  if (std::string why = singleFunctionProblem(*spec); !why.empty())
    return tools::fail(why);
  const kernel::FunctionSpec &fn = spec->functions.front();

  uint64_t budget = static_cast<uint64_t>(maxInputMb) << 20, used = 0;
  std::vector<HostTensor> inputs;
  std::string error;
  if (randomInputsFlag ? !makeRandomInputs(fn, inputs, error)
                       : !readInputs(fn, budget, used, inputs, error))
    return tools::fail(error);
  if (std::string why = outputsProblem(fn); !why.empty())
    return tools::fail(why);
  // Result shapes, and every shape rule, checked on the actual sizes before running.
  std::vector<HostTensor> outputs;
  bool overBudget = false;
  if (!resultTensors(fn, inputs, outputs, error, budget - std::min(budget, used), &overBudget))
    return tools::fail(error + (overBudget ? budgetNote() : ""));
  int heatmapIndex = -1;
  if (!heatmapFlag.empty() && (heatmapIndex = heatmapIndexChecked(fn, outputs, error)) < 0)
    return tools::fail(error);

  std::unique_ptr<backend::JitKernel> kernel;
  {
    tools::StillWorking ticker("compiling @" + fn.name + " (" + std::to_string(fn.ops.size()) +
                               " ops)");
    kernel = backend::compileJit(fn, *target, error);
  }
  if (!kernel)
    return tools::fail(error);
  const std::vector<const HostTensor *> inputPtrs = pointersTo(inputs);
  if (!kernel->run(inputPtrs, outputs, error) ||
      (benchReps && !benchmark(fn, *kernel, inputPtrs, outputs, benchReps, error)))
    return tools::fail(error);

  for (size_t r = 0; r < outputs.size(); ++r) {
    if (printFlag) {
      llvm::outs() << "result #" << r << ": " << fn.resultType(r).str() << " "
                   << shapeText(outputs[r].shape) << "\n";
      printTensor(llvm::outs(), outputs[r]);
    }
    if (!outputFlags.empty() && !writeNpy(outputFlags[r], outputs[r], error))
      return tools::fail(error);
  }
  if (heatmapIndex >= 0) {
    if (!drawHeatmap(fn, heatmapIndex, outputs[heatmapIndex], error))
      return tools::fail("drawing the heatmap: " + error);
    llvm::outs() << "wrote " << heatmapFlag << " (result #" << heatmapIndex << ", "
                 << shapeText(outputs[heatmapIndex].shape) << ")\n";
  }
  if (checkFlag && !checkedAgainstReference(fn, inputPtrs, outputs, error))
    return tools::fail(error);
  return 0;
}
