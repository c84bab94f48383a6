// What a generated program's source needs from the runtime, and nothing
// else (so that it compiles in a fraction of a second): the plan types
// (ember/program_plan.h), the kernel signatures, the executors' entry points
// and the ABI version. The arguments themselves (CpuArgs, CudaArgs) are
// only passed through; ember/program.h and ember/program_cuda.h define
// them for the callers.
#pragma once

#include "ember/program_plan.h"

struct CUstream_st;

namespace ember::program {

template <typename Word> struct BasicCpuArgs;
using CpuArgs = BasicCpuArgs<uint64_t>;
using CpuArgs32 = BasicCpuArgs<uint32_t>;
template <typename Word> struct BasicCudaArgs;
using CudaArgs = BasicCudaArgs<uint64_t>;
using CudaArgs32 = BasicCudaArgs<uint32_t>;

/// Bumped when the plan, the arguments or the executors change; generated
/// code exports `ember_program_abi` returning the version it was emitted
/// for, and the loaders refuse another. Generated code also exports
/// `ember_program_word` (64 or 32): the word size of its arguments.
/// 9: KernelIO's buffers untyped (32-bit programs), ember_program_word.
/// 10: Plan::plain_modulus (BGV programs).
/// 11: Plan::bfv_plain_modulus and StepKind::kBfvTensor (BFV programs).
/// 12: programs of several devices: Step::device, StepKind::kTransfer,
///     Plan::devices and Plan::device_arena_bytes.
/// 13: BasicCudaGraph's inputs and outputs in place (in_place, sites).
/// 14: a kModSwitchDown step's imm[0] is its lifted addends' Galois
///     element (0: read in order).
/// (Not bumped for a kModSwitchDown's imm[1], the overlap with the inner
/// product before it: a runtime that ignores it runs the two in turn, which
/// the plan allows, and older plans have 0 there.)
inline constexpr int kAbiVersion = 14;

/// A generated elementwise kernel of a C++ program.
using CpuKernel = void (*)(const KernelLoop &, const KernelIO &);
/// A generated elementwise kernel of a CUDA program, launched on `stream`
/// (the emitted source wraps each __global__ kernel in one of these).
using CudaKernel = void (*)(const KernelLoop &, const KernelIO &,
                            CUstream_st *stream);

/// Runs a plan on the CPU runtime (runtime/core/program_exec.h): what every
/// generated .cpp's entry does with its tables.
void run(const CpuArgs &args, const Plan<CpuKernel> &plan);
/// The same for a 32-bit program (ember_program_word() == 32).
void run(const CpuArgs32 &args, const Plan<CpuKernel> &plan);
/// Runs a plan on the CUDA runtime: what every generated .cu's entry does.
/// All work is queued on the context's stream.
void runCuda(const CudaArgs &args, const Plan<CudaKernel> &plan);
/// The same for a 32-bit program on a DeviceContext of a Context32.
void runCuda(const CudaArgs32 &args, const Plan<CudaKernel> &plan);

#ifdef __CUDACC__
/// Throws the error of the last kernel launch, if any (generated code calls
/// it after each launch when built with -DEMBER_DEBUG_LAUNCHES).
void checkLaunch(cudaError_t e);
#ifdef EMBER_DEBUG_LAUNCHES
#define EMBER_CHECK_LAUNCH() ::ember::program::checkLaunch(cudaGetLastError())
#else
#define EMBER_CHECK_LAUNCH() ((void)0)
#endif
#endif

} // namespace ember::program
