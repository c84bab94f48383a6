// RUN: ember-opt %s --split-input-file --verify-diagnostics

func.func @unknown(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{unknown runtime primitive 'fft'}}
  %y = kernel.call "fft"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

