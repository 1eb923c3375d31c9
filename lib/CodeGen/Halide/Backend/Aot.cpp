//===- Aot.cpp - emit linkable kernels ------------------------------------===//

#include "Build.h"
#include "attn/CodeGen/Halide/TargetMath.h"

#include "attn/CodeGen/Halide/Backend.h"

#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <unistd.h>

using namespace Halide;

namespace attn::backend {

const std::vector<EmitKind> &emitKinds() {
  static const std::vector<EmitKind> kinds = {
      {Emit::Stmt, "stmt", ".stmt", "Halide's loop nest after lowering"},
      {Emit::StmtHtml, "stmt_html", ".stmt.html", "the loop nest as HTML, beside the assembly"},
      {Emit::Assembly, "assembly", ".s", "the kernel's machine code"},
      {Emit::LlvmAssembly, "llvm_assembly", ".ll", "the kernel's LLVM IR"},
      {Emit::Schedule, "schedule", ".schedule.txt",
       "the schedule chosen for every stage, in words"},
      {Emit::Ptx, "ptx", ".ptx", "the device code of CUDA targets"},
      {Emit::OpenCL, "opencl", ".cl", "the device code (OpenCL C) of OpenCL targets"}};
  return kinds;
}

static const EmitKind &kindOf(Emit e) {
  for (const EmitKind &k : emitKinds())
    if (k.emit == e)
      return k;
  return emitKinds().front(); // unreachable: every Emit has a row
}

bool parseEmit(const std::string &name, Emit &out) {
  for (const EmitKind &k : emitKinds())
    if (name == k.name) {
      out = k.emit;
      return true;
    }
  return false;
}

const char *emitName(Emit e) { return kindOf(e).name; }

std::string emitFileName(const std::string &kernel, Emit e) { return kernel + kindOf(e).suffix; }

namespace {

// The scratch pool's object (KernelRuntime/scratch_pool.c, compiled for the build's host) and the
// header declaring what it adds, embedded at build time (cmake/EmbedFile.cmake).
#include "ScratchPoolHeader.inc"
#include "ScratchPoolObject.inc"

/// Whether the pool's object links with kernels of `t`: it was compiled for x86-64 Linux.
bool poolFits(const Target &t) {
#if defined(__x86_64__) && defined(__linux__)
  return t.arch == Target::X86 && t.bits == 64 && t.os == Target::Linux;
#else
  return false;
#endif
}

/// attn_runtime.a: the scratch pool ahead of Halide's runtime (the linker resolves halide_malloc
/// and halide_free from the first member that defines them: the pool's strong definitions, which
/// Halide's weak ones then yield to).
void writeRuntimeArchive(const std::string &halideObject, const std::string &archive) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> runtime =
      llvm::MemoryBuffer::getFile(halideObject);
  if (!runtime)
    throw CompileError("cannot read the Halide runtime object: " + runtime.getError().message());
  llvm::StringRef pool(reinterpret_cast<const char *>(kScratchPoolObject),
                       sizeof kScratchPoolObject);
  std::vector<llvm::NewArchiveMember> members;
  members.emplace_back(llvm::MemoryBufferRef(pool, "attn_scratch_pool.o"));
  members.emplace_back(llvm::MemoryBufferRef((*runtime)->getBuffer(), "halide_runtime.o"));
  for (llvm::NewArchiveMember &m : members)
    m.MemberName = m.Buf->getBufferIdentifier();
  if (llvm::Error e = llvm::writeArchive(archive, members, llvm::SymtabWritingMode::NormalSymtab,
                                         llvm::object::Archive::K_GNU, /*Deterministic=*/true,
                                         /*Thin=*/false))
    throw CompileError("cannot write '" + archive + "': " + llvm::toString(std::move(e)));
}

OutputFileType halideOutput(Emit e) {
  switch (e) {
  case Emit::Stmt: return OutputFileType::stmt;
  case Emit::StmtHtml: return OutputFileType::stmt_html;
  case Emit::Assembly: return OutputFileType::assembly;
  case Emit::LlvmAssembly: return OutputFileType::llvm_assembly;
  case Emit::Schedule:
  case Emit::Ptx:
  case Emit::OpenCL: break;
  }
  return OutputFileType::stmt;
}

/// Halide derives the header's include guard from the path it wrote to (our staging directory);
/// give it a stable one.
void fixIncludeGuard(const std::string &header, const std::string &kernel) {
  std::ifstream in(header);
  std::stringstream text;
  text << in.rdbuf();
  in.close();
  std::string s = text.str();
  std::smatch m;
  if (std::regex_search(s, m, std::regex("#ifndef (\\w+)\n#define \\1\n"))) {
    std::string guard = m[1].str();
    std::string stable = "ATTN_KERNEL_" + kernel + "_H";
    s = std::regex_replace(s, std::regex("\\b" + guard + "\\b"), stable);
    std::ofstream(header, std::ios::trunc) << s;
  }
}

/// The device code Halide embedded in a compiled module (a buffer named "*gpu_source_kernels": PTX
/// text for CUDA, OpenCL C for OpenCL), without its terminating NULs.
std::string deviceSource(const Module &m) {
  for (const Buffer<> &b : m.buffers())
    if (b.name().find("gpu_source_kernels") != std::string::npos) {
      std::string text(reinterpret_cast<const char *>(b.data()), b.size_in_bytes());
      while (!text.empty() && text.back() == '\0')
        text.pop_back();
      return text;
    }
  return "";
}

/// Copies a Halide runtime header next to the kernels, so a program compiles against OUT_DIR alone.
void copyHeader(const std::string &name, const std::string &dest) {
  std::ifstream in(std::string(ATTN_HALIDE_INCLUDE_DIR) + "/" + name, std::ios::binary);
  std::ofstream(dest, std::ios::binary) << in.rdbuf();
}

} // namespace

