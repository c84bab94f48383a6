// EMBER_WIDE_CLONES: compile a hot loop twice, for AVX2 and for the
// baseline, and let the loader pick by the CPU (GCC's target_clones, an
// ifunc). The loops are integer arithmetic: both clones give the same
// words. Elsewhere (clang's fuzzing builds, other CPUs) it is nothing.
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define EMBER_WIDE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define EMBER_WIDE_CLONES
#endif
