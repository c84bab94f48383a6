// The CUDA backend in the runtime's Python module (built when the runtime
// is built with EMBER_ENABLE_CUDA): a GPU device context, ciphertexts that
// live on the device (so that runs chain without copies), evaluation keys
// uploaded once, and compiled CUDA programs (an emitted .cu built by nvcc
// into a shared library against this runtime, loaded with dlopen) run from
// Python one step at a time or as one CUDA Graph.
//
// Without a GPU the module still imports: `cuda_device_count()` says why
// there is none and `CudaDevice(...)` raises DeviceUnavailable.
#include "ember/cuda.h"
#include "ember/bfv_cuda.h"
#include "ember/bgv_cuda.h"
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/nccl.h"
#include "ember/program.h"
#include "ember/program_cuda.h"
#include "library.h"
#include "paths.h"

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <type_traits>

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;
using namespace ember;

namespace ember {
/// No GPU, no driver or no device of that index (ember_runtime raises
/// DeviceUnavailable, the frontend NotAvailableError).
class DeviceUnavailable : public Error {
public:
  using Error::Error;
};
} // namespace ember

namespace {

using ContextPtr = std::shared_ptr<Context64>;

/// The number of CUDA devices, or DeviceUnavailable with the driver's
/// reason (no device, no driver, a driver older than the runtime).
int deviceCount() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError(); // clear it
    throw DeviceUnavailable(std::string("no CUDA device: ") +
                            cudaGetErrorString(e));
  }
  if (count == 0)
    throw DeviceUnavailable("no CUDA device: the driver reports none");
  return count;
}

/// A GPU context for one parameter set (keeps its host context alive), at
/// 64-bit words or, built from a Context32, at 32-bit words.
struct Device {
  Device(ContextPtr h, int device) : host(std::move(h)) {
    checkDevice(device);
    ctx = std::make_unique<cuda::DeviceContext>(*host, device);
  }
  Device(std::shared_ptr<Context32> h, int device) : host32(std::move(h)) {
    checkDevice(device);
    ctx = std::make_unique<cuda::DeviceContext>(*host32, device);
  }
  static void checkDevice(int device) {
    const int count = deviceCount();
    if (device < 0 || device >= count)
      throw DeviceUnavailable("no CUDA device " + std::to_string(device) +
                              ": " + std::to_string(count) + " present");
  }
  int word() const { return host32 ? 32 : 64; }
  ContextPtr host;
  std::shared_ptr<Context32> host32;
  std::unique_ptr<cuda::DeviceContext> ctx;
};
using DevicePtr = std::shared_ptr<Device>;

/// A ciphertext on the device (the device outlives it: declared first), of
/// the device's word size: ct at 64 bits, ct32 at 32.
struct DeviceCt {
  DevicePtr dev;
  cuda::DeviceCiphertext ct;
  cuda::DeviceCiphertext32 ct32;
  bool is32() const { return dev && dev->word() == 32; }
  int level() const { return is32() ? ct32.level : ct.level; }
  double scale() const { return is32() ? ct32.scale : ct.scale; }
  size_t slots() const { return is32() ? ct32.slots : ct.slots; }
  int parts() const { return is32() ? ct32.parts : ct.parts; }
};
using DeviceCtPtr = std::shared_ptr<DeviceCt>;

/// A program's evaluation keys on the device, uploaded once, at the
/// device's word (DeviceKeys: 64-bit, DeviceKeys32: a CudaDevice of a
/// Context32): relinearization and Galois keys in either form, and the
/// encapsulation keys. With `only` (a list of Galois elements), just those
/// Galois keys (each in the forms `keys` holds; MissingKey for one it
/// holds in neither), and the relinearization and encapsulation keys only
/// where `relin` and `encapsulation` say: the share of the keys one device
/// of a partitioned program needs.
template <typename W> struct BasicDeviceKeys {
  BasicDeviceKeys(DevicePtr d, const BasicEvaluationKeys<W> &keys,
                  const std::vector<uint64_t> *only = nullptr,
                  bool with_relin = true, bool with_encapsulation = true,
                  const cuda::KeyRows *rows = nullptr)
      : dev(std::move(d)) {
    if (dev->word() != int(8 * sizeof(W)))
      throw InvalidArgument(std::to_string(8 * sizeof(W)) +
                            "-bit evaluation keys go to a CudaDevice of " +
                            std::to_string(8 * sizeof(W)) + "-bit words");
    if (only)
      for (uint64_t g : *only)
        if (!keys.galois.has(g) && !keys.klss_galois.has(g))
          throw MissingKey("the evaluation keys hold no Galois key of "
                           "element " +
                           std::to_string(g));
    const cuda::DeviceContext &c = *dev->ctx;
    has_relin = keys.has_relin && with_relin;
    if (rows) { // a GPU's rows of the hybrid keys (partition="limbs")
      if constexpr (sizeof(W) == 8) {
        if (has_relin)
          relin = cuda::upload(c, keys.relin, *rows);
        galois = only ? cuda::upload(c, keys.galois, *only, *rows)
                      : cuda::upload(c, keys.galois, *rows);
      } else {
        throw InvalidArgument("keys sharded by rows need 64-bit words");
      }
      has_encapsulation = keys.has_encapsulation && with_encapsulation;
      if (has_encapsulation)
        encapsulation = cuda::upload(c, keys.encapsulation);
      return; // hybrid keys only: a limb split switches keys by hybrid
    }
    if (has_relin)
      relin = cuda::upload(c, keys.relin);
    galois = only ? cuda::upload(c, keys.galois, *only)
                  : cuda::upload(c, keys.galois);
    has_klss_relin = keys.has_klss_relin && with_relin;
    if (has_klss_relin)
      klss_relin = cuda::upload(c, keys.klss_relin);
    klss_galois = only ? cuda::upload(c, keys.klss_galois, *only)
                       : cuda::upload(c, keys.klss_galois);
    has_encapsulation = keys.has_encapsulation && with_encapsulation;
    if (has_encapsulation)
      encapsulation = cuda::upload(c, keys.encapsulation);
  }
  /// Device bytes of the uploaded keys.
  size_t bytes() const {
    size_t words = relin.key.buf.words() + klss_relin.key.buf.words() +
                   encapsulation.to_sparse.buf.words() +
                   encapsulation.from_sparse.buf.words();
    for (const auto &[g, k] : galois.keys)
      words += k.buf.words();
    for (const auto &[g, k] : klss_galois.keys)
      words += k.buf.words();
    return words * 8;
  }
  /// The program's arguments pointing at these keys.
  program::BasicCudaArgs<W> args() const {
    program::BasicCudaArgs<W> a;
    a.relin = has_relin ? &relin : nullptr;
    a.galois = &galois;
    a.klss_relin = has_klss_relin ? &klss_relin : nullptr;
    a.klss_galois = &klss_galois;
    a.encapsulation = has_encapsulation ? &encapsulation : nullptr;
    return a;
  }
  DevicePtr dev;
  bool has_relin = false, has_klss_relin = false, has_encapsulation = false;
  cuda::BasicDeviceEncapsulationKeys<W> encapsulation;
  cuda::BasicDeviceRelinKey<W> relin;
  cuda::BasicDeviceGaloisKeys<W> galois;
  cuda::BasicDeviceKlssRelinKey<W> klss_relin;
  cuda::BasicDeviceKlssGaloisKeys<W> klss_galois;
};
using DeviceKeys = BasicDeviceKeys<uint64_t>;
using DeviceKeys32 = BasicDeviceKeys<uint32_t>;

