// The encrypted-integer ops round-trip through the parser and printer.
// RUN: ember-opt %s | ember-opt | FileCheck %s

// CHECK-LABEL: func.func @ints
func.func @ints(%x: !fhe.eint<8>, %y: !fhe.eint<8>, %s: !fhe.esint<4>) -> (!fhe.eint<8>, !fhe.eint<1>, !fhe.esint<4>, !fhe.eint<2>) {
  // CHECK: fhe.int_constant 200 : !fhe.eint<8>
  %c = fhe.int_constant 200 : !fhe.eint<8>
  // CHECK: fhe.int_add %{{.*}}, %{{.*}} : !fhe.eint<8>
  %a = fhe.int_add %x, %c : !fhe.eint<8>
  // CHECK: fhe.int_sub
  %b = fhe.int_sub %a, %y : !fhe.eint<8>
  // CHECK: fhe.int_mul
  %m = fhe.int_mul %b, %y : !fhe.eint<8>
  // CHECK: fhe.int_and
  %n = fhe.int_and %m, %x : !fhe.eint<8>
  // CHECK: fhe.int_or
  %o = fhe.int_or %n, %x : !fhe.eint<8>
  // CHECK: fhe.int_xor
  %p = fhe.int_xor %o, %y : !fhe.eint<8>
  // CHECK: fhe.int_not %{{.*}} : !fhe.eint<8>
  %q = fhe.int_not %p : !fhe.eint<8>
  // CHECK: fhe.int_cmp "lt", %{{.*}}, %{{.*}} : !fhe.eint<8> -> !fhe.eint<1>
  %lt = fhe.int_cmp "lt", %q, %y : !fhe.eint<8> -> !fhe.eint<1>
  // CHECK: fhe.int_constant -8 : !fhe.esint<4>
  %neg = fhe.int_constant -8 : !fhe.esint<4>
  %t = fhe.int_add %s, %neg : !fhe.esint<4>
  // CHECK: fhe.int_lut %{{.*}} [3, 0, 2, 1] : !fhe.eint<2> -> !fhe.eint<2>
  %lo = fhe.int_lut %lt [1, 2] : !fhe.eint<1> -> !fhe.eint<2>
  %l = fhe.int_lut %lo [3, 0, 2, 1] : !fhe.eint<2> -> !fhe.eint<2>
  return %q, %lt, %t, %l : !fhe.eint<8>, !fhe.eint<1>, !fhe.esint<4>, !fhe.eint<2>
}
