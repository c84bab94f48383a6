
func.func @rotate_degree3(%x: !ckks.ct<8, level = 1, scale = 2.0, degree = 3>) {
  // expected-error @+1 {{operand #0 has degree 3; this op needs degree 2 (relinearize first)}}
  %a = ckks.rotate %x by 1 : !ckks.ct<8, level = 1, scale = 2.0, degree = 3>
  return
}

