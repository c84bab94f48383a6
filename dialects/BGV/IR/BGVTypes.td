//===- BGVTypes.td - bgv types ------------------------------*- tablegen -*-===//
#ifndef EMBER_BGV_TYPES_TD
#define EMBER_BGV_TYPES_TD

include "dialects/BGV/IR/BGVDialect.td"

def BGV_CiphertextType : TypeDef<BGV_Dialect, "Ciphertext"> {
  let mnemonic = "ct";
  let summary = "a BGV ciphertext of given slots, level, factor and degree";
  let description = [{
    `!bgv.ct<8, level = 3, factor = 1>`: 8 integer slots mod t over
    q_0..q_3 with correction factor 1; `degree = 3` between `bgv.mul` and
    `bgv.relinearize`. Under a BFV chain (`scheme = bfv`) the same type is
    a BFV ciphertext: always at the top level, factor 1, and its slots
    scaled by Delta = Q / t instead.
  }];
  let parameters = (ins "int64_t":$slots, "int64_t":$level,
                        "uint64_t":$factor,
                        DefaultValuedParameter<"int64_t", "2">:$degree);
  let assemblyFormat = [{
    `<` $slots `,` `level` `=` $level `,` `factor` `=` $factor
    (`,` `degree` `=` $degree^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    CiphertextType withLevelAndFactor(int64_t level, uint64_t factor) const {
      return get(getContext(), getSlots(), level, factor, getDegree());
    }
    CiphertextType withDegree(int64_t degree) const {
      return get(getContext(), getSlots(), getLevel(), getFactor(), degree);
    }
  }];
}

def BGV_PlaintextType : TypeDef<BGV_Dialect, "Plaintext"> {
  let mnemonic = "pt";
  let summary = "an encoded BGV plaintext of given slots, level and factor";
  let description = [{
    `!bgv.pt<8, level = 3, factor = 5>`: [5 m]_t's coefficients, centred,
    over q_0..q_3 in NTT form. A plaintext that multiplies has factor 1;
    one that is added carries the ciphertext's factor. Under a BFV chain:
    `!bgv.pt<8, level = L, factor = 1>` is the centred m that `mul_plain`
    takes, and `!bgv.pt<8, level = L, factor = 1, scaled>` is
    ceil(Q m / t), what `add_plain` and `sub_plain` take.
  }];
  let parameters = (ins "int64_t":$slots, "int64_t":$level,
                        "uint64_t":$factor,
                        DefaultValuedParameter<"bool", "false">:$scaled);
  let builders = [
    TypeBuilder<(ins "int64_t":$slots, "int64_t":$level, "uint64_t":$factor), [{
      return $_get($_ctxt, slots, level, factor, false);
    }]>
  ];
  let assemblyFormat = [{
    `<` $slots `,` `level` `=` $level `,` `factor` `=` $factor
    `` custom<Scaled>($scaled) `>`
  }];
  let genVerifyDecl = 1;
}

#endif // EMBER_BGV_TYPES_TD
