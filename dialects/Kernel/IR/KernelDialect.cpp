//===- KernelDialect.cpp - kernel dialect and op verifiers ----------------===//
#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"
#include "dialects/Kernel/IR/KernelLiveness.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace ember::kernel;

#include "dialects/Kernel/IR/KernelDialect.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Kernel/IR/KernelOps.cpp.inc"

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Kernel/IR/KernelOps.cpp.inc"
      >();
}

/// `offsets` (kernel-plan-memory): one non-negative arena offset per
/// polynomial result.
static LogicalResult verifyOffsets(Operation *op) {
  if (Attribute s = op->getAttr("scratch")) {
    auto at = dyn_cast<IntegerAttr>(s);
    if (!at || at.getInt() < 0)
      return op->emitOpError("'scratch' must be a non-negative arena offset");
  }
  Attribute attr = op->getAttr("offsets");
  if (!attr)
    return success();
  auto offsets = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!offsets)
    return op->emitOpError("'offsets' must be an array<i64> of arena offsets");
  int64_t polys = llvm::count_if(op->getResultTypes(), [](Type t) {
    return isa<ember::rns::PolyType>(t);
  });
  if (static_cast<int64_t>(offsets.size()) != polys)
    return op->emitOpError("'offsets' has ")
           << offsets.size() << " entries for " << polys
           << " polynomial results";
  if (llvm::any_of(offsets.asArrayRef(), [](int64_t o) { return o < 0; }))
    return op->emitOpError("'offsets' must be non-negative");
  return success();
}

/// An attribute `name` of `op` that must be an integer attribute (or be
/// absent when `required` is false); null when it is absent or wrong, after
/// reporting the error in `ok`.
static IntegerAttr integerAttr(Operation *op, StringRef name, bool required,
                               LogicalResult &ok) {
  Attribute attr = op->getAttr(name);
  if (!attr) {
    if (required)
      ok = op->emitOpError("needs an integer '") << name << "' attribute";
    return {};
  }
  auto integer = dyn_cast<IntegerAttr>(attr);
  if (!integer)
    ok = op->emitOpError("'") << name << "' must be an integer attribute";
  return integer;
}

LogicalResult CallOp::verify() {
  StringRef c = getCallee();
  bool known = llvm::StringSwitch<bool>(c)
                   .Cases({"ntt", "intt", "bconv", "mod_up"}, true)
                   .Cases({"ks_inner_product", "mod_switch_down"}, true)
                   .Cases({"automorphism", "load_key", "concat"}, true)
                   .Cases({"encode", "encode_values", "zero"}, true)
                   .Cases({"klss_mod_up", "klss_inner_product"}, true)
                   .Cases({"bfv_tensor", "transfer"}, true)
                   .Default(false);
  if (!known)
    return emitOpError("unknown runtime primitive '") << c << "'";
  if ((c == "automorphism") && !(*this)->hasAttr("galois"))
    return emitOpError("automorphism needs a 'galois' attribute");
  if (c == "mod_up" && !(*this)->hasAttr("digits"))
    return emitOpError("mod_up needs a 'digits' attribute");
  if (c == "mod_switch_down" && (getInputs().size() < getResults().size() ||
                                 getInputs().size() > 2 * getResults().size()))
    return emitOpError("mod_switch_down maps each input to one result (then "
                       "takes lifted addends of the first inputs)");
  auto numQ = [](Value v) {
    auto t = dyn_cast<ember::rns::PolyType>(v.getType());
    return t ? int64_t(t.getNumQ()) : 0;
  };
  if (c == "mod_switch_down" && (*this)->hasAttr("galois") &&
      (getInputs().size() == getResults().size() ||
       numQ(getInputs().front()) != numQ(getResults().front())))
    return emitOpError("mod_switch_down's 'galois' permutes lifted addends: "
                       "it needs some, and no dropped Q limb");
  if ((*this)->hasAttr("overlap") &&
      (c != "mod_switch_down" || getResults().size() != 2 ||
       !ember::kernel::overlappedInnerProduct(*this)))
    return emitOpError("'overlap' marks a mod_switch_down of two parts right "
                       "after the ks_inner_product whose results it switches "
                       "down");
  if (c == "ks_inner_product" &&
      (getResults().size() != 2 || getInputs().empty() ||
       !isa<ember::rns::EvalKeyType>(getInputs().front().getType())))
    return emitOpError("ks_inner_product takes a key and digits and gives "
                       "two accumulators");
  if (c == "klss_inner_product" &&
      (getResults().size() != 2 || getInputs().size() < 2 ||
       !isa<ember::rns::KlssKeyType>(getInputs().front().getType()) ||
       !(*this)->hasAttr("level")))
    return emitOpError("klss_inner_product takes a KLSS key and T digits, "
                       "gives two accumulators and needs a 'level'");
  if (c == "bfv_tensor" &&
      (getInputs().size() != 4 || getResults().size() != 3))
    return emitOpError("bfv_tensor takes two ciphertexts' parts (4) and gives "
                       "three");
  if (c == "klss_mod_up" && getInputs().size() != getResults().size())
    return emitOpError("klss_mod_up maps each digit to one T polynomial");
  if (c == "transfer") {
    if (getInputs().size() != 1 || getResults().size() != 1 ||
        getInputs().front().getType() != getResults().front().getType() ||
        !isa<ember::rns::PolyType>(getResults().front().getType()))
      return emitOpError("transfer moves one polynomial to another device "
                         "(same type)");
    auto to = dyn_cast_or_null<IntegerAttr>((*this)->getAttr("to"));
    auto from = dyn_cast_or_null<IntegerAttr>((*this)->getAttr("device"));
    if (!to || to.getInt() < 0)
      return emitOpError("transfer needs a non-negative integer 'to' device");
    if ((from ? from.getInt() : 0) == to.getInt())
      return emitOpError("transfer to its own device ") << to.getInt();
  }
  if (Attribute d = (*this)->getAttr("device"))
    if (!isa<IntegerAttr>(d) || cast<IntegerAttr>(d).getInt() < 0)
      return emitOpError("'device' must be a non-negative integer");
  if (failed(verifyCallAttributes()) || failed(verifyOffsets(*this)))
    return failure();
  return ember::rns::verifyTypesAgainstParams(*this);
}

