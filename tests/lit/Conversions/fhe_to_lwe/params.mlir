// The parameter set: STD128 by default, TOY only with insecure=true, an
// unknown name refused with the known ones. The encoding: radix by default
// where tables over Z_16 read within 2^-40 (STD128_4BIT_MR, TOY_4BIT_MR),
// on request where one table output reads within it (STD128_4BIT: each
// table is then checked, radix_noise.mlir), refused by name elsewhere.
// RUN: ember-opt --fhe-to-lwe %s | FileCheck %s --check-prefix=DEFAULT
// RUN: ember-opt --fhe-to-lwe=params=STD128Q %s | FileCheck %s --check-prefix=PQ
// RUN: not ember-opt --fhe-to-lwe=params=TOY %s 2>&1 | FileCheck %s --check-prefix=TOY
// RUN: not ember-opt --fhe-to-lwe=params=STD64 %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: ember-opt --fhe-to-lwe="params=TOY insecure=true" %s | FileCheck %s --check-prefix=INSECURE
// RUN: ember-opt --fhe-to-lwe="params=TOY_4BIT_MR insecure=true" %s | FileCheck %s --check-prefix=RADIX
// RUN: ember-opt --fhe-to-lwe="params=STD128_4BIT" %s | FileCheck %s --check-prefix=GADGET
// RUN: not ember-opt --fhe-to-lwe="params=STD128 encoding=radix" %s 2>&1 | FileCheck %s --check-prefix=NORADIX
// RUN: ember-opt --fhe-to-lwe="params=STD128_4BIT encoding=radix" %s | FileCheck %s --check-prefix=RADIX4
// RUN: not ember-opt --fhe-to-lwe="params=STD128 encoding=blocks" %s 2>&1 | FileCheck %s --check-prefix=ENCODING

// DEFAULT: module attributes {lwe.params = "STD128"}
// PQ: module attributes {lwe.params = "STD128Q"}
// TOY: parameter set 'TOY' is insecure; pass insecure=true (tests only)
// UNKNOWN: unknown FHEW/TFHE parameter set 'STD64' (known: STD128, STD128Q, STD128_AP, STD128_4BIT, STD128_4BIT_MR, TOY, TOY_AP, TOY_MR, TOY_4BIT_MR)
// INSECURE: module attributes {lwe.params = "TOY"}
// RADIX: module attributes {lwe.encoding = "radix", lwe.params = "TOY_4BIT_MR"}
// RADIX: func.func @id(%arg0: !lwe.block) -> !lwe.block
// GADGET: module attributes {lwe.params = "STD128_4BIT"}
// NORADIX: radix blocks at 'STD128' would misread a table over Z_16 with probability 2^-{{[0-9.]+}} (bound 2^-40.0); use STD128_4BIT_MR, or encoding=bits
// RADIX4: module attributes {lwe.encoding = "radix", lwe.params = "STD128_4BIT"}
// ENCODING: unknown encoding 'blocks' (auto, bits or radix)
func.func @id(%x: !fhe.eint<2>) -> !fhe.eint<2> {
  return %x : !fhe.eint<2>
}
