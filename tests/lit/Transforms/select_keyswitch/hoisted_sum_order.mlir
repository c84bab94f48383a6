// RUN: ember-opt --rns-select-keyswitch=method=klss %s | FileCheck %s
// Regression: a hoisted sum of four rotations whose accumulator adds appear
// in an order where the last add is met (through the use lists) before the
// add it extends, ((a0 + a1) + a2) + a3. The group is still one chain: it
// converts to ONE klss_mod_up, four T-domain automorphisms, four KLSS inner
// products, the sums in coefficient form and one ModDown plus NTT pair.
// CHECK: rns.klss_mod_up
// CHECK-NOT: rns.mod_up
// CHECK-COUNT-4: rns.klss_inner_product
// CHECK: rns.mod_down {{.*}}!rns.poly<coeff
// CHECK: rns.ntt
// CHECK-NOT: rns.ks_inner_product
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593], P = [1152921504606748673], logScale = 40, dnum = 1, security = 128, T = [2305843009213317121, 2305843009213120513, 2305843009212694529, 2305843009212399617], gamma = 4>} {
  func.func @rotations(%arg0: !rns.poly<ntt, q[0:1]>, %arg1: !rns.poly<ntt, q[0:1]>) -> (!rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[0:1]>) attributes {ember.interface = {inputs = [{degree = 2 : i64, level = 0 : i64, name = "in0", scale = 0x4270000000000000 : f64, slots = 16 : i64}], outputs = [{degree = 2 : i64, level = 0 : i64, name = "out0", scale = 0x4270000000000000 : f64, slots = 16 : i64}]}} {
    %0 = rns.decompose %arg1 : !rns.poly<ntt, q[0:1]> -> !rns.poly<ntt, q[0:1]>
    %1 = rns.mod_up %0 : !rns.poly<ntt, q[0:1]> -> !rns.poly<ntt, q[0:1], p[0:1]>
    %2 = rns.automorphism %1, 5 : !rns.poly<ntt, q[0:1], p[0:1]>
    %3 = rns.load_key galois 5 : !rns.evk<dnum = 1, q = 1, p = 1>
    %acc0, %acc1 = rns.ks_inner_product %3(%2) : !rns.evk<dnum = 1, q = 1, p = 1>, (!rns.poly<ntt, q[0:1], p[0:1]>) -> !rns.poly<ntt, q[0:1], p[0:1]>, !rns.poly<ntt, q[0:1], p[0:1]>
    %4 = rns.automorphism %arg0, 5 : !rns.poly<ntt, q[0:1]>
    %5 = rns.automorphism %1, 25 : !rns.poly<ntt, q[0:1], p[0:1]>
    %6 = rns.load_key galois 25 : !rns.evk<dnum = 1, q = 1, p = 1>
    %acc0_0, %acc1_1 = rns.ks_inner_product %6(%5) : !rns.evk<dnum = 1, q = 1, p = 1>, (!rns.poly<ntt, q[0:1], p[0:1]>) -> !rns.poly<ntt, q[0:1], p[0:1]>, !rns.poly<ntt, q[0:1], p[0:1]>
    %7 = rns.automorphism %arg0, 25 : !rns.poly<ntt, q[0:1]>
    %8 = rns.add %acc0, %acc0_0 : !rns.poly<ntt, q[0:1], p[0:1]>
    %9 = rns.add %acc1, %acc1_1 : !rns.poly<ntt, q[0:1], p[0:1]>
    %10 = rns.add %4, %7 : !rns.poly<ntt, q[0:1]>
    %11 = rns.automorphism %1, 125 : !rns.poly<ntt, q[0:1], p[0:1]>
    %12 = rns.load_key galois 125 : !rns.evk<dnum = 1, q = 1, p = 1>
    %acc0_2, %acc1_3 = rns.ks_inner_product %12(%11) : !rns.evk<dnum = 1, q = 1, p = 1>, (!rns.poly<ntt, q[0:1], p[0:1]>) -> !rns.poly<ntt, q[0:1], p[0:1]>, !rns.poly<ntt, q[0:1], p[0:1]>
    %13 = rns.automorphism %arg0, 125 : !rns.poly<ntt, q[0:1]>
    %14 = rns.add %8, %acc0_2 : !rns.poly<ntt, q[0:1], p[0:1]>
    %15 = rns.add %9, %acc1_3 : !rns.poly<ntt, q[0:1], p[0:1]>
    %16 = rns.add %10, %13 : !rns.poly<ntt, q[0:1]>
    %17 = rns.automorphism %1, 3125 : !rns.poly<ntt, q[0:1], p[0:1]>
    %18 = rns.load_key galois 3125 : !rns.evk<dnum = 1, q = 1, p = 1>
    %acc0_4, %acc1_5 = rns.ks_inner_product %18(%17) : !rns.evk<dnum = 1, q = 1, p = 1>, (!rns.poly<ntt, q[0:1], p[0:1]>) -> !rns.poly<ntt, q[0:1], p[0:1]>, !rns.poly<ntt, q[0:1], p[0:1]>
    %19 = rns.automorphism %arg0, 3125 : !rns.poly<ntt, q[0:1]>
    %20 = rns.add %14, %acc0_4 : !rns.poly<ntt, q[0:1], p[0:1]>
    %21 = rns.add %15, %acc1_5 : !rns.poly<ntt, q[0:1], p[0:1]>
    %22 = rns.add %16, %19 : !rns.poly<ntt, q[0:1]>
    %23:2 = rns.mod_down %20, %21 : !rns.poly<ntt, q[0:1], p[0:1]>, !rns.poly<ntt, q[0:1], p[0:1]> -> !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[0:1]>
    %24 = rns.add %22, %23#0 : !rns.poly<ntt, q[0:1]>
    return %24, %23#1 : !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[0:1]>
  }
}
