//===- FHEToLWE.cpp - encrypted integers to bootstrapped-gate circuits ----===//
//
// See FHEToLWE.td. Each function is rebuilt op by op: a map from every
// encrypted-integer value to its bits (wires, each a known bit or an
// !lwe.bit value), circuits built by the `Circuit` helper, which folds
// known bits as it goes.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/FHEToLWE/FHEToLWE.h"
#include "compiler/Conversions/FHEToLWE/Radix.h"
#include "dialects/FHE/IR/FHEDialect.h"
#include "dialects/LWE/IR/LWEDialect.h"
#include "ember/lwe_params.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "fhe-to-lwe"

namespace ember {
#define GEN_PASS_DEF_FHETOLWE
#include "compiler/Conversions/FHEToLWE/FHEToLWE.h.inc"
} // namespace ember

using namespace mlir;
namespace fhe = ember::fhe;
namespace lwe = ember::lwe;

namespace {

/// A wire: a bit known at compile time (value null) or an encrypted one.
struct Wire {
  Value value;
  bool bit = false;
  bool known() const { return !value; }
  static Wire of(bool b) { return {Value(), b}; }
};
using Bits = SmallVector<Wire>;

/// Builds gates at one insertion point, folding known bits and trivial
/// identities (x AND x, NOT NOT x).
class Circuit {
public:
  Circuit(OpBuilder &b, Location loc)
      : b_(b), loc_(loc), bit_(lwe::BitType::get(b.getContext())) {}
  void setLoc(Location loc) { loc_ = loc; }

  Wire notW(Wire a) {
    if (a.known())
      return Wire::of(!a.bit);
    if (auto n = a.value.getDefiningOp<lwe::NotOp>())
      return {n.getInput()};
    // One NOT per value, so that folds comparing values see it as one.
    Value &n = not_[a.value];
    if (!n)
      n = lwe::NotOp::create(b_, loc_, bit_, a.value).getResult();
    return {n};
  }
  Wire andW(Wire a, Wire c) {
    if (a.known())
      return a.bit ? c : Wire::of(false);
    if (c.known())
      return c.bit ? a : Wire::of(false);
    if (a.value == c.value)
      return a;
    return gate("AND", a, c);
  }
  Wire orW(Wire a, Wire c) {
    if (a.known())
      return a.bit ? Wire::of(true) : c;
    if (c.known())
      return c.bit ? Wire::of(true) : a;
    if (a.value == c.value)
      return a;
    return gate("OR", a, c);
  }
  Wire xorW(Wire a, Wire c) {
    if (a.known())
      return a.bit ? notW(c) : c;
    if (c.known())
      return c.bit ? notW(a) : a;
    if (a.value == c.value)
      return Wire::of(false);
    return gate("XOR", a, c);
  }
  Wire xnorW(Wire a, Wire c) {
    if (a.known() || c.known() || a.value == c.value)
      return notW(xorW(a, c));
    return gate("XNOR", a, c);
  }
  /// sel ? t : f.
  Wire mux(Wire sel, Wire t, Wire f) {
    if (sel.known())
      return sel.bit ? t : f;
    if (t.known() && f.known())
      return t.bit == f.bit ? t : (t.bit ? sel : notW(sel));
    if (!t.known() && !f.known() && t.value == f.value)
      return t;
    if (!f.known() && f.value == sel.value) // sel ? t : 0
      return andW(sel, t);
    if (!t.known() && t.value == sel.value) // sel ? 1 : f
      return orW(sel, f);
    if (t.known())
      return t.bit ? orW(sel, f) : andW(notW(sel), f);
    if (f.known())
      return f.bit ? orW(notW(sel), t) : andW(sel, t);
    return {lwe::MuxOp::create(b_, loc_, bit_, sel.value, t.value, f.value)
                .getResult()};
  }
  Value materialize(Wire w) {
    if (!w.known())
      return w.value;
    return lwe::TrivialOp::create(b_, loc_, bit_, b_.getI64IntegerAttr(w.bit))
        .getResult();
  }

  // --- integers (bits least significant first) ---------------------------

