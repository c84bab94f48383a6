// RUN: ember-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{polynomial basis has no limbs}}
func.func private @no_limbs(!rns.poly<ntt>)

