//===- KernelEmitter.cpp - C++, CUDA and manifest emitters ----------------===//
//
// One walk over the kernel-level function prints the host entry; each
// kernel.launch becomes a generated kernel (a loop over limbs x N on the
// CPU, a __global__ kernel on CUDA), with a comment naming the ops it fuses
// and the bytes it moves. Elementwise arithmetic in generated kernels uses
// Barrett reduction with constants computed here from the module's primes,
// so results are fully reduced and equal the runtime's residue for residue.
//
//===----------------------------------------------------------------------===//
#include "compiler/Target/KernelEmitter.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"
#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/Kernel/IR/KernelLiveness.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include "ember/program_data.h"
#include "ember/program_plan.h"
#include "ember/security.h"

#include <openssl/evp.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

using namespace mlir;
using namespace ember;

namespace {

using u128 = unsigned __int128;

uint64_t mulMod(uint64_t a, uint64_t b, uint64_t q) {
  return static_cast<uint64_t>(static_cast<u128>(a) * b % q);
}
uint64_t powMod(uint64_t a, uint64_t e, uint64_t q) {
  uint64_t r = 1 % q;
  for (a %= q; e; e >>= 1, a = mulMod(a, a, q))
    if (e & 1)
      r = mulMod(r, a, q);
  return r;
}

rns::PolyType polyTy(Value v) { return dyn_cast<rns::PolyType>(v.getType()); }

/// The slot values of the program's `encode` calls, each distinct vector
/// stored once, in body order: what --emit-data writes into `<name>.data`
/// and where the emitted code reads each constant (offset, count, complex).
/// A complex constant's values are stored as (real, imaginary) pairs.
struct ConstantData {
  struct Entry {
    uint64_t offset = 0, count = 0;
    bool complex = false;
  };
  std::vector<double> values;
  DenseMap<Operation *, Entry> at;
};

ConstantData collectConstantData(func::FuncOp f) {
  ConstantData data;
  std::map<std::pair<bool, std::vector<double>>, uint64_t> seen;
  f.walk([&](kernel::CallOp c) {
    if (c.getCallee() != "encode")
      return;
    auto value = c->getAttrOfType<DenseElementsAttr>("value");
    int64_t slots = cast<ShapedType>(value.getType()).getNumElements();
    const bool complex = ember::isComplexValues(value);
    std::vector<double> v;
    for (std::complex<double> x : ember::slotValues(value, slots)) {
      v.push_back(x.real());
      if (complex)
        v.push_back(x.imag());
    }
    auto [it, fresh] = seen.try_emplace({complex, v}, data.values.size());
    if (fresh)
      data.values.insert(data.values.end(), v.begin(), v.end());
    data.at[c] = {it->second, static_cast<uint64_t>(slots), complex};
  });
  return data;
}

/// The program function of a kernel-level module (exactly one).
FailureOr<func::FuncOp> programFunction(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  if (funcs.size() != 1)
    return module.emitError("the emitters expect exactly one function (the "
                            "program), found ")
           << funcs.size();
  return funcs.front();
}

enum class Backend { Cpp, Cuda };

/// One step of the plan as the emitter builds it (program_plan.h's Step).
struct PlanStep {
  const char *kind;
  SmallVector<int, 4> out, in;
  int64_t imm[4] = {0, 0, 0, 0};
  double scale = 0;
  int scratch = -1; ///< buffer spec of the step's scratch, or -1
  int device = 0;   ///< the device that runs it (-1: every device)
  std::string comment;
};

class Emitter {
public:
  Emitter(ModuleOp module, raw_ostream &os, Backend backend)
      : module_(module), os_(os), be_(backend) {}

  LogicalResult run();

private:
  // --- setup ---------------------------------------------------------------
  LogicalResult init();
  int gP(int p) const { return qCount_ + p; }
  /// The product of q[qLo:qHi] and p[pLo:pHi] modulo m.
  uint64_t productMod(int64_t qLo, int64_t qHi, int64_t pLo, int64_t pHi,
                      uint64_t m) const {
    uint64_t r = 1 % m;
    for (int64_t i = qLo; i < qHi; ++i)
      r = mulMod(r, primes_[i] % m, m);
    for (int64_t j = pLo; j < pHi; ++j)
      r = mulMod(r, primes_[qCount_ + j] % m, m);
    return r;
  }
  /// A signed integer of any width reduced modulo every modulus.
  std::vector<uint64_t> residues(const APInt &v) const {
    std::vector<uint64_t> out;
    APInt w = v.sext(v.getBitWidth() + 1); // room for the negation
    APInt mag = w.isNegative() ? -w : w;
    for (uint64_t q : primes_) {
      APInt m(mag.getBitWidth() < 65 ? 65 : mag.getBitWidth(), q);
      uint64_t r = mag.zext(m.getBitWidth()).urem(m).getZExtValue();
      out.push_back(w.isNegative() && r ? q - r : r);
    }
    return out;
  }
  /// Index of a per-modulus constant table (emitted in the preamble).
  int table(const std::vector<uint64_t> &values) {
    auto it = std::find(tables_.begin(), tables_.end(), values);
    if (it != tables_.end())
      return it - tables_.begin();
    tables_.push_back(values);
    return tables_.size() - 1;
  }

  // --- the plan ------------------------------------------------------------
  /// A buffer spec (BufferSpec initializer) for a value's type at an
  /// arena offset (-1: none).
  std::string specText(Type t, int64_t offset) const {
    if (auto p = dyn_cast<rns::PolyType>(t)) {
      if (p.hasT())
        return llvm::formatv("{{0, 0, 0, 0, {0}, 1, 0, {1}}", p.isNTT() ? 1 : 0,
                             offset);
      return llvm::formatv("{{{0}, {1}, {2}, {3}, {4}, 0, 0, {5}}", p.getQLo(),
                           p.getQHi(), p.getPLo(), p.getPHi(),
                           p.isNTT() ? 1 : 0, offset);
    }
    return llvm::formatv("{{0, 0, 0, 0, 0, 0, {0}, -1}",
                         isa<rns::KlssKeyType>(t) ? 2 : 1);
  }
  /// The buffer of a value (allocated an index on first sight), at its
  /// planned arena offset if it has one.
  int buffer(Value v) {
    auto [it, fresh] = ids_.try_emplace(v, static_cast<int>(specs_.size()));
    if (fresh) {
      auto o = offsets_.find(v);
      specs_.push_back(
          specText(v.getType(), o == offsets_.end() ? -1 : o->second));
    }
    return it->second;
  }
  /// A spec that only describes a kernel's loop basis (no buffer).
  int loopSpec(rns::PolyType t) {
    specs_.push_back(specText(t, -1));
    return static_cast<int>(specs_.size()) - 1;
  }
  /// A spec of `limbs` limbs of scratch at arena offset `at`.
  int scratchSpec(int64_t limbs, int64_t at) {
    specs_.push_back(llvm::formatv("{{0, {0}, 0, 0, 0, 0, 0, {1}}", limbs, at));
    return static_cast<int>(specs_.size()) - 1;
  }
  /// The arena offsets kernel-plan-memory gave the values of `f` (views:
  /// their source's, moved by the first limb).
  void collectOffsets(func::FuncOp f);
  /// Appends a list to the argument table; returns its offset.
  int32_t list(ArrayRef<int> ids) {
    int32_t at = static_cast<int32_t>(args_.size());
    args_.append(ids.begin(), ids.end());
    return at;
  }
  PlanStep &step(const char *kind, ArrayRef<int> out, ArrayRef<int> in,
                 std::string comment = "") {
    steps_.emplace_back();
    PlanStep &s = steps_.back();
    s.kind = kind;
    s.device = curDevice_;
    s.out.assign(out.begin(), out.end());
    s.in.assign(in.begin(), in.end());
    s.comment = std::move(comment);
    return s;
  }

  // --- generated kernels ---------------------------------------------------
  LogicalResult emitLaunch(kernel::LaunchOp l);
  LogicalResult emitSegment(ArrayRef<Operation *> ops,
                            DenseMap<Value, int> &mem, ArrayRef<Value> stores,
                            const std::string &comment);
  FailureOr<std::string> scalarOp(Operation *op,
                                  DenseMap<Value, std::string> &scalar,
                                  SmallVectorImpl<int> &tables);
  /// The index of the generated kernel with this body (one per distinct
  /// body: launches differ only in their arguments).
  int kernelFor(const std::string &body, size_t ins, size_t outs, size_t tabs);
  /// A body's lines for each lane: a line whose names carry '@' is
  /// written once per lane, '@' replaced by the lane's suffix (_0, _1, ...;
  /// nothing with one lane).
  std::string expandLanes(const std::string &body) const;
  /// Residues per vector load or store of a generated kernel (16 bytes at
  /// most), and that vector's type.
  int chunk() const {
    return std::min<int>(lanes_, 16 / static_cast<int>(params_.getWordBytes()));
  }
  std::string vecType() const { return chunk() == 4 ? "em_word4" : "em_word2"; }

  // --- runtime calls and the tables ----------------------------------------
  LogicalResult emitCall(kernel::CallOp c);
  void emitPreamble(raw_ostream &os);
  void emitTables(raw_ostream &os);
  /// 32-bit words with every modulus below 2^31: em_mul multiplies
  /// 32 x 32 -> 64 bits.
  bool narrow() const {
    return params_.getWord() == 32 && llvm::all_of(primes_, [](uint64_t q) {
             return q < (uint64_t{1} << 31);
           });
  }