std::string kernelNameProblem(const std::string &name) {
  auto isIdentifierChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ||
      !std::all_of(name.begin(), name.end(), isIdentifierChar))
    return "kernel names are C identifiers ([A-Za-z_][A-Za-z0-9_]*)";
  static const char *const keywords[] = {
      "alignas", "alignof", "and",       "asm",    "auto",      "bool",     "break",    "case",
      "catch",   "char",    "class",     "const",  "constexpr", "continue", "decltype", "default",
      "delete",  "do",      "double",    "else",   "enum",      "explicit", "export",   "extern",
      "false",   "float",   "for",       "friend", "goto",      "if",       "inline",   "int",
      "long",    "mutable", "namespace", "new",    "noexcept",  "not",      "nullptr",  "operator",
      "or",      "private", "protected", "public", "register",  "restrict", "return",   "short",
      "signed",  "sizeof",  "static",    "struct", "switch",    "template", "this",     "throw",
      "true",    "try",     "typedef",   "typeid", "typename",  "union",    "unsigned", "using",
      "virtual", "void",    "volatile",  "while",  "xor"};
  if (std::find(std::begin(keywords), std::end(keywords), name) != std::end(keywords))
    return "'" + name + "' is a C or C++ keyword, which the kernel's header could not declare";
  if (name[0] == '_')
    return "names starting with '_' are reserved to the C implementation";
  if (name.rfind("halide_", 0) == 0)
    return std::string("names starting with 'halide_' belong to Halide's runtime (") +
           runtimeFileName() + ")";
  // What attn's runtime and kernels define (KernelRuntime/attn_runtime.h, TargetMath.h), and the
  // files attn-compile writes beside the kernels.
  std::vector<std::string> ours = lowering::avx512::symbols();
  ours.push_back("attn_release_scratch");
  if (std::find(ours.begin(), ours.end(), name) != ours.end())
    return "'" + name + "' is a symbol attn's runtime or kernels define";
  for (const char *file : {"attn_runtime", "HalideRuntime", "HalideBuffer"})
    if (name == file)
      return "'" + name + "' names a file attn-compile writes beside the kernels";
  // The program links the kernel with the C and C++ runtime libraries: a kernel named after one of
  // their symbols (malloc, memcpy) replaces it, and the program crashes before main.
  if (name == "main" || ::dlsym(RTLD_DEFAULT, name.c_str()))
    return "'" + name + "' is a symbol of the C or C++ runtime libraries (or main), which a " +
           "kernel of that name would replace in the program that links it";
  return "";
}

bool compileKernel(const kernel::FunctionSpec &fn, const TargetInfo &target, const std::string &dir,
                   const std::vector<Emit> &extra, std::string &error) {
  auto file = [&](const std::string &name) { return dir + "/" + name; };
  bool ok = catchHalide("@" + fn.name, error, [&] {
    for (Emit e : extra)
      if ((e == Emit::Ptx && !target.cuda) || (e == Emit::OpenCL && !target.opencl))
        throw CompileError(std::string("--emit=") + emitName(e) + " needs a " +
                           (e == Emit::Ptx ? "CUDA" : "OpenCL") + " target (for example host-" +
                           (e == Emit::Ptx ? "cuda-cuda_capability_80" : "opencl") + "), not '" +
                           target.halideTarget + "'");
    BuiltKernel k = buildKernel(fn, target);
    std::map<OutputFileType, std::string> files = {
        {OutputFileType::static_library, file(fn.name + ".a")},
        {OutputFileType::c_header, file(fn.name + ".h")}};
    Module module = compileModule(k, fn.name, k.target.with_feature(Target::NoRuntime));
    for (Emit e : extra) {
      if (e == Emit::Schedule)
        std::ofstream(file(emitFileName(fn.name, e))) << k.log.text();
      else if (e == Emit::Ptx || e == Emit::OpenCL)
        std::ofstream(file(emitFileName(fn.name, e))) << deviceSource(module);
      else
        files[halideOutput(e)] = file(emitFileName(fn.name, e));
    }
    module.compile(files);
    fixIncludeGuard(files[OutputFileType::c_header], fn.name);
  });
  if (!ok)
    noteAutoscheduler(autoschedulerOf(fn), /*running=*/false, error);
  return ok;
}

bool compileRuntime(const TargetInfo &target, const std::string &dir, bool &withPool,
                    std::string &error) {
  auto file = [&](const std::string &name) { return dir + "/" + name; };
  return catchHalide("the Halide runtime", error, [&] {
    Target t(target.halideTarget);
    withPool = poolFits(t);
    if (withPool) {
      const std::string object = file(".halide_runtime.o"); // an intermediate, removed below
      compile_standalone_runtime({{OutputFileType::object, object}}, t);
      writeRuntimeArchive(object, file(runtimeFileName()));
      ::unlink(object.c_str());
      std::ofstream(file("attn_runtime.h"), std::ios::binary)
          .write(reinterpret_cast<const char *>(kScratchPoolHeader), sizeof kScratchPoolHeader);
    } else {
      compile_standalone_runtime({{OutputFileType::static_library, file(runtimeFileName())}}, t);
    }
    // The headers a program needs to build buffers for the kernels (halide_buffer_t, Buffer<T>).
    copyHeader("HalideRuntime.h", file("HalideRuntime.h"));
    copyHeader("HalideBuffer.h", file("HalideBuffer.h"));
  });
}

} // namespace attn::backend