  static Bits constant(int64_t v, unsigned width) {
    Bits out;
    for (unsigned i = 0; i < width; ++i)
      out.push_back(Wire::of((uint64_t(v) >> i) & 1));
    return out;
  }
  /// a + b + carry modulo 2^width.
  Bits add(const Bits &a, const Bits &c, Wire carry = Wire::of(false)) {
    Bits out;
    for (size_t i = 0; i < a.size(); ++i) {
      const Wire t = xorW(a[i], c[i]);
      out.push_back(xorW(t, carry));
      if (i + 1 < a.size())
        carry = mux(t, carry, a[i]); // a_i != b_i: the carry in; else a_i
    }
    return out;
  }
  Bits sub(const Bits &a, const Bits &c) {
    Bits nc;
    for (const Wire &w : c)
      nc.push_back(notW(w));
    return add(a, nc, Wire::of(true));
  }
  Bits mul(const Bits &a, const Bits &c) {
    const size_t k = a.size();
    Bits acc = constant(0, k);
    for (size_t i = 0; i < k; ++i) {
      // acc += (a AND c_i) << i, on the bits from i up.
      Bits row, high;
      for (size_t j = i; j < k; ++j) {
        row.push_back(andW(a[j - i], c[i]));
        high.push_back(acc[j]);
      }
      if (llvm::all_of(row, [](const Wire &w) { return w.known() && !w.bit; }))
        continue;
      const Bits sum = add(high, row);
      for (size_t j = i; j < k; ++j)
        acc[j] = sum[j - i];
    }
    return acc;
  }
  /// a < b, unsigned: from the least significant bit, where the bits
  /// differ the answer is b's bit.
  Wire lessThan(const Bits &a, const Bits &c) {
    Wire lt = Wire::of(false);
    for (size_t i = 0; i < a.size(); ++i)
      lt = mux(xorW(a[i], c[i]), c[i], lt);
    return lt;
  }
  Wire equal(const Bits &a, const Bits &c) {
    Bits same;
    for (size_t i = 0; i < a.size(); ++i)
      same.push_back(xnorW(a[i], c[i]));
    while (same.size() > 1) { // a balanced AND tree
      Bits next;
      for (size_t i = 0; i + 1 < same.size(); i += 2)
        next.push_back(andW(same[i], same[i + 1]));
      if (same.size() % 2)
        next.push_back(same.back());
      same = next;
    }
    return same.empty() ? Wire::of(true) : same[0];
  }
  /// table[x] (output bit `bit` of each entry): a MUX tree over x's bits.
  Wire lookup(const Bits &x, ArrayRef<int64_t> table, unsigned bit) {
    Bits level;
    for (int64_t v : table)
      level.push_back(Wire::of((uint64_t(v) >> bit) & 1));
    for (const Wire &sel : x) {
      Bits next;
      for (size_t i = 0; i + 1 < level.size(); i += 2)
        next.push_back(mux(sel, level[i + 1], level[i]));
      level = next;
    }
    return level[0];
  }

private:
  Wire gate(StringRef kind, Wire a, Wire c) {
    return {lwe::GateOp::create(b_, loc_, bit_, b_.getStringAttr(kind), a.value,
                                c.value)
                .getResult()};
  }
  OpBuilder &b_;
  Location loc_;
  Type bit_;
  DenseMap<Value, Value> not_;
};

/// Constants and arithmetic, the same calls for both encodings' builders
/// (Circuit over Bits, radix::Builder over Num); nullopt for other ops.
template <typename B, typename V, typename In>
std::optional<V> lowerArith(Operation *op, B &c, In in) {
  return llvm::TypeSwitch<Operation *, std::optional<V>>(op)
      .Case([&](fhe::IntConstantOp o) {
        return B::constant(o.getValue(), fhe::getIntShape(o.getType()).width);
      })
      .Case([&](fhe::IntAddOp o) {
        return c.add(in(o.getLhs()), in(o.getRhs()));
      })
      .Case([&](fhe::IntSubOp o) {
        return c.sub(in(o.getLhs()), in(o.getRhs()));
      })
      .Case([&](fhe::IntMulOp o) {
        return c.mul(in(o.getLhs()), in(o.getRhs()));
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The circuit of one fhe integer op, or failure (an op it does not know).
LogicalResult lowerOp(Operation *op, Circuit &c, DenseMap<Value, Bits> &bits) {
  auto in = [&](Value v) -> const Bits & { return bits[v]; };
  auto bitwise = [&](Value l, Value r, auto fn) {
    Bits out;
    for (auto [x, y] : llvm::zip(in(l), in(r)))
      out.push_back(fn(x, y));
    return out;
  };
  std::optional<Bits> result = lowerArith<Circuit, Bits>(op, c, in);
  if (!result)
    result = llvm::TypeSwitch<Operation *, std::optional<Bits>>(op)
                 .Case([&](fhe::IntAndOp o) {
                   return bitwise(o.getLhs(), o.getRhs(),
                                  [&](Wire x, Wire y) { return c.andW(x, y); });
                 })
                 .Case([&](fhe::IntOrOp o) {
                   return bitwise(o.getLhs(), o.getRhs(),
                                  [&](Wire x, Wire y) { return c.orW(x, y); });
                 })
                 .Case([&](fhe::IntXorOp o) {
                   return bitwise(o.getLhs(), o.getRhs(),
                                  [&](Wire x, Wire y) { return c.xorW(x, y); });
                 })
                 .Case([&](fhe::IntNotOp o) {
                   Bits out;
                   for (const Wire &w : in(o.getInput()))
                     out.push_back(c.notW(w));
                   return out;
                 })
                 .Case([&](fhe::IntCmpOp o) {
                   Bits l = in(o.getLhs()), r = in(o.getRhs());
                   if (fhe::getIntShape(o.getLhs().getType()).isSigned) {
                     // Two's complement order is the unsigned order with the
                     // sign bits complemented.
                     l.back() = c.notW(l.back());
                     r.back() = c.notW(r.back());
                   }
                   const StringRef p = o.getPredicate();
                   Wire w;
                   if (p == "eq" || p == "ne")
                     w = c.equal(l, r);
                   else if (p == "lt" || p == "ge")
                     w = c.lessThan(l, r);
                   else // gt, le: b < a
                     w = c.lessThan(r, l);
                   if (p == "ne" || p == "ge" || p == "le")
                     w = c.notW(w);
                   return Bits{w};
                 })
                 .Case([&](fhe::IntLutOp o) {
                   Bits out;
                   const unsigned width = fhe::getIntShape(o.getType()).width;
                   for (unsigned b = 0; b < width; ++b)
                     out.push_back(c.lookup(in(o.getInput()), o.getTable(), b));
                   return out;
                 })
                 .Default([](Operation *) { return std::nullopt; });
  if (!result)
    return failure();
  bits[op->getResult(0)] = std::move(*result);
  return success();
}

/// The radix circuit of one fhe integer op, or failure.
LogicalResult lowerRadixOp(Operation *op, ember::radix::Builder &c,
                           DenseMap<Value, ember::radix::Num> &nums) {
  using ember::radix::Builder;
  using ember::radix::Num;
  auto in = [&](Value v) -> const Num & { return nums[v]; };
  auto bit = [](ember::radix::Form f) {
    Num n;
    n.blocks.push_back(f);
    n.bits.push_back(1);
    return n;
  };
  auto notBit = [&](const Num &n) { return c.bitNot(n); };
  std::optional<Num> result = lowerArith<Builder, Num>(op, c, in);
  if (!result)
    result =
        llvm::TypeSwitch<Operation *, std::optional<Num>>(op)
            .Case([&](fhe::IntAndOp o) {
              return c.bitwise(in(o.getLhs()), in(o.getRhs()),
                               [](int64_t x, int64_t y) { return x & y; });
            })
            .Case([&](fhe::IntOrOp o) {
              return c.bitwise(in(o.getLhs()), in(o.getRhs()),
                               [](int64_t x, int64_t y) { return x | y; });
            })
            .Case([&](fhe::IntXorOp o) {
              return c.bitwise(in(o.getLhs()), in(o.getRhs()),
                               [](int64_t x, int64_t y) { return x ^ y; });
            })
            .Case([&](fhe::IntNotOp o) { return c.bitNot(in(o.getInput())); })
            .Case([&](fhe::IntCmpOp o) {
              const Num &l = in(o.getLhs()), &r = in(o.getRhs());
              const bool is_signed =
                  fhe::getIntShape(o.getLhs().getType()).isSigned;
              const StringRef p = o.getPredicate();
              if (p == "eq")
                return bit(c.equal(l, r));
              if (p == "ne")
                return notBit(bit(c.equal(l, r)));
              if (p == "lt")
                return bit(c.less(l, r, is_signed));
              if (p == "gt")
                return bit(c.less(r, l, is_signed));
              if (p == "ge")
                return notBit(bit(c.less(l, r, is_signed)));
              return notBit(bit(c.less(r, l, is_signed))); // le
            })
            .Case([&](fhe::IntLutOp o) {
              return c.lookup(in(o.getInput()), o.getTable(),
                              fhe::getIntShape(o.getType()).width);
            })
            .Default([](Operation *) { return std::nullopt; });
  if (!result)
    return failure();
  nums[op->getResult(0)] = std::move(*result);
  return success();
}

struct FHEToLWEPass : public ember::impl::FHEToLWEBase<FHEToLWEPass> {
  using FHEToLWEBase::FHEToLWEBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    try {
      const lwe::Params p = lwe::Params::named(params);
      if (p.insecure && !insecure) {
        module.emitError() << "parameter set '" << params
                           << "' is insecure; pass insecure=true (tests only)";
        return signalPassFailure();
      }
      // Radix by default where a table over Z_16 reading the noisiest form
      // the circuits build (4 x + a sum of four tables: nu2 = 20) stays
      // within the bound; on request where one table output does (each
      // table is checked as it is built).
      const lwe::NoiseEstimate noise = lwe::estimateNoise(p);
      const double worst =
          noise.log2BlockFailure(lwe::kBlockModulus, ember::radix::kWorstNu2);
      const double best = noise.log2BlockFailure(lwe::kBlockModulus, 1);
      if (encoding == "radix" && best > maxLog2Failure) {
        module.emitError()
            << "fhe-to-lwe: radix blocks at '" << params
            << "' would misread a table over Z_16 with probability 2^"
            << llvm::formatv("{0:F1}", best) << " (bound 2^"
            << llvm::formatv("{0:F1}", double(maxLog2Failure))
            << "); use STD128_4BIT_MR, or encoding=bits";
        return signalPassFailure();
      }
      if (encoding != "auto" && encoding != "bits" && encoding != "radix") {
        module.emitError() << "fhe-to-lwe: unknown encoding '" << encoding
                           << "' (auto, bits or radix)";
        return signalPassFailure();
      }
      radix_ = encoding == "radix" ||
               (encoding == "auto" && worst <= maxLog2Failure);
    } catch (const std::exception &e) {
      module.emitError() << "fhe-to-lwe: " << e.what();
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp f : funcs)
      if (failed(radix_ ? convertRadix(f) : convert(f)))
        return signalPassFailure();
    MLIRContext *ctx = &getContext();
    module->setAttr(lwe::LWEDialect::kParamsAttrName,
                    StringAttr::get(ctx, params));
    if (radix_) {
      module->setAttr(lwe::LWEDialect::kEncodingAttrName,
                      StringAttr::get(ctx, "radix"));
      if (worst_ > -1e300)
        module->setAttr(lwe::LWEDialect::kLog2FailureAttrName,
                        FloatAttr::get(Float64Type::get(ctx), worst_));
    }
  }

  bool radix_ = false;
  double worst_ = -1e300;

  /// The function's interface (widths and signs of arguments and
  /// results), or failure naming a type that is not an encrypted integer.
  struct Interface {
    SmallVector<int64_t> in_w, out_w;
    SmallVector<bool> in_s, out_s;
  };
  FailureOr<Interface> interfaceOf(func::FuncOp f) {
    FunctionType type = f.getFunctionType();
    Interface io;
    auto shapes = [&](TypeRange types, StringRef what,
                      SmallVector<int64_t> &widths,
                      SmallVector<bool> &signs) -> LogicalResult {
      for (Type t : types) {
        const fhe::IntShape s = fhe::getIntShape(t);
        if (!s.width)
          return f.emitError() << "fhe-to-lwe: " << what << " of type " << t
                               << " is not an encrypted integer";
        widths.push_back(s.width);
        signs.push_back(s.isSigned);
      }
      return success();
    };
    if (failed(shapes(type.getInputs(), "an argument", io.in_w, io.in_s)) ||
        failed(shapes(type.getResults(), "a result", io.out_w, io.out_s)))
      return failure();
    if (!f.getBody().hasOneBlock())
      return f.emitError() << "fhe-to-lwe: a function of one block only";
    return io;
  }

  /// The new function over `element`s (count of them per argument and
  /// result from `per`), with the interface attributes.
  func::FuncOp rebuild(func::FuncOp f, const Interface &io, Type element,
                       llvm::function_ref<int64_t(int64_t)> per) {
    int64_t ins = 0, outs = 0;
    for (int64_t w : io.in_w)
      ins += per(w);
    for (int64_t w : io.out_w)
      outs += per(w);
    OpBuilder b(f);
    MLIRContext *ctx = &getContext();
    auto nf = func::FuncOp::create(
        b, f.getLoc(), f.getName(),
        FunctionType::get(ctx, SmallVector<Type>(ins, element),
                          SmallVector<Type>(outs, element)));
    nf.setVisibility(f.getVisibility());
    nf->setAttr("lwe.input_widths", b.getDenseI64ArrayAttr(io.in_w));
    nf->setAttr("lwe.input_signed", b.getDenseBoolArrayAttr(io.in_s));
    nf->setAttr("lwe.output_widths", b.getDenseI64ArrayAttr(io.out_w));
    nf->setAttr("lwe.output_signed", b.getDenseBoolArrayAttr(io.out_s));
    nf.addEntryBlock();
    return nf;
  }

  /// Ops whose results folding left unused.
  static void eraseDead(Block *entry) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
      if (isa<lwe::LWEDialect>(op.getDialect()) && op.use_empty())
        op.erase();
  }

  LogicalResult convertRadix(func::FuncOp f) {
    using ember::radix::Builder;
    using ember::radix::Num;
    FailureOr<Interface> io = interfaceOf(f);
    if (failed(io))
      return failure();
    func::FuncOp nf =
        rebuild(f, *io, lwe::BlockType::get(&getContext()), [](int64_t w) {
          return int64_t(Builder::blockBits(w).size());
        });
    Block *entry = &nf.getBody().front();
    OpBuilder body = OpBuilder::atBlockEnd(entry);
    Builder c(body, f.getLoc(), params, maxLog2Failure);
    DenseMap<Value, Num> nums;
    int64_t next = 0;
    for (auto [arg, w] : llvm::zip(f.getArguments(), io->in_w)) {
      Num n;
      n.bits = Builder::blockBits(w);
      for (unsigned bits : n.bits)
        n.blocks.push_back(c.argument(entry->getArgument(next++), bits));
      nums[arg] = n;
    }
    auto bail = [&](Operation &op, const Twine &what) {
      nf.erase();
      return op.emitError() << "fhe-to-lwe: " << what;
    };
    for (Operation &op : f.getBody().front()) {
      c.setLoc(op.getLoc());
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<Value> outs;
        for (Value v : ret.getOperands())
          for (const ember::radix::Form &b : nums[v].blocks)
            outs.push_back(c.materialize(b));
        if (c.error())
          return bail(op, "internal error in the radix circuit: " + *c.error());
        func::ReturnOp::create(body, ret.getLoc(), outs);
        continue;
      }
      if (op.getNumResults() != 1 || failed(lowerRadixOp(&op, c, nums)))
        return bail(op, "'" + op.getName().getStringRef() +
                            "' is not an operation on encrypted integers");
      if (c.error())
        return bail(op, *c.error());
    }
    worst_ = std::max(worst_, c.worstLog2Failure());
    f.erase();
    eraseDead(entry);
    return success();
  }

  LogicalResult convert(func::FuncOp f) {
    FailureOr<Interface> io = interfaceOf(f);
    if (failed(io))
      return failure();
    // The new function: each k-bit argument as k bit arguments.
    func::FuncOp nf = rebuild(f, *io, lwe::BitType::get(&getContext()),
                              [](int64_t w) { return w; });
    Block *entry = &nf.getBody().front();
    OpBuilder body = OpBuilder::atBlockEnd(entry);
    Circuit circuit(body, f.getLoc());
    DenseMap<Value, Bits> bits;
    int64_t next = 0;
    for (auto [arg, w] : llvm::zip(f.getArguments(), io->in_w)) {
      Bits v;
      for (int64_t i = 0; i < w; ++i)
        v.push_back({entry->getArgument(next++)});
      bits[arg] = v;
    }
    for (Operation &op : f.getBody().front()) {
      circuit.setLoc(op.getLoc());
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<Value> outs;
        for (Value v : ret.getOperands())
          for (const Wire &w : bits[v])
            outs.push_back(circuit.materialize(w));
        func::ReturnOp::create(body, ret.getLoc(), outs);
        continue;
      }
      if (op.getNumResults() != 1 || failed(lowerOp(&op, circuit, bits))) {
        nf.erase();
        return op.emitError() << "fhe-to-lwe: '" << op.getName()
                              << "' is not an operation on encrypted integers";
      }
    }
    f.erase();
    eraseDead(entry);
    return success();
  }
};

} // namespace