  ModuleOp module_;
  raw_ostream &os_;
  Backend be_;
  ckks::ParamsAttr params_;
  std::vector<uint64_t> primes_;
  int qCount_ = 0, pCount_ = 0;
  uint64_t n_ = 0;
  DenseMap<Value, int> ids_;         // value -> buffer index
  DenseMap<Value, int64_t> offsets_; // value -> arena offset (planned)
  int64_t limbBytes_ = 0;
  int64_t arenaBytes_ = 0; // kernel.arena_bytes (0: not planned)
  int64_t devices_ = 1;    // kernel.devices (partitioned)
  int curDevice_ = 0;      // device of the op being emitted
  bool lazySums_ = true;   // the launch being emitted allows lazy sums
  int lanes_ = 1;          // coefficients per thread (CUDA; kernel.lanes)
  SmallVector<int64_t> deviceArenas_;   // kernel.device_arena_bytes
  std::vector<std::string> specs_;      // buffer index -> BufferSpec
  SmallVector<int32_t> args_;           // the argument table
  std::vector<PlanStep> steps_;         // the plan
  std::vector<std::string> inputNames_; // ciphertext inputs, in order
  std::vector<std::string> plainNames_; // plaintext inputs, in order
  DenseMap<Value, int64_t> plainIndex_; // plaintext argument -> index
  std::vector<std::vector<uint64_t>> tables_;
  ConstantData data_;                          // the constants' data file
  int64_t constants_ = 0;                      // kConstant steps
  std::string kernels_;                        // generated kernel definitions
  std::map<std::string, int> kernelIds_;       // body -> kernel index
  size_t maxIn_ = 1, maxOut_ = 1, maxTab_ = 1; // EmIO array sizes (CUDA)
};

LogicalResult Emitter::init() {
  params_ = ckks::ParamsAttr::lookup(module_);
  if (!params_)
    return module_.emitError("the module has no #ckks.params (run the "
                             "fhe-to-kernel pipeline first)");
  for (uint64_t q : params_.getQ())
    primes_.push_back(q);
  for (uint64_t p : params_.getP())
    primes_.push_back(p);
  qCount_ = params_.getQ().size();
  pCount_ = params_.getP().size();
  n_ = uint64_t{1} << params_.getLogN();
  limbBytes_ = static_cast<int64_t>(n_) * params_.getWordBytes();
  return success();
}

void Emitter::collectOffsets(func::FuncOp f) {
  if (auto args = f->getAttrOfType<DenseI64ArrayAttr>(
          kernel::KernelDialect::kArgOffsetsAttrName)) {
    size_t i = 0;
    for (BlockArgument a : f.getArguments())
      if (isa<rns::PolyType>(a.getType()) && i < args.size())
        offsets_[a] = args[i++];
  }
  for (Operation &op : f.getBody().front()) {
    if (auto v = dyn_cast<kernel::ViewOp>(op)) {
      auto src = offsets_.find(v.getSource());
      if (src != offsets_.end())
        offsets_[v] = src->second + v.getFirst() * limbBytes_;
      continue;
    }
    auto offs = op.getAttrOfType<DenseI64ArrayAttr>("offsets");
    if (!offs)
      continue;
    size_t i = 0;
    for (Value r : op.getResults())
      if (isa<rns::PolyType>(r.getType()) && i < offs.size())
        offsets_[r] = offs[i++];
  }
}

//===----------------------------------------------------------------------===//
// Generated kernels
//===----------------------------------------------------------------------===//

FailureOr<std::string> Emitter::scalarOp(Operation *op,
                                         DenseMap<Value, std::string> &scalar,
                                         SmallVectorImpl<int> &tables) {
  auto s = [&](Value v) { return scalar.lookup(v); };
  // A per-modulus constant table, read once per limb as c<k>: the kernel
  // body names the k-th table of its launch, the launch passes which.
  auto constant = [&](const std::vector<uint64_t> &c) {
    tables.push_back(table(c));
    return "c" + std::to_string(tables.size() - 1);
  };
  // x times a per-modulus constant table.
  auto byTable = [&](Value x, const std::vector<uint64_t> &c) {
    return std::string(llvm::formatv("em_mul(g, {0}, {1})", s(x), constant(c)));
  };
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](rns::AddOp o) {
        auto l = o.getLhs().getDefiningOp<rns::MulOp>();
        auto r = o.getRhs().getDefiningOp<rns::MulOp>();
        if (l && r && !scalar.count(l.getResult()) &&
            !scalar.count(r.getResult())) // folded products (emitSegment)
          return std::string(llvm::formatv("em_mac2(g, {0}, {1}, {2}, {3})",
                                           s(l.getLhs()), s(l.getRhs()),
                                           s(r.getLhs()), s(r.getRhs())));
        return std::string(
            llvm::formatv("em_add(q, {0}, {1})", s(o.getLhs()), s(o.getRhs())));
      })
      .Case([&](rns::SubOp o) {
        return std::string(
            llvm::formatv("em_sub(q, {0}, {1})", s(o.getLhs()), s(o.getRhs())));
      })
      .Case([&](rns::NegOp o) {
        return std::string(llvm::formatv("em_neg(q, {0})", s(o.getInput())));
      })
      .Case([&](rns::MulOp o) {
        return std::string(
            llvm::formatv("em_mul(g, {0}, {1})", s(o.getLhs()), s(o.getRhs())));
      })
      .Case([&](rns::MulConstOp o) {
        return byTable(o.getInput(), residues(o.getValue()));
      })
      .Case([&](rns::AddConstOp o) {
        return std::string(llvm::formatv("em_add(q, {0}, {1})", s(o.getInput()),
                                         constant(residues(o.getValue()))));
      })
      .Case([&](rns::MulPOp o) {
        // [P]_m for every modulus: 0 on the P limbs themselves.
        std::vector<uint64_t> c;
        for (uint64_t m : primes_)
          c.push_back(productMod(0, 0, 0, pCount_, m));
        return byTable(o.getInput(), c);
      })
      .Case([&](rns::MulInvOp o) {
        std::vector<uint64_t> c;
        for (uint64_t m : primes_) {
          uint64_t d =
              productMod(o.getQLo(), o.getQHi(), o.getPLo(), o.getPHi(), m);
          c.push_back(d ? powMod(d, m - 2, m) : 0);
        }
        return byTable(o.getInput(), c);
      })
      .Default([&](Operation *o) -> FailureOr<std::string> {
        return o->emitOpError("cannot be emitted inside a generated kernel");
      });
}

/// `text` for lane h of `lanes`: every '@' becomes the lane's suffix (_h;
/// nothing with one lane).
static std::string atLane(StringRef text, int lanes, int h) {
  const std::string suffix = lanes == 1 ? "" : "_" + std::to_string(h);
  std::string out;
  for (char c : text)
    out += c == '@' ? suffix : std::string(1, c);
  return out;
}

