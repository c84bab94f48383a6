// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Parameter set C's shape (BENCHMARKS.md): 26 Q primes, 7 special primes,
// dnum = 4 -> ember::digitSizes gives uneven digits 7, 7, 7, 5. At a lower
// level the digits are cut at q_l (level 9: 7 and 3).

!top = !ckks.ct<8, level = 25, scale = 281474976710656.0>
!low = !ckks.ct<8, level = 9, scale = 281474976710656.0>

module attributes {ckks.params = #ckks.params<logN = 16, Q = [36028797014376449, 281474976317441, 281474975662081, 281474974482433, 281474966880257, 281474962554881, 281474960326657, 281474957180929, 281474955476993, 281474952462337, 281474949316609, 281474949185537, 281474948923393, 281474948136961, 281474945253377, 281474943025153, 281474941059073, 281474938175489, 281474935422977, 281474933456897, 281474931621889, 281474929131521, 281474926903297, 281474925985793, 281474924019713, 281474919825409], P = [72057594036879361, 72057594035306497, 72057594034913281, 72057594030981121, 72057594029015041, 72057594027704321, 72057594023903233], logScale = 48, dnum = 4, security = 128>} {

// CHECK-LABEL: func.func @top
// CHECK: rns.load_key galois 5 : !rns.evk<dnum = 4, q = 26, p = 7>
// CHECK: rns.decompose %{{.*}} : !rns.poly<ntt, q[0:26]> -> !rns.poly<ntt, q[0:7]>, !rns.poly<ntt, q[7:14]>, !rns.poly<ntt, q[14:21]>, !rns.poly<ntt, q[21:26]>
// CHECK: rns.mod_up {{.*}} -> !rns.poly<ntt, q[0:26], p[0:7]>, !rns.poly<ntt, q[0:26], p[0:7]>, !rns.poly<ntt, q[0:26], p[0:7]>, !rns.poly<ntt, q[0:26], p[0:7]>
func.func @top(%c: !top) -> !top {
  %0 = ckks.rotate %c by 1 : !top
  return %0 : !top
}

// CHECK-LABEL: func.func @low
// CHECK: rns.decompose %{{.*}} : !rns.poly<ntt, q[0:10]> -> !rns.poly<ntt, q[0:7]>, !rns.poly<ntt, q[7:10]>
// CHECK: rns.mod_up {{.*}} -> !rns.poly<ntt, q[0:10], p[0:7]>, !rns.poly<ntt, q[0:10], p[0:7]>
func.func @low(%c: !low) -> !low {
  %0 = ckks.rotate %c by 1 : !low
  return %0 : !low
}
}
