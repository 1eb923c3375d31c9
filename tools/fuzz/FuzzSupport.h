//===- FuzzSupport.h - what the MLIR fuzz targets share ---------*- C++ -*-===//

#ifndef ATTN_TOOLS_FUZZ_FUZZSUPPORT_H
#define ATTN_TOOLS_FUZZ_FUZZSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace attn::fuzz {

/// The bytes parsed (and verified) as a module in a fresh context with attn's dialects, every
/// diagnostic swallowed. `module` is null when the bytes are rejected.
struct ParsedModule {
  ParsedModule(const uint8_t *data, size_t size);
  std::string text;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// The tools' pass pipeline (tools/common/ToolSupport.cpp, without Halide's target resolver: "host"
/// means AVX-512 here).
mlir::LogicalResult runAttnPipeline(mlir::ModuleOp module);

} // namespace attn::fuzz

#endif // ATTN_TOOLS_FUZZ_FUZZSUPPORT_H