/// One elementwise loop: reads the values in `mem` (buffers), evaluates
/// `ops` per residue and writes `stores` (which must be in `mem`).
LogicalResult Emitter::emitSegment(ArrayRef<Operation *> ops,
                                   DenseMap<Value, int> &mem,
                                   ArrayRef<Value> stores,
                                   const std::string &comment) {
  // Loop basis: the widest value of the segment.
  rns::PolyType loop;
  auto widen = [&](Value v) {
    auto t = polyTy(v);
    if (t && (!loop || t.getNumLimbs() > loop.getNumLimbs()))
      loop = t;
  };
  // What the kernel loads: a value, at k or (an NTT-form automorphism of
  // it, galois != 0) at the permuted index em_auto(k, galois).
  struct Read {
    Value v;
    uint64_t galois;
  };
  std::vector<Read> reads;
  std::map<std::pair<void *, uint64_t>, size_t> readIndex;
  auto computedHere = [&](Value v) {
    return llvm::any_of(ops,
                        [&](Operation *op) { return v.getDefiningOp() == op; });
  };
  // The index of the read of v (permuted by galois), made on first need.
  auto read = [&](Value v, uint64_t galois) {
    auto [it, fresh] =
        readIndex.try_emplace({v.getAsOpaquePointer(), galois}, reads.size());
    if (fresh)
      reads.push_back({v, galois});
    return it->second;
  };
  // Which read gives a value: a load, or the automorphism it permutes.
  DenseMap<Value, size_t> readOf;
  for (Operation *op : ops) {
    if (auto a = dyn_cast<rns::AutomorphismOp>(op)) {
      Value v = a.getInput();
      if (!mem.count(v) || computedHere(v))
        return op->emitOpError("a generated kernel permutes only values it "
                               "loads (rns-fuse-elementwise's permuted "
                               "loads), not one computed in the kernel");
      widen(v);
      widen(a.getResult());
      readOf[a.getResult()] = read(v, a.getGalois());
      continue;
    }
    for (Value v : op->getOperands()) {
      widen(v);
      // Values computed in this segment are in registers (even when they
      // are stored too): only the others are read from memory.
      if (mem.count(v) && !computedHere(v))
        readOf[v] = read(v, 0);
    }
    for (Value r : op->getResults())
      widen(r);
  }
  for (Value v : stores) {
    widen(v);
    // A stored value not computed here (a yielded input) is copied.
    if (!computedHere(v))
      readOf[v] = read(v, 0);
  }
  std::string body;
  SmallVector<int> tables;
  {
    llvm::raw_string_ostream k(body);
    DenseMap<Value, std::string> scalar;
    int t = 0;
    // Each read is loaded just before its first use, so that a kernel of
    // many inputs (a hoisted dot's sums read dozens) keeps few values live.
    // On the GPU its limb pointer is made there too (not in the prologue:
    // 2 registers per input held through the kernel).
    std::vector<bool> emitted(reads.size(), false);
    const bool cuda = be_ == Backend::Cuda;
    // lanes_ coefficients per thread (CUDA): every per-coefficient name
    // ends in '@', and expandLanes writes each such line once per lane;
    // loads and stores are vectors of chunk() residues.
    const int lanes = cuda ? lanes_ : 1;
    auto laneName = [&](StringRef name, int h) {
      return atLane(name, lanes, h);
    };
    // Loads the read that gives v at its first use; v names it from then on
    // (two automorphisms alike share one permuted load).
    auto load = [&](Value v) {
      auto it = readOf.find(v);
      if (it == readOf.end())
        return;
      const size_t i = it->second;
      const std::string id = std::to_string(i), sv = "x" + id + "@";
      if (!emitted[i]) {
        emitted[i] = true;
        const Read &r = reads[i];
        const std::string in = "in" + id, vec = "v" + id;
        std::string at =
            r.galois ? "em_auto(k, " + std::to_string(r.galois) + "u)" : "k";
        // On the GPU an input's limb is never null (em_in: a limb of zeros
        // where the buffer has none), so its loads need no branch.
        if (cuda)
          k << "    const em_word *" << in << " = em_in((const em_word *)io.in["
            << i << "], g, io.inb[" << i << "]);\n";
        const std::string guard = cuda ? "" : in + " ? ";
        const std::string none = cuda ? "" : " : 0";
        if (lanes > 1) {
          const std::string vt = vecType();
          auto at2 = [](int h) {
            return h ? "k + " + std::to_string(h) : std::string("k");
          };
          if (r.galois) {
            // An automorphism maps the pair (k, k + 1), k even, to a pair:
            // em_auto(k + 1) = em_auto(k) ^ 1. Each pair of lanes is one
            // load at em_auto(k) & ~1, its halves swapped when it is odd.
            for (int p = 0; p < lanes / 2; ++p) {
              const std::string a = "a" + id + "_" + std::to_string(p);
              const std::string w = vec + "_" + std::to_string(p);
              k << "    const size_t " << a << " = em_auto(" << at2(2 * p)
                << ", " << r.galois << "u);\n"
                << "    const em_word2 " << w << " = *(const em_word2 *)(" << in
                << " + (" << a << " & ~size_t(1)));\n"
                << "    const uint64_t " << laneName(sv, 2 * p) << " = (" << a
                << " & 1) ? " << w << ".y : " << w << ".x, "
                << laneName(sv, 2 * p + 1) << " = (" << a << " & 1) ? " << w
                << ".x : " << w << ".y; // rns.automorphism\n";
            }
          } else {
            static const char *comp[] = {"x", "y", "z", "w"};
            for (int c = 0; c < lanes / chunk(); ++c) {
              const std::string w = vec + "_" + std::to_string(c);
              k << "    const " << vt << " " << w << " = *(const " << vt
                << " *)(" << in << " + " << at2(c * chunk()) << ");\n";
              for (int h = 0; h < chunk(); ++h)
                k << "    const uint64_t " << laneName(sv, c * chunk() + h)
                  << " = " << w << "." << comp[h] << ";\n";
            }
          }
        } else {
          k << "    const uint64_t " << sv << " = " << guard << in << "[" << at
            << "]" << none << ";" << (r.galois ? " // rns.automorphism" : "")
            << "\n";
        }
      }
      scalar[v] = sv;
    };
    // a * b + c * d with both products used only there: summed exactly in
    // 128 bits and reduced once (em_mac2), not reduced three times; the
    // products are then not evaluated on their own (scalarOp sees them
    // without a scalar).
    auto folded = [&](Operation *op) {
      auto m = dyn_cast<rns::MulOp>(op);
      if (!m || !m->hasOneUse())
        return false;
      auto add = dyn_cast<rns::AddOp>(*m->getUsers().begin());
      if (!add || !computedHere(add.getResult()))
        return false;
      Value other = add.getLhs() == m.getResult() ? add.getRhs() : add.getLhs();
      auto o = other.getDefiningOp<rns::MulOp>();
      return o && o != m && o->hasOneUse() && computedHere(other);
    };
    // The reads an op needs (through the products folded into it).
    std::function<void(Operation *)> loadFor = [&](Operation *op) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && computedHere(v) && folded(def))
          loadFor(def);
        else
          load(v);
      }
    };
    // Lazy sums: a tree of single-use rns.add over single-use rns.mul (a
    // hoisted dot's inner sum, sum_i (x_i + sigma(y_i)) w_i) of at least
    // kLazyMinProducts products is summed unreduced in 128 bits (two
    // words, the products exact) and reduced once at its root
    // (em_reduce_sum), not once per product. At most kLazyMaxTerms terms
    // (products below 2^122 at 61 bits): a larger tree is cut into
    // subtrees that each reduce.
    // Off at narrow 32-bit words, where the two-word sums were slower
    // (bootstrap16_w32 36.87 -> 37.73 ms on an H200: 94 registers against
    // 80) than em_mul's 32 x 32-bit products, and where the launch carries
    // lazy_sums = false (rns-fuse-elementwise lazy-sums=false).
    constexpr int kLazyMinProducts = 3, kLazyMaxTerms = 60;
    const bool lazyOn = lazySums_ && !narrow();
    auto deferrable = [&](Operation *op) {
      if (!isa<rns::MulOp, rns::AddOp>(op) || !op->hasOneUse() ||
          llvm::is_contained(stores, op->getResult(0)))
        return false;
      auto add = dyn_cast<rns::AddOp>(*op->getUsers().begin());
      return add && computedHere(add.getResult());
    };
    // (terms, products) of the deferrable tree under each add and product.
    DenseMap<Operation *, std::pair<int, int>> size;
    auto child = [&](Value v) -> Operation * {
      Operation *d = v.getDefiningOp();
      return d && size.count(d) && deferrable(d) ? d : nullptr;
    };
    for (Operation *op : ops) {
      if (isa<rns::MulOp>(op)) {
        size[op] = {1, 1};
      } else if (isa<rns::AddOp>(op)) {
        std::pair<int, int> n{0, 0};
        for (Value v : op->getOperands())
          if (Operation *d = child(v)) {
            n.first += size[d].first;
            n.second += size[d].second;
          } else {
            n.first += 1;
          }
        size[op] = n;
      }
    }
    DenseSet<Operation *> lazy, roots;
    std::function<void(Operation *)> markTree = [&](Operation *op) {
      lazy.insert(op);
      for (Value v : op->getOperands())
        if (Operation *d = child(v))
          markTree(d);
    };
    std::function<void(Operation *)> markRoot = [&](Operation *op) {
      if (!lazyOn || size[op].second < kLazyMinProducts)
        return;
      if (size[op].first <= kLazyMaxTerms) {
        markTree(op);
        roots.insert(op);
        return;
      }
      for (Value v : op->getOperands()) // too many terms: cut below
        if (Operation *d = child(v); d && isa<rns::AddOp>(d))
          markRoot(d);
    };
    for (Operation *op : ops)
      if (isa<rns::AddOp>(op) && !deferrable(op))
        markRoot(op);
    DenseMap<Value, std::pair<std::string, std::string>> wide; // (lo, hi)
    for (Operation *op : ops) {
      if (lazy.count(op)) {
        for (Value v : op->getOperands())
          load(v);
        const std::string sv = "t" + std::to_string(t++);
        const std::string lo = sv + "_lo@", hi = sv + "_hi@";
        if (auto m = dyn_cast<rns::MulOp>(op)) {
          const std::string a = scalar[m.getLhs()], b = scalar[m.getRhs()];
          k << "    const uint64_t " << lo << " = " << a << " * " << b << ", "
            << hi << " = em_mulhi(" << a << ", " << b << ");";
        } else {
          auto part = [&](Value v) {
            auto it = wide.find(v);
            return it != wide.end() ? it->second
                                    : std::make_pair(scalar[v], "0");
          };
          auto [al, ah] = part(op->getOperand(0));
          auto [bl, bh] = part(op->getOperand(1));
          k << "    const uint64_t " << lo << " = " << al << " + " << bl << ", "
            << hi << " = " << ah << " + " << bh << " + (" << lo << " < " << al
            << ");";
        }
        k << " // " << op->getName().getStringRef() << ", unreduced\n";
        wide[op->getResult(0)] = {lo, hi};
        if (roots.count(op)) {
          const std::string r = "t" + std::to_string(t++) + "@";
          k << "    const uint64_t " << r << " = em_reduce_sum(" << lo << ", "
            << hi << ", g); // the sum of " << size[op].second
            << " products, reduced\n";
          scalar[op->getResult(0)] = r;
        }
        continue;
      }
      if (isa<rns::AutomorphismOp>(op) || folded(op))
        continue; // a permuted load, or a product folded into its sum
      loadFor(op);
      FailureOr<std::string> e = scalarOp(op, scalar, tables);
      if (failed(e))
        return failure();
      std::string sv = "t" + std::to_string(t++) + "@";
      k << "    const uint64_t " << sv << " = " << *e << "; // "
        << op->getName().getStringRef() << "\n";
      scalar[op->getResult(0)] = sv;
    }
    for (Value v : stores)
      load(v);
    for (auto [i, v] : llvm::enumerate(stores)) {
      if (lanes == 1) {
        k << "    out" << i << "[k] = em_word(" << scalar[v] << ");\n";
        continue;
      }
      for (int c = 0; c < lanes / chunk(); ++c) {
        k << "    *(" << vecType() << " *)(out" << i << " + k"
          << (c ? " + " + std::to_string(c * chunk()) : "")
          << ") = " << vecType() << "{";
        for (int h = 0; h < chunk(); ++h)
          k << (h ? ", " : "") << "em_word("
            << laneName(scalar[v], c * chunk() + h) << ")";
        k << "};\n";
      }
    }
  }
  body = expandLanes(body);
  int kernel = kernelFor(body, reads.size(), stores.size(), tables.size());
  SmallVector<int> in, out;
  for (const Read &r : reads)
    in.push_back(mem.lookup(r.v));
  for (Value v : stores)
    out.push_back(mem.lookup(v));
  PlanStep &s = step("kLaunch", out, in, comment);
  s.imm[0] = kernel;
  s.imm[1] = loopSpec(loop);
  s.imm[2] = list(tables);
  s.imm[3] = static_cast<int64_t>(tables.size());
  return success();
}

std::string Emitter::expandLanes(const std::string &body) const {
  const int lanes = be_ == Backend::Cuda ? lanes_ : 1;
  std::string out;
  for (StringRef rest = body; !rest.empty();) {
    auto [line, next] = rest.split('\n');
    rest = next;
    for (int h = 0; h < (line.contains('@') ? lanes : 1); ++h) {
      out += atLane(line, lanes, h);
      out += "\n";
    }
  }
  return out;
}

