// NCCL in the CUDA runtime: the communicators and point-to-point copies of
// programs partitioned over several GPUs (Plan::devices > 1: a kTransfer is
// an ncclSend on its sender and an ncclRecv on its receiver, queued on each
// device context's transfer stream, so a CUDA Graph captures them like any
// step).
// Built with NCCL when CMake found it (EMBER_ENABLE_NCCL); without it every
// function here but haveNccl throws ember::Error ("this runtime was built
// without NCCL: ..."). The header does not include nccl.h: a communicator
// is a void * (an ncclComm_t).
#pragma once

#include <cstddef>
#include <vector>

struct CUstream_st;

namespace ember::cuda {

/// Whether this runtime was built with NCCL.
bool haveNccl();
/// NCCL's version code (e.g. 22809 for 2.28.9) of the library loaded.
int ncclVersionCode();

/// One NCCL communicator per CUDA device (ordinal) of `devices`, rank i on
/// devices[i] (ncclCommInitAll, from one thread): what a program of
/// devices.size() devices runs with, device i with comm(i). The devices
/// must be distinct. Sets NCCL_NVLS_ENABLE=0 in the environment unless it
/// is set (NVLink SHARP multicast stays off: it is not needed for
/// point-to-point copies and needs a multicast-capable fabric).
class NcclComms {
public:
  explicit NcclComms(const std::vector<int> &devices);
  ~NcclComms(); ///< ncclCommDestroy of each (destroy captured graphs first)
  NcclComms(const NcclComms &) = delete;
  NcclComms &operator=(const NcclComms &) = delete;

  int size() const { return static_cast<int>(devices_.size()); }
  const std::vector<int> &devices() const { return devices_; }
  /// The ncclComm_t of rank `rank`.
  void *comm(int rank) const { return comms_.at(rank); }
  /// ncclCommAbort of each: operations still waiting for a peer (one whose
  /// host thread failed) end, and the communicators are gone (call it only
  /// once no thread will issue on them again; comm() is then invalid).
  void abort();

private:
  std::vector<int> devices_;
  std::vector<void *> comms_;
};

/// ncclSend of `bytes` bytes at `data` (device memory of the communicator's
/// device) to rank `peer`, queued on `stream`; the peer's ncclRecv of the
/// same size must come in the same order among its NCCL calls.
void ncclSendBytes(void *comm, const void *data, size_t bytes, int peer,
                   CUstream_st *stream);
/// ncclRecv of `bytes` bytes into `data` from rank `peer`, queued on
/// `stream`.
void ncclRecvBytes(void *comm, void *data, size_t bytes, int peer,
                   CUstream_st *stream);
/// The ranks of a communicator and the rank of this one.
int ncclRanks(void *comm);
int ncclRank(void *comm);

/// GB/s (10^9 bytes a second) of ncclSend/ncclRecv of `bytes` bytes from
/// CUDA device `src` to `dst`: one warm-up copy, then `iterations` copies
/// timed on the host clock from the first issue to both devices'
/// synchronisation (a group call from this thread; communicators made for
/// it and destroyed after). The cost model's calibration of a transfer.
double p2pBandwidth(int src, int dst, size_t bytes, int iterations);

} // namespace ember::cuda