int64_t CallOp::scratchLimbs() {
  auto limbs = [](Value v) -> int64_t {
    auto t = dyn_cast<ember::rns::PolyType>(v.getType());
    return t ? t.getNumLimbs() : 0;
  };
  StringRef c = getCallee();
  if (c == "bconv" && (*this)->hasAttr("exact"))
    return 0;
  if ((c == "bconv" || c == "mod_up") && !getInputs().empty())
    return limbs(getInputs().front());
  if (c == "mod_switch_down" && !getInputs().empty()) {
    // The dropped limbs of every result switched in one batch, and the
    // dropped Q limbs of x + P y for each lifted addend y (inputs past the
    // results).
    int64_t parts = getResults().size();
    int64_t lifted = int64_t(getInputs().size()) - parts;
    auto q = [](Value v) {
      auto t = dyn_cast<ember::rns::PolyType>(v.getType());
      return t ? int64_t(t.getNumQ()) : 0;
    };
    int64_t dropped = limbs(getInputs().front()) - limbs(getResults().front());
    int64_t droppedQ = q(getInputs().front()) - q(getResults().front());
    return parts * dropped + std::max<int64_t>(lifted, 0) * droppedQ;
  }
  if (c == "klss_inner_product" && !getInputs().empty())
    if (auto key =
            dyn_cast<ember::rns::KlssKeyType>(getInputs().front().getType()))
      return 2 * int64_t(key.getGroups()) * int64_t(key.getT()); // [b, a]
  if (c == "klss_mod_up") {
    // Every digit's INTT at once (the CUDA backend's batched ModUp).
    int64_t all = 0;
    for (Value v : getInputs())
      all += limbs(v);
    return all;
  }
  return 0;
}

