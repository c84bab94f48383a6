// Each table's noise weight is checked against max-log2-failure at the
// user's op. At TOY_4BIT_MR a table of two blocks (nu2 = 17) misreads with
// probability 2^-157.0 and one of one block 2^-157.1: a bound between the
// two refuses the bitwise AND and names it. At STD128_4BIT (the gadget
// set, where radix is only on request) the same table misreads 2^-29.0,
// above the default 2^-40.
// RUN: ember-opt --fhe-to-lwe="params=TOY_4BIT_MR insecure=true" %s | FileCheck %s
// RUN: ember-opt --fhe-to-lwe="params=TOY_4BIT_MR insecure=true encoding=radix max-log2-failure=-157.05" %s --verify-diagnostics
// RUN: not ember-opt --fhe-to-lwe="params=STD128_4BIT encoding=radix" %s 2>&1 | FileCheck %s --check-prefix=GADGET

// CHECK: lwe.log2_failure = -156.99
// GADGET: radix_noise.mlir:[[@LINE+3]]:{{.*}} fhe-to-lwe: a table reads a block of noise weight nu2 = 17, which misreads with probability 2^-29.0, above the bound 2^-40.0
func.func @and(%a: !fhe.eint<2>, %b: !fhe.eint<2>) -> !fhe.eint<2> {
  // expected-error @+1 {{fhe-to-lwe: a table reads a block of noise weight nu2 = 17, which misreads with probability 2^-157.0, above the bound 2^-157.1}}
  %x = fhe.int_and %a, %b : !fhe.eint<2>
  return %x : !fhe.eint<2>
}