/// GPU milliseconds on `stream` from before issue() enqueues its work to
/// the end of it (CUDA events); wait(stop) waits for the stop event.
template <typename Issue, typename Wait>
float eventMs(cudaStream_t stream, Issue &&issue, Wait &&wait) {
  struct Events { // destroyed on every path
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Events() {
      if (start)
        cudaEventDestroy(start);
      if (stop)
        cudaEventDestroy(stop);
    }
  } e;
  program::cudaCheck(cudaEventCreate(&e.start), "cudaEventCreate");
  program::cudaCheck(cudaEventCreate(&e.stop), "cudaEventCreate");
  program::cudaCheck(cudaEventRecord(e.start, stream), "cudaEventRecord");
  issue();
  program::cudaCheck(cudaEventRecord(e.stop, stream), "cudaEventRecord");
  wait(e.stop);
  float ms = 0;
  program::cudaCheck(cudaEventElapsedTime(&ms, e.start, e.stop),
                     "cudaEventElapsedTime");
  return ms;
}

/// A plaintext on the device (mul_plain's operand of the hand-written API).
struct DevicePt {
  DevicePtr dev;
  cuda::DevicePlaintext pt;
};
using DevicePtPtr = std::shared_ptr<DevicePt>;

/// A device evaluator over a CudaDevice and its uploaded keys, 64-bit words:
/// cuda::Evaluator (CKKS; the runtime's hand-written operations one call
/// each, the baseline compiled programs are measured against, issue 13), or
/// cuda::BgvEvaluator / cuda::BfvEvaluator for a plaintext modulus t.
template <typename Eval> struct DeviceEvaluatorT {
  DeviceEvaluatorT(DevicePtr d, std::shared_ptr<DeviceKeys> k, uint64_t t = 0)
      : dev(std::move(d)), keys(std::move(k)), eval(*dev->ctx, t) {
    if (keys->dev != dev)
      throw InvalidArgument("these keys were uploaded to another CudaDevice");
  }
  const cuda::DeviceCiphertext &ct(const DeviceCtPtr &c) const {
    if (!c || c->dev != dev)
      throw InvalidArgument("the ciphertext lives on another CudaDevice");
    return c->ct;
  }
  DeviceCtPtr wrap(cuda::DeviceCiphertext c) const {
    return std::make_shared<DeviceCt>(DeviceCt{dev, std::move(c)});
  }
  const cuda::DeviceRelinKey &relin() const {
    if (!keys->has_relin)
      throw MissingKey("the evaluation keys hold no relinearization key");
    return keys->relin;
  }
  DevicePtr dev;
  std::shared_ptr<DeviceKeys> keys;
  Eval eval;
};
using DeviceEvaluator = DeviceEvaluatorT<cuda::Evaluator>;

/// Device evaluators run at 64-bit words: checked before one is made.
void requireWord64(const Device &d, const std::string &name) {
  if (d.word() != 64)
    throw InvalidArgument(name + " runs at 64-bit words");
}

/// Python class `name` for DeviceEvaluatorT<Eval>: the operations both BGV and
/// BFV have, plus BGV's modulus switch.
template <typename Eval>
void bindSchemeEvaluator(py::module_ &m, const char *name, const char *doc) {
  using SE = DeviceEvaluatorT<Eval>;
  using CtP = const DeviceCtPtr &;
  py::class_<SE, std::shared_ptr<SE>> cls(m, name, doc);
  cls.def(py::init(
              [name](DevicePtr d, std::shared_ptr<DeviceKeys> k, uint64_t t) {
                requireWord64(*d, name);
                py::gil_scoped_release release;
                return std::make_shared<SE>(std::move(d), std::move(k), t);
              }),
          py::arg("device"), py::arg("keys"), py::arg("t"))
      .def(
          "add",
          [](const SE &e, CtP a, CtP b) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.add(e.ct(a), e.ct(b)));
          },
          py::arg("a"), py::arg("b"))
      .def(
          "sub",
          [](const SE &e, CtP a, CtP b) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.sub(e.ct(a), e.ct(b)));
          },
          py::arg("a"), py::arg("b"))
      .def(
          "add_int",
          [](const SE &e, CtP a, int64_t c) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.addInt(e.ct(a), c));
          },
          py::arg("a"), py::arg("c"))
      .def(
          "mul_int",
          [](const SE &e, CtP a, int64_t c) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.mulInt(e.ct(a), c));
          },
          py::arg("a"), py::arg("c"))
      .def(
          "mul_plain",
          [](const SE &e, CtP a, const Plaintext &pt) {
            py::gil_scoped_release release;
            return e.wrap(
                e.eval.mulPlain(e.ct(a), cuda::upload(*e.dev->ctx, pt)));
          },
          py::arg("a"), py::arg("pt"))
      .def(
          "multiply_relin",
          [](const SE &e, CtP a, CtP b) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.multiplyRelin(e.ct(a), e.ct(b), e.relin()));
          },
          py::arg("a"), py::arg("b"))
      .def(
          "rotate",
          [](const SE &e, CtP a, int64_t k) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.rotate(e.ct(a), k, e.keys->galois));
          },
          py::arg("a"), py::arg("k"));
  if constexpr (std::is_same_v<Eval, cuda::BgvEvaluator>)
    cls.def(
        "mod_switch",
        [](const SE &e, CtP a) {
          py::gil_scoped_release release;
          return e.wrap(e.eval.modSwitch(e.ct(a)));
        },
        py::arg("a"));
  if constexpr (std::is_same_v<Eval, cuda::BfvEvaluator>)
    cls.def(
        "multiply_relin_behz",
        [](const SE &e, CtP a, CtP b) {
          py::gil_scoped_release release;
          return e.wrap(e.eval.multiplyRelinBehz(e.ct(a), e.ct(b), e.relin()));
        },
        py::arg("a"), py::arg("b"),
        "multiply_relin with BEHZ's tensor product (the CPU's "
        "multiply_relin_behz, residue for residue).");
}

