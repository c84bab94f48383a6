// The interpreter of a compiled program's plan (ember/program_plan.h), one
// template for both backends: runtime/cpu/program.cpp instantiates it over
// Poly64 and the CPU primitives, runtime/cuda/program.cu over DevicePoly and
// the CUDA primitives. A backend B provides
//   using Poly, Args, Kernel, HybridKey, KlssKey, Scratch
//   const Context<Word> &host(const Args &)  (the host context, either word)
//   Poly place(args, basis, ntt, offset, written_in_place)
//                                          a result's memory: its planned
//                                          place in the arena (offset >= 0
//                                          and an arena) or an allocation
//                                          (or, on the CPU, an empty poly
//                                          the primitive assigns, unless a
//                                          kernel writes it in place)
//   Scratch scratch(args, const BufferSpec *)  a step's planned scratch
//   void zero(args, out)                   void copy(args, p, out)
//   void ntt(args, p, out), intt(args, p, out)
//   void bconv(args, p, out, scratch, exact)  exact: rns.h bconvExact
//   void modUp(args, p, digits, outs, scratch)
//   void ksInnerProduct(args, key, digits, acc0, acc1, galois) (galois != 0:
//     the digits read permuted by X -> X^galois)
//   void klssModUp(args, digits, outs, scratch)  outs[j] = digits[j] over T
//   void klssInnerProduct(args, key, digits, level, acc0, acc1, scratch)
//   void modSwitchDown(args, xs, ys, outs, scratch, t, g)  outs[j] = the
//     switch of xs[j] (+ P ys[j] when ys is not empty: lifted addends;
//     + P sigma_g(ys[j]) when g != 0); t != 0: BGV's t-corrected switch
//   void ksInnerProductDown(args, key, digits, galois, acc0, acc1, ys, outs,
//     scratch, t, g)  ksInnerProduct into (acc0, acc1), then modSwitchDown
//     of (acc0, acc1): a kKsInnerProduct and the switch after it that
//     overlaps it (overlappedInnerProduct), run as one step
//   void automorphism(args, p, g, out)
//   Poly view(args, p, first, count)       void concat(args, parts, out)
//   const HybridKey *hybridKey(args, galois)  const KlssKey *klssKey(...)
//   Poly constant(args, data offset, count, complex, scale, basis, ntt, t,
//                 bfv_t)
//   void encodeValues(args, plain index, values, scale, out, t, bfv_t)
//                                          t != 0: BGV encodings, scale the
//                                          factor (encodeBgv); bfv_t != 0:
//                                          BFV encodings, the multiplier
//                                          form at scale 1 (encodeBfv)
//   void bfvTensor(args, in[4], out[3], bfv_t, behz)  the BEHZ or HPS
//                                          product of (in[0], in[1]) and
//                                          (in[2], in[3])
//   const std::vector<std::vector<std::complex<double>>> *plain(args)
//   void launch(args, kernel, loop, io)
//   void checkInput(args, index, name, parts, level, slots, scale)
//   const Poly *inputPart(args, index, part, offset, storage)
//   Word *words(poly)                      the residues a kernel reads
//   void output(args, polys, level, scale, slots)
//   ConstantCache<Poly> *cache(args)
//   bool prepareOnly(args)                 encode the constants, run nothing
//   Event                                  a point in a device's work
//   Event ready(args, p)                   after the kernels queued so far
//                                          (p made: a transfer may send it)
//   Event send(args, p, peer, ready), recv(args, out, peer)
//                                          a kTransfer between devices run
//                                          by separate executors, beside the
//                                          kernels (NCCL on the GPU's
//                                          transfer stream); each returns
//                                          the point where it is done. The
//                                          CPU only simulates devices in one
//                                          process (runDevicesInProcess) and
//                                          throws
//   void wait(args, event)                 later kernels wait for the event
//   void finish(args)                      the run waits for its transfers
// and the executor does the bookkeeping: buffers by index, results written
// where the memory plan put them, inputs bound without copies where the
// backend allows, dead buffers freed where the plan says, outputs moved at
// their last use.
#pragma once

