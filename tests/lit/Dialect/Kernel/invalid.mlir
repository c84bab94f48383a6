// RUN: ember-opt %s --split-input-file --verify-diagnostics

func.func @unknown(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{unknown runtime primitive 'fft'}}
  %y = kernel.call "fft"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @automorphism_without_galois(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{automorphism needs a 'galois' attribute}}
  %y = kernel.call "automorphism"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return %y : !rns.poly<ntt, q[0:2]>
}

// -----

func.func @view_out_of_range(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[1:3]> {
  // expected-error @+1 {{limb range [1:2] does not fit}}
  %y = kernel.view %x[1:2] : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[1:3]>
  return %y : !rns.poly<ntt, q[1:3]>
}

// -----

func.func @launch_arity(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{body takes 2 arguments for 1 inputs}}
  %y = kernel.launch "k0"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<ntt, q[0:2]>):
    kernel.yield %a : !rns.poly<ntt, q[0:2]>
  }
  return %y : !rns.poly<ntt, q[0:2]>
}
