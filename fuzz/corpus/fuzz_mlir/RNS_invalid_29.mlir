
func.func @mul_inv_own_limb(%x: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{divisor primes must not be limbs of the operand}}
  %0 = rns.mul_inv %x, q[3:4], p[0:1] : !rns.poly<ntt, q[0:4]>
  return
}