#include "ember/errors.h"
#include "ember/program.h"
#include "ember/program_plan.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ember::program {

/// Global modulus indices of a plan buffer.
template <typename Word>
std::vector<int> bufferBasis(const Context<Word> &ctx, const BufferSpec &s) {
  if (s.over_t)
    return ctx.tBasis();
  std::vector<int> b;
  for (int i = s.q_lo; i < s.q_hi; ++i)
    b.push_back(i);
  for (int j = s.p_lo; j < s.p_hi; ++j)
    b.push_back(ctx.qCount() + j);
  return b;
}

template <typename B> class Executor {
public:
  using Poly = typename B::Poly;

  /// The executor of device `device` of a partitioned plan (the whole plan
  /// when plan.devices <= 1). `peers` (devices entries, this one included)
  /// are the other devices' executors in this process: a kTransfer then
  /// copies from the sender's buffer (runDevicesInProcess); without them
  /// it is B::send / B::recv.
  Executor(const typename B::Args &args, const Plan<typename B::Kernel> &plan,
           int device = 0, Executor *const *peers = nullptr)
      : args_(args), plan_(plan), ctx_(B::host(args)),
        owned_(plan.buffer_count), at_(plan.buffer_count, nullptr),
        keys_(plan.buffer_count, nullptr), device_(device), peers_(peers) {
    if (device < 0 || device >= plan.deviceCount())
      throw InvalidArgument("program plan: device " + std::to_string(device) +
                            " of a program over " +
                            std::to_string(plan.deviceCount()) + " device(s)");
  }

  /// A second place for some buffers: where `place(b, out)` returns true,
  /// buffer b's results go to `out` (a view it sets), not to the plan's
  /// place (the CUDA graph's probe of its outputs' addresses,
  /// runtime/cuda/program.cu).
  void relocate(std::function<bool(int32_t, Poly &)> place) {
    relocate_ = std::move(place);
  }
  /// Called with (i, true) before and (i, false) after each step i this
  /// device executes: the CUDA graph's capture of the steps as a DAG
  /// (runtime/cuda/program.cu). A kTransfer between them then ends in the
  /// kernels' wait for it (program_deps.h orders its readers and writers
  /// after it), instead of a wait in the first kernel that reads or
  /// overwrites its buffer (which would order only that one).
  void around(std::function<void(size_t, bool)> hook) {
    around_ = std::move(hook);
  }

  void run() {
    if (!prepare())
      return;
    for (size_t i = 0; i < plan_.step_count; ++i)
      runStep(i);
    if (plan_.devices > 1 && !peers_)
      B::finish(args_);
  }
  /// Encodes this device's constants; false: prepare only (run nothing).
  bool prepare() {
    if (plan_.plain_modulus && plan_.bfv_plain_modulus)
      throw Error("program plan: both a BGV and a BFV plaintext modulus");
    if (plan_.devices > 1 && !peers_)
      for (size_t i = 0; i < plan_.step_count; ++i) {
        const Step &s = plan_.steps[i];
        if (s.kind == StepKind::kTransfer && s.device == device_)
          sent_.insert(arg(s.in, 0));
      }
    prepareConstants();
    return !B::prepareOnly(args_);
  }
  /// Step i if this device executes it.
  void runStep(size_t i) {
    const Step &s = plan_.steps[i];
    if (!onDevice(plan_, s, device_))
      return;
    if (s.kind == StepKind::kTransfer) {
      if (around_)
        around_(i, true);
      transfer(s);
      if (around_)
        around_(i, false);
      return;
    }
    if (around_)
      around_(i, true);
    step(s);
    if (around_)
      around_(i, false);
    if (!sent_.empty()) // buffers this device sends: ready once made
      for (int32_t j = 0; j < s.nout; ++j)
        if (sent_.count(arg(s.out, j)))
          readyAt_[arg(s.out, j)] = B::ready(args_, *at_[arg(s.out, j)]);
  }

private:
  const typename B::Args &args_;
  const Plan<typename B::Kernel> &plan_;
  const std::decay_t<decltype(B::host(std::declval<typename B::Args>()))> &ctx_;
  std::vector<Poly> owned_;
  std::vector<const Poly *> at_;
  std::vector<const void *> keys_;
  ConstantCache<Poly> local_;
  ConstantCache<Poly> *cache_ = nullptr;
  int device_ = 0;
  Executor *const *peers_ = nullptr;
  std::function<bool(int32_t, Poly &)> relocate_;
  std::function<void(size_t, bool)> around_;
  // Transfers run beside the kernels (separate executors): the buffers
  // this device sends (an event once each is made), the arena ranges
  // still being sent (kernels writing over one wait first) and the
  // received buffers not yet waited for (the first kernel reading one
  // waits).
  struct Sending {
    int64_t offset, bytes;
    typename B::Event done;
  };
  /// A kKsInnerProduct left to the switch right after it
  /// (overlappedInnerProduct): its key, digits, Galois element and placed
  /// results.
  struct Pending {
    const typename B::HybridKey *key = nullptr;
    std::vector<const Poly *> digits;
    uint64_t galois = 0;
    Poly *acc0 = nullptr, *acc1 = nullptr;
  };
  Pending pending_;
  std::set<int32_t> sent_;
  std::map<int32_t, typename B::Event> readyAt_;
  std::vector<Sending> sending_;
  mutable std::map<int32_t, typename B::Event> arriving_;

  /// Bytes of one residue (the program's word).
  static constexpr int64_t kWordBytes = static_cast<int64_t>(sizeof(
      std::remove_pointer_t<decltype(B::words(std::declval<const Poly &>()))>));
  static int64_t bytesOf(const Poly &p) {
    return static_cast<int64_t>(p.basis.size() * p.n) * kWordBytes;
  }
  /// Kernels about to write arena bytes [offset, offset + bytes) wait for
  /// the sends still reading them.
  void claim(int64_t offset, int64_t bytes) {
    if (offset < 0)
      return;
    for (size_t i = 0; i < sending_.size();) {
      const Sending &r = sending_[i];
      if (offset < r.offset + r.bytes && r.offset < offset + bytes) {
        B::wait(args_, r.done);
        sending_.erase(sending_.begin() + i);
      } else {
        ++i;
      }
    }
  }

  /// A buffer of device `device` crosses to device imm[0].
  void transfer(const Step &s) {
    const int to = static_cast<int>(s.imm[0]);
    if (s.nin != 1 || s.nout != 1 || to == s.device || to < 0 ||
        to >= plan_.deviceCount())
      throw Error("program plan: step " + std::to_string(&s - plan_.steps) +
                  " is not a transfer of one buffer to another device");
    if (peers_) { // one process: the receiver copies the sender's buffer
      if (device_ == to)
        B::copy(args_, peers_[s.device]->in(s, 0), placeOut(s, 0));
      return;
    }
    const int32_t src = arg(s.in, 0);
    if (device_ == s.device) {
      const Poly &x = in(s, 0);
      auto ready = readyAt_.find(src);
      typename B::Event done =
          B::send(args_, x, to,
                  ready != readyAt_.end() ? ready->second : B::ready(args_, x));
      if (around_)
        B::wait(args_, done);
      else if (spec(src).offset >= 0)
        sending_.push_back({spec(src).offset, bytesOf(x), done});
    } else {
      Poly &out = placeOut(s, 0);
      typename B::Event done = B::recv(args_, out, s.device);
      if (around_)
        B::wait(args_, done);
      else
        arriving_[arg(s.out, 0)] = done;
    }
  }

  int32_t arg(int32_t list, int32_t i) const { return plan_.args[list + i]; }
  const BufferSpec &spec(int32_t b) const { return plan_.buffers[b]; }

  /// Global modulus indices of a buffer spec.
  std::vector<int> basis(const BufferSpec &s) const {
    return bufferBasis(ctx_, s);
  }
  KernelBasis kernelBasis(const BufferSpec &s) const {
    return {s.q_lo, s.q_hi, ctx_.qCount() + s.p_lo, ctx_.qCount() + s.p_hi};
  }
  const Poly &in(const Step &s, int32_t i) const {
    if (!arriving_.empty()) {
      auto it = arriving_.find(arg(s.in, i));
      if (it != arriving_.end()) { // received beside the kernels: wait
        B::wait(args_, it->second);
        arriving_.erase(it);
      }
    }
    const Poly *p = at_[arg(s.in, i)];
    if (!p)
      throw Error("program plan: step " + std::to_string(&s - plan_.steps) +
                  " reads buffer " + std::to_string(arg(s.in, i)) +
                  " before it is written");
    return *p;
  }
  void set(int32_t buffer, Poly p) {
    owned_[buffer] = std::move(p);
    at_[buffer] = &owned_[buffer];
  }
  void setOut(const Step &s, int32_t i, Poly p) {
    set(arg(s.out, i), std::move(p));
  }
  /// Result i of a step, placed where the plan put it.
  Poly &placeOut(const Step &s, int32_t i, bool written_in_place = false) {
    const int32_t b = arg(s.out, i);
    const BufferSpec &o = spec(b);
    Poly moved;
    if (relocate_ && relocate_(b, moved)) {
      set(b, std::move(moved));
      return owned_[b];
    }
    set(b, B::place(args_, basis(o), o.ntt != 0, o.offset, written_in_place));
    if (!sending_.empty())
      claim(o.offset, bytesOf(owned_[b]));
    return owned_[b];
  }
  typename B::Scratch scratch(const Step &s) {
    if (!sending_.empty() && s.scratch >= 0) {
      const BufferSpec &o = spec(s.scratch);
      claim(o.offset, static_cast<int64_t>(o.q_hi) * ctx_.n() * kWordBytes);
    }
    return B::scratch(args_, s.scratch >= 0 ? &spec(s.scratch) : nullptr);
  }

  void prepareConstants() {
    cache_ = B::cache(args_);
    if (!cache_)
      cache_ = &local_;
    if (cache_->ctx == &ctx_ && cache_->polys.size() == plan_.constant_count)
      return;
    cache_->polys.clear();
    cache_->polys.resize(plan_.constant_count);
    cache_->ctx = &ctx_;
    size_t next = 0;
    for (size_t i = 0; i < plan_.step_count; ++i) {
      const Step &s = plan_.steps[i];
      if (s.kind != StepKind::kConstant)
        continue;
      if (static_cast<size_t>(s.imm[0]) != next++ ||
          next > plan_.constant_count)
        throw Error("program plan: constants out of order");
      if (!peers_ && !onDevice(plan_, s, device_))
        continue; // another device's (its own cache holds it)
      const BufferSpec &b = spec(arg(s.out, 0));
      cache_->polys[s.imm[0]] = B::constant(
          args_, s.imm[1], s.imm[2], s.imm[3] != 0, s.scale, basis(b),
          b.ntt != 0, plan_.plain_modulus, plan_.bfv_plain_modulus);
    }
  }

  template <typename Key> const Key &key(const Step &s, int32_t i) const {
    return *static_cast<const Key *>(keys_[arg(s.in, i)]);
  }
  bool klssKeyAt(const Step &s, int32_t i) const {
    return spec(arg(s.in, i)).key == 2;
  }

  void step(const Step &s) {
    switch (s.kind) {
    case StepKind::kInput: {
      const size_t index = static_cast<size_t>(s.imm[0]);
      B::checkInput(args_, index, plan_.input_names[index], s.nout,
                    static_cast<int>(s.imm[1]), static_cast<size_t>(s.imm[2]),
                    s.scale);
      // The ciphertext's own polynomial where the backend can point at it
      // (CPU), else a copy into the buffer (CUDA).
      for (int32_t j = 0; j < s.nout; ++j) {
        int32_t b = arg(s.out, j);
        at_[b] = B::inputPart(args_, index, j, spec(b).offset, owned_[b]);
      }
      return;
    }
    case StepKind::kConstant:
      at_[arg(s.out, 0)] = &cache_->polys[s.imm[0]];
      return;
    case StepKind::kPlainInput:
      plainInput(B::plain(args_), static_cast<size_t>(s.imm[0]),
                 plan_.plain_names[s.imm[0]], static_cast<size_t>(s.imm[1]));
      return;
    case StepKind::kEncodeValues: {
      const auto &values = (*B::plain(args_))[s.imm[0]];
      B::encodeValues(args_, static_cast<size_t>(s.imm[0]), values, s.scale,
                      placeOut(s, 0), plan_.plain_modulus,
                      plan_.bfv_plain_modulus);
      return;
    }
    case StepKind::kBfvTensor:
      bfvTensor(s);
      return;
    case StepKind::kZero:
      B::zero(args_, placeOut(s, 0, true));
      return;
    case StepKind::kNtt:
    case StepKind::kIntt: {
      const Poly &x = in(s, 0);
      if (s.kind == StepKind::kNtt)
        B::ntt(args_, x, placeOut(s, 0));
      else
        B::intt(args_, x, placeOut(s, 0));
      return;
    }
    case StepKind::kBConv: {
      const Poly &x = in(s, 0);
      B::bconv(args_, x, placeOut(s, 0), scratch(s), s.imm[0] != 0);
      return;
    }
    case StepKind::kModUp: {
      const Poly &x = in(s, 0);
      std::vector<int> digits;
      std::vector<Poly *> outs;
      for (int32_t j = 0; j < s.nout; ++j) {
        digits.push_back(arg(static_cast<int32_t>(s.imm[0]), j));
        outs.push_back(&placeOut(s, j));
      }
      B::modUp(args_, x, digits, outs, scratch(s));
      return;
    }
    case StepKind::kKsInnerProduct:
    case StepKind::kKlssInnerProduct: {
      std::vector<const Poly *> digits;
      for (int32_t j = 1; j < s.nin; ++j)
        digits.push_back(&in(s, j));
      Poly &acc0 = placeOut(s, 0);
      Poly &acc1 = placeOut(s, 1);
      const size_t i = static_cast<size_t>(&s - plan_.steps);
      if (overlappedInnerProduct(plan_, i + 1) == &s) {
        // The switch of the next step runs it (ksInnerProductDown).
        pending_ = {&key<typename B::HybridKey>(s, 0), std::move(digits),
                    static_cast<uint64_t>(s.imm[0]), &acc0, &acc1};
        return;
      }
      if (s.kind == StepKind::kKsInnerProduct)
        B::ksInnerProduct(args_, key<typename B::HybridKey>(s, 0), digits, acc0,
                          acc1, static_cast<uint64_t>(s.imm[0]));
      else
        B::klssInnerProduct(args_, key<typename B::KlssKey>(s, 0), digits,
                            static_cast<int>(s.imm[0]), acc0, acc1, scratch(s));
      return;
    }
    case StepKind::kKlssModUp: {
      std::vector<const Poly *> xs;
      std::vector<Poly *> outs;
      for (int32_t j = 0; j < s.nout; ++j) {
        xs.push_back(&in(s, j));
        outs.push_back(&placeOut(s, j));
      }
      B::klssModUp(args_, xs, outs, scratch(s));
      return;
    }
    case StepKind::kModSwitchDown: {
      // Inputs x_0..x_{n-1}, then the lifted addends of the first ones
      // (imm[0]: their Galois element, 0 when read in order).
      if (s.nin < s.nout || s.nin > 2 * s.nout)
        throw Error("program plan: mod_switch_down takes one input per "
                    "output and at most as many lifted addends");
      std::vector<const Poly *> xs, ys;
      std::vector<Poly *> outs;
      for (int32_t j = 0; j < s.nout; ++j)
        xs.push_back(&in(s, j));
      for (int32_t j = s.nout; j < s.nin; ++j)
        ys.push_back(&in(s, j));
      for (int32_t j = 0; j < s.nout; ++j)
        outs.push_back(&placeOut(s, j));
      const size_t i = static_cast<size_t>(&s - plan_.steps);
      if (pending_.key && overlappedInnerProduct(plan_, i)) {
        Pending ip = std::move(pending_);
        pending_ = {};
        B::ksInnerProductDown(
            args_, *ip.key, ip.digits, ip.galois, *ip.acc0, *ip.acc1, ys, outs,
            scratch(s), plan_.plain_modulus, static_cast<uint64_t>(s.imm[0]));
        return;
      }
      B::modSwitchDown(args_, xs, ys, outs, scratch(s), plan_.plain_modulus,
                       static_cast<uint64_t>(s.imm[0]));
      return;
    }
    case StepKind::kAutomorphism: {
      const Poly &x = in(s, 0);
      B::automorphism(args_, x, static_cast<uint64_t>(s.imm[0]),
                      placeOut(s, 0));
      return;
    }
    case StepKind::kLoadKey: {
      int32_t b = arg(s.out, 0);
      const uint64_t g = static_cast<uint64_t>(s.imm[0]);
      keys_[b] = spec(b).key == 2
                     ? static_cast<const void *>(B::klssKey(args_, g))
                     : static_cast<const void *>(B::hybridKey(args_, g));
      return;
    }
    case StepKind::kConcat: {
      std::vector<const Poly *> parts;
      for (int32_t j = 0; j < s.nin; ++j)
        parts.push_back(&in(s, j));
      B::concat(args_, parts, placeOut(s, 0));
      return;
    }
    case StepKind::kView:
      setOut(s, 0,
             B::view(args_, in(s, 0), static_cast<size_t>(s.imm[0]),
                     static_cast<size_t>(s.imm[1])));
      return;
    case StepKind::kCopy: {
      const Poly &x = in(s, 0);
      B::copy(args_, x, placeOut(s, 0));
      return;
    }
    case StepKind::kLaunch:
      launch(s);
      return;
    case StepKind::kRelease:
      for (int32_t j = 0; j < s.nin; ++j) {
        int32_t b = arg(s.in, j);
        owned_[b] = Poly();
        at_[b] = nullptr;
      }
      return;
    case StepKind::kOutput: {
      std::vector<Poly> polys;
      for (int32_t j = 0; j < s.nin; ++j) {
        int32_t b = arg(s.in, j);
        in(s, j); // a received buffer: its transfer first
        bool movable =
            arg(static_cast<int32_t>(s.imm[2]), j) != 0 && at_[b] == &owned_[b];
        if (movable) {
          polys.push_back(std::move(owned_[b]));
          at_[b] = nullptr;
        } else {
          const Poly &x = in(s, j);
          Poly copy = B::place(args_, x.basis, x.ntt, -1, false);
          B::copy(args_, x, copy);
          polys.push_back(std::move(copy));
        }
      }
      B::output(args_, std::move(polys), static_cast<int>(s.imm[0]), s.scale,
                static_cast<size_t>(s.imm[1]));
      return;
    }
    }
    throw Error("program plan: unknown step kind " +
                std::to_string(static_cast<int>(s.kind)));
  }

  /// The BFV product (BEHZ or HPS, imm[0]): checks the plan's shapes (a BFV
  /// program, four NTT-form inputs and three outputs over the full Q), then the
  /// backend's.
  void bfvTensor(const Step &s) {
    const std::string at = "program plan: step " +
                           std::to_string(&s - plan_.steps) + " (bfv_tensor)";
    if (!plan_.bfv_plain_modulus)
      throw Error(at + " in a program that is not BFV");
    if (s.nin != 4 || s.nout != 3)
      throw Error(at + " takes 4 polynomials and makes 3");
    const int16_t top = static_cast<int16_t>(ctx_.maxLevel() + 1);
    auto full = [&](int32_t b) {
      const BufferSpec &o = spec(b);
      return o.q_lo == 0 && o.q_hi == top && o.p_lo == o.p_hi && o.ntt &&
             !o.over_t && !o.key;
    };
    std::vector<const Poly *> xs;
    for (int32_t j = 0; j < 4; ++j) {
      if (!full(arg(s.in, j)))
        throw Error(at + ": an input not in NTT form over the full Q");
      xs.push_back(&in(s, j));
    }
    std::vector<Poly *> outs;
    for (int32_t j = 0; j < 3; ++j) {
      if (!full(arg(s.out, j)))
        throw Error(at + ": an output not in NTT form over the full Q");
      outs.push_back(&placeOut(s, j));
    }
    B::bfvTensor(args_, xs, outs, plan_.bfv_plain_modulus, s.imm[0] != 0);
  }

  void launch(const Step &s) {
    const BufferSpec &l = spec(static_cast<int32_t>(s.imm[1]));
    KernelLoop loop{(l.q_hi - l.q_lo) + (l.p_hi - l.p_lo), l.q_hi - l.q_lo,
                    l.q_lo, ctx_.qCount() + l.p_lo};
    std::vector<const void *> ins(s.nin);
    std::vector<KernelBasis> inb(s.nin);
    for (int32_t j = 0; j < s.nin; ++j) {
      ins[j] = B::words(in(s, j));
      inb[j] = kernelBasis(spec(arg(s.in, j)));
    }
    std::vector<void *> outs(s.nout);
    std::vector<KernelBasis> outb(s.nout);
    for (int32_t j = 0; j < s.nout; ++j) {
      outs[j] = B::words(placeOut(s, j, true));
      outb[j] = kernelBasis(spec(arg(s.out, j)));
    }
    std::vector<int> tabs(s.imm[3]);
    for (int64_t j = 0; j < s.imm[3]; ++j)
      tabs[j] = arg(static_cast<int32_t>(s.imm[2]), static_cast<int32_t>(j));
    KernelIO io{ins.data(), inb.data(), outs.data(), outb.data(), tabs.data()};
    B::launch(args_, plan_.kernels[s.imm[0]], loop, io);
  }
};

/// A plan of several devices run in one process, the devices' executors
/// interleaved in the plan's order and each kTransfer a copy: the CPU's
/// simulation of a program partitioned over GPUs (the same residues as the
/// program compiled for one device). `args` serves every device.
template <typename B>
void runDevicesInProcess(const typename B::Args &args,
                         const Plan<typename B::Kernel> &plan) {
  const int k = plan.deviceCount();
  std::vector<std::unique_ptr<Executor<B>>> ex;
  std::vector<Executor<B> *> peers(k);
  // One process, one context: the devices share `args`' constant cache
  // (each executor fills every constant, the first does the work).
  for (int d = 0; d < k; ++d) {
    ex.push_back(std::make_unique<Executor<B>>(args, plan, d, peers.data()));
    peers[d] = ex.back().get();
  }
  bool go = true;
  for (int d = 0; d < k; ++d)
    go = ex[d]->prepare() && go;
  if (!go)
    return;
  for (size_t i = 0; i < plan.step_count; ++i)
    for (int d = 0; d < k; ++d)
      ex[d]->runStep(i);
}

} // namespace ember::program