/// A compiled CUDA program: its library, its constant cache and its graph,
/// both bound to the device of the last run (rebuilt on another one).
class CudaProgram {
public:
  CudaProgram(const std::string &path, const std::string &data) : path_(path) {
    if (!data.empty())
      data_ = std::make_unique<program::ConstantData>(
          program::readConstantData(data));
    entry_ = python::openProgram(path, program::kCudaEntry, handle_);
    word_ = python::programWord(handle_, path);
  }
  ~CudaProgram() {
    unbind(); // graph and constants before the library and the device
    unbindDevices();
    comms_.reset(); // after the graphs that captured their transfers
    if (handle_)
      dlclose(handle_);
  }
  CudaProgram(const CudaProgram &) = delete;
  CudaProgram &operator=(const CudaProgram &) = delete;

  template <typename W>
  std::vector<DeviceCtPtr>
  run(const DevicePtr &dev, const BasicDeviceKeys<W> &keys,
      const std::vector<DeviceCtPtr> &inputs,
      const std::vector<std::vector<std::complex<double>>> &plain, bool graphs,
      bool arena) {
    program::BasicCudaArgs<W> args = keys.args();
    return runWith(args, dev, keys.dev, inputs, plain, graphs, arena);
  }

  /// A run of a program partitioned over devices.size() GPUs (64-bit
  /// words): device i of the plan on devices[i] with keys[i], one host
  /// thread each, the transfers by NCCL over communicators of these devices
  /// (made once per list of devices and kept). Inputs live on devices[0],
  /// and so do the outputs. Each device's constants, graph and arena are
  /// kept between runs as run() keeps one device's.
  std::vector<DeviceCtPtr>
  runDevices(const std::vector<DevicePtr> &devices,
             const std::vector<std::shared_ptr<DeviceKeys>> &keys,
             const std::vector<DeviceCtPtr> &inputs,
             const std::vector<std::vector<std::complex<double>>> &plain,
             bool graphs, bool arena) {
    std::lock_guard<std::mutex> lock(mutex_);
    // The checks and the communicators set this thread's device: the
    // caller's comes back on every path.
    struct RestoreDevice {
      int device = -1;
      RestoreDevice() {
        if (cudaGetDevice(&device) != cudaSuccess) {
          cudaGetLastError();
          device = -1;
        }
      }
      ~RestoreDevice() {
        if (device >= 0)
          cudaSetDevice(device);
      }
    } restore;
    const size_t k = devices.size();
    if (k == 0)
      throw InvalidArgument("run_devices: no device");
    if (keys.size() != k)
      throw InvalidArgument("run_devices: " + std::to_string(k) +
                            " devices and " + std::to_string(keys.size()) +
                            " sets of keys (one per device)");
    if (word_ != 64)
      throw InvalidArgument("run_devices runs 64-bit programs; '" + path_ +
                            "' has " + std::to_string(word_) + "-bit words");
    std::vector<int> ordinals;
    for (size_t d = 0; d < k; ++d) {
      const std::string at = "run_devices: device " + std::to_string(d);
      if (!devices[d] || devices[d]->word() != 64)
        throw InvalidArgument(at + " is not a CudaDevice of 64-bit words");
      if (!keys[d] || keys[d]->dev != devices[d])
        throw InvalidArgument(at + ": its keys were uploaded to another "
                                   "CudaDevice");
      if (devices[d]->host->describe() != devices[0]->host->describe())
        throw InvalidArgument(at + " has other parameters than device 0");
      const int ordinal = devices[d]->ctx->device();
      for (size_t e = 0; e < d; ++e)
        if (ordinals[e] == ordinal)
          throw InvalidArgument(at + " and device " + std::to_string(e) +
                                " are both CUDA device " +
                                std::to_string(ordinal) +
                                " (one GPU per device of the program)");
      ordinals.push_back(ordinal);
    }
    std::vector<cuda::DeviceCiphertext> in =
        borrowInputs<uint64_t>(inputs, devices[0],
                               "an input lives on another CudaDevice than "
                               "devices[0]");
    bindDevices(devices, ordinals, graphs, arena);

    std::vector<program::CudaArgs> args(k);
    std::vector<std::vector<cuda::DeviceCiphertext>> outs(k);
    const std::vector<cuda::DeviceCiphertext> none;
    for (size_t d = 0; d < k; ++d) {
      DeviceState &st = states_[d];
      program::CudaArgs &a = args[d];
      a = keys[d]->args();
      a.ctx = devices[d]->ctx.get();
      a.inputs = d == 0 ? &in : &none;
      a.outputs = &outs[d];
      a.constants = st.constants.get();
      a.data = data_.get();
      a.plain = &plain;
      a.graph = st.graph.get();
      a.arena = st.arena.get();
      a.device_index = static_cast<int>(d);
      a.nccl_comm = comms_ ? comms_->comm(static_cast<int>(d)) : nullptr;
    }
    auto entry = reinterpret_cast<void (*)(const program::CudaArgs &)>(entry_);
    // Every device's argument checks first, from this thread: a bad input
    // or a missing key is raised before any device waits for a peer.
    for (size_t d = 0; d < k; ++d) {
      program::CudaArgs check = args[d];
      check.check_only = true;
      entry(check);
    }

    // One thread per device: its run, then a wait for its stream that
    // gives way when a peer failed. Once every thread has queued all it
    // will, a failure aborts the communicators, which ends the transfers
    // still waiting for the failed device, so every wait returns.
    std::vector<std::exception_ptr> errors(k);
    std::atomic<int> first_error{-1};
    std::atomic<size_t> queued{0};
    std::atomic<bool> aborted{false};
    auto fail = [&](size_t d, std::exception_ptr e) {
      errors[d] = std::move(e);
      int none_yet = -1;
      first_error.compare_exchange_strong(none_yet, static_cast<int>(d));
    };
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (size_t d = 0; d < k; ++d)
      threads.emplace_back([&, d] {
        try {
          entry(args[d]);
        } catch (...) {
          fail(d, std::current_exception());
        }
        ++queued;
        cudaSetDevice(devices[d]->ctx->device());
        cudaStream_t stream = devices[d]->ctx->stream();
        for (;;) {
          const cudaError_t e = cudaStreamQuery(stream);
          if (e == cudaSuccess)
            break;
          if (e != cudaErrorNotReady) {
            if (!aborted && !errors[d])
              fail(d, std::make_exception_ptr(Error(
                          std::string("run_devices: device ") +
                          std::to_string(d) + ": " + cudaGetErrorString(e))));
            break;
          }
          std::this_thread::yield();
        }
      });
    while (queued < k)
      std::this_thread::yield();
    if (first_error >= 0 && comms_) {
      aborted = true;
      comms_->abort();
    }
    for (std::thread &t : threads)
      t.join();
    last_ms_ = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - start)
                   .count();
    if (first_error >= 0) {
      // The devices' graphs and the communicators start afresh next run.
      for (DeviceState &st : states_)
        if (st.graph)
          st.graph->reset();
      comms_.reset();
      std::rethrow_exception(errors[first_error]);
    }
    std::vector<DeviceCtPtr> result;
    for (cuda::DeviceCiphertext &c : outs[0]) {
      auto ct = std::make_shared<DeviceCt>();
      ct->dev = devices[0];
      ct->ct = std::move(c);
      result.push_back(std::move(ct));
    }
    return result;
  }
  std::vector<size_t> deviceArenaBytes() const {
    std::vector<size_t> v;
    for (const DeviceState &st : states_)
      v.push_back(st.arena ? st.arena->bytes() : 0);
    return v;
  }
  std::vector<size_t> deviceGraphKernels() const {
    std::vector<size_t> v;
    for (const DeviceState &st : states_)
      v.push_back(st.graph ? st.graph->kernel_nodes : 0);
    return v;
  }
  std::vector<std::pair<size_t, size_t>> deviceGraphPaths() const {
    std::vector<std::pair<size_t, size_t>> v;
    for (const DeviceState &st : states_)
      v.push_back(st.graph
                      ? std::make_pair(st.graph->path_nodes, st.graph->nodes)
                      : std::make_pair(size_t{0}, size_t{0}));
    return v;
  }

  const std::string &path() const { return path_; }
  double lastMs() const { return last_ms_; }
  int word() const { return word_; }
  size_t graphNodes() const {
    return graph_ ? graph_->nodes : graph32_ ? graph32_->nodes : 0;
  }
  size_t graphKernels() const {
    return graph_     ? graph_->kernel_nodes
           : graph32_ ? graph32_->kernel_nodes
                      : 0;
  }
  /// Whether the captured graph reads its inputs and writes its outputs
  /// in place (BasicCudaGraph::in_place; false: copied, or no graph).
  bool runsInPlace() const {
    return (graph_ && graph_->inPlace()) || (graph32_ && graph32_->inPlace());
  }
  std::string copiesBecause() const {
    return graph_     ? graph_->copies_because
           : graph32_ ? graph32_->copies_because
                      : std::string();
  }
  bool inPlace() const { return in_place_; }
  void setInPlace(bool on) { in_place_ = on; }
  bool concurrent() const { return concurrent_; }
  void setConcurrent(bool on) { concurrent_ = on; }
  bool prioritized() const { return prioritized_; }
  void setPrioritized(bool on) { prioritized_ = on; }
  size_t graphPathNodes() const {
    return graph_ ? graph_->path_nodes : graph32_ ? graph32_->path_nodes : 0;
  }
  bool graphCaptured() const {
    return (graph_ && graph_->captured()) || (graph32_ && graph32_->captured());
  }
  size_t arenaBytes() const { return arena_ ? arena_->bytes() : 0; }
  size_t constantBytes() const {
    size_t bytes = 0;
    if (constants_)
      for (const cuda::DevicePoly &p : constants_->polys)
        bytes += p.buf.words() * 8;
    if (constants32_)
      for (const cuda::DevicePoly32 &p : constants32_->polys)
        bytes += p.buf.words() * 8;
    return bytes;
  }

