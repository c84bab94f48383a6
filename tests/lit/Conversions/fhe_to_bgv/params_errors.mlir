// t = 65539 is prime but 3 mod 2^14: it batches at no N.
// RUN: not ember-opt --fhe-to-bgv="plaintext-modulus=65539" %s 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: no 128-bit BGV parameters for depth 1, t = 65539 and 8 slots: plaintext modulus 65539 is not 1 mod 2N = 262144 (it does not batch at N = 2^17)
// A forced ring too small for the depth at 128 bits, then the same in the
// insecure test mode (accepted).
// RUN: not ember-opt --fhe-to-bgv="log-n=13" %S/Inputs/depth6.mlir 2>&1 | FileCheck %s --check-prefix=BOUND
// BOUND: error: no 128-bit BGV parameters for depth 6, t = 65537 and 8 slots: depth 6 needs log QP {{[0-9]+}} at N = 2^13, above the 128-bit bound 218
// RUN: ember-opt --fhe-to-bgv="log-n=13 security=none" %S/Inputs/depth6.mlir | FileCheck %s --check-prefix=NONE
// NONE: logN = 13, {{.*}} security = 0, plain = 65537
// Large integer factors without a modulus switch grow the noise past what
// 60-bit primes hold: an error at the line of the noisiest value, not a
// wrong decryption. Fewer of them fit by a larger q_0 (the chain grows
// with the program's noise, not only its depth).
// RUN: not ember-opt --fhe-to-bgv %S/Inputs/noise.mlir 2>&1 | FileCheck %s --check-prefix=NOISE
// NOISE: noise.mlir:12:8: error: the noise of this value needs BGV primes of {{[0-9]+}} bits, more than the runtime's 60
// RUN: ember-opt --fhe-to-bgv %S/Inputs/noise4.mlir | FileCheck %s --check-prefix=GROWN
// GROWN: Q = [18014398508400641], {{.*}} logScale = 54
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %o = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %o : !fhe.ct<8>
}