int Emitter::kernelFor(const std::string &body, size_t ins, size_t outs,
                       size_t tabs) {
  maxIn_ = std::max(maxIn_, ins);
  maxOut_ = std::max(maxOut_, outs);
  maxTab_ = std::max(maxTab_, tabs);
  std::string key =
      llvm::formatv("{0}/{1}/{2}/{3}\n{4}", ins, outs, tabs, lanes_, body);
  auto [it, fresh] =
      kernelIds_.try_emplace(key, static_cast<int>(kernelIds_.size()));
  if (!fresh)
    return it->second;
  const std::string fn = "kf" + std::to_string(it->second);
  std::string prologue;
  {
    llvm::raw_string_ostream k(prologue);
    k << "  const int g = em_modulus(L, i);\n  const uint64_t q = kQ[g];\n"
      << "  (void)q;\n";
    // Buffers hold em_word residues (the module's word size); values are
    // computed in 64 bits and stored back narrowed (they are below q).
    // The GPU's kernels make each input's pointer where they load it.
    for (size_t i = 0; i < ins && be_ == Backend::Cpp; ++i)
      k << "  const em_word *in" << i << " = em_limb((const em_word *)io.in["
        << i << "], g, io.inb[" << i << "]);\n";
    for (size_t i = 0; i < outs; ++i)
      k << "  em_word *out" << i << " = (em_word *)em_limb((const em_word *)"
        << "io.out[" << i << "], g, io.outb[" << i << "]);\n";
    for (size_t i = 0; i < tabs; ++i)
      k << "  const uint64_t c" << i << " = kConst[io.tab[" << i << "]][g];\n";
  }
  llvm::raw_string_ostream k(kernels_);
  // Say the cost: per coefficient of each limb of the loop basis, `ins`
  // words read and `outs` written (the plan's comments give each launch's
  // bytes); the ops are named at the end of each line below.
  k << "// " << fn << ": reads " << ins << ", writes " << outs
    << " words per coefficient and limb\n";
  if (be_ == Backend::Cpp) {
    k << "static void " << fn << "(const KernelLoop &L, const KernelIO &io) {\n"
      << "#pragma omp parallel for schedule(static)\n"
      << "  for (int i = 0; i < L.limbs; ++i) {\n"
      << prologue << "  for (size_t k = 0; k < kN; ++k) {\n"
      << body << "  }\n  }\n}\n\n";
  } else {
    // lanes_ coefficients per thread: k is the first.
    const std::string lanes = std::to_string(lanes_);
    const std::string first =
        lanes_ > 1
            ? lanes + " * (size_t(blockIdx.x) * blockDim.x + threadIdx.x)"
            : "size_t(blockIdx.x) * blockDim.x + threadIdx.x";
    const std::string threads = "em_threads(" + lanes + ")";
    const std::string grid = lanes_ > 1
                                 ? "dim3(kN / (" + lanes + " * " + threads +
                                       "), L.limbs), " + threads
                                 : "dim3(kN / kThreads, L.limbs), kThreads";
    k << "__global__ void " << fn << "(const KernelLoop L, const EmIO io) {\n"
      << "  const int i = blockIdx.y;\n"
      << "  const size_t k = " << first << ";\n"
      << "  if (k >= kN)\n    return;\n"
      << prologue << "  {\n"
      << body
      << "  }\n}\n"
      // The host wrapper the plan calls: the launch's buffers by value.
      << "static void l" << fn
      << "(const KernelLoop &L, const KernelIO &io, cudaStream_t s) {\n"
      << "  EmIO v{};\n"
      << "  for (int j = 0; j < " << ins
      << "; ++j) {\n    v.in[j] = (const em_word *)io.in[j];\n"
      << "    v.inb[j] = io.inb[j];\n  }\n"
      << "  for (int j = 0; j < " << outs
      << "; ++j) {\n    v.out[j] = (em_word *)io.out[j];\n"
      << "    v.outb[j] = io.outb[j];\n"
      << "  }\n"
      << "  for (int j = 0; j < " << tabs
      << "; ++j)\n    v.tab[j] = io.tab[j];\n"
      << "  " << fn << "<<<" << grid << ", 0, s>>>(L, v);\n"
      << "  EMBER_CHECK_LAUNCH();\n}\n\n";
  }
  return it->second;
}

LogicalResult Emitter::emitLaunch(kernel::LaunchOp l) {
  Block &body = l.getBody().front();
  auto lazy = l->getAttrOfType<BoolAttr>("lazy_sums");
  lazySums_ = !lazy || lazy.getValue();
  // Comment: the ops it fuses and the bytes it moves.
  std::string fused;
  for (Operation &op : body.without_terminator())
    fused += (fused.empty() ? "" : ", ") + op.getName().getStringRef().str();
  int64_t bytes = 0;
  if (auto b = l->getAttrOfType<IntegerAttr>("bytes"))
    bytes = b.getInt();
  std::string comment = (l.getName() + ": " + fused + "; moves " +
                         std::to_string(bytes) + " bytes")
                            .str();
  DenseMap<Value, int> mem;
  for (auto [arg, in] : llvm::zip(body.getArguments(), l.getInputs()))
    mem[arg] = buffer(in);
  // The temporaries between segments go to the launch's planned scratch,
  // one after the other (LaunchOp::temporaries' order).
  if (auto at = l->getAttrOfType<IntegerAttr>("scratch")) {
    int64_t next = at.getInt();
    for (Value v : l.temporaries()) {
      offsets_[v] = next;
      next += cast<rns::PolyType>(v.getType()).getNumLimbs() * limbBytes_;
    }
  }
  auto yield = cast<kernel::YieldOp>(body.getTerminator());
  // Split at the transform (at most one).
  SmallVector<Operation *> pre, post;
  Operation *transform = nullptr;
  for (Operation &op : body.without_terminator()) {
    if (isa<rns::NTTOp, rns::INTTOp>(op)) {
      if (transform)
        return op.emitOpError("a generated kernel holds at most one NTT/INTT");
      transform = &op;
      continue;
    }
    (transform ? post : pre).push_back(&op);
  }
  // Where each yielded value goes: the launch's result buffers.
  DenseMap<Value, int> resultOf;
  for (auto [res, v] : llvm::zip(l.getResults(), yield.getValues()))
    if (!resultOf.count(v))
      resultOf[v] = buffer(res);
  SmallVector<int> temps; // buffers of values between the segments
  auto storesOf = [&](ArrayRef<Operation *> seg, bool last) {
    SmallVector<Value> st;
    for (Operation *op : seg)
      for (Value r : op->getResults()) {
        bool usedLater = llvm::any_of(r.getUsers(), [&](Operation *u) {
          return !llvm::is_contained(seg, u);
        });
        if (usedLater || (last && resultOf.count(r)))
          st.push_back(r);
      }
    return st;
  };
  auto segment = [&](ArrayRef<Operation *> ops, SmallVector<Value> stores) {
    for (Value v : stores) {
      if (resultOf.count(v)) {
        mem[v] = resultOf[v];
        continue;
      }
      mem[v] = buffer(v);
      temps.push_back(mem[v]);
    }
    if (ops.empty())
      return success();
    return emitSegment(ops, mem, stores, comment);
  };
  if (failed(segment(pre, storesOf(pre, !transform))))
    return failure();
  if (transform) {
    Value x = transform->getOperand(0), y = transform->getResult(0);
    int yb;
    if (resultOf.count(y)) {
      yb = resultOf[y];
    } else {
      yb = buffer(y);
      temps.push_back(yb);
    }
    step(isa<rns::NTTOp>(transform) ? "kNtt" : "kIntt", {yb}, {mem[x]},
         comment + " (its transform)");
    mem[y] = yb;
    if (failed(segment(post, storesOf(post, true))))
      return failure();
  }
  // Results that are block arguments (or computed before a transform but
  // not stored) are copied.
  for (auto [res, v] : llvm::zip(l.getResults(), yield.getValues()))
    if (mem.count(v) && mem[v] != buffer(res))
      step("kCopy", {buffer(res)}, {mem[v]});
  if (!temps.empty())
    step("kRelease", {}, temps);
  return success();
}

//===----------------------------------------------------------------------===//
// Runtime calls
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitCall(kernel::CallOp c) {
  StringRef callee = c.getCallee();
  SmallVector<int> in, out;
  for (Value v : c.getInputs())
    in.push_back(buffer(v));
  for (Value v : c.getResults())
    out.push_back(buffer(v));
  std::string comment = callee.str();
  if (auto o = c->getAttrOfType<DenseI64ArrayAttr>("offsets")) {
    llvm::raw_string_ostream s(comment);
    s << " [arena @";
    llvm::interleaveComma(o.asArrayRef(), s);
    s << "]";
  }
  if (callee == "ntt" || callee == "intt") {
    step(callee == "ntt" ? "kNtt" : "kIntt", out, in, comment);
  } else if (callee == "bconv") {
    // imm[0] != 0: the exact conversion (rns.bconv's `exact`).
    step("kBConv", out, in, comment).imm[0] = c->hasAttr("exact") ? 1 : 0;
  } else if (callee == "mod_up") {
    auto digits = c->getAttrOfType<DenseI64ArrayAttr>("digits");
    SmallVector<int> d(digits.asArrayRef().begin(), digits.asArrayRef().end());
    step("kModUp", out, in, comment).imm[0] = list(d);
  } else if (callee == "ks_inner_product") {
    auto g = c->getAttrOfType<IntegerAttr>("galois");
    step("kKsInnerProduct", out, in, comment).imm[0] = g ? g.getInt() : 0;
  } else if (callee == "klss_mod_up") {
    step("kKlssModUp", out, in, comment);
  } else if (callee == "klss_inner_product") {
    step("kKlssInnerProduct", out, in, comment).imm[0] =
        c->getAttrOfType<IntegerAttr>("level").getInt();
  } else if (callee == "mod_switch_down") {
    // imm[0]: the lifted addends' Galois element (0: not permuted); imm[1]:
    // 1 when it overlaps the inner product of the step before (`overlap`).
    auto g = c->getAttrOfType<IntegerAttr>("galois");
    PlanStep &s = step("kModSwitchDown", out, in, comment);
    s.imm[0] = g ? g.getInt() : 0;
    s.imm[1] = c->hasAttr("overlap") ? 1 : 0;
  } else if (callee == "automorphism") {
    step("kAutomorphism", out, in, comment).imm[0] =
        c->getAttrOfType<IntegerAttr>("galois").getInt();
  } else if (callee == "load_key") {
    auto g = c->getAttrOfType<IntegerAttr>("galois");
    int64_t id = g ? g.getInt() : 0;
    if (auto e = c->getAttrOfType<StringAttr>("encapsulation"))
      id = e.getValue() == "to_sparse" ? program::kToSparseKey
                                       : program::kFromSparseKey;
    step("kLoadKey", out, in, comment).imm[0] = id;
  } else if (callee == "concat") {
    step("kConcat", out, in, comment);
  } else if (callee == "transfer") {
    step("kTransfer", out, in,
         comment + " to device " +
             std::to_string(c->getAttrOfType<IntegerAttr>("to").getInt()))
        .imm[0] = c->getAttrOfType<IntegerAttr>("to").getInt();
  } else if (callee == "encode") {
    // The values live in the program's data file (--emit-data); the
    // runtime encodes each constant once per context.
    ConstantData::Entry e = data_.at.lookup(c);
    PlanStep &s = step("kConstant", out, in, comment);
    s.imm[0] = constants_++;
    s.imm[1] = static_cast<int64_t>(e.offset);
    s.imm[2] = static_cast<int64_t>(e.count);
    s.imm[3] = e.complex ? 1 : 0;
    s.scale = c->getAttrOfType<FloatAttr>("scale").getValueAsDouble();
  } else if (callee == "encode_values") {
    // A plaintext argument's values, encoded when the program runs.
    PlanStep &s = step("kEncodeValues", out, {}, comment);
    s.imm[0] = plainIndex_.lookup(c.getInputs().front());
    s.scale = c->getAttrOfType<FloatAttr>("scale").getValueAsDouble();
  } else if (callee == "zero") {
    step("kZero", out, in, comment);
  } else if (callee == "bfv_tensor") {
    step("kBfvTensor", out, in, comment).imm[0] = c->hasAttr("behz") ? 1 : 0;
  } else {
    return c.emitOpError("no emitter for runtime primitive ") << callee;
  }
  // Every primitive above is one step; its temporaries at the planned
  // scratch.
  if (auto at = c->getAttrOfType<IntegerAttr>("scratch"))
    steps_.back().scratch = scratchSpec(c.scratchLimbs(), at.getInt());
  return success();
}