private:
  template <typename W> auto &constants() {
    if constexpr (sizeof(W) == 8)
      return constants_;
    else
      return constants32_;
  }
  template <typename W> auto &graph() {
    if constexpr (sizeof(W) == 8)
      return graph_;
    else
      return graph32_;
  }
  /// The program reads the inputs; a device ciphertext owns its buffer,
  /// so borrow each one (the caller's handles keep them alive).
  template <typename W>
  static std::vector<cuda::BasicDeviceCiphertext<W>>
  borrowInputs(const std::vector<DeviceCtPtr> &inputs, const DevicePtr &dev,
               const char *elsewhere) {
    std::vector<cuda::BasicDeviceCiphertext<W>> in;
    for (const DeviceCtPtr &p : inputs) {
      if (!p || p->dev != dev)
        throw InvalidArgument(elsewhere);
      const cuda::BasicDeviceCiphertext<W> *src;
      if constexpr (sizeof(W) == 8)
        src = &p->ct;
      else
        src = &p->ct32;
      cuda::BasicDeviceCiphertext<W> c;
      c.buf = cuda::DeviceBuffer::borrow(src->buf.data(), src->buf.words());
      c.parts = src->parts;
      c.level = src->level;
      c.scale = src->scale;
      c.slots = src->slots;
      c.n = src->n;
      in.push_back(std::move(c));
    }
    return in;
  }
  /// The state of run_devices for these devices (rebuilt when the list
  /// changes; the communicators when their CUDA devices change, after the
  /// graphs that captured their transfers).
  void bindDevices(const std::vector<DevicePtr> &devices,
                   const std::vector<int> &ordinals, bool graphs, bool arena) {
    bool same = states_.size() == devices.size();
    for (size_t d = 0; same && d < devices.size(); ++d)
      same = states_[d].dev == devices[d];
    if (!same) {
      unbindDevices();
      states_.resize(devices.size());
      for (size_t d = 0; d < devices.size(); ++d)
        states_[d].dev = devices[d];
    }
    for (DeviceState &st : states_) {
      if (!st.constants)
        st.constants =
            std::make_unique<program::ConstantCache<cuda::DevicePoly>>();
      if (st.graph && (st.graph->concurrent != concurrent_ ||
                       st.graph->prioritized != prioritized_))
        st.graph.reset(); // captured again, as a DAG or as a chain
      if (graphs && !st.graph) {
        st.graph = std::make_unique<program::CudaGraph>();
        st.graph->concurrent = concurrent_;
        st.graph->prioritized = prioritized_;
      }
      if (!graphs)
        st.graph.reset();
      if (arena && !st.arena)
        st.arena = std::make_unique<program::CudaArena>();
      if (!arena)
        st.arena.reset(); // a graph captured on it is captured again
    }
    const bool several = devices.size() > 1;
    if (comms_ && (!several || comms_->devices() != ordinals)) {
      for (DeviceState &st : states_)
        if (st.graph)
          st.graph->reset();
      comms_.reset();
    }
    if (several && !comms_)
      comms_ = std::make_unique<cuda::NcclComms>(ordinals);
  }
  void unbindDevices() {
    for (DeviceState &st : states_) {
      st.graph.reset();
      st.arena.reset();
      st.constants.reset();
    }
    std::vector<DevicePtr> devs;
    for (DeviceState &st : states_)
      devs.push_back(std::move(st.dev));
    states_.clear();
    for (const DevicePtr &d : devs)
      releaseEvaluators(d);
  }
  /// The BFV evaluators a plan cached in the device's context were made by
  /// this library's code (its copy of the runtime): destroyed while it is
  /// loaded, once neither run() nor run_devices() uses the device.
  void releaseEvaluators(const DevicePtr &d) {
    if (!d || d == dev_)
      return;
    for (const DeviceState &st : states_)
      if (st.dev == d)
        return;
    cuda::releaseBfvEvaluators(*d->ctx);
  }
  /// A run at word W: the inputs borrowed, the device's state (constants,
  /// graph, arena) rebuilt when the device changes.
  template <typename W>
  std::vector<DeviceCtPtr>
  runWith(program::BasicCudaArgs<W> &args, const DevicePtr &dev,
          const DevicePtr &keys_dev, const std::vector<DeviceCtPtr> &inputs,
          const std::vector<std::vector<std::complex<double>>> &plain,
          bool graphs, bool arena) {
    std::lock_guard<std::mutex> lock(mutex_);
    constexpr int kWord = 8 * sizeof(W);
    if (word_ != kWord)
      throw InvalidArgument("program '" + path_ + "' has " +
                            std::to_string(word_) + "-bit words; these are " +
                            std::to_string(kWord) + "-bit keys");
    if (dev->word() != kWord)
      throw InvalidArgument(
          "program '" + path_ + "' has " + std::to_string(word_) +
          "-bit words; the CudaDevice has " + std::to_string(dev->word()));
    if (keys_dev != dev)
      throw InvalidArgument("these keys were uploaded to another CudaDevice");
    std::vector<cuda::BasicDeviceCiphertext<W>> in =
        borrowInputs<W>(inputs, dev, "an input lives on another CudaDevice");
    if (dev_ != dev) {
      unbind();
      dev_ = dev;
    }
    auto &constants_w = constants<W>();
    if (!constants_w)
      constants_w =
          std::make_unique<program::ConstantCache<cuda::BasicDevicePoly<W>>>();
    auto &graph_w = graph<W>();
    if (graph_w &&
        (graph_w->in_place != in_place_ || graph_w->concurrent != concurrent_ ||
         graph_w->prioritized != prioritized_))
      graph_w.reset(); // captured again, with the sites or without
    if (graphs && !graph_w) {
      graph_w = std::make_unique<program::BasicCudaGraph<W>>();
      graph_w->in_place = in_place_;
      graph_w->concurrent = concurrent_;
      graph_w->prioritized = prioritized_;
    }
    if (!graphs)
      graph_w.reset();
    if (arena && !arena_)
      arena_ = std::make_unique<program::CudaArena>();
    if (!arena)
      arena_.reset(); // a graph captured on it is captured again
    std::vector<cuda::BasicDeviceCiphertext<W>> out;
    args.ctx = dev->ctx.get();
    args.inputs = &in;
    args.outputs = &out;
    args.constants = constants_w.get();
    args.data = data_.get();
    args.plain = &plain;
    args.graph = graph_w.get();
    args.arena = arena_.get();
    auto entry =
        reinterpret_cast<void (*)(const program::BasicCudaArgs<W> &)>(entry_);
    // The events and the run on the device's GPU (runCuda sets it too).
    program::cudaCheck(cudaSetDevice(dev->ctx->device()), "cudaSetDevice");
    last_ms_ = eventMs(
        dev->ctx->stream(), [&] { entry(args); },
        [](cudaEvent_t stop) {
          program::cudaCheck(cudaEventSynchronize(stop), "the program's run");
        });
    std::vector<DeviceCtPtr> result;
    for (cuda::BasicDeviceCiphertext<W> &c : out) {
      auto ct = std::make_shared<DeviceCt>();
      ct->dev = dev;
      if constexpr (sizeof(W) == 8)
        ct->ct = std::move(c);
      else
        ct->ct32 = std::move(c);
      result.push_back(std::move(ct));
    }
    return result;
  }
  void unbind() {
    graph_.reset();
    graph32_.reset();
    arena_.reset();
    constants_.reset();
    constants32_.reset();
    DevicePtr dev = std::move(dev_);
    dev_.reset();
    releaseEvaluators(dev);
  }
  std::string path_;
  void *handle_ = nullptr;
  void *entry_ = nullptr;
  int word_ = 64;
  std::unique_ptr<program::ConstantData> data_;
  std::mutex mutex_;
  DevicePtr dev_;
  std::unique_ptr<program::ConstantCache<cuda::DevicePoly>> constants_;
  std::unique_ptr<program::ConstantCache<cuda::DevicePoly32>> constants32_;
  std::unique_ptr<program::CudaGraph> graph_;
  std::unique_ptr<program::CudaGraph32> graph32_;
  std::unique_ptr<program::CudaArena> arena_; // after the graphs: freed first
  /// run_devices: each device's state, and the communicators.
  struct DeviceState {
    DevicePtr dev;
    std::unique_ptr<program::ConstantCache<cuda::DevicePoly>> constants;
    std::unique_ptr<program::CudaArena> arena;
    std::unique_ptr<program::CudaGraph> graph;
  };
  std::vector<DeviceState> states_;
  std::unique_ptr<cuda::NcclComms> comms_;
  double last_ms_ = 0;
  bool in_place_ = true;
  bool concurrent_ = true;
  bool prioritized_ = true;
};

