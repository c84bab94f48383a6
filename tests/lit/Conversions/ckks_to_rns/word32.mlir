// ckks-to-rns under double-prime scaling: a ckks level l is 3 + 2 l limbs
// (q_0, the base pair, a pair per level), a rescale drops the top pair in
// one rns.rescale, and the key switch's digits tile the level's limbs.
// RUN: ember-opt --ckks-to-rns %s | FileCheck %s

!ct2 = !ckks.ct<8, level = 2, scale = 4398046511104.0>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521], logScale = 42, dnum = 7, security = 128, word = 32, scalePrimes = 2>} {
  // CHECK-LABEL: func.func @mul_rescale
  // CHECK-SAME: (%{{.*}}: !rns.poly<ntt, q[0:7]>, %{{.*}}: !rns.poly<ntt, q[0:7]>) -> (!rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>)
  // CHECK: rns.load_key relin : !rns.evk<dnum = 7, q = 7, p = 1>
  // CHECK: rns.decompose {{.*}} : !rns.poly<ntt, q[0:7]> -> !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[1:2]>, !rns.poly<ntt, q[2:3]>, !rns.poly<ntt, q[3:4]>, !rns.poly<ntt, q[4:5]>, !rns.poly<ntt, q[5:6]>, !rns.poly<ntt, q[6:7]>
  // CHECK: rns.mod_down {{.*}} -> !rns.poly<ntt, q[0:7]>, !rns.poly<ntt, q[0:7]>
  // CHECK: rns.rescale {{.*}} : !rns.poly<ntt, q[0:7]>, !rns.poly<ntt, q[0:7]> -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
  func.func @mul_rescale(%x: !ct2) -> !ckks.ct<8, level = 1, scale = 4399093501280.0713> {
    %m = ckks.mul %x, %x : !ct2, !ct2
    %r = ckks.relinearize %m : !ckks.ct<8, level = 2, scale = 1.9342813113834067e+25, degree = 3>
    %s = ckks.rescale %r : !ckks.ct<8, level = 2, scale = 1.9342813113834067e+25> -> !ckks.ct<8, level = 1, scale = 4399093501280.0713>
    return %s : !ckks.ct<8, level = 1, scale = 4399093501280.0713>
  }
  // A mod_drop to level 0 keeps the base: q_0 and the first pair.
  // CHECK-LABEL: func.func @drop
  // CHECK: rns.drop_limbs {{.*}} : !rns.poly<ntt, q[0:7]> -> !rns.poly<ntt, q[0:3]>
  func.func @drop(%x: !ct2) -> !ckks.ct<8, level = 0, scale = 4398046511104.0> {
    %d = ckks.mod_drop %x : !ct2 -> !ckks.ct<8, level = 0, scale = 4398046511104.0>
    return %d : !ckks.ct<8, level = 0, scale = 4398046511104.0>
  }
}
