//===- RecordInterface.td - ckks-record-interface ----------*- tablegen -*-===//

#ifndef EMBER_TRANSFORMS_RECORDINTERFACE_TD
#define EMBER_TRANSFORMS_RECORDINTERFACE_TD

include "mlir/Pass/PassBase.td"

def CKKSRecordInterface : Pass<"ckks-record-interface", "::mlir::ModuleOp"> {
  let summary = "Record each function's ciphertext interface for the manifest";
  let description = [{
    Below the ckks level a ciphertext is only its polynomials: its slot
    count and exact scale are gone. The client needs them (to encode and
    encrypt inputs at the right level and scale, and to decode outputs), so
    this pass, run last in the ckks half, stores them on each function as

    `ember.interface`, a dictionary with `inputs` and `outputs`: lists of
    dictionaries `{name, slots, level, scale, degree}` (degree = number of
    polynomials), inputs also with `range`: the argument's `fhe.range`
    (what fhe-to-ckks chose the first prime and the scale for), else the
    default `[-1.0, 1.0]`; the client refuses values outside it. A
    plaintext argument (a tensor of slot values, encoded at run time) is
    `{name, slots, plain, range}`,

    which survives `ckks-to-rns` and `rns-to-kernel` and which
    `ember-translate --emit-manifest` and the emitters read. An argument's
    name is its `ember.name` argument attribute if present, else `in<i>`;
    results are `out<i>` unless the function has `ember.result_names`.
  }];
}

#endif // EMBER_TRANSFORMS_RECORDINTERFACE_TD