/// CudaProgram.run for evaluation keys of one word (DeviceKeys: 64-bit,
/// DeviceKeys32: 32-bit), without the GIL while it runs.
template <typename Keys> auto runBinding() {
  return [](CudaProgram &p, const DevicePtr &dev, const Keys &keys,
            const std::vector<DeviceCtPtr> &in,
            const std::vector<std::vector<std::complex<double>>> &plain,
            bool graphs, bool arena) {
    py::gil_scoped_release release;
    return p.run(dev, keys, in, plain, graphs, arena);
  };
}

const std::string &cudaLibrary() {
  static const std::string path = runtimePath(EMBER_CUDA_LIBRARY);
  return path;
}

/// The linker arguments of NCCL when the runtime has it (libEmberCuda.a
/// calls it): the library by its path (it may be only libnccl.so.2, as in
/// the nvidia-nccl Python package) and its folder in the run path.
std::string ncclLinkArgs() {
  const std::string lib = EMBER_NCCL_LIBRARY;
  if (lib.empty())
    return "";
  const std::string dir = lib.substr(0, lib.find_last_of('/'));
  return " -Xlinker " + shellQuote(lib) + " -Xlinker -rpath -Xlinker " +
         shellQuote(dir);
}

/// The nvcc command that builds an emitted .cu into a loadable library
/// against this runtime (its CUDA and host static libraries, and NCCL
/// when the runtime was built with it). -O3 as the runtime's kernels; the
/// real architecture and its PTX, so that a newer GPU can JIT it; the
/// shared CUDA runtime, the one this module loaded, so that the process
/// has one.
std::string buildCommand(const std::string &source, const std::string &output,
                         const std::string &nvcc, const std::string &arch) {
  return shellQuote(nvcc) + " -std=c++17 -O3 -gencode " +
         shellQuote("arch=compute_" + arch + ",code=[sm_" + arch + ",compute_" +
                    arch + "]") +
         " -Xcompiler -fPIC -shared -diag-suppress 177 -I" +
         shellQuote(runtimeIncludeDir()) + " " + shellQuote(source) + " -o " +
         shellQuote(output) + " " + shellQuote(cudaLibrary()) + " " +
         shellQuote(runtimeLibrary()) + " " + shellQuote(EMBER_CRYPTO_LIBRARY) +
         ncclLinkArgs() + " -cudart shared -Xcompiler -fopenmp";
}

} // namespace

