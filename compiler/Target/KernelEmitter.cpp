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
#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/Kernel/IR/KernelLiveness.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

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

enum class Backend { Cpp, Cuda };

class Emitter {
public:
  Emitter(ModuleOp module, raw_ostream &os, Backend backend)
      : module_(module), os_(os), be_(backend) {}

  LogicalResult run();

private:
  // --- setup ---------------------------------------------------------------
  LogicalResult init();
  int global(int q) const { return q; }
  int gP(int p) const { return qCount_ + p; }
  std::string basisExpr(rns::PolyType t) const {
    if (t.hasT()) // klss_mod_up results: always all of T (t[0:R])
      return hostCtx() + ".tBasis()";
    return llvm::formatv("ember::program::basis({0}, {1}, {2}, {3}, {4})",
                         hostCtx(), t.getQLo(), t.getQHi(), t.getPLo(),
                         t.getPHi());
  }
  std::string hostCtx() const {
    return be_ == Backend::Cpp ? "ctx" : "dctx.host()";
  }
  std::string polyT() const {
    return be_ == Backend::Cpp ? "ember::Poly64" : "ember::cuda::DevicePoly";
  }
  std::string name(Value v) {
    auto it = names_.find(v);
    if (it != names_.end())
      return it->second;
    std::string n = "b" + std::to_string(nextName_++);
    names_[v] = n;
    return n;
  }
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
  /// Index of a per-modulus constant table (emitted in the preamble).
  int table(const std::vector<uint64_t> &values) {
    auto it = std::find(tables_.begin(), tables_.end(), values);
    if (it != tables_.end())
      return it - tables_.begin();
    tables_.push_back(values);
    return tables_.size() - 1;
  }

  // --- generated kernels ---------------------------------------------------
  LogicalResult emitLaunch(kernel::LaunchOp l, raw_ostream &body);
  LogicalResult emitSegment(kernel::LaunchOp l, ArrayRef<Operation *> ops,
                            const std::string &fn, raw_ostream &host,
                            DenseMap<Value, std::string> &mem,
                            ArrayRef<Value> stores);
  FailureOr<std::string> scalarOp(Operation *op,
                                  DenseMap<Value, std::string> &scalar);

  // --- host entry ----------------------------------------------------------
  LogicalResult emitCall(kernel::CallOp c, raw_ostream &body);
  void emitPreamble(raw_ostream &os);

  ModuleOp module_;
  raw_ostream &os_;
  Backend be_;
  ckks::ParamsAttr params_;
  std::vector<uint64_t> primes_;
  int qCount_ = 0, pCount_ = 0;
  uint64_t n_ = 0;
  DenseMap<Value, std::string> names_;
  unsigned nextName_ = 0;
  std::vector<std::vector<uint64_t>> tables_;
  std::string kernels_;                // generated kernel definitions
  std::vector<std::string> constants_; // expressions of the cached constants
  int tmp_ = 0;
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
  return success();
}

//===----------------------------------------------------------------------===//
// Generated kernels
//===----------------------------------------------------------------------===//

