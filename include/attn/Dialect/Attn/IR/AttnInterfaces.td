//===- AttnInterfaces.td - interfaces of attn ops ------------*- tablegen -*-===//

#ifndef ATTN_INTERFACES_TD
#define ATTN_INTERFACES_TD

include "mlir/IR/OpBase.td"

// The mask options shared by attn.mask, attn.attention and attn.multi_head. One interface, so that the
// verifier, the lowering and the reference read them in one way.
def Attn_MaskingOpInterface : OpInterface<"MaskingOpInterface"> {
  let cppNamespace = "::attn";
  let description = [{
    An op that masks scores with any combination of: a causal mask, a sliding window (both relative to
    a diagonal whose corner `align` names), per-batch key lengths, and an explicit mask operand.
  }];
  let methods = [
    InterfaceMethod<"Whether keys past the query's diagonal are masked.", "bool", "isCausal",
      (ins), [{}], [{ return $_op.getCausal(); }]>,
    InterfaceMethod<"The sliding window size, if any.", "std::optional<uint64_t>", "getWindowSize",
      (ins), [{}], [{ return $_op.getWindow(); }]>,
    InterfaceMethod<"The diagonal alignment, if any.", "std::optional<::attn::DiagonalAlign>",
      "getDiagonalAlign", (ins), [{}], [{ return $_op.getAlign(); }]>,
    InterfaceMethod<"The i32 key-lengths operand, or null.", "::mlir::Value", "getKeyLengthsOperand",
      (ins), [{}], [{ return $_op.getKeyLengths(); }]>,
    InterfaceMethod<"The explicit mask operand (i1 keep-mask or float bias), or null.",
      "::mlir::Value", "getMaskOperand", (ins), [{}], [{ return $_op.getMask(); }]>,
  ];
  let extraClassDeclaration = [{
    /// True when the op masks nothing at all.
    bool hasNoMask() {
      return !isCausal() && !getWindowSize() && !getKeyLengthsOperand() && !getMaskOperand();
    }
  }];
}

#endif // ATTN_INTERFACES_TD