void bindCuda(py::module_ &m) {
  m.attr("cuda_built") = true;
  m.attr("cuda_library") = cudaLibrary();
  m.attr("nvcc_found_at_build") = EMBER_NVCC;
  m.attr("cuda_arch") = EMBER_CUDA_ARCH;
  // Kept for the interpreter's lifetime, as module.cpp's exceptions are.
  static PyObject *unavailable = nullptr;
  py::object base = m.attr("EmberError");
  unavailable = PyErr_NewExceptionWithDoc(
      "ember_runtime.DeviceUnavailable",
      "No CUDA device (no GPU, no driver, or no device of that index).",
      base.ptr(), nullptr);
  if (!unavailable)
    throw py::error_already_set();
  m.add_object("DeviceUnavailable", py::handle(unavailable));
  // Registered after module.cpp's translator, so tried before it.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const DeviceUnavailable &e) {
      PyErr_SetString(unavailable, e.what());
    }
  });
  m.def("cuda_device_count", &deviceCount,
        "The number of CUDA devices; DeviceUnavailable (with the driver's "
        "reason) when there is none.");
  m.def(
      "cuda_device_name",
      [](int device) {
        deviceCount();
        cudaDeviceProp prop;
        program::cudaCheck(cudaGetDeviceProperties(&prop, device),
                           "cudaGetDeviceProperties");
        return std::string(prop.name);
      },
      py::arg("device") = 0);
  m.attr("cuda_nccl") = cuda::haveNccl();
  m.def(
      "cuda_p2p_bandwidth",
      [](int src, int dst, int megabytes, int iterations) {
        deviceCount();
        if (megabytes <= 0)
          throw InvalidArgument("cuda_p2p_bandwidth: megabytes must be > 0");
        py::gil_scoped_release release;
        return cuda::p2pBandwidth(src, dst, size_t(megabytes) << 20,
                                  iterations);
      },
      py::arg("src"), py::arg("dst"), py::arg("megabytes") = 64,
      py::arg("iterations") = 20,
      "GB/s (10^9 bytes a second) of NCCL send/receive of `megabytes` MiB "
      "from CUDA device src to dst, over `iterations` copies after one "
      "warm-up (host clock; communicators made for the measurement): the "
      "cost model's calibration of a transfer between GPUs.");
  m.def("cuda_program_build_command", &buildCommand, py::arg("source"),
        py::arg("output"), py::arg("nvcc") = std::string(EMBER_NVCC),
        py::arg("arch") = std::string(EMBER_CUDA_ARCH),
        "The nvcc command that builds an emitted .cu into a library "
        "CudaProgram loads.");

  py::class_<Device, DevicePtr>(m, "CudaDevice",
                                "A GPU context for one parameter set: device "
                                "tables, memory pool and stream.")
      .def(py::init([](ContextPtr ctx, int device) {
             py::gil_scoped_release release;
             return std::make_shared<Device>(std::move(ctx), device);
           }),
           py::arg("ctx"), py::arg("device") = 0)
      .def(py::init([](std::shared_ptr<Context32> ctx, int device) {
             py::gil_scoped_release release;
             return std::make_shared<Device>(std::move(ctx), device);
           }),
           py::arg("ctx"), py::arg("device") = 0,
           "A device context at 32-bit words (its programs, keys and "
           "ciphertexts are 32-bit).")
      .def_property_readonly("word", &Device::word)
      .def("synchronize",
           [](const Device &d) {
             py::gil_scoped_release release;
             d.ctx->synchronize();
           })
      .def_property_readonly(
          "pool_bytes", [](const Device &d) { return d.ctx->poolBytes(); },
          "Device memory the context's pool holds (in use and free).")
      .def(
          "upload",
          [](const DevicePtr &d, const Ciphertext &ct) {
            py::gil_scoped_release release;
            auto out = std::make_shared<DeviceCt>();
            out->dev = d;
            out->ct = cuda::upload(*d->ctx, ct);
            return out;
          },
          py::arg("ct"), "A host ciphertext copied to the device.")
      .def(
          "upload",
          [](const DevicePtr &d, const Ciphertext32 &ct) {
            py::gil_scoped_release release;
            auto out = std::make_shared<DeviceCt>();
            out->dev = d;
            out->ct32 = cuda::upload(*d->ctx, ct);
            return out;
          },
          py::arg("ct"))
      .def(
          "download",
          [](const DevicePtr &d, const DeviceCt &ct) -> py::object {
            if (ct.dev != d)
              throw InvalidArgument("the ciphertext lives on another device");
            if (ct.is32()) {
              Ciphertext32 host;
              {
                py::gil_scoped_release release;
                host = cuda::download(*d->ctx, ct.ct32);
              }
              return py::cast(std::move(host));
            }
            Ciphertext host;
            {
              py::gil_scoped_release release;
              host = cuda::download(*d->ctx, ct.ct);
            }
            return py::cast(std::move(host));
          },
          py::arg("ct"), "A device ciphertext copied to the host.");

  py::class_<DeviceCt, DeviceCtPtr>(m, "CudaCiphertext",
                                    "A ciphertext in device memory.")
      .def_property_readonly("level", &DeviceCt::level)
      .def_property_readonly("scale", &DeviceCt::scale)
      .def_property_readonly("slots", &DeviceCt::slots)
      .def_property_readonly("parts", &DeviceCt::parts);

  py::class_<DeviceKeys, std::shared_ptr<DeviceKeys>>(
      m, "CudaEvaluationKeys", "Evaluation keys uploaded to a CudaDevice.")
      .def(
          py::init([](DevicePtr d, const EvaluationKeys &keys,
                      std::optional<std::vector<uint64_t>> galois, bool relin,
                      bool encapsulation,
                      std::optional<std::vector<int>> rows) {
            std::optional<cuda::KeyRows> r;
            if (rows) {
              if (rows->size() != 4)
                throw InvalidArgument("rows: [q_lo, q_hi, p_lo, p_hi]");
              r = cuda::KeyRows{(*rows)[0], (*rows)[1], (*rows)[2], (*rows)[3]};
            }
            py::gil_scoped_release release;
            return std::make_shared<DeviceKeys>(
                std::move(d), keys, galois ? &*galois : nullptr, relin,
                encapsulation, r ? &*r : nullptr);
          }),
          py::arg("device"), py::arg("keys"), py::arg("galois") = py::none(),
          py::arg("relin") = true, py::arg("encapsulation") = true,
          py::arg("rows") = py::none(),
          "Uploads the keys. galois (a list of Galois elements): only "
          "those Galois keys, in each form the keys hold (MissingKey for "
          "one they hold in neither); relin=False / encapsulation=False "
          "leave out the relinearization (both forms) and the "
          "encapsulation keys: the share of the keys one device of a "
          "program partitioned over several GPUs needs. rows = [q_lo, "
          "q_hi, p_lo, p_hi]: only those limb rows of the hybrid keys "
          "(a GPU's limbs when the program's limbs are split; KLSS keys "
          "left out).")
      .def_property_readonly("bytes", &DeviceKeys::bytes,
                             "Device bytes of the uploaded keys.");
  py::class_<DeviceKeys32, std::shared_ptr<DeviceKeys32>>(
      m, "CudaEvaluationKeys32",
      "Evaluation keys of a 32-bit program uploaded to a CudaDevice of a "
      "Context32.")
      .def(py::init([](DevicePtr d, const EvaluationKeys32 &keys) {
             py::gil_scoped_release release;
             return std::make_shared<DeviceKeys32>(std::move(d), keys);
           }),
           py::arg("device"), py::arg("keys"))
      .def_property_readonly("bytes", &DeviceKeys32::bytes,
                             "Device bytes of the uploaded keys.");

  py::class_<DevicePt, DevicePtPtr>(m, "CudaPlaintext",
                                    "A plaintext in device memory.")
      .def_property_readonly("level",
                             [](const DevicePt &p) { return p.pt.level; })
      .def_property_readonly("scale",
                             [](const DevicePt &p) { return p.pt.scale; });

  using DE = DeviceEvaluator;
  using CtP = const DeviceCtPtr &;
  py::class_<DE, std::shared_ptr<DE>>(
      m, "CudaEvaluator",
      "The runtime's hand-written CUDA operations, one call each "
      "(asynchronous on the device's stream): the one-by-one baseline of "
      "compiled programs.")
      .def(py::init([](DevicePtr d, std::shared_ptr<DeviceKeys> k) {
             requireWord64(*d, "CudaEvaluator");
             return std::make_shared<DE>(std::move(d), std::move(k));
           }),
           py::arg("device"), py::arg("keys"))
      .def(
          "upload_plaintext",
          [](const DE &e, const Plaintext &pt) {
            py::gil_scoped_release release;
            return std::make_shared<DevicePt>(
                DevicePt{e.dev, cuda::upload(*e.dev->ctx, pt)});
          },
          py::arg("pt"))
      .def(
          "add",
          [](const DE &e, CtP a, CtP b) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.add(e.ct(a), e.ct(b)));
          },
          py::arg("a"), py::arg("b"))
      .def(
          "mul_plain",
          [](const DE &e, CtP a, const DevicePtPtr &p) {
            if (!p || p->dev != e.dev)
              throw InvalidArgument("the plaintext lives on another device");
            py::gil_scoped_release release;
            return e.wrap(e.eval.mulPlain(e.ct(a), p->pt));
          },
          py::arg("a"), py::arg("pt"))
      .def(
          "multiply_relin",
          [](const DE &e, CtP a, CtP b) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.multiplyRelin(e.ct(a), e.ct(b), e.relin()));
          },
          py::arg("a"), py::arg("b"))
      .def(
          "rescale",
          [](const DE &e, CtP a) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.rescale(e.ct(a)));
          },
          py::arg("a"))
      .def(
          "rotate",
          [](const DE &e, CtP a, int64_t k) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.rotate(e.ct(a), k, e.keys->galois));
          },
          py::arg("a"), py::arg("k"))
      .def(
          "apply_galois",
          [](const DE &e, CtP a, uint64_t galois) {
            py::gil_scoped_release release;
            return e.wrap(e.eval.applyGalois(e.ct(a), galois, e.keys->galois));
          },
          py::arg("a"), py::arg("galois"),
          "X -> X^galois with its key switch (a rotation by the element a "
          "program's manifest lists).");

  bindSchemeEvaluator<cuda::BgvEvaluator>(
      m, "CudaBgvEvaluator",
      "BGV on the GPU (cuda::BgvEvaluator), residue for residue the CPU's "
      "BgvEvaluator: CudaBgvEvaluator(device, keys, t), keys uploaded with "
      "the t error factor.");
  bindSchemeEvaluator<cuda::BfvEvaluator>(
      m, "CudaBfvEvaluator",
      "BFV on the GPU (cuda::BfvEvaluator: HPS, and BEHZ in "
      "multiply_relin_behz), residue for residue the "
      "CPU's BfvEvaluator: CudaBfvEvaluator(device, keys, t).");

  m.def(
      "cuda_time_ms",
      [](const DevicePtr &dev, const py::function &fn) {
        // CUDA events on the device's stream around fn(): the GPU time from
        // the first operation fn issues to the end of the last (gaps where
        // the host did not keep the GPU fed included).
        return double(eventMs(
            dev->ctx->stream(), [&] { fn(); },
            [](cudaEvent_t stop) {
              py::gil_scoped_release release;
              program::cudaCheck(cudaEventSynchronize(stop), "the operations");
            }));
      },
      py::arg("device"), py::arg("fn"),
      "GPU milliseconds (CUDA events on the device's stream) from before "
      "fn() issues its first operation to the end of its last.");

  py::class_<CudaProgram, std::shared_ptr<CudaProgram>>(
      m, "CudaProgram",
      "A compiled CUDA program (an emitted .cu built by nvcc): runs on "
      "device ciphertexts with device evaluation keys.")
      .def(py::init<const std::string &, const std::string &>(),
           py::arg("path"), py::arg("data") = "")
      .def_property_readonly("path", &CudaProgram::path)
      .def_property_readonly("word", &CudaProgram::word)
      .def("run", runBinding<DeviceKeys>(), py::arg("device"), py::arg("keys"),
           py::arg("inputs"),
           py::arg("plain") = std::vector<std::vector<std::complex<double>>>{},
           py::arg("graphs") = true, py::arg("arena") = true)
      .def("run", runBinding<DeviceKeys32>(), py::arg("device"),
           py::arg("keys"), py::arg("inputs"),
           py::arg("plain") = std::vector<std::vector<std::complex<double>>>{},
           py::arg("graphs") = true, py::arg("arena") = true,
           "Runs the program on the device and waits for it (32-bit programs "
           "with CudaEvaluationKeys32 on a CudaDevice of a Context32). "
           "graphs=True: "
           "the first run captures the steps as a CUDA Graph, later runs "
           "replay it. arena=True: every buffer of the memory plan is a view "
           "of one arena of the plan's size, allocated by the first run; "
           "False: buffers from the device's pool.")
      .def_property_readonly("arena_bytes", &CudaProgram::arenaBytes,
                             "Bytes of the arena the runs use (0: none).")
      .def_property_readonly("constant_bytes", &CudaProgram::constantBytes,
                             "Bytes of the encoded constants on the device.")
      .def(
          "run_devices",
          [](CudaProgram &p, const std::vector<DevicePtr> &devices,
             const std::vector<std::shared_ptr<DeviceKeys>> &keys,
             const std::vector<DeviceCtPtr> &in,
             const std::vector<std::vector<std::complex<double>>> &plain,
             bool graphs, bool arena) {
            py::gil_scoped_release release;
            return p.runDevices(devices, keys, in, plain, graphs, arena);
          },
          py::arg("devices"), py::arg("keys"), py::arg("inputs"),
          py::arg("plain") = std::vector<std::vector<std::complex<double>>>{},
          py::arg("graphs") = true, py::arg("arena") = true,
          "Runs a program partitioned over len(devices) GPUs (its manifest's "
          "device count; 64-bit words) and waits for it: device i of the "
          "program on devices[i] (distinct GPUs, one parameter set) with "
          "keys[i] (that device's share: CudaEvaluationKeys(..., galois=...)"
          "), each from its own thread, the transfers by NCCL (communicators "
          "made by the first run on these GPUs and kept). Inputs live on "
          "devices[0], and so do the outputs. graphs and arena as in run(), "
          "per device (one graph per device). Every device's arguments are "
          "checked before any runs; an error in a device's run is raised "
          "here (the first), after the communicators are aborted so that no "
          "device waits for it.")
      .def_property_readonly(
          "device_arena_bytes", &CudaProgram::deviceArenaBytes,
          "Bytes of each device's arena in run_devices (0: none).")
      .def_property_readonly(
          "device_graph_kernels", &CudaProgram::deviceGraphKernels,
          "Kernel nodes of each device's graph in run_devices (NCCL's "
          "transfer kernels included; 0: none captured).")
      .def_property_readonly(
          "device_graph_paths", &CudaProgram::deviceGraphPaths,
          "(nodes on the longest chain, nodes) of each device's graph in "
          "run_devices ((0, 0): none captured).")
      .def_property_readonly(
          "last_ms", &CudaProgram::lastMs,
          "Time of the last run, ms: run(), GPU time (CUDA events on the "
          "device's stream); run_devices(), wall-clock time on the host "
          "from before the devices' threads start to after every device "
          "has synchronised (launch overheads included).")
      .def_property_readonly("graph_nodes", &CudaProgram::graphNodes)
      .def_property_readonly("graph_kernels", &CudaProgram::graphKernels,
                             "Kernel launches in one replay of the graph.")
      .def_property_readonly("graph_captured", &CudaProgram::graphCaptured)
      .def_property_readonly(
          "graph_path_nodes", &CudaProgram::graphPathNodes,
          "Nodes on the captured graph's longest chain (graph_nodes when "
          "it is one chain; 0: none captured).")
      .def_property(
          "concurrent", &CudaProgram::concurrent, &CudaProgram::setConcurrent,
          "True (default): the graph's steps follow only the steps whose "
          "memory they read or overwrite (the memory plan's arena ranges), "
          "so that independent steps run side by side; False: one chain in "
          "program order. Needs the arena; a program of several devices "
          "has one DAG per device. Taken at the next run (the graph is "
          "captured again).")
      .def_property(
          "prioritized", &CudaProgram::prioritized,
          &CudaProgram::setPrioritized,
          "True (default), with concurrent: the kernels the rest of the "
          "graph waits on run at the greatest priority (one device: those on "
          "its longest chain; a device of several: those its sends follow); "
          "False: the graph's own order. Taken at the next run (the graph is "
          "captured again).")
      .def_property(
          "in_place", &CudaProgram::inPlace, &CudaProgram::setInPlace,
          "True (default): a graph reads the run's input ciphertexts and "
          "writes its output ciphertexts where they are (its nodes pointed "
          "at them per run, found at the capture by capturing a second time "
          "with them elsewhere); False: each run copies the inputs into the "
          "graph's buffers and the outputs out of them. Taken at the next "
          "run (the graph is captured again).")
      .def_property_readonly(
          "runs_in_place", &CudaProgram::runsInPlace,
          "Whether the captured graph runs in place (False: off, not "
          "captured yet, or a program whose two captures differ in more "
          "than its inputs' and outputs' addresses: copies_because).")
      .def_property_readonly(
          "copies_because", &CudaProgram::copiesBecause,
          "Why the captured graph copies its inputs and outputs (empty: in "
          "place, or no graph is captured).");
}