FailureOr<std::string> Emitter::scalarOp(Operation *op,
                                         DenseMap<Value, std::string> &scalar) {
  auto s = [&](Value v) { return scalar.lookup(v); };
  // x times a per-modulus constant table.
  auto byTable = [&](Value x, const std::vector<uint64_t> &c) {
    return std::string(
        llvm::formatv("em_mul(g, {0}, kConst{1}[g])", s(x), table(c)));
  };
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](rns::AddOp o) {
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
        std::vector<uint64_t> c;
        int64_t v = o.getValue();
        for (uint64_t q : primes_) {
          int64_t r = v % static_cast<int64_t>(q);
          c.push_back(r < 0 ? static_cast<uint64_t>(r + static_cast<int64_t>(q))
                            : static_cast<uint64_t>(r));
        }
        return byTable(o.getInput(), c);
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

/// One elementwise loop: reads the values in `mem` (buffers), evaluates
/// `ops` per residue and writes `stores` (which must be in `mem`).
LogicalResult Emitter::emitSegment(kernel::LaunchOp l,
                                   ArrayRef<Operation *> ops,
                                   const std::string &fn, raw_ostream &host,
                                   DenseMap<Value, std::string> &mem,
                                   ArrayRef<Value> stores) {
  // Loop basis: the widest value of the segment.
  rns::PolyType loop;
  auto widen = [&](Value v) {
    auto t = polyTy(v);
    if (t && (!loop || t.getNumLimbs() > loop.getNumLimbs()))
      loop = t;
  };
  std::vector<Value> reads;
  std::set<void *> seenReads;
  for (Operation *op : ops) {
    for (Value v : op->getOperands()) {
      widen(v);
      if (mem.count(v) && seenReads.insert(v.getAsOpaquePointer()).second)
        reads.push_back(v);
    }
    for (Value r : op->getResults())
      widen(r);
  }
  for (Value v : stores) {
    widen(v);
    // A stored value not computed here (a yielded input) is copied.
    bool computed = llvm::any_of(
        ops, [&](Operation *op) { return v.getDefiningOp() == op; });
    if (!computed && seenReads.insert(v.getAsOpaquePointer()).second)
      reads.push_back(v);
  }
  std::string ops_text;
  {
    llvm::raw_string_ostream k(ops_text);
    DenseMap<Value, std::string> scalar;
    int t = 0;
    for (auto [i, v] : llvm::enumerate(reads)) {
      std::string sv = "x" + std::to_string(i);
      k << "    const uint64_t " << sv << " = in" << i << " ? in" << i
        << "[k] : 0;\n";
      scalar[v] = sv;
    }
    for (Operation *op : ops) {
      FailureOr<std::string> e = scalarOp(op, scalar);
      if (failed(e))
        return failure();
      std::string sv = "t" + std::to_string(t++);
      k << "    const uint64_t " << sv << " = " << *e << "; // "
        << op->getName().getStringRef() << "\n";
      scalar[op->getResult(0)] = sv;
    }
    for (auto [i, v] : llvm::enumerate(stores))
      k << "    out" << i << "[k] = " << scalar[v] << ";\n";
  }
  // Limb pointer of a buffer over basis t for global modulus g.
  auto limbPtr = [&](rns::PolyType t, const std::string &base) {
    return std::string(llvm::formatv("em_limb({0}, g, {1}, {2}, {3}, {4})",
                                     base, t.getQLo(), t.getQHi(),
                                     gP(t.getPLo()), gP(t.getPHi())));
  };
  std::string params, args, ptrs;
  {
    llvm::raw_string_ostream p(params), a(args), q(ptrs);
    bool first = true;
    auto sep = [&]() {
      if (!first) {
        p << ", ";
        a << ", ";
      }
      first = false;
    };
    for (auto [i, v] : llvm::enumerate(reads)) {
      sep();
      p << "const uint64_t *__restrict__ a" << i;
      a << mem[v] << (be_ == Backend::Cpp ? ".data.data()" : ".data()");
      q << "  const uint64_t *in" << i << " = "
        << limbPtr(polyTy(v), "a" + std::to_string(i)) << ";\n";
    }
    for (auto [i, v] : llvm::enumerate(stores)) {
      sep();
      p << "uint64_t *__restrict__ r" << i;
      a << mem[v] << (be_ == Backend::Cpp ? ".data.data()" : ".data()");
      q << "  uint64_t *out" << i << " = (uint64_t *)"
        << limbPtr(polyTy(v), "r" + std::to_string(i)) << ";\n";
    }
  }
  std::string limbOfI =
      llvm::formatv("const int g = i < {0} ? {1} + i : {2} + (i - {0});",
                    loop.getNumQ(), loop.getQLo(), gP(loop.getPLo()));
  llvm::raw_string_ostream k(kernels_);
  if (be_ == Backend::Cpp) {
    k << "static void " << fn << "(" << params << ") {\n"
      << "#pragma omp parallel for schedule(static)\n"
      << "  for (int i = 0; i < " << loop.getNumLimbs() << "; ++i) {\n"
      << "  " << limbOfI << "\n  const uint64_t q = kQ[g];\n"
      << "  (void)q;\n";
    k << ptrs;
    k << "  for (size_t k = 0; k < kN; ++k) {\n"
      << ops_text << "  }\n  }\n}\n\n";
    host << "  " << fn << "(" << args << ");\n";
  } else {
    k << "__global__ void " << fn << "(" << params << ") {\n"
      << "  const int i = blockIdx.y;\n"
      << "  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;\n"
      << "  if (k >= kN)\n    return;\n"
      << "  " << limbOfI << "\n  const uint64_t q = kQ[g];\n  (void)q;\n";
    k << ptrs << "  {\n" << ops_text << "  }\n}\n\n";
    host << "  " << fn << "<<<dim3(kN / kThreads, " << loop.getNumLimbs()
         << "), kThreads, 0, stream>>>(" << args << ");\n"
         << "  EMBER_CHECK_LAUNCH();\n";
  }
  return success();
}

LogicalResult Emitter::emitLaunch(kernel::LaunchOp l, raw_ostream &host) {
  Block &body = l.getBody().front();
  // Comment: the ops it fuses and the bytes it moves.
  std::string fused;
  for (Operation &op : body.without_terminator())
    fused += (fused.empty() ? "" : ", ") + op.getName().getStringRef().str();
  int64_t bytes = 0;
  if (auto b = l->getAttrOfType<IntegerAttr>("bytes"))
    bytes = b.getInt();
  host << "  // kernel " << l.getName() << ": fuses " << fused << "; moves "
       << bytes << " bytes\n";
  llvm::raw_string_ostream(kernels_) << "// " << l.getName() << ": " << fused
                                     << " (" << bytes << " bytes moved)\n";
  DenseMap<Value, std::string> mem;
  for (auto [arg, in] : llvm::zip(body.getArguments(), l.getInputs()))
    mem[arg] = name(in);
  // Outputs: allocated by the host, written by the last segment that
  // computes them.
  auto yield = cast<kernel::YieldOp>(body.getTerminator());
  for (auto [res, v] : llvm::zip(l.getResults(), yield.getValues())) {
    auto t = polyTy(res);
    std::string n = name(res);
    if (be_ == Backend::Cpp)
      host << "  ember::Poly64 " << n << "(" << basisExpr(t) << ", kN, "
           << (t.isNTT() ? "true" : "false") << ");\n";
    else
      host << "  ember::cuda::DevicePoly " << n
           << " = ember::program::cudaAlloc(dctx, " << basisExpr(t) << ", "
           << (t.isNTT() ? "true" : "false") << ");\n";
  }
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
  DenseMap<Value, std::string> resultOf;
  for (auto [res, v] : llvm::zip(l.getResults(), yield.getValues()))
    if (!resultOf.count(v))
      resultOf[v] = name(res);
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
  int seg = 0;
  auto segment = [&](ArrayRef<Operation *> ops, SmallVector<Value> stores) {
    for (Value v : stores) {
      if (resultOf.count(v)) {
        mem[v] = resultOf[v];
        continue;
      }
      std::string tmp = "tmp" + std::to_string(tmp_++);
      auto t = polyTy(v);
      host << "  " << polyT() << " " << tmp << " = "
           << (be_ == Backend::Cpp
                   ? llvm::formatv("ember::Poly64({0}, kN, {1})", basisExpr(t),
                                   t.isNTT())
                   : llvm::formatv("ember::program::cudaAlloc(dctx, {0}, {1})",
                                   basisExpr(t), t.isNTT()))
                  .str()
           << ";\n";
      mem[v] = tmp;
    }
    if (ops.empty())
      return success();
    return emitSegment(l, ops, l.getName().str() + "_" + std::to_string(seg++),
                       host, mem, stores);
  };
  if (failed(segment(pre, storesOf(pre, !transform))))
    return failure();
  if (transform) {
    Value x = transform->getOperand(0), y = transform->getResult(0);
    std::string yn;
    if (resultOf.count(y)) {
      yn = resultOf[y];
    } else {
      yn = "tmp" + std::to_string(tmp_++);
      host << "  " << polyT() << " " << yn << ";\n";
    }
    const char *fn = isa<rns::NTTOp>(transform) ? "ntt" : "intt";
    if (be_ == Backend::Cpp)
      host << "  " << yn << " = " << mem[x] << ";\n  ember::cpu::" << fn
           << "(ctx, " << yn << ");\n";
    else
      host << "  " << yn << " = ember::program::cudaCopy(dctx, " << mem[x]
           << ");\n  ember::cuda::" << fn << "(dctx, " << yn << ");\n";
    mem[y] = yn;
    if (failed(segment(post, storesOf(post, true))))
      return failure();
  }
  // Results that are block arguments (or computed before a transform but
  // not stored) are copied.
  for (auto [res, v] : llvm::zip(l.getResults(), yield.getValues()))
    if (mem.count(v) && mem[v] != name(res))
      host << "  " << name(res) << " = "
           << (be_ == Backend::Cpp
                   ? mem[v]
                   : "ember::program::cudaCopy(dctx, " + mem[v] + ")")
           << ";\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Runtime calls
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitCall(kernel::CallOp c, raw_ostream &h) {
  StringRef callee = c.getCallee();
  bool cpp = be_ == Backend::Cpp;
  std::string ns = cpp ? "ember::cpu::" : "ember::cuda::";
  std::string ctx = cpp ? "ctx" : "dctx";
  auto in = [&](unsigned i) { return name(c.getInputs()[i]); };
  auto res = [&](unsigned i) { return name(c.getResult(i)); };
  std::string offs;
  if (auto o = c->getAttrOfType<DenseI64ArrayAttr>("offsets")) {
    llvm::raw_string_ostream s(offs);
    s << " [arena @";
    llvm::interleaveComma(o.asArrayRef(), s);
    s << "]";
  }
  h << "  // " << callee << offs << "\n";
  if (callee == "ntt" || callee == "intt") {
    if (cpp)
      h << "  ember::Poly64 " << res(0) << " = " << in(0) << ";\n  ";
    else
      h << "  ember::cuda::DevicePoly " << res(0)
        << " = ember::program::cudaCopy(dctx, " << in(0) << ");\n  ";
    h << ns << callee << "(" << ctx << ", " << res(0) << ");\n";
  } else if (callee == "bconv") {
    h << "  auto " << res(0) << " = " << ns << "bconv(" << ctx << ", " << in(0)
      << ", " << basisExpr(polyTy(c.getResult(0))) << ");\n";
  } else if (callee == "mod_up") {
    auto digits = c->getAttrOfType<DenseI64ArrayAttr>("digits");
    for (auto [j, d] : llvm::enumerate(digits.asArrayRef())) {
      if (cpp)
        h << "  ember::Poly64 " << res(j) << " = ember::cpu::modUp(ctx, "
          << in(0) << ", " << d << ");\n";
      else
        h << "  ember::cuda::DevicePoly " << res(j)
          << " = ember::cuda::modUp(dctx, " << in(0) << ", " << d << ");\n";
    }
  } else if (callee == "ks_inner_product") {
    std::string digits;
    for (unsigned i = 1; i < c.getInputs().size(); ++i)
      digits += (i > 1 ? ", &" : "&") + in(i);
    if (cpp)
      h << "  ember::Poly64 " << res(0) << ", " << res(1)
        << ";\n  ember::keySwitchInnerProduct(ctx, " << in(0) << ", {" << digits
        << "}, " << res(0) << ", " << res(1) << ");\n";
    else
      h << "  ember::cuda::DevicePoly " << res(0) << ", " << res(1)
        << ";\n  em_ks_inner_product(dctx, " << in(0) << ", {" << digits
        << "}, " << res(0) << ", " << res(1) << ");\n";
  } else if (callee == "klss_mod_up") {
    // KLSS step 1 per digit: INTT, exact BConv to T, NTT over T.
    for (unsigned j = 0; j < c.getInputs().size(); ++j)
      h << "  " << polyT() << " " << res(j) << " = " << ns << "klssModUp("
        << ctx << ", " << in(j) << ");\n";
  } else if (callee == "klss_inner_product") {
    // KLSS step 2: coefficient-form accumulators over q_0..q_l, p_0..
    std::string digits;
    for (unsigned i = 1; i < c.getInputs().size(); ++i)
      digits += (i > 1 ? ", &" : "&") + in(i);
    int64_t level = c->getAttrOfType<IntegerAttr>("level").getInt();
    h << "  " << polyT() << " " << res(0) << ", " << res(1) << ";\n  "
      << (cpp ? "ember::" : "ember::cuda::") << "klssInnerProduct(" << ctx
      << ", " << in(0) << ", {" << digits << "}, " << level << ", " << res(0)
      << ", " << res(1) << ");\n";
  } else if (callee == "mod_switch_down") {
    for (unsigned i = 0; i < c.getInputs().size(); ++i)
      h << "  auto " << res(i) << " = " << ns << "modSwitchDown(" << ctx << ", "
        << in(i) << ", " << basisExpr(polyTy(c.getResult(i))) << ");\n";
  } else if (callee == "automorphism") {
    h << "  auto " << res(0) << " = " << ns << "automorphism(" << ctx << ", "
      << in(0) << ", " << c->getAttrOfType<IntegerAttr>("galois").getInt()
      << ");\n";
  } else if (callee == "load_key") {
    auto g = c->getAttrOfType<IntegerAttr>("galois");
    // relinKey / galoisKey (hybrid), klssRelinKey / klssGaloisKey (KLSS);
    // CUDA: cudaRelinKey, cudaKlssGaloisKey, ... of the CudaArgs.
    bool klss = isa<rns::KlssKeyType>(c.getResult(0).getType());
    std::string kind = g ? "Galois" : "Relin";
    std::string fn = cpp ? (klss ? "klss" + kind : (g ? "galois" : "relin"))
                         : "cuda" + std::string(klss ? "Klss" : "") + kind;
    std::string args = cpp ? "keys" : "args";
    if (g)
      args += ", " + std::to_string(g.getInt());
    h << "  const auto &" << res(0) << " = ember::program::" << fn << "Key("
      << args << ");\n";
  } else if (callee == "concat") {
    std::string parts;
    for (unsigned i = 0; i < c.getInputs().size(); ++i)
      parts += (i ? ", &" : "&") + in(i);
    h << "  auto " << res(0) << " = ember::program::" << (cpp ? "" : "cuda")
      << (cpp ? "concat" : "Concat") << "(" << (cpp ? "" : "dctx, ") << "{"
      << parts << "});\n";
  } else if (callee == "encode") {
    auto t = polyTy(c.getResult(0));
    auto value = c->getAttrOfType<DenseElementsAttr>("value");
    auto scale = c->getAttrOfType<FloatAttr>("scale");
    int64_t slots = cast<ShapedType>(value.getType()).getNumElements();
    std::string vals;
    {
      llvm::raw_string_ostream s(vals);
      std::vector<double> v;
      if (value.isSplat())
        v.assign(slots, value.getSplatValue<APFloat>().convertToDouble());
      else
        for (APFloat f : value.getValues<APFloat>())
          v.push_back(f.convertToDouble());
      for (size_t i = 0; i < v.size(); ++i)
        s << (i ? ", " : "") << llvm::formatv("{0:e17}", v[i]).str();
    }
    std::string enc = llvm::formatv(
        "ember::program::encodeConstant({0}, {{{1}}, {2:e17}, {3}, {4})",
        hostCtx(), vals, scale.getValueAsDouble(), basisExpr(t), t.isNTT());
    // Encoded once per context into the caller's constant cache (see the
    // entry's prologue); here only a reference.
    unsigned slot = constants_.size();
    constants_.push_back(cpp ? enc : "ember::cuda::upload(dctx, " + enc + ")");
    h << "  const " << polyT() << " &" << res(0) << " = cst.polys[" << slot
      << "]; // constant, encoded on the host\n";
  } else if (callee == "zero") {
    auto t = polyTy(c.getResult(0));
    if (cpp)
      h << "  ember::Poly64 " << res(0) << "(" << basisExpr(t) << ", kN, "
        << t.isNTT() << ");\n";
    else
      h << "  ember::cuda::DevicePoly " << res(0)
        << " = ember::program::cudaAlloc(dctx, " << basisExpr(t) << ", "
        << t.isNTT() << ", /*zero=*/true);\n";
  } else {
    return c.emitOpError("no emitter for runtime primitive ") << callee;
  }
  return success();
}

void Emitter::emitPreamble(raw_ostream &os) {
  bool cpp = be_ == Backend::Cpp;
  std::string cst = cpp ? "static const" : "__constant__ const";
  os << "static constexpr size_t kN = " << n_ << ";\n";
  if (!cpp)
    os << "static constexpr int kThreads = " << std::min<uint64_t>(256, n_)
       << ";\n";
  auto arr = [&](const char *nm, const std::vector<uint64_t> &v) {
    os << cst << " uint64_t " << nm << "[" << v.size() << "] = {";
    for (size_t i = 0; i < v.size(); ++i)
      os << (i ? ", " : "") << v[i] << "ull";
    os << "};\n";
  };
  std::vector<uint64_t> hi, lo;
  for (uint64_t q : primes_) {
    u128 ratio = ~u128{0} / q;
    hi.push_back(static_cast<uint64_t>(ratio >> 64));
    lo.push_back(static_cast<uint64_t>(ratio));
  }
  os << "// The moduli q_0..q_L, p_0..p_{K-1} and their Barrett constants "
        "floor(2^128 / m).\n";
  arr("kQ", primes_);
  arr("kRatioHi", hi);
  arr("kRatioLo", lo);
  for (size_t i = 0; i < tables_.size(); ++i)
    arr(("kConst" + std::to_string(i)).c_str(), tables_[i]);
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
  while (r >= q)
    r -= q;
  return r;
}
)" << hd
     << R"( uint64_t em_mul(int g, uint64_t a, uint64_t b) {
  return em_reduce(a * b, em_mulhi(a, b), g);
}
)" << hd
     << R"( uint64_t em_add(uint64_t q, uint64_t a, uint64_t b) {
  const uint64_t s = a + b;
  return s >= q ? s - q : s;
}
)" << hd
     << R"( uint64_t em_sub(uint64_t q, uint64_t a, uint64_t b) {
  return a >= b ? a - b : a + q - b;
}
)" << hd
     << R"( uint64_t em_neg(uint64_t q, uint64_t a) { return a ? q - a : 0; }
