"""A program whose automatic parameters get a KLSS form (issue 15,
rns-select-keyswitch klss-form): products and rotations of one input, the
program of tests/e2e/test_options.py, compiled by
bench/make_python_gpu_artifacts.py with extra_levels=20 and dnum=10 (N =
2^16, 23 Q limbs of 40-60 bits, K = 2, digits of 2-3 limbs). The cost model
then predicts KLSS key switching about a fifth faster over the program, so
with klss_form=True the compiler adds gamma 5 and 7 T primes; the
"klss_form_off" twin (the default) keeps hybrid parameters.
bench/gpu_python.py times both on the GPU: on an H200 the KLSS form was the
slower (3.58 against 2.90 ms), which is why klss_form is off by default."""

import ember


@ember.program(slots=16)
def klss_form(x, y):
    a = x * y + x.rotate(1) * y.rotate(2)
    return a * x + x.rotate(3) + x.rotate(5)
