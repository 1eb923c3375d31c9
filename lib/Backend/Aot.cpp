//===- Aot.cpp - emit linkable kernels ------------------------------------===//

#include "Build.h"

#include "attn/Backend/Backend.h"
#include "attn/Runtime/Interrupt.h"

#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <unistd.h>

using namespace Halide;

namespace attn::backend {

bool parseEmit(const std::string &name, Emit &out) {
  static const std::pair<const char *, Emit> names[] = {{"stmt", Emit::Stmt},
                                                        {"stmt_html", Emit::StmtHtml},
                                                        {"assembly", Emit::Assembly},
                                                        {"llvm_assembly", Emit::LlvmAssembly},
                                                        {"schedule", Emit::Schedule},
                                                        {"ptx", Emit::Ptx},
                                                        {"opencl", Emit::OpenCL}};
  for (auto &[n, e] : names)
    if (name == n) {
      out = e;
      return true;
    }
  return false;
}

const char *emitName(Emit e) {
  switch (e) {
  case Emit::Stmt: return "stmt";
  case Emit::StmtHtml: return "stmt_html";
  case Emit::Assembly: return "assembly";
  case Emit::LlvmAssembly: return "llvm_assembly";
  case Emit::Schedule: return "schedule";
  case Emit::Ptx: return "ptx";
  case Emit::OpenCL: return "opencl";
  }
  return "?";
}

std::string emitFileName(const std::string &kernel, Emit e) {
  switch (e) {
  case Emit::Stmt: return kernel + ".stmt";
  case Emit::StmtHtml: return kernel + ".stmt.html";
  case Emit::Assembly: return kernel + ".s";
  case Emit::LlvmAssembly: return kernel + ".ll";
  case Emit::Schedule: return kernel + ".schedule.txt";
  case Emit::Ptx: return kernel + ".ptx";
  case Emit::OpenCL: return kernel + ".cl";
  }
  return kernel;
}

namespace {

/// A private directory inside the output directory; files are produced there and renamed into
/// place once all of them exist, so a failure leaves no partial output. Removed on destruction.
class StagingDir {
public:
  explicit StagingDir(const std::string &outDir) {
    std::string tmpl = outDir + "/.attn-staging-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data())) {
      path = buf.data();
      registerTemporary(path); // removed with its files if the run is interrupted
    } else
      error = "cannot write into '" + outDir + "': " + std::strerror(errno);
  }
  ~StagingDir() {
    for (const std::string &f : scratchFiles) {
      ::unlink(f.c_str());
      unregisterTemporary(f);
    }
    for (const std::string &f : files) {
      ::unlink(f.c_str());
      unregisterTemporary(f);
    }
    if (!path.empty()) {
      ::rmdir(path.c_str());
      unregisterTemporary(path);
    }
  }
  std::string file(const std::string &name) {
    files.push_back(path + "/" + name);
    registerTemporary(files.back());
    return files.back();
  }
  /// A file that is never published (an intermediate).
  std::string scratch(const std::string &name) {
    scratchFiles.push_back(path + "/" + name);
    registerTemporary(scratchFiles.back());
    return scratchFiles.back();
  }
  /// Renames every staged file into `outDir`.
  bool publish(const std::string &outDir, std::string &err) {
    for (const std::string &f : files) {
      std::string dest = outDir + f.substr(f.rfind('/'));
      if (std::rename(f.c_str(), dest.c_str()) != 0) {
        err = "cannot write '" + dest + "': " + std::strerror(errno);
        return false;
      }
      unregisterTemporary(f);
    }
    files.clear();
    return true;
  }
  std::string path, error;

private:
  std::vector<std::string> files, scratchFiles;
};

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

/// attn_runtime.a: the scratch pool ahead of Halide's runtime (the linker resolves halide_malloc and
/// halide_free from the first member that defines them: the pool's strong definitions, which
/// Halide's weak ones then yield to).
void writeRuntimeArchive(const std::string &halideObject, const std::string &archive) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> runtime = llvm::MemoryBuffer::getFile(halideObject);
  if (!runtime)
    throw CompileError("cannot read the Halide runtime object: " + runtime.getError().message());
  llvm::StringRef pool(reinterpret_cast<const char *>(kScratchPoolObject), sizeof kScratchPoolObject);
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

bool compileKernel(const kernel::FunctionSpec &fn, const TargetInfo &target, const std::string &outDir,
                   const std::vector<Emit> &extra, std::string &error) {
  StagingDir staging(outDir);
  if (!staging.error.empty()) {
    error = staging.error;
    return false;
  }
  bool ok = catchHalide("@" + fn.name, error, [&] {
    for (Emit e : extra)
      if ((e == Emit::Ptx && !target.cuda) || (e == Emit::OpenCL && !target.opencl))
        throw CompileError(std::string("--emit=") + emitName(e) + " needs a " +
                           (e == Emit::Ptx ? "CUDA" : "OpenCL") + " target (for example host-" +
                           (e == Emit::Ptx ? "cuda-cuda_capability_80" : "opencl") + "), not '" +
                           target.halideTarget + "'");
    BuiltKernel k = buildKernel(fn, target);
    std::map<OutputFileType, std::string> files = {
        {OutputFileType::static_library, staging.file(fn.name + ".a")},
        {OutputFileType::c_header, staging.file(fn.name + ".h")}};
    std::vector<Argument> args(k.lowered->inputs.begin(), k.lowered->inputs.end());
    Module module = k.lowered->pipeline.compile_to_module(args, fn.name,
                                                         k.target.with_feature(Target::NoRuntime));
    for (const ExternalCode &code : k.lowered->externalCode)
      module.append(code);
    for (Emit e : extra) {
      if (e == Emit::Schedule)
        std::ofstream(staging.file(emitFileName(fn.name, e))) << k.log.text();
      else if (e == Emit::Ptx || e == Emit::OpenCL)
        std::ofstream(staging.file(emitFileName(fn.name, e))) << deviceSource(module);
      else
        files[halideOutput(e)] = staging.file(emitFileName(fn.name, e));
    }
    module.compile(files);
    fixIncludeGuard(files[OutputFileType::c_header], fn.name);
  });
  if (!ok)
    noteAutoscheduler(autoschedulerOf(fn), /*running=*/false, error);
  return ok && staging.publish(outDir, error);
}

bool compileRuntime(const TargetInfo &target, const std::string &outDir, bool &withPool,
                    std::string &error) {
  StagingDir staging(outDir);
  if (!staging.error.empty()) {
    error = staging.error;
    return false;
  }
  bool ok = catchHalide("the Halide runtime", error, [&] {
    Target t(target.halideTarget);
    withPool = poolFits(t);
    if (withPool) {
      std::string object = staging.scratch("halide_runtime.o");
      compile_standalone_runtime({{OutputFileType::object, object}}, t);
      writeRuntimeArchive(object, staging.file(runtimeFileName()));
      std::ofstream(staging.file("attn_runtime.h"), std::ios::binary)
          .write(reinterpret_cast<const char *>(kScratchPoolHeader), sizeof kScratchPoolHeader);
    } else {
      compile_standalone_runtime({{OutputFileType::static_library, staging.file(runtimeFileName())}}, t);
    }
    // The headers a program needs to build buffers for the kernels (halide_buffer_t, Buffer<T>).
    copyHeader("HalideRuntime.h", staging.file("HalideRuntime.h"));
    copyHeader("HalideBuffer.h", staging.file("HalideBuffer.h"));
  });
  return ok && staging.publish(outDir, error);
}

} // namespace attn::backend
