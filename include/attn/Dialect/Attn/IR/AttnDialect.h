//===- AttnDialect.h - the attn dialect -------------------------*- C++ -*-===//
//
// Include this header to use the attn dialect: the dialect, its enums, interfaces and ops.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNDIALECT_H
#define ATTN_DIALECT_ATTN_IR_ATTNDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "attn/Kernel/KernelSpec.h"
#include "attn/Kernel/TargetTraits.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h.inc"
#include "attn/Dialect/Attn/IR/AttnEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "attn/Dialect/Attn/IR/AttnAttrs.h.inc"

#include "attn/Dialect/Attn/IR/AttnInterfaces.h.inc"

#define GET_OP_CLASSES
#include "attn/Dialect/Attn/IR/AttnOps.h.inc"

#endif // ATTN_DIALECT_ATTN_IR_ATTNDIALECT_H
