"""A program whose automatic parameters get a KLSS form (issue 15,
rns-select-keyswitch klss-form): products and rotations of one input, the
program of tests/e2e/test_options.py, compiled by
bench/make_python_gpu_artifacts.py with extra_levels=20 and dnum=23 (N =
2^16, 23 Q limbs of 40-60 bits, a digit per limb, K = 1: Athena's small-K
regime). The cost model then predicts KLSS key switching faster for the
relinearisations and some rotations, so with klss_form (the default since
2026-11-26) the compiler adds a form; the "klss_form_off" twin
(klss_form=False) keeps hybrid parameters. bench/gpu_python.py times both
on the GPU. (With dnum=10, K = 2, the model predicted KLSS a fifth faster
before its digit automorphisms were counted once each; on an H200 KLSS was
the slower there, 3.58 against 2.90 ms, and the corrected model picks
hybrid.)"""

import ember


@ember.program(slots=16)
def klss_form(x, y):
    a = x * y + x.rotate(1) * y.rotate(2)
    return a * x + x.rotate(3) + x.rotate(5)