/// Limb of global modulus g in a buffer over q[q_lo:q_hi] u (global)
/// [p_lo:p_hi), or null when the buffer has no such limb (reads as 0).
)" << hd
     << R"( const uint64_t *em_limb(const uint64_t *base, int g, int q_lo,
                               int q_hi, int p_lo, int p_hi) {
  if (g >= q_lo && g < q_hi)
    return base + size_t(g - q_lo) * kN;
  if (g >= p_lo && g < p_hi)
    return base + size_t(q_hi - q_lo + g - p_lo) * kN;
  return nullptr;
}

)";
  if (cpp)
    return;
  os << "static constexpr int kModuli = " << primes_.size()
     << ";\nstatic constexpr int kQCount = " << qCount_ << ";\n";
  os << R"(
// Key-switching inner product (as ember::Evaluator::keySwitch): digits over
// Q_l u P times the key [digit][b, a][all moduli][N], summed in 128 bits over
// the digits and reduced once. Reads (digits + 2 * digits) and writes 2
// limbs x N words per output limb.
struct EmDigits {
  const uint64_t *d[32];
};
__global__ void em_ks_kernel(EmDigits digits, int count, const uint64_t *key,
                             int q_limbs, uint64_t *acc0, uint64_t *acc1) {
  const int i = blockIdx.y;
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= kN)
    return;
  const int g = i < q_limbs ? i : kQCount + (i - q_limbs);
  uint64_t s0_lo = 0, s0_hi = 0, s1_lo = 0, s1_hi = 0;
  for (int j = 0; j < count; ++j) {
    const uint64_t x = digits.d[j][size_t(i) * kN + k];
    const uint64_t b = key[(size_t(2 * j) * kModuli + g) * kN + k];
    const uint64_t a = key[(size_t(2 * j + 1) * kModuli + g) * kN + k];
    uint64_t lo = x * b, hi = em_mulhi(x, b);
    s0_lo += lo;
    s0_hi += hi + (s0_lo < lo);
    lo = x * a;
    hi = em_mulhi(x, a);
    s1_lo += lo;
    s1_hi += hi + (s1_lo < lo);
  }
  acc0[size_t(i) * kN + k] = em_reduce(s0_lo, s0_hi, g);
  acc1[size_t(i) * kN + k] = em_reduce(s1_lo, s1_hi, g);
}
[[maybe_unused]] static void em_ks_inner_product(const ember::cuda::DeviceContext &dctx,
                                const ember::cuda::DeviceSwitchingKey &key,
                                std::initializer_list<const ember::cuda::DevicePoly *> ds,
                                ember::cuda::DevicePoly &acc0,
                                ember::cuda::DevicePoly &acc1) {
  const ember::cuda::DevicePoly &first = **ds.begin();
  int q_limbs = 0;
  for (size_t i = 0; i < first.basis.size(); ++i) {
    const int expect = first.basis[i] < kQCount ? int(i) : kQCount + int(i) - q_limbs;
    if (first.basis[i] != expect)
      throw ember::InvalidArgument("ks_inner_product: digits must be over q_0..q_l u P");
    if (first.basis[i] < kQCount)
      ++q_limbs;
  }
  if (int(ds.size()) > key.digits || ds.size() > 32)
    throw ember::InvalidArgument("ks_inner_product: the key has too few digits");
  EmDigits d{};
  int j = 0;
  for (const ember::cuda::DevicePoly *p : ds)
    d.d[j++] = p->data();
  acc0 = ember::program::cudaAlloc(dctx, first.basis, true);
  acc1 = ember::program::cudaAlloc(dctx, first.basis, true);
  em_ks_kernel<<<dim3(kN / kThreads, first.basis.size()), kThreads, 0,
                 dctx.stream()>>>(d, j, key.buf.data(), q_limbs, acc0.data(),
                                  acc1.data());
  EMBER_CHECK_LAUNCH();
}

)";
}