SmallVector<Value> LaunchOp::temporaries() {
  Block &body = getBody().front();
  Operation *transform = nullptr;
  for (Operation &op : body.without_terminator())
    if (isa<ember::rns::NTTOp, ember::rns::INTTOp>(op))
      transform = &op;
  SmallVector<Value> temps;
  if (!transform)
    return temps;
  Operation *yield = body.getTerminator();
  auto yielded = [&](Value v) {
    return llvm::is_contained(yield->getOperands(), v);
  };
  for (Operation &op : body.without_terminator()) {
    if (&op == transform)
      break;
    for (Value r : op.getResults()) {
      // Used by the transform or after it: stored; into a result if yielded.
      bool later = llvm::any_of(r.getUsers(), [&](Operation *u) {
        return u == transform || transform->isBeforeInBlock(u);
      });
      if (later && !yielded(r))
        temps.push_back(r);
    }
  }
  if (!yielded(transform->getResult(0)))
    temps.push_back(transform->getResult(0));
  return temps;
}

int64_t LaunchOp::scratchLimbs() {
  int64_t limbs = 0;
  for (Value v : temporaries())
    if (auto t = dyn_cast<ember::rns::PolyType>(v.getType()))
      limbs += t.getNumLimbs();
  return limbs;
}

/// The attributes the emitters read, by primitive: `galois` (automorphism,
/// load_key, ks_inner_product: digits read permuted), `digits` (mod_up),
/// `level` (klss_inner_product), `value` and `scale` (encode).
LogicalResult CallOp::verifyCallAttributes() {
  StringRef c = getCallee();
  auto params = ember::ckks::ParamsAttr::lookup(*this);
  LogicalResult ok = success();
  if (c == "automorphism" || c == "load_key" || c == "ks_inner_product" ||
      c == "mod_switch_down") {
    IntegerAttr g = integerAttr(*this, "galois", c == "automorphism", ok);
    if (failed(ok))
      return ok;
    if (g && failed(ember::rns::verifyGaloisElement(*this, g.getInt())))
      return failure();
  }
  if (c == "mod_up") {
    auto digits = dyn_cast<DenseI64ArrayAttr>((*this)->getAttr("digits"));
    if (!digits)
      return emitOpError("'digits' must be an array<i64> of digit indices");
    if (digits.size() != getResults().size())
      return emitOpError("mod_up has ") << digits.size() << " digits for "
                                        << getResults().size() << " results";
    int64_t count = params ? params.getDigitSizes().size()
                           : std::numeric_limits<int64_t>::max();
    for (int64_t d : digits.asArrayRef())
      if (d < 0 || d >= count)
        return emitOpError("digit index ")
               << d << " is outside 0.." << count - 1;
  }
  if (c == "klss_inner_product") {
    IntegerAttr level = integerAttr(*this, "level", true, ok);
    if (failed(ok))
      return ok;
    int64_t maxLevel = params ? static_cast<int64_t>(params.getQ().size()) - 1
                              : std::numeric_limits<int64_t>::max();
    if (level.getInt() < 0 || level.getInt() > maxLevel)
      return emitOpError("level ")
             << level.getInt() << " is outside 0.." << maxLevel;
  }
  if (c == "encode_values") {
    auto scale = dyn_cast_or_null<FloatAttr>((*this)->getAttr("scale"));
    if (!scale || getResults().size() != 1 || getInputs().size() != 1 ||
        !isa<RankedTensorType>(getInputs().front().getType()))
      return emitOpError("encode_values takes a tensor of slot values and a "
                         "float 'scale', and gives one polynomial");
    double s = scale.getValueAsDouble();
    if (!std::isfinite(s) || s <= 0)
      return emitOpError("'scale' must be positive and finite, got ") << s;
  }
  if (c == "encode") {
    auto value = dyn_cast_or_null<DenseElementsAttr>((*this)->getAttr("value"));
    auto scale = dyn_cast_or_null<FloatAttr>((*this)->getAttr("scale"));
    if (!value || !ember::isSlotValuesAttr(value) || !scale ||
        getResults().size() != 1)
      return emitOpError("encode needs a dense 'value' of slot values and a "
                         "float 'scale', and gives one polynomial");
    auto tensor = cast<ShapedType>(value.getType());
    if (tensor.getRank() != 1)
      return emitOpError("'value' must be a 1-d tensor, got rank ")
             << tensor.getRank();
    if (failed(ember::verifySlotCount([&] { return emitOpError(); },
                                      tensor.getDimSize(0))))
      return failure();
    double s = scale.getValueAsDouble();
    if (!std::isfinite(s) || s <= 0)
      return emitOpError("'scale' must be positive and finite, got ") << s;
  }
  return success();
}