void Emitter::emitPreamble(raw_ostream &os) {
  bool cpp = be_ == Backend::Cpp;
  std::string cst = cpp ? "static const" : "__constant__ const";
  os << "using namespace ember::program;\n\n"
     << "// Residues are " << params_.getWord() << "-bit words.\n"
     << "using em_word = uint" << params_.getWord() << "_t;\n"
     << "static constexpr size_t kN = " << n_ << ";\n"
     << "static constexpr int kLogN = " << llvm::Log2_64(n_) << ";\n";
  if (!cpp)
    os << "static constexpr int kThreads = " << std::min<uint64_t>(256, n_)
       << ";\n"
       << "// Generated kernels of several coefficients per thread: threads\n"
       << "// per block, and the vectors one thread loads and stores.\n"
       << "static constexpr int em_threads(int lanes) {\n"
       << "  return kN / lanes < 256 ? int(kN / lanes) : 256;\n}\n"
       << "using em_word2 = "
       << (params_.getWord() == 32 ? "uint2" : "ulonglong2") << ";\n"
       << (params_.getWord() == 32 ? "using em_word4 = uint4;\n" : "");
  auto arr = [&](const char *nm, const std::vector<uint64_t> &v) {
    os << cst << " uint64_t " << nm << "[" << v.size() << "] = {";
    for (size_t i = 0; i < v.size(); ++i)
      os << (i ? ", " : "") << v[i] << "ull";
    os << "};\n";
  };
  // Barrett constants of em_reduce: k, the modulus's bit length, and
  // mu = floor(2^2k / m) (below 2^(k+1)); of em_reduce_sum: floor(2^128 /
  // m) in two words.
  std::vector<uint64_t> mu, bits, hi, lo;
  for (uint64_t q : primes_) {
    unsigned k = llvm::Log2_64(q) + 1;
    mu.push_back(static_cast<uint64_t>((u128{1} << (2 * k)) / q));
    bits.push_back(k);
    u128 ratio = ~u128{0} / q;
    hi.push_back(static_cast<uint64_t>(ratio >> 64));
    lo.push_back(static_cast<uint64_t>(ratio));
  }
  // Lazy sums (and em_reduce_sum) only at 64-bit words (emitSegment).
  const bool lazyWords = !narrow();
  os << "// The moduli q_0..q_L, p_0..p_{K-1}, their bit lengths k"
     << (lazyWords ? ", Barrett constants floor(2^2k / m) and floor(2^128 / m)"
                   : " and Barrett constants floor(2^2k / m)")
     << ".\n";
  arr("kQ", primes_);
  arr("kQBits", bits);
  arr("kMu", mu);
  if (lazyWords) {
    arr("kRatioHi", hi);
    arr("kRatioLo", lo);
  }
  os << "static constexpr int kModuli = " << primes_.size() << ";\n";
  // Per-modulus constants of the generated kernels (mul_p, mul_inv,
  // mul_const, add_const), one row each; a kernel reads row io.tab[j].
  os << "// Per-modulus constants (row t, column g = global modulus index).\n"
     << (cpp ? "static const" : "__device__ const") << " uint64_t kConst["
     << std::max<size_t>(1, tables_.size()) << "][kModuli] = {";
  for (size_t i = 0; i < tables_.size(); ++i) {
    os << (i ? ",\n    {" : "\n    {");
    for (size_t j = 0; j < tables_[i].size(); ++j)
      os << (j ? ", " : "") << tables_[i][j] << "ull";
    os << "}";
  }
  os << "};\n";
  std::string hd = cpp ? "[[maybe_unused]] static inline"
                       : "[[maybe_unused]] __device__ __forceinline__";
  os << R"(
// Modular arithmetic of generated kernels: fully reduced results, so they
// equal the runtime's (ember::Modulus) residue for residue.
)" << hd
     << R"( uint64_t em_mulhi(uint64_t a, uint64_t b) {
)"
     << (cpp ? "  return uint64_t((unsigned __int128)a * b >> 64);\n"
             : "  return __umul64hi(a, b);\n")
     << "}\n"
     << hd << R"( uint64_t em_reduce(uint64_t x_lo, uint64_t x_hi, int g) {
  // Barrett reduction of x = x_hi 2^64 + x_lo < 2^(2k+1) (a product of two
  // residues, or the sum of two): the quotient estimate
  // ((x >> (k-1)) mu) >> (k+1) falls short by at most 3, so r < 4 m < 2^63.
  // Three 64-bit products (the exact floor(2^128 / m) form took seven).
  const uint64_t q = kQ[g], mu = kMu[g];
  const int k = int(kQBits[g]);
  const uint64_t x1 = (x_hi << (65 - k)) | (x_lo >> (k - 1)); // < 2^(k+2)
  const uint64_t p_lo = x1 * mu, p_hi = em_mulhi(x1, mu);
  const uint64_t quotient = (p_hi << (63 - k)) | (p_lo >> (k + 1));
  uint64_t r = x_lo - quotient * q;
  r = r >= 2 * q ? r - 2 * q : r; // below 2 m
  return r >= q ? r - q : r;
}
)";
  if (lazyWords)
    os << hd
       << R"( uint64_t em_reduce_sum(uint64_t x_lo, uint64_t x_hi, int g) {
  // Any x = x_hi 2^64 + x_lo (a lazy sum of up to 60 products): the
  // quotient floor(x floor(2^128 / m) / 2^128), less the low product's
  // carry, falls short by at most 3.
  const uint64_t q = kQ[g], r_hi = kRatioHi[g], r_lo = kRatioLo[g];
  const uint64_t lh_lo = x_lo * r_hi, lh_hi = em_mulhi(x_lo, r_hi);
  const uint64_t hl_lo = x_hi * r_lo, hl_hi = em_mulhi(x_hi, r_lo);
  uint64_t mid = lh_lo + hl_lo;
  uint64_t carry = mid < lh_lo;
  const uint64_t m3 = em_mulhi(x_lo, r_lo);
  mid += m3;
  carry += mid < m3;
  const uint64_t quotient = x_hi * r_hi + lh_hi + hl_hi + carry;
  uint64_t r = x_lo - quotient * q;
  r = r >= 2 * q ? r - 2 * q : r;
  return r >= q ? r - q : r;
}
)";
  if (narrow())
    os << hd << R"( uint64_t em_mul(int g, uint64_t a, uint64_t b) {
  // 32-bit words, moduli below 2^31 (k <= 31): x = a b < 2^2k, and every
  // product is 32 x 32 -> 64 bits: x >> (k-1) and mu are below 2^32.
  const uint64_t q = kQ[g];
  const int k = int(kQBits[g]);
  const uint64_t x = uint64_t(uint32_t(a)) * uint32_t(b);
  const uint32_t x1 = uint32_t(x >> (k - 1));
  const uint32_t quotient =
      uint32_t((uint64_t(x1) * uint32_t(kMu[g])) >> (k + 1));
  uint64_t r = x - uint64_t(quotient) * uint32_t(q); // below 3 m
  r = r >= 2 * q ? r - 2 * q : r;
  return r >= q ? r - q : r;
}
)" << hd
       << R"( uint64_t em_mac2(int g, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  // Two 32-bit reductions: a b + c d may reach 2^(2k+1), past em_mul's
  // 32-bit quotient.
  const uint64_t q = kQ[g], s = em_mul(g, a, b) + em_mul(g, c, d);
  return s >= q ? s - q : s;
}
)";
  else
    os << hd << R"( uint64_t em_mul(int g, uint64_t a, uint64_t b) {
  return em_reduce(a * b, em_mulhi(a, b), g);
}
)" << hd
       << R"( uint64_t em_mac2(int g, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  // Residues are below 2^61 (primes of at most 61 bits), so a b + c d <
  // 2^123: exact in 128 bits.
  const uint64_t ab = a * b, lo = ab + c * d;
  return em_reduce(lo, em_mulhi(a, b) + em_mulhi(c, d) + (lo < ab), g);
}
)";
  os << hd << R"( uint64_t em_add(uint64_t q, uint64_t a, uint64_t b) {
  const uint64_t s = a + b;
  return s >= q ? s - q : s;
}
)" << hd
     << R"( uint64_t em_sub(uint64_t q, uint64_t a, uint64_t b) {
  return a >= b ? a - b : a + q - b;
}
)" << hd
     << R"( uint64_t em_neg(uint64_t q, uint64_t a) { return a ? q - a : 0; }
)" << hd
     << R"( int em_modulus(const KernelLoop &L, int i) {
  return i < L.q_count ? L.q_lo + i : L.p_lo + (i - L.q_count);
}
/// Limb of global modulus g in a buffer, or `absent` (null: reads as 0)
/// when the buffer has no such limb.
)" << hd
     << R"( const em_word *em_limb(const em_word *base, int g,
                              const KernelBasis &b,
                              const em_word *absent = nullptr) {
  // Selects, not branches (the outputs' pointers of a kernel of many).
  const int dq = g - b.q_lo, dp = g - b.p_lo, nq = b.q_hi - b.q_lo;
  const bool q = unsigned(dq) < unsigned(nq);
  const bool p = unsigned(dp) < unsigned(b.p_hi - b.p_lo);
  const int limb = q ? dq : nq + dp;
  return q || p ? base + size_t(limb) * kN : absent;
}

