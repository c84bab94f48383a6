// Without level primes = 1 (mod 2N t) (congruent-primes=false: the
// largest NTT primes of each size, as at large N t), a modulus switch changes
// the factor (q_l^-1 mod t), and a sum of values whose factors differ
// scales one side by the ratio (bgv.adjust_factor, the smaller centred
// ratio). x*y is at factor q_2^-1, z switched down too: equal; (x*y)*z
// against x switched twice: different factors.
// RUN: ember-opt --fhe-to-bgv="congruent-primes=false" %s | FileCheck %s

// CHECK: plain = 65537
// CHECK: %[[XY:.*]] = bgv.mod_switch %{{.*}} : <8, level = 2, factor = 1> -> <8, level = 1, factor = [[F1:[0-9]+]]>
// CHECK: bgv.mod_switch %{{.*}} : <8, level = 2, factor = 1> -> <8, level = 1, factor = [[F1]]>
// CHECK: bgv.mul %{{.*}}, %{{.*}} : <8, level = 1, factor = [[F1]]>, <8, level = 1, factor = [[F1]]>
// CHECK: bgv.mod_switch %{{.*}} : <8, level = 1, factor = {{[0-9]+}}> -> <8, level = 0, factor = [[F2:[0-9]+]]>
// CHECK: bgv.mod_switch %{{.*}} : <8, level = 1, factor = [[F1]]> -> <8, level = 0, factor = [[F3:[0-9]+]]>
// CHECK: bgv.adjust_factor %{{.*}}, {{-?[0-9]+}} : <8, level = 0
// CHECK: bgv.add
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>, %z: !fhe.ct<8>) -> !fhe.ct<8> {
  %xy = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %xyz = fhe.mul %xy, %z : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %o = fhe.add %xyz, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %o : !fhe.ct<8>
}
