// NCCL in the CUDA runtime (ember/nccl.h): communicators, the send and
// receive of a program's kTransfer, and the point-to-point bandwidth the
// cost model is calibrated with. Compiled with EMBER_HAVE_NCCL when CMake
// found NCCL; without it each entry point throws the same Error.
#include "ember/nccl.h"

#include "ember/errors.h"

#include <cuda_runtime.h>

#ifdef EMBER_HAVE_NCCL
#include <nccl.h>

#include <chrono>
#include <cstdlib>
#endif

#include <string>

namespace ember::cuda {

namespace {

[[noreturn]] void noNccl(const std::string &what) {
  throw Error("this runtime was built without NCCL: " + what +
              " needs it (configure with NCCL present, EMBER_ENABLE_NCCL)");
}

#ifdef EMBER_HAVE_NCCL
void check(ncclResult_t r, const char *what) {
  if (r != ncclSuccess)
    throw Error(std::string(what) + ": " + ncclGetErrorString(r));
}
void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw Error(std::string(what) + ": " + cudaGetErrorString(e));
}
ncclComm_t asComm(void *comm) {
  if (!comm)
    throw InvalidArgument("no NCCL communicator");
  return static_cast<ncclComm_t>(comm);
}
#endif

} // namespace

bool haveNccl() {
#ifdef EMBER_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

int ncclVersionCode() {
#ifdef EMBER_HAVE_NCCL
  int v = 0;
  check(ncclGetVersion(&v), "ncclGetVersion");
  return v;
#else
  noNccl("ncclVersionCode");
#endif
}

NcclComms::NcclComms(const std::vector<int> &devices) : devices_(devices) {
#ifdef EMBER_HAVE_NCCL
  if (devices.empty())
    throw InvalidArgument("NCCL communicators of no device");
  for (size_t i = 0; i < devices.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (devices[i] == devices[j])
        throw InvalidArgument("NCCL communicators: CUDA device " +
                              std::to_string(devices[i]) +
                              " is listed twice (one rank per device)");
  // NVLink SHARP (multicast objects) stays off unless asked for: the
  // copies of a partitioned program are point to point.
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  std::vector<ncclComm_t> comms(devices.size());
  check(ncclCommInitAll(comms.data(), static_cast<int>(devices.size()),
                        devices_.data()),
        "ncclCommInitAll");
  comms_.assign(comms.begin(), comms.end());
#else
  noNccl("a communicator of " + std::to_string(devices.size()) + " GPUs");
#endif
}

NcclComms::~NcclComms() {
#ifdef EMBER_HAVE_NCCL
  for (void *c : comms_)
    if (c)
      ncclCommDestroy(static_cast<ncclComm_t>(c));
#endif
}

void NcclComms::abort() {
#ifdef EMBER_HAVE_NCCL
  for (void *c : comms_)
    if (c)
      ncclCommAbort(static_cast<ncclComm_t>(c));
#endif
  comms_.assign(comms_.size(), nullptr);
}

void ncclSendBytes(void *comm, const void *data, size_t bytes, int peer,
                   CUstream_st *stream) {
#ifdef EMBER_HAVE_NCCL
  check(ncclSend(data, bytes, ncclUint8, peer, asComm(comm), stream),
        "ncclSend");
#else
  (void)comm, (void)data, (void)bytes, (void)peer, (void)stream;
  noNccl("a transfer between GPUs");
#endif
}

void ncclRecvBytes(void *comm, void *data, size_t bytes, int peer,
                   CUstream_st *stream) {
#ifdef EMBER_HAVE_NCCL
  check(ncclRecv(data, bytes, ncclUint8, peer, asComm(comm), stream),
        "ncclRecv");
#else
  (void)comm, (void)data, (void)bytes, (void)peer, (void)stream;
  noNccl("a transfer between GPUs");
#endif
}

int ncclRanks(void *comm) {
#ifdef EMBER_HAVE_NCCL
  int n = 0;
  check(ncclCommCount(asComm(comm), &n), "ncclCommCount");
  return n;
#else
  (void)comm;
  noNccl("ncclRanks");
#endif
}

int ncclRank(void *comm) {
#ifdef EMBER_HAVE_NCCL
  int r = 0;
  check(ncclCommUserRank(asComm(comm), &r), "ncclCommUserRank");
  return r;
#else
  (void)comm;
  noNccl("ncclRank");
#endif
}

double p2pBandwidth(int src, int dst, size_t bytes, int iterations) {
#ifdef EMBER_HAVE_NCCL
  if (src == dst)
    throw InvalidArgument("p2pBandwidth: source and destination are both "
                          "device " +
                          std::to_string(src));
  if (bytes == 0 || iterations <= 0)
    throw InvalidArgument("p2pBandwidth: needs bytes > 0 and iterations > 0");
  NcclComms comms({src, dst});
  // Each device's buffer and stream, freed on every path.
  struct Side {
    int device;
    void *buf = nullptr;
    cudaStream_t stream = nullptr;
    ~Side() {
      cudaSetDevice(device);
      if (stream)
        cudaStreamDestroy(stream);
      if (buf)
        cudaFree(buf);
    }
  } side[2] = {{src}, {dst}};
  for (Side &s : side) {
    check(cudaSetDevice(s.device), "cudaSetDevice");
    check(cudaMalloc(&s.buf, bytes), "cudaMalloc");
    check(cudaMemset(s.buf, 0, bytes), "cudaMemset");
    check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking),
          "cudaStreamCreate");
  }
  auto copy = [&] { // one thread drives both ranks: a group call
    check(ncclGroupStart(), "ncclGroupStart");
    check(ncclSend(side[0].buf, bytes, ncclUint8, 1,
                   static_cast<ncclComm_t>(comms.comm(0)), side[0].stream),
          "ncclSend");
    check(ncclRecv(side[1].buf, bytes, ncclUint8, 0,
                   static_cast<ncclComm_t>(comms.comm(1)), side[1].stream),
          "ncclRecv");
    check(ncclGroupEnd(), "ncclGroupEnd");
  };
  auto wait = [&] {
    for (Side &s : side) {
      check(cudaSetDevice(s.device), "cudaSetDevice");
      check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
    }
  };
  copy(); // warm-up: NCCL's connection between the two is set up here
  wait();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i)
    copy();
  wait();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return double(bytes) * iterations / seconds / 1e9;
#else
  (void)src, (void)dst, (void)bytes, (void)iterations;
  noNccl("p2pBandwidth");
#endif
}

} // namespace ember::cuda