/// The NTT-form automorphism X -> X^galois as an index map (runtime's
/// automorphismNttIndex): residue k of the result is residue em_auto(k) of
/// the input (bit-reversed order: k is the root 2 brev(k) + 1, sent to
/// its galois-th power). A permuted load of a generated kernel.
)" << hd
     << R"( uint32_t em_brev(uint32_t x) {
)"
     << (cpp ? R"(  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
)"
             : "  return __brev(x);\n")
     << "}\n"
     << hd << R"( size_t em_auto(size_t k, uint64_t galois) {
  const uint64_t e = 2 * uint64_t(em_brev(uint32_t(k)) >> (32 - kLogN)) + 1;
  const uint64_t image = (e * galois) & (2 * kN - 1);
  return em_brev(uint32_t((image - 1) / 2)) >> (32 - kLogN);
}

)";
  if (cpp)
    return;
  // A generated kernel's input limbs: never null, so that its loads need
  // no branch and the compiler can issue them ahead of their use.
  os << R"(/// Zeros: what an input reads where its buffer has no limb of g.
__device__ em_word em_zeros[kN]; // zero-initialised, never written
/// The limb of global modulus g of a generated kernel's input, or the
/// zeros (em_limb without a branch).
__device__ __forceinline__ const em_word *em_in(const em_word *base, int g,
                                                const KernelBasis &b) {
  return em_limb(base, g, b, em_zeros);
}

)";
  // A CUDA kernel takes its launch's buffers by value.
  os << "struct EmIO {\n  const em_word *in[" << maxIn_
     << "];\n  KernelBasis inb[" << maxIn_ << "];\n  em_word *out[" << maxOut_
     << "];\n  KernelBasis outb[" << maxOut_ << "];\n  int tab[" << maxTab_
     << "];\n};\n\n";
}

void Emitter::emitTables(raw_ostream &os) {
  bool cpp = be_ == Backend::Cpp;
  os << "// The plan (ember/program_plan.h): buffers, argument lists, steps.\n"
     << "const BufferSpec kBuffers[" << std::max<size_t>(1, specs_.size())
     << "] = {";
  for (size_t i = 0; i < specs_.size(); ++i)
    os << (i % 4 ? " " : "\n    ") << specs_[i] << ",";
  // Each step's result and operand lists go to the end of kArgs, in step
  // order (after the lists the steps' immediates point at).
  std::vector<std::pair<int32_t, int32_t>> outs, ins;
  for (const PlanStep &s : steps_) {
    outs.push_back({list(s.out), static_cast<int32_t>(s.out.size())});
    ins.push_back({list(s.in), static_cast<int32_t>(s.in.size())});
  }
  os << "};\nconst int32_t kArgs[" << std::max<size_t>(1, args_.size())
     << "] = {";
  for (size_t i = 0; i < args_.size(); ++i)
    os << (i % 16 ? " " : "\n    ") << args_[i] << ",";
  os << "};\nconst Step kSteps[" << std::max<size_t>(1, steps_.size())
     << "] = {\n";
  for (auto [i, s] : llvm::enumerate(steps_)) {
    os << "    {StepKind::" << s.kind << ", " << outs[i].first << ", "
       << outs[i].second << ", " << ins[i].first << ", " << ins[i].second
       << ", {" << s.imm[0] << ", " << s.imm[1] << ", " << s.imm[2] << ", "
       << s.imm[3] << "}, " << llvm::formatv("{0:e17}", s.scale).str() << ", "
       << s.scratch;
    if (devices_ > 1)
      os << ", " << s.device;
    os << "},";
    if (!s.comment.empty())
      os << " // " << s.comment;
    os << "\n";
  }
  os << "};\n";
  auto names = [&](const char *array, const std::vector<std::string> &list) {
    os << "const char *const " << array << "["
       << std::max<size_t>(1, list.size()) << "] = {";
    for (auto [i, n] : llvm::enumerate(list)) {
      os << (i ? ", " : "") << "\"";
      for (char ch : n)
        os << (isalnum(static_cast<unsigned char>(ch)) || ch == '_' ? ch : '_');
      os << "\"";
    }
    os << "};\n";
  };
  names("kInputNames", inputNames_);
  names("kPlainNames", plainNames_);
  std::string kernelT = cpp ? "CpuKernel" : "CudaKernel";
  os << "const " << kernelT << " kKernels["
     << std::max<size_t>(1, kernelIds_.size()) << "] = {";
  for (size_t i = 0; i < kernelIds_.size(); ++i)
    os << (i ? ", " : "") << (cpp ? "kf" : "lkf") << i;
  os << "};\n";
  if (devices_ > 1) {
    os << "// Each device's arena (kernel-plan-memory).\n"
       << "const int64_t kDeviceArena[" << devices_ << "] = {";
    for (int64_t d = 0; d < devices_; ++d)
      os << (d ? ", " : "")
         << (d < int64_t(deviceArenas_.size()) ? deviceArenas_[d] : 0);
    os << "};\n";
  }
  os << "const Plan<" << kernelT << "> kPlan{kBuffers, " << specs_.size()
     << ", kArgs, kSteps, " << steps_.size() << ", kKernels, " << constants_
     << ", kInputNames, kPlainNames, " << arenaBytes_ << ", "
     << (params_.isBfv() ? 0 : params_.getPlain()) << ", "
     << (params_.isBfv() ? params_.getPlain() : 0);
  if (devices_ > 1)
    os << ", " << devices_ << ", kDeviceArena";
  os << "};\n";
}

