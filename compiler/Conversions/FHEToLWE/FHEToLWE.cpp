//===- FHEToLWE.cpp - encrypted integers to bootstrapped-gate circuits ----===//
//
// See FHEToLWE.td. Each function is rebuilt op by op: a map from every
// encrypted-integer value to its bits (wires, each a known bit or an
// !lwe.bit value), circuits built by the `Circuit` helper, which folds
// known bits as it goes.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/FHEToLWE/FHEToLWE.h"
#include "dialects/FHE/IR/FHEDialect.h"
#include "dialects/LWE/IR/LWEDialect.h"
#include "ember/lwe_params.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

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

/// The circuit of one fhe integer op, or failure (an op it does not know).
LogicalResult lowerOp(Operation *op, Circuit &c, DenseMap<Value, Bits> &bits) {
  auto in = [&](Value v) -> const Bits & { return bits[v]; };
  auto bitwise = [&](Value l, Value r, auto fn) {
    Bits out;
    for (auto [x, y] : llvm::zip(in(l), in(r)))
      out.push_back(fn(x, y));
    return out;
  };
  std::optional<Bits> result =
      llvm::TypeSwitch<Operation *, std::optional<Bits>>(op)
          .Case([&](fhe::IntConstantOp o) {
            return Circuit::constant(o.getValue(),
                                     fhe::getIntShape(o.getType()).width);
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
              // Two's complement order is the unsigned order with the sign
              // bits complemented.
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
    } catch (const std::exception &e) {
      module.emitError() << "fhe-to-lwe: " << e.what();
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp f : funcs)
      if (failed(convert(f)))
        return signalPassFailure();
    module->setAttr(lwe::LWEDialect::kParamsAttrName,
                    StringAttr::get(&getContext(), params));
  }

  LogicalResult convert(func::FuncOp f) {
    MLIRContext *ctx = &getContext();
    FunctionType type = f.getFunctionType();
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
    SmallVector<int64_t> in_w, out_w;
    SmallVector<bool> in_s, out_s;
    if (failed(shapes(type.getInputs(), "an argument", in_w, in_s)) ||
        failed(shapes(type.getResults(), "a result", out_w, out_s)))
      return failure();
    if (!f.getBody().hasOneBlock())
      return f.emitError() << "fhe-to-lwe: a function of one block only";

    // The new function: each k-bit argument as k bit arguments.
    const Type bit = lwe::BitType::get(ctx);
    int64_t in_bits = 0, out_bits = 0;
    for (int64_t w : in_w)
      in_bits += w;
    for (int64_t w : out_w)
      out_bits += w;
    OpBuilder b(f);
    auto nf = func::FuncOp::create(
        b, f.getLoc(), f.getName(),
        FunctionType::get(ctx, SmallVector<Type>(in_bits, bit),
                          SmallVector<Type>(out_bits, bit)));
    nf.setVisibility(f.getVisibility());
    nf->setAttr("lwe.input_widths", b.getDenseI64ArrayAttr(in_w));
    nf->setAttr("lwe.input_signed", b.getDenseBoolArrayAttr(in_s));
    nf->setAttr("lwe.output_widths", b.getDenseI64ArrayAttr(out_w));
    nf->setAttr("lwe.output_signed", b.getDenseBoolArrayAttr(out_s));
    Block *entry = nf.addEntryBlock();
    OpBuilder body = OpBuilder::atBlockEnd(entry);
    Circuit circuit(body, f.getLoc());
    DenseMap<Value, Bits> bits;
    int64_t next = 0;
    for (auto [arg, w] : llvm::zip(f.getArguments(), in_w)) {
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
    // Gates whose results folding left unused.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
      if (isa<lwe::LWEDialect>(op.getDialect()) && op.use_empty())
        op.erase();
    return success();
  }
};

} // namespace
