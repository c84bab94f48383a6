// RUN: not ember-opt --bgv-to-rns %s 2>&1 | FileCheck %s
// CHECK: error: bgv-to-rns needs the module's #ckks.params with a plaintext modulus (run fhe-to-bgv first)
func.func @f(%a: !bgv.ct<8, level = 0, factor = 1>) -> !bgv.ct<8, level = 0, factor = 1> {
  return %a : !bgv.ct<8, level = 0, factor = 1>
}