LogicalResult LaunchOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body takes ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
  // The op verifier runs before the block's own checks: an empty body has
  // no terminator to ask for.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield || yield.getValues().size() != getResults().size())
    return emitOpError("body must yield one value per result");
  LogicalResult ok = success();
  if (IntegerAttr bytes = integerAttr(*this, "bytes", false, ok);
      bytes && bytes.getInt() < 0)
    return emitOpError("'bytes' must be non-negative, got ") << bytes.getInt();
  if (failed(ok) || failed(verifyOffsets(*this)))
    return failure();
  return ember::rns::verifyTypesAgainstParams(*this);
}

LogicalResult ViewOp::verify() {
  auto src = dyn_cast<ember::rns::PolyType>(getSource().getType());
  auto dst = dyn_cast<ember::rns::PolyType>(getResult().getType());
  if (!src || !dst)
    return emitOpError("views polynomials only");
  // first + count compared without overflow.
  if (getFirst() < 0 || getCount() != dst.getNumLimbs() ||
      getFirst() > static_cast<int64_t>(src.getNumLimbs()) - getCount())
    return emitOpError("limb range [")
           << getFirst() << ":" << getCount() << "] does not fit";
  return ember::rns::verifyTypesAgainstParams(*this);
}

//===----------------------------------------------------------------------===//
// Function attributes of kernel-plan-memory
//===----------------------------------------------------------------------===//

LogicalResult KernelDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kArgOffsetsAttrName) {
    auto offsets = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!offsets ||
        llvm::any_of(offsets.asArrayRef(), [](int64_t o) { return o < 0; }))
      return op->emitError("'")
             << name << "' must be an array<i64> of non-negative offsets";
    return success();
  }
  if (name == kArenaBytesAttrName || name == kPeakLiveBytesAttrName ||
      name == "kernel.transfer_bytes") {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bytes || bytes.getValue().isNegative())
      return op->emitError("'") << name << "' must be a non-negative integer";
    return success();
  }
  // kernel-partition-devices: the device count, its prediction; and
  // kernel-plan-memory's arena of each device.
  if (name == "kernel.devices" || name == "kernel.devices_requested") {
    auto k = dyn_cast<IntegerAttr>(attr.getValue());
    if (!k || k.getInt() < 1)
      return op->emitError("'") << name << "' must be a positive integer";
    return success();
  }
  // rns-fuse-elementwise lanes: coefficients per thread of the generated
  // CUDA kernels.
  if (name == "kernel.lanes") {
    auto k = dyn_cast<IntegerAttr>(attr.getValue());
    if (!k || (k.getInt() != 1 && k.getInt() != 2 && k.getInt() != 4))
      return op->emitError("'") << name << "' must be 1, 2 or 4";
    return success();
  }
  if (name == "kernel.device_arena_bytes") {
    auto a = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!a || llvm::any_of(a.asArrayRef(), [](int64_t o) { return o < 0; }))
      return op->emitError("'")
             << name << "' must be an array<i64> of non-negative sizes";
    return success();
  }
  if (name == "kernel.predicted_us" || name == "kernel.one_device_us")
    return success();
  if (name == "kernel.limb_bounds") { // Q bounds, then P bounds (k + 1 each)
    auto a = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!a || a.size() < 4 || a.size() % 2 ||
        llvm::any_of(a.asArrayRef(), [](int64_t x) { return x < 0; }))
      return op->emitError("'") << name
                                << "' must be the Q then the P bounds of the "
                                   "devices' limbs (two runs of k + 1)";
    return success();
  }
  if (name == "kernel.partition") { // kernel-partition-devices limbs
    auto s = dyn_cast<StringAttr>(attr.getValue());
    if (!s || s.getValue() != "limbs")
      return op->emitError("'") << name << "' must be \"limbs\"";
    return success();
  }
  if (name == "kernel.limb_split_us") { // {collectives hidden, serial}
    auto a = dyn_cast<ArrayAttr>(attr.getValue());
    if (!a || a.size() != 2 || !llvm::all_of(a, [](Attribute x) {
          auto f = dyn_cast<FloatAttr>(x);
          return f && f.getValueAsDouble() >= 0;
        }))
      return op->emitError("'") << name << "' must be two non-negative floats";
    return success();
  }
  return op->emitError("unknown kernel attribute '") << name << "'";
}
