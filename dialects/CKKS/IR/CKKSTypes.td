//===- CKKSTypes.td - ckks types ----------------------------*- tablegen -*-===//
#ifndef EMBER_CKKS_TYPES_TD
#define EMBER_CKKS_TYPES_TD

include "dialects/CKKS/IR/CKKSDialect.td"
include "mlir/IR/AttrTypeBase.td"

// The scale is stored as the bit pattern of a double, so that the type is
// uniqued on the exact value; getScale() returns the double.
class CKKS_ScaledType<string name, string typeMnemonic, dag extraParams>
    : TypeDef<CKKS_Dialect, name> {
  // Parsed and printed by CKKSDialect::parseType/printType (shared syntax).
  let typeName = "ckks." # typeMnemonic;
  let parameters = !con((ins "int64_t":$slots, "int64_t":$level,
                             "uint64_t":$scaleBits), extraParams);
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

def CKKS_CiphertextType
    : CKKS_ScaledType<"Ciphertext", "ct", (ins "int64_t":$degree)> {
  let summary = "a CKKS ciphertext of given slots, level, exact scale, degree";
  let description = [{
    `!ckks.ct<8, level = 3, scale = 1099511627776.0>` is a degree-2 ciphertext
    of 8 slots at level 3 (it holds primes q_0..q_3) with scale 2^40;
    `!ckks.ct<8, level = 3, scale = 1.2089258196146292e+24, degree = 3>` is
    the product of two such before relinearization. The scale is printed
    with 17 significant digits, which round-trips every double exactly.
  }];
  let builders = [
    TypeBuilder<(ins "int64_t":$slots, "int64_t":$level, "double":$scale,
                     CArg<"int64_t", "2">:$degree), [{
      return $_get($_ctxt, slots, level, llvm::bit_cast<uint64_t>(scale),
                   degree);
    }]>
  ];
  let extraClassDeclaration = [{
    double getScale() const { return llvm::bit_cast<double>(getScaleBits()); }
    CiphertextType withLevelAndScale(int64_t level, double scale) const {
      return get(getContext(), getSlots(), level, scale, getDegree());
    }
    CiphertextType withDegree(int64_t degree) const {
      return get(getContext(), getSlots(), getLevel(), getScale(), degree);
    }
  }];
}

def CKKS_PlaintextType : CKKS_ScaledType<"Plaintext", "pt", (ins)> {
  let summary = "an encoded CKKS plaintext of given slots, level and scale";
  let description = [{
    `!ckks.pt<8, level = 3, scale = 1099511627776.0>`: values encoded at
    scale 2^40 modulo q_0..q_3, ready for `mul_plain` / `add_plain`.
  }];
  let builders = [
    TypeBuilder<(ins "int64_t":$slots, "int64_t":$level, "double":$scale), [{
      return $_get($_ctxt, slots, level, llvm::bit_cast<uint64_t>(scale));
    }]>
  ];
  let extraClassDeclaration = [{
    double getScale() const { return llvm::bit_cast<double>(getScaleBits()); }
    PlaintextType withLevelAndScale(int64_t level, double scale) const {
      return get(getContext(), getSlots(), level, scale);
    }
  }];
}

#endif // EMBER_CKKS_TYPES_TD