LogicalResult Emitter::run() {
  if (failed(init()))
    return failure();
  FailureOr<func::FuncOp> program = programFunction(module_);
  if (failed(program))
    return failure();
  func::FuncOp f = *program;
  data_ = collectConstantData(f);
  collectOffsets(f);
  if (auto a = f->getAttrOfType<IntegerAttr>(
          kernel::KernelDialect::kArenaBytesAttrName))
    arenaBytes_ = a.getInt();
  if (auto k = f->getAttrOfType<IntegerAttr>("kernel.devices"))
    devices_ = std::max<int64_t>(1, k.getInt());
  if (auto a = f->getAttrOfType<DenseI64ArrayAttr>("kernel.device_arena_bytes"))
    deviceArenas_.assign(a.asArrayRef().begin(), a.asArrayRef().end());
  // Coefficients per thread of the generated CUDA kernels: kernel.lanes
  // (rns-fuse-elementwise lanes; the kernel dialect checks it is 1, 2 or
  // 4), else 2 at 32-bit words (one 4-byte load a thread keeps too few
  // bytes in flight: bootstrap16_w32 36.79 -> 34.47 ms on an H200) and 1
  // at 64 (2 was slower there: 28.46 -> 28.60 ms, the large sums'
  // registers).
  lanes_ = narrow() ? 2 : 1;
  if (auto a = f->getAttrOfType<IntegerAttr>("kernel.lanes");
      a && a.getInt() != 0) {
    if (static_cast<uint64_t>(a.getInt()) > n_)
      return f.emitError("kernel.lanes = ")
             << a.getInt() << " exceeds the ring dimension " << n_;
    lanes_ = static_cast<int>(a.getInt());
  }
  auto iface = f->getAttrOfType<DictionaryAttr>("ember.interface");
  if (!iface)
    return f.emitError("no ember.interface (compile with the fhe-to-kernel "
                       "pipeline)");
  auto inputs = iface.getAs<ArrayAttr>("inputs");
  auto outputs = iface.getAs<ArrayAttr>("outputs");
  bool cpp = be_ == Backend::Cpp;

  // Inputs: the polynomials of each ciphertext, in order, and the values
  // of each plaintext argument.
  unsigned arg = 0;
  int64_t ciphertexts = 0;
  for (auto a : inputs) {
    auto d = cast<DictionaryAttr>(a);
    std::string nm = d.getAs<StringAttr>("name").str();
    if (d.get("plain")) {
      if (arg >= f.getNumArguments())
        return f.emitError("the interface has more inputs than the function "
                           "has arguments");
      int64_t index = static_cast<int64_t>(plainNames_.size());
      plainIndex_[f.getArgument(arg++)] = index;
      plainNames_.push_back(nm);
      PlanStep &s = step("kPlainInput", {}, {}, "plain input '" + nm + "'");
      s.device = devices_ > 1 ? -1 : 0; // every device checks the values
      s.imm[0] = index;
      s.imm[1] = d.getAs<IntegerAttr>("slots").getInt();
      continue;
    }
    const int64_t i = ciphertexts++;
    int64_t parts = d.getAs<IntegerAttr>("degree").getInt();
    inputNames_.push_back(nm);
    SmallVector<int> polys;
    for (int64_t p = 0; p < parts; ++p, ++arg) {
      if (arg >= f.getNumArguments())
        return f.emitError("the interface has more polynomials than the "
                           "function has arguments");
      polys.push_back(buffer(f.getArgument(arg)));
    }
    PlanStep &s = step("kInput", polys, {}, "input '" + nm + "'");
    s.imm[0] = static_cast<int64_t>(i);
    s.imm[1] = d.getAs<IntegerAttr>("level").getInt();
    s.imm[2] = d.getAs<IntegerAttr>("slots").getInt();
    s.scale = d.getAs<FloatAttr>("scale").getValueAsDouble();
  }
  // Release each buffer after its last use (kernel-plan-memory's rule).
  Block &body = f.getBody().front();
  kernel::BufferLiveness live(f);
  std::map<int64_t, SmallVector<Value>> dies;
  for (Operation &op : body) {
    int64_t at = live.index.lookup(&op);
    for (Value r : op.getResults()) {
      if (!isa<rns::PolyType>(r.getType()) || live.returned.contains(r))
        continue;
      if (isa<kernel::ViewOp>(op)) {
        // A view is a copy in the plan: free it after its own uses.
        int64_t last = at;
        for (Operation *u : r.getUsers())
          last = std::max(last, live.index.lookup(u));
        if (last < live.end)
          dies[last].push_back(r);
        continue;
      }
      auto call = dyn_cast<kernel::CallOp>(op);
      if (call && call.getCallee() == "encode")
        continue; // constants live in the cache
      dies[live.deathOf(r, at)].push_back(r);
    }
  }

  for (Operation &op : body) {
    LogicalResult ok = success();
    auto device = op.getAttrOfType<IntegerAttr>("device");
    curDevice_ = device ? static_cast<int>(device.getInt()) : 0;
    if (curDevice_ < 0 || curDevice_ >= devices_)
      return op.emitOpError("runs on device ")
             << curDevice_ << " of a program over " << devices_ << " device(s)";
    if (auto c = dyn_cast<kernel::CallOp>(op)) {
      ok = emitCall(c);
    } else if (auto l = dyn_cast<kernel::LaunchOp>(op)) {
      ok = emitLaunch(l);
    } else if (auto v = dyn_cast<kernel::ViewOp>(op)) {
      PlanStep &s = step("kView", {buffer(v)}, {buffer(v.getSource())});
      s.imm[0] = v.getFirst();
      s.imm[1] = v.getCount();
    } else if (auto r = dyn_cast<func::ReturnOp>(op)) {
      unsigned at = 0;
      // A polynomial returned more than once (outputs sharing a part) is
      // copied at all but its last use and may be moved there.
      llvm::DenseMap<Value, unsigned> lastUse;
      for (auto [i, v] : llvm::enumerate(r.getOperands()))
        lastUse[v] = i;
      for (auto o : outputs) {
        auto d = cast<DictionaryAttr>(o);
        int64_t parts = d.getAs<IntegerAttr>("degree").getInt();
        SmallVector<int> polys, movable;
        for (int64_t p = 0; p < parts; ++p, ++at) {
          if (at >= r.getNumOperands())
            return r.emitOpError("returns fewer polynomials than the "
                                 "interface lists");
          Value v = r.getOperand(at);
          polys.push_back(buffer(v));
          movable.push_back(lastUse.lookup(v) == at ? 1 : 0);
        }
        PlanStep &s =
            step("kOutput", {}, polys,
                 "output '" + d.getAs<StringAttr>("name").str() + "'");
        s.imm[0] = d.getAs<IntegerAttr>("level").getInt();
        s.imm[1] = d.getAs<IntegerAttr>("slots").getInt();
        s.imm[2] = list(movable);
        s.scale = d.getAs<FloatAttr>("scale").getValueAsDouble();
      }
    } else {
      return op.emitOpError("cannot be emitted (run rns-to-kernel first)");
    }
    if (failed(ok))
      return failure();
    SmallVector<int> dead;
    for (Value v : dies[live.index.lookup(&op)])
      dead.push_back(buffer(v));
    if (!dead.empty())
      step("kRelease", {}, dead).device = devices_ > 1 ? -1 : 0;
  }

  // --- the file --------------------------------------------------------------
  auto arena = f->getAttrOfType<IntegerAttr>("kernel.arena_bytes");
  auto peak = f->getAttrOfType<IntegerAttr>("kernel.peak_live_bytes");
  os_ << "// Generated by ember-translate --emit-" << (cpp ? "cpp" : "cuda")
      << " from @" << f.getSymName() << ". Do not edit.\n"
      << "// N = 2^" << params_.getLogN() << ", " << qCount_ << " Q + "
      << pCount_ << " P limbs, dnum " << params_.getDnum() << ".\n";
  if (arena)
    os_ << "// Planned memory (kernel-plan-memory): arena " << arena.getInt()
        << " bytes, peak live " << (peak ? peak.getInt() : 0) << " bytes.\n";
  os_ << "// The program is a plan (tables at the end) that the runtime "
         "executes\n// (ember::program::"
      << (cpp ? "run" : "runCuda")
      << "); its plaintext constants are in the data file.\n";
  os_ << "#include \"ember/program_abi.h\"\n\n#include <cstddef>\n"
         "#include <cstdint>\n\nnamespace {\n\n";
  emitPreamble(os_);
  os_ << kernels_;
  emitTables(os_);
  os_ << "\n} // namespace\n\n";
  os_ << "extern \"C\" int ember_program_abi() { return "
         "ember::program::kAbiVersion; }\n\n";
  // The loaders read the word size before they pass arguments of it.
  os_ << "extern \"C\" int ember_program_word() { return " << params_.getWord()
      << "; }\n\n";
  if (cpp)
    os_ << "extern \"C\" void ember_program_run(const "
           "ember::program::"
        << (params_.getWord() == 32 ? "CpuArgs32" : "CpuArgs")
        << " &args) {\n"
           "  ember::program::run(args, kPlan);\n}\n";
  else
    os_ << "extern \"C\" void ember_program_run_cuda(const "
           "ember::program::"
        << (params_.getWord() == 32 ? "CudaArgs32" : "CudaArgs")
        << " &args) {\n"
           "  ember::program::runCuda(args, kPlan);\n}\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Manifest
//===----------------------------------------------------------------------===//

/// The data file (format: ember/program_data.h; the runtime reads it back
/// with ember::program::readConstantData).
LogicalResult emitData(ModuleOp module, raw_ostream &os) {
  FailureOr<func::FuncOp> f = programFunction(module);
  if (failed(f))
    return failure();
  namespace fmt = ember::program::data_format;
  std::vector<double> values = collectConstantData(*f).values;
  std::string header(fmt::kMagic, 4);
  uint32_t version = fmt::kVersion;
  uint64_t count = values.size();
  header.append(reinterpret_cast<const char *>(&version), 4);
  header.append(reinterpret_cast<const char *>(&count), 8);
  const size_t valueBytes = values.size() * 8;
  // The digest of header and values, with OpenSSL's SHA-256 (the runtime
  // checks it with the same), streamed: the values (166 MB for a
  // bootstrap at N = 2^16) are neither copied nor hashed twice.
  std::array<uint8_t, fmt::kDigestBytes> digest{};
  unsigned int length = 0;
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> sha(EVP_MD_CTX_new(),
                                                          EVP_MD_CTX_free);
  if (!sha || EVP_DigestInit_ex(sha.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(sha.get(), header.data(), header.size()) != 1 ||
      EVP_DigestUpdate(sha.get(), values.data(), valueBytes) != 1 ||
      EVP_DigestFinal_ex(sha.get(), digest.data(), &length) != 1 ||
      length != digest.size())
    return module.emitError("OpenSSL SHA-256 failed");
  os.write(header.data(), header.size());
  os.write(reinterpret_cast<const char *>(values.data()), valueBytes);
  os.write(reinterpret_cast<const char *>(digest.data()), digest.size());
  return success();
}

LogicalResult manifest(ModuleOp module, raw_ostream &os) {
  auto params = ckks::ParamsAttr::lookup(module);
  if (!params)
    return module.emitError("the module has no #ckks.params");
  func::FuncOp f;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal())
      f = fn;
  if (!f)
    return module.emitError("no function");
  auto iface = f->getAttrOfType<DictionaryAttr>("ember.interface");
  if (!iface)
    return f.emitError("no ember.interface (compile with the fhe-to-kernel "
                       "pipeline)");
  // Keys by form: [0] hybrid, [1] KLSS.
  bool relin[2] = {false, false};
  std::set<int64_t> galois[2];
  bool encapsulation = false;
  unsigned kernels = 0, calls = 0;
  // The keys each device's load_key calls read (kernel-partition-devices:
  // uploaded there alone), whatever their form.
  struct DeviceKeys {
    bool relin = false, encapsulation = false;
    std::set<int64_t> galois;
  };
  std::map<int64_t, DeviceKeys> perDeviceKeys;
  auto noteKey = [&](Type keyType, IntegerAttr g, StringAttr encaps,
                     int64_t device) {
    int form = isa<rns::KlssKeyType>(keyType) ? 1 : 0;
    DeviceKeys &dk = perDeviceKeys[device];
    if (encaps) {
      encapsulation = dk.encapsulation = true;
    } else if (g) {
      galois[form].insert(g.getInt());
      dk.galois.insert(g.getInt());
    } else {
      relin[form] = dk.relin = true;
    }
  };
  f.walk([&](Operation *op) {
    if (auto c = dyn_cast<kernel::CallOp>(op)) {
      ++calls;
      auto device = c->getAttrOfType<IntegerAttr>("device");
      if (c.getCallee() == "load_key")
        noteKey(c.getResult(0).getType(),
                c->getAttrOfType<IntegerAttr>("galois"),
                c->getAttrOfType<StringAttr>("encapsulation"),
                device ? device.getInt() : 0);
    } else if (auto k = dyn_cast<rns::LoadKeyOp>(op)) {
      noteKey(k.getType(), k.getGaloisAttr(), k.getEncapsulationAttr(), 0);
    } else if (isa<kernel::LaunchOp>(op)) {
      ++kernels;
    }
  });
  llvm::json::Array g, kg;
  for (int64_t e : galois[0])
    g.push_back(e);
  for (int64_t e : galois[1])
    kg.push_back(e);
  auto entries = [](ArrayAttr list) {
    llvm::json::Array out;
    for (Attribute a : list) {
      auto d = cast<DictionaryAttr>(a);
      // An input's declared range (ckks-record-interface): [lo, hi], or
      // [re_lo, re_hi, im_lo, im_hi]; the client refuses values outside.
      auto rangeOf = [&](llvm::json::Object &entry) {
        if (auto range = d.getAs<ArrayAttr>("range")) {
          llvm::json::Array bounds;
          for (Attribute b : range)
            bounds.push_back(cast<FloatAttr>(b).getValueAsDouble());
          entry["range"] = std::move(bounds);
        }
      };
      if (d.get("plain")) { // values the server gets at run time
        llvm::json::Object entry{
            {"name", d.getAs<StringAttr>("name").str()},
            {"slots", d.getAs<IntegerAttr>("slots").getInt()},
            {"plain", true}};
        rangeOf(entry);
        out.push_back(std::move(entry));
        continue;
      }
      llvm::json::Object entry{
          {"name", d.getAs<StringAttr>("name").str()},
          {"slots", d.getAs<IntegerAttr>("slots").getInt()},
          {"level", d.getAs<IntegerAttr>("level").getInt()},
          {"scale", d.getAs<FloatAttr>("scale").getValueAsDouble()},
          {"polys", d.getAs<IntegerAttr>("degree").getInt()}};
      rangeOf(entry);
      // BGV outputs: fhe-to-bgv's estimate of the remaining noise budget.
      if (auto budget = d.getAs<IntegerAttr>("noise_budget"))
        entry["noise_budget"] = budget.getInt();
      out.push_back(std::move(entry));
    }
    return out;
  };
  // Hybrid keys: digits x 2 x (L+1+K) limbs; KLSS keys: digits x groups x
  // 2 x r' limbs (ParamsAttr::getHybridKeyBytes / getKlssKeyBytes).
  // The encapsulation keys: to_sparse in the layout of a switching key
  // with a digit per limb of Q_0 (baseLimbs x 2 x (L+1+K) limbs, zero
  // outside Q_0 and p_0) and from_sparse, a hybrid key.
  const uint64_t hybridKeys =
      galois[0].size() + (relin[0] ? 1 : 0) + (encapsulation ? 1 : 0);
  const uint64_t klssKeys = galois[1].size() + (relin[1] ? 1 : 0);
  const uint64_t hybridBytes =
      hybridKeys * params.getHybridKeyBytes() +
      (encapsulation ? params.getToSparseKeyBytes() : 0);
  const uint64_t klssBytes = klssKeys ? klssKeys * params.getKlssKeyBytes() : 0;
  llvm::json::Object memory;
  if (auto a = f->getAttrOfType<IntegerAttr>("kernel.arena_bytes"))
    memory["arena_bytes"] = a.getInt();
  if (auto a = f->getAttrOfType<IntegerAttr>("kernel.peak_live_bytes"))
    memory["peak_live_bytes"] = a.getInt();
  memory["evaluation_key_bytes"] =
      static_cast<int64_t>(hybridBytes + klssBytes);
  if (klssKeys) {
    memory["hybrid_key_bytes"] = static_cast<int64_t>(hybridBytes);
    memory["klss_key_bytes"] = static_cast<int64_t>(klssBytes);
  }
  llvm::json::Object keys{{"relin", relin[0]}, {"galois", std::move(g)}};
  if (encapsulation)
    keys["encapsulation"] = llvm::json::Object{
        {"hamming_weight", ember::kEncapsulationHammingWeight}};
  if (klssKeys || params.hasKlss()) {
    keys["klss_relin"] = relin[1];
    keys["klss_galois"] = std::move(kg);
  }
  // A program over several GPUs: each device's arena, the keys its
  // load_key calls read (uploaded there alone: sharded keys) with their
  // bytes, and kernel-partition-devices' prediction.
  std::optional<llvm::json::Object> devices;
  if (auto k = f->getAttrOfType<IntegerAttr>("kernel.devices")) {
    const int64_t count = std::max<int64_t>(1, k.getInt());
    // With the limbs split, each device's rows of the hybrid keys
    // (q[lo:hi], p[lo:hi]): it uploads only those.
    auto bounds = f->getAttrOfType<DenseI64ArrayAttr>("kernel.limb_bounds");
    if (bounds && bounds.size() != 2 * (count + 1))
      bounds = {};
    const double allRows = double(params.getQ().size() + params.getP().size());
    llvm::json::Array perDevice;
    for (int64_t d = 0; d < count; ++d) {
      const DeviceKeys &dk = perDeviceKeys[d];
      llvm::json::Array gl;
      for (int64_t e : dk.galois)
        gl.push_back(e);
      double share = 1.0;
      std::optional<llvm::json::Array> rows;
      if (bounds) {
        const int64_t ql = bounds[d], qh = bounds[d + 1],
                      pl = bounds[count + 1 + d], ph = bounds[count + 2 + d];
        rows = llvm::json::Array{ql, qh, pl, ph};
        share = double(qh - ql + ph - pl) / allRows;
      }
      uint64_t bytes =
          static_cast<uint64_t>(double(dk.galois.size() + (dk.relin ? 1 : 0)) *
                                double(params.getHybridKeyBytes()) * share) +
          (dk.encapsulation
               ? params.getHybridKeyBytes() + params.getToSparseKeyBytes()
               : 0);
      llvm::json::Object entry{{"relin", dk.relin},
                               {"galois", std::move(gl)},
                               {"encapsulation", dk.encapsulation},
                               {"key_bytes", static_cast<int64_t>(bytes)}};
      if (rows)
        entry["rows"] = std::move(*rows);
      perDevice.push_back(std::move(entry));
    }
    llvm::json::Object dev{{"count", count}, {"keys", std::move(perDevice)}};
    // devices=k that the partition kept on one device (predicted no gain).
    if (auto r = f->getAttrOfType<IntegerAttr>("kernel.devices_requested"))
      dev["requested"] = r.getInt();
    if (auto a =
            f->getAttrOfType<DenseI64ArrayAttr>("kernel.device_arena_bytes")) {
      llvm::json::Array arenas;
      for (int64_t b : a.asArrayRef())
        arenas.push_back(b);
      dev["arena_bytes"] = std::move(arenas);
    }
    // An array of floats of kernel-partition-devices, as a JSON array.
    auto floats = [&](StringRef attr, StringRef key) {
      if (auto p = f->getAttrOfType<ArrayAttr>(attr)) {
        llvm::json::Array us;
        for (Attribute x : p)
          us.push_back(cast<FloatAttr>(x).getValueAsDouble());
        dev[key] = std::move(us);
      }
    };
    floats("kernel.predicted_us", "predicted_us");
    if (auto o = f->getAttrOfType<FloatAttr>("kernel.one_device_us"))
      dev["one_device_predicted_us"] = o.getValueAsDouble();
    if (auto t = f->getAttrOfType<IntegerAttr>("kernel.transfer_bytes"))
      dev["transfer_bytes"] = t.getInt();
    // Whole operations per device, or every polynomial's limbs split.
    dev["partition"] = f->hasAttr("kernel.partition") ? "limbs" : "operations";
    // The model's estimate of the limb split (kernel-partition-devices).
    floats("kernel.limb_split_us", "limb_split_predicted_us");
    devices = std::move(dev);
  }
  llvm::json::Object root{
      {"format", 1},
      {"program", f.getSymName().str()},
      {"entry", llvm::json::Object{{"cpp", "ember_program_run"},
                                   {"cuda", "ember_program_run_cuda"}}},
      {"params", ember::target::paramsToJson(params)},
      {"keys", std::move(keys)},
      {"inputs", entries(iface.getAs<ArrayAttr>("inputs"))},
      {"outputs", entries(iface.getAs<ArrayAttr>("outputs"))},
      {"memory", std::move(memory)},
      {"kernels",
       llvm::json::Object{{"generated", kernels}, {"runtime_calls", calls}}}};
  if (devices)
    root["devices"] = std::move(*devices);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return success();
}

} // namespace