LogicalResult Emitter::run() {
  if (failed(init()))
    return failure();
  SmallVector<func::FuncOp> funcs;
  for (auto f : module_.getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  if (funcs.size() != 1)
    return module_.emitError("the emitters expect exactly one function (the "
                             "program), found ")
           << funcs.size();
  func::FuncOp f = funcs.front();
  auto iface = f->getAttrOfType<DictionaryAttr>("ember.interface");
  if (!iface)
    return f.emitError("no ember.interface (compile with the fhe-to-kernel "
                       "pipeline)");
  auto inputs = iface.getAs<ArrayAttr>("inputs");
  auto outputs = iface.getAs<ArrayAttr>("outputs");
  bool cpp = be_ == Backend::Cpp;

  std::string hostText;
  llvm::raw_string_ostream h(hostText);
  // Inputs: the polynomials of each ciphertext, in order.
  unsigned arg = 0;
  for (auto [i, a] : llvm::enumerate(inputs)) {
    auto d = cast<DictionaryAttr>(a);
    int64_t parts = d.getAs<IntegerAttr>("degree").getInt();
    int64_t level = d.getAs<IntegerAttr>("level").getInt();
    int64_t slots = d.getAs<IntegerAttr>("slots").getInt();
    std::string nm = d.getAs<StringAttr>("name").str();
    h << "  // input '" << nm << "': " << parts << " polynomials at level "
      << level << ", " << slots << " slots\n";
    // The exact double of the manifest ({0:e17} round-trips it).
    std::string scale =
        llvm::formatv("{0:e17}", d.getAs<FloatAttr>("scale").getValueAsDouble())
            .str();
    if (cpp)
      h << "  ember::program::checkInput(ctx, in, " << i << ", \"" << nm
        << "\", " << parts << ", " << level << ", " << slots << ", " << scale
        << ");\n";
    else
      h << "  ember::program::cudaCheckInput(in, " << i << ", \"" << nm
        << "\", " << parts << ", " << level << ", " << slots << ", " << scale
        << ");\n";
    for (int64_t p = 0; p < parts; ++p) {
      if (arg >= f.getNumArguments())
        return f.emitError("the interface has more polynomials than the "
                           "function has arguments");
      std::string an = nm + "_c" + std::to_string(p);
      for (char &ch : an)
        if (!isalnum(ch))
          ch = '_';
      an = "in_" + an;
      names_[f.getArgument(arg)] = an;
      if (cpp)
        h << "  const ember::Poly64 &" << an << " = in[" << i << "].c[" << p
          << "];\n";
      else
        h << "  ember::cuda::DevicePoly " << an
          << " = ember::program::cudaPart(dctx, in[" << i << "], " << p
          << ");\n";
      ++arg;
    }
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
        // A view is a copy in the emitted code: free it after its own uses.
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
    if (auto c = dyn_cast<kernel::CallOp>(op))
      ok = emitCall(c, h);
    else if (auto l = dyn_cast<kernel::LaunchOp>(op)) {
      ok = emitLaunch(l, h);
      if (auto o = l->getAttrOfType<DenseI64ArrayAttr>("offsets")) {
        h << "  // " << l.getName() << " results at arena @";
        llvm::interleaveComma(o.asArrayRef(), h);
        h << "\n";
      }
    } else if (auto v = dyn_cast<kernel::ViewOp>(op)) {
      h << "  auto " << name(v) << " = ember::program::" << (cpp ? "" : "cuda")
        << (cpp ? "view(" : "View(dctx, ") << name(v.getSource()) << ", "
        << v.getFirst() << ", " << v.getCount() << ");\n";
    } else if (auto r = dyn_cast<func::ReturnOp>(op)) {
      unsigned at = 0;
      // A polynomial returned more than once (outputs sharing a part) is
      // copied at all but its last use and moved there.
      llvm::DenseMap<Value, unsigned> lastUse;
      for (auto [i, v] : llvm::enumerate(r.getOperands()))
        lastUse[v] = i;
      h << "  out.clear();\n";
      for (auto [i, o] : llvm::enumerate(outputs)) {
        auto d = cast<DictionaryAttr>(o);
        int64_t parts = d.getAs<IntegerAttr>("degree").getInt();
        std::string polys;
        for (int64_t p = 0; p < parts; ++p, ++at) {
          if (at >= r.getNumOperands())
            return r.emitOpError("returns fewer polynomials than the "
                                 "interface lists");
          Value v = r.getOperand(at);
          std::string ref = name(v);
          if (!cpp)
            ref = "&" + ref;
          else if (lastUse.lookup(v) == at)
            ref = "std::move(" + ref + ")";
          else
            ref = "ember::Poly64(" + ref + ")";
          polys += (p ? ", " : "") + ref;
        }
        h << "  // output '" << d.getAs<StringAttr>("name").str() << "'\n";
        h << "  out.push_back(ember::program::"
          << (cpp ? "makeCiphertext(ember::program::polys("
                  : "cudaCiphertext(dctx, {")
          << polys << (cpp ? "), " : "}, ")
          << d.getAs<IntegerAttr>("level").getInt() << ", "
          << llvm::formatv("{0:e17}",
                           d.getAs<FloatAttr>("scale").getValueAsDouble())
                 .str()
          << ", " << d.getAs<IntegerAttr>("slots").getInt() << "));\n";
      }
    } else {
      return op.emitOpError("cannot be emitted (run rns-to-kernel first)");
    }
    if (failed(ok))
      return failure();
    for (Value v : dies[live.index.lookup(&op)])
      h << "  ember::program::" << (cpp ? "release(" : "cudaRelease(")
        << name(v) << ");\n";
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
  if (cpp)
    os_ << "#include \"ember/program.h\"\n\n#include <cstdint>\n#include "
           "<utility>\n\nnamespace {\n\n";
  else
    os_ << "#include \"ember/program_cuda.h\"\n\n#include <cstdint>\n\n"
           "namespace {\n\n";
  emitPreamble(os_);
  os_ << kernels_;
  os_ << "} // namespace\n\n";
  os_ << "extern \"C\" int ember_program_abi() { return "
         "ember::program::kAbiVersion; }\n\n";
  if (cpp)
    os_ << "extern \"C\" void ember_program_run(const "
           "ember::program::CpuArgs &args) {\n"
           "  const ember::Context64 &ctx = *args.ctx;\n"
           "  const ember::EvaluationKeys &keys = *args.keys;\n"
           "  const std::vector<ember::Ciphertext> &in = *args.inputs;\n"
           "  std::vector<ember::Ciphertext> &out = *args.outputs;\n"
           "  (void)keys;\n";
  else
    os_ << "extern \"C\" void ember_program_run_cuda(const "
           "ember::program::CudaArgs &args) {\n"
           "  const ember::cuda::DeviceContext &dctx = *args.ctx;\n"
           "  cudaStream_t stream = dctx.stream();\n"
           "  const std::vector<ember::cuda::DeviceCiphertext> &in = "
           "*args.inputs;\n"
           "  std::vector<ember::cuda::DeviceCiphertext> &out = "
           "*args.outputs;\n"
           "  (void)stream;\n";
  // Plaintext constants: encoded on the first run with this context and
  // kept in the caller's cache (a local one when the caller gives none).
  std::string ctxName = cpp ? "ctx" : "dctx";
  os_ << "  ember::program::ConstantCache<" << polyT() << "> local_constants;\n"
      << "  ember::program::ConstantCache<" << polyT()
      << "> &cst = args.constants ? *args.constants : local_constants;\n"
      << "  if (cst.ctx != &" << ctxName
      << " || cst.polys.size() != " << constants_.size() << ") {\n"
      << "    cst.polys.clear();\n    cst.ctx = &" << ctxName << ";\n";
  for (const std::string &e : constants_)
    os_ << "    cst.polys.push_back(" << e << ");\n";
  os_ << "  }\n";
  os_ << hostText << "}\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Manifest
//===----------------------------------------------------------------------===//

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
  unsigned kernels = 0, calls = 0;
  auto noteKey = [&](Type keyType, IntegerAttr g) {
    int form = isa<rns::KlssKeyType>(keyType) ? 1 : 0;
    if (g)
      galois[form].insert(g.getInt());
    else
      relin[form] = true;
  };
  f.walk([&](Operation *op) {
    if (auto c = dyn_cast<kernel::CallOp>(op)) {
      ++calls;
      if (c.getCallee() == "load_key")
        noteKey(c.getResult(0).getType(),
                c->getAttrOfType<IntegerAttr>("galois"));
    } else if (auto k = dyn_cast<rns::LoadKeyOp>(op)) {
      noteKey(k.getType(), k.getGaloisAttr());
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
      out.push_back(llvm::json::Object{
          {"name", d.getAs<StringAttr>("name").str()},
          {"slots", d.getAs<IntegerAttr>("slots").getInt()},
          {"level", d.getAs<IntegerAttr>("level").getInt()},
          {"scale", d.getAs<FloatAttr>("scale").getValueAsDouble()},
          {"polys", d.getAs<IntegerAttr>("degree").getInt()}});
    }
    return out;
  };
  // Hybrid keys: digits x 2 x (L+1+K) limbs; KLSS keys: digits x groups x
  // 2 x r' limbs (ParamsAttr::getHybridKeyBytes / getKlssKeyBytes).
  const uint64_t hybridKeys = galois[0].size() + (relin[0] ? 1 : 0);
  const uint64_t klssKeys = galois[1].size() + (relin[1] ? 1 : 0);
  const uint64_t hybridBytes = hybridKeys * params.getHybridKeyBytes();
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
  if (klssKeys || params.hasKlss()) {
    keys["klss_relin"] = relin[1];
    keys["klss_galois"] = std::move(kg);
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
  static TranslateFromMLIRRegistration json(
      "emit-manifest",
      "the client manifest: parameters, keys, inputs and outputs (JSON)",
      [](Operation *op, raw_ostream &os) {
        return emitManifest(cast<ModuleOp>(op), os);
      },
      dialects);
}