llvm::json::Object ember::target::paramsToJson(ckks::ParamsAttr params) {
  llvm::json::Array q, p, t;
  for (uint64_t prime : params.getQ())
    q.push_back(prime);
  for (uint64_t prime : params.getP())
    p.push_back(prime);
  llvm::json::Object root{
      {"log_n", params.getLogN()}, {"q", std::move(q)},
      {"p", std::move(p)},         {"log_scale", params.getLogScale()},
      {"dnum", params.getDnum()},  {"security", params.getSecurity()}};
  if (params.getH())
    root["hamming_weight"] = params.getH();
  if (params.getWord() != 64)
    root["word"] = params.getWord();
  if (params.getScalePrimes() != 1)
    root["scale_primes"] = params.getScalePrimes();
  if (params.isBgv()) {
    root["scheme"] = params.isBfv() ? "bfv" : "bgv";
    root["plaintext_modulus"] = params.getPlain();
  }
  if (params.hasKlss()) {
    for (uint64_t prime : params.getT())
      t.push_back(prime);
    root["t"] = std::move(t);
    root["gamma"] = params.getGamma();
  }
  return root;
}

LogicalResult ember::target::emitCpp(ModuleOp module, raw_ostream &os) {
  return Emitter(module, os, Backend::Cpp).run();
}
LogicalResult ember::target::emitCuda(ModuleOp module, raw_ostream &os) {
  return Emitter(module, os, Backend::Cuda).run();
}
LogicalResult ember::target::emitManifest(ModuleOp module, raw_ostream &os) {
  return manifest(module, os);
}

void ember::target::registerKernelTranslations() {
  auto dialects = [](DialectRegistry &registry) {
    registry.insert<func::FuncDialect, ckks::CKKSDialect, rns::RNSDialect,
                    kernel::KernelDialect>();
  };
  static TranslateFromMLIRRegistration cpp(
      "emit-cpp", "the kernel-level program as C++ for the CPU runtime",
      [](Operation *op, raw_ostream &os) {
        return emitCpp(cast<ModuleOp>(op), os);
      },
      dialects);
  static TranslateFromMLIRRegistration cuda(
      "emit-cuda", "the kernel-level program as CUDA for the CUDA runtime",
      [](Operation *op, raw_ostream &os) {
        return emitCuda(cast<ModuleOp>(op), os);
      },
      dialects);
  static TranslateFromMLIRRegistration data(
      "emit-data",
      "the slot values of the program's plaintext constants (<name>.data, "
      "binary; the emitted code reads them at run time)",
      [](Operation *op, raw_ostream &os) {
        return emitData(cast<ModuleOp>(op), os);
      },
      dialects);
  static TranslateFromMLIRRegistration json(
      "emit-manifest",
      "the client manifest: parameters, keys, inputs and outputs (JSON)",
      [](Operation *op, raw_ostream &os) {
        return emitManifest(cast<ModuleOp>(op), os);
      },
      dialects);
}
