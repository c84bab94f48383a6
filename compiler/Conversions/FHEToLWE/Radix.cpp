//===- Radix.cpp - encrypted integers as radix blocks ---------------------===//
//
// See Radix.h. The circuits (B blocks; "levels" are table depth):
//
// - Sums (add, sub, the last step of mul) are carry-lookahead over block
//   states: s_i = a_i + b_i (sub: a_i + (3 - b_i), plus 1 at block 0),
//   g_i = s_i >= 4 (generate), p_i = s_i == 3 (propagate). The carry into
//   block j of the first four blocks is bit j-1 of g_0 + sum_{1<=i<j}
//   (2 g_i + p_i) 2^(i-1) (at most 15: one table), into a later group of
//   three with carry-in C bit j of C + sum_{i<j} (2 g_i + p_i) 2^i; the
//   output is (s_j + c_j) mod 4. An 8-bit add is 9 tables over 3 levels;
//   each further group of 3 blocks adds one level.
// - a < b is the carry out of a + ~b + 1, negated (5 tables over 2 levels
//   at 8 bits); signed, the top block's state is one table of the pair
//   (4 a + b) with the sign bits flipped. Equality: per block
//   [a_i - b_i + 3 == 3], then [sum == B] (5 tables, 2 levels).
// - a * b: the partial products' low and high halves (one table of 4 a_i
//   + b_j each), columns reduced by chunks of sum at most 15 into (sum mod
//   4, sum / 4) until each column is a sum of at most two blocks, then the
//   sum above.
// - Bitwise operations: one table of 4 a_i + b_i per block; NOT is 3 - a_i.
// - A table of a k-bit input: for k <= 4 one table per output block of the
//   index x_0 + 4 x_1; above, candidates per value of the high blocks,
//   selected block by block (sum_d [x_i == d] cand_d: 4 tables of 4 x_i +
//   cand_d per selection).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/FHEToLWE/Radix.h"
#include "dialects/LWE/IR/LWEDialect.h"
#include "ember/lwe_params.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>

using namespace mlir;

namespace ember::radix {
namespace {
constexpr int64_t kModulus = lwe::kBlockModulus; // a block's values: [0, 16)
constexpr int64_t kBase = 4;                     // 2 message bits
} // namespace

Builder::Builder(OpBuilder &b, Location loc, const std::string &params,
                 double max_log2_failure)
    : b_(b), loc_(loc), block_(lwe::BlockType::get(b.getContext())),
      max_log2_failure_(max_log2_failure) {
  const lwe::NoiseEstimate e = lwe::estimateNoise(lwe::Params::named(params));
  log2_failure_ = [e](int64_t nu2) {
    return e.log2BlockFailure(kModulus, double(nu2));
  };
}

void Builder::fail(const std::string &what) {
  if (!error_)
    error_ = what;
}

SmallVector<unsigned> Builder::blockBits(unsigned width) {
  SmallVector<unsigned> bits;
  for (unsigned i = 0; i < width; i += 2)
    bits.push_back(std::min(2u, width - i));
  return bits;
}

Form Builder::argument(Value v, unsigned bits) {
  const int64_t hi = (int64_t{1} << bits) - 1;
  range_[v] = {0, hi};
  return {{{v, 1}}, 0, 0, hi};
}

Num Builder::constant(int64_t v, unsigned width) {
  Num out;
  out.bits = blockBits(width);
  for (auto [i, bits] : llvm::enumerate(out.bits))
    out.blocks.push_back(
        Form::constant((uint64_t(v) >> (2 * i)) & ((1u << bits) - 1)));
  return out;
}

// --- forms ------------------------------------------------------------------

int64_t Builder::nu2(const Form &f) const {
  int64_t s = 0;
  for (const auto &[v, k] : f.terms)
    s += k * k * weight_.lookup_or(v, 1);
  return s;
}

Form Builder::pin(const Form &f, int64_t lo, int64_t hi) {
  if (f.known())
    return f;
  Value v = materialize(f);
  if (v != f.terms[0].first || f.terms.size() > 1)
    weight_[v] = nu2(f);
  range_[v] = {lo, hi};
  return {{{v, 1}}, 0, lo, hi};
}

Form Builder::rangeOf(Form f) const {
  f.lo = f.hi = f.c;
  for (const auto &[v, k] : f.terms) {
    const auto [lo, hi] = range_.lookup(v);
    f.lo += k > 0 ? k * lo : k * hi;
    f.hi += k > 0 ? k * hi : k * lo;
  }
  return f;
}

Form Builder::add(const Form &a, const Form &b) const {
  Form out = a;
  for (const auto &[v, k] : b.terms) {
    auto *it = llvm::find_if(out.terms, [&](auto &t) { return t.first == v; });
    if (it == out.terms.end())
      out.terms.push_back({v, k});
    else
      it->second += k;
  }
  llvm::erase_if(out.terms, [](auto &t) { return t.second == 0; });
  out.c += b.c;
  return rangeOf(out);
}

Form Builder::scale(const Form &a, int64_t k) const {
  if (k == 0)
    return Form::constant(0);
  Form out = a;
  for (auto &t : out.terms)
    t.second *= k;
  out.c *= k;
  return rangeOf(out);
}

Form Builder::plus(const Form &a, int64_t k) const {
  Form out = a;
  out.c += k, out.lo += k, out.hi += k;
  return out;
}

Value Builder::materialize(const Form &f) {
  auto linear = [&](ValueRange in, ArrayRef<int64_t> k, int64_t c) {
    return lwe::LinearOp::create(b_, loc_, block_, in,
                                 b_.getDenseI64ArrayAttr(k),
                                 b_.getI64IntegerAttr(c))
        .getResult();
  };
  if (f.known()) {
    if (f.c < 0 || f.c >= 2 * kModulus) {
      fail(llvm::formatv("a known block {0} outside [0, {1})", f.c,
                         2 * kModulus));
      return {};
    }
    return lwe::BlockConstantOp::create(b_, loc_, block_,
                                        b_.getI64IntegerAttr(f.c))
        .getResult();
  }
  if (f.terms.size() == 1 && f.terms[0].second == 1 && f.c == 0)
    return f.terms[0].first;
  Value acc;
  size_t next = 0;
  if (f.terms.size() >= 2) {
    acc = linear({f.terms[0].first, f.terms[1].first},
                 {f.terms[0].second, f.terms[1].second}, f.c);
    next = 2;
  } else {
    acc = linear({f.terms[0].first}, {f.terms[0].second}, f.c);
    next = 1;
  }
  for (; next < f.terms.size(); ++next)
    acc = linear({acc, f.terms[next].first}, {1, f.terms[next].second}, 0);
  return acc;
}

Form Builder::lut(const Form &in, const std::function<int64_t(int64_t)> &f) {
  if (in.known())
    return Form::constant(f(in.c));
  if (in.lo < 0 || in.hi >= kModulus) {
    fail(llvm::formatv("a table would read a block of range [{0}, {1}], "
                       "outside [0, {2})",
                       in.lo, in.hi, kModulus));
    return Form::constant(0);
  }
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  bool identity = true;
  SmallVector<int64_t> table(kModulus, 0);
  for (int64_t v = in.lo; v <= in.hi; ++v) {
    const int64_t o = f(v);
    if (o < 0 || o >= kModulus) {
      fail(llvm::formatv("a table entry {0} outside [0, {1})", o, kModulus));
      return Form::constant(0);
    }
    table[v] = o;
    lo = std::min(lo, o), hi = std::max(hi, o);
    identity &= o == v;
  }
  if (lo == hi) // constant over the input's range
    return Form::constant(lo);
  if (identity && in.terms.size() == 1 && in.terms[0].second == 1 && in.c == 0)
    return in;
  // f(v) = beta - v over the range (a complement, x ^ 3 on a block): free.
  if (in.terms.size() == 1 && in.terms[0].second == 1) {
    const int64_t beta = f(in.lo) + in.lo;
    bool negation = true;
    for (int64_t v = in.lo; v <= in.hi; ++v)
      negation &= f(v) == beta - v;
    if (negation)
      return plus(scale(in, -1), beta);
  }
  const int64_t nu2 = this->nu2(in);
  const double log2_failure = log2_failure_(nu2);
  worst_ = std::max(worst_, log2_failure);
  if (log2_failure > max_log2_failure_)
    fail(llvm::formatv("a table reads a block of noise weight nu2 = {0}, "
                       "which misreads with probability 2^{1:F1}, above "
                       "the bound 2^{2:F1}",
                       nu2, log2_failure, max_log2_failure_));
  Value x = materialize(in);
  Value r =
      lwe::LutOp::create(b_, loc_, block_, x, b_.getDenseI64ArrayAttr(table),
                         b_.getI64IntegerAttr(in.lo),
                         b_.getI64IntegerAttr(in.hi), b_.getI64IntegerAttr(nu2))
          .getResult();
  range_[r] = {lo, hi};
  return {{{r, 1}}, 0, lo, hi};
}

Form Builder::biv(const Form &x, const Form &y,
                  const std::function<int64_t(int64_t, int64_t)> &f) {
  if (x.known() && y.known())
    return Form::constant(f(x.c, y.c));
  if (x.known())
    return lut(y, [&](int64_t v) { return f(x.c, v); });
  if (y.known())
    return lut(x, [&](int64_t v) { return f(v, y.c); });
  if (x.lo < 0 || x.hi >= kBase || y.lo < 0 || y.hi >= kBase) {
    fail(llvm::formatv("a table of two blocks needs both in [0, {0}), got "
                       "[{1}, {2}] and [{3}, {4}]",
                       kBase, x.lo, x.hi, y.lo, y.hi));
    return Form::constant(0);
  }
  return lut(add(scale(x, kBase), y),
             [&](int64_t v) { return f(v / kBase, v % kBase); });
}

// --- sums -------------------------------------------------------------------

SmallVector<Form>
Builder::carries(unsigned count,
                 const std::function<Form(unsigned, unsigned, bool)> &state) {
  SmallVector<Form> c(count + 1, Form::constant(0));
  if (count == 0)
    return c;
  auto bit = [](unsigned j) { return [j](int64_t v) { return (v >> j) & 1; }; };
  // The first four blocks: bit j-1 of g_0 + sum (2 g_i + p_i) 2^(i-1).
  const unsigned first = std::min(count, 4u);
  Form s = state(0, 0, true);
  c[1] = lut(s, bit(0));
  for (unsigned j = 2; j <= first; ++j) {
    s = add(s, state(j - 1, j - 2, false));
    c[j] = lut(s, bit(j - 1));
  }
  // Then groups of three with carry-in C: bit j of C + sum (2 g_i + p_i) 2^i.
  for (unsigned b0 = 4; b0 < count; b0 += 3) {
    const unsigned m = std::min(3u, count - b0);
    Form t = c[b0];
    for (unsigned j = 1; j <= m; ++j) {
      t = add(t, state(b0 + j - 1, j - 1, false));
      c[b0 + j] = lut(t, bit(j));
    }
  }
  return c;
}

Num Builder::addColumns(ArrayRef<Form> s, ArrayRef<unsigned> bits) {
  const unsigned count = s.size();
  for (unsigned i = 0; i + 1 < count; ++i) {
    const int64_t beta = int64_t{1} << bits[i];
    // One carry at most: block 0 holds the carry-in, the others get one.
    const int64_t top = i == 0 ? 2 * beta - 1 : 2 * beta - 2;
    if (s[i].lo < 0 || s[i].hi > top)
      fail(llvm::formatv("a column of range [{0}, {1}] in a sum (at most {2})",
                         s[i].lo, s[i].hi, top));
  }
  auto state = [&](unsigned i, unsigned shift, bool generate_only) {
    const int64_t beta = int64_t{1} << bits[i];
    return lut(s[i], [=](int64_t v) {
      const int64_t g = v >= beta, p = v == beta - 1;
      return generate_only ? g : (2 * g + p) << shift;
    });
  };
  const SmallVector<Form> c = carries(count - 1, state);
  Num out;
  out.bits.assign(bits.begin(), bits.end());
  for (unsigned i = 0; i < count; ++i) {
    const int64_t beta = int64_t{1} << bits[i];
    out.blocks.push_back(
        lut(add(s[i], c[i]), [=](int64_t v) { return v % beta; }));
  }
  return out;
}

Num Builder::add(const Num &a, const Num &b) {
  SmallVector<Form> s;
  for (auto [x, y] : llvm::zip(a.blocks, b.blocks))
    s.push_back(add(x, y));
  return addColumns(s, a.bits);
}

Num Builder::sub(const Num &a, const Num &b) {
  if (llvm::all_of(b.blocks, [](const Form &f) { return f.known(); })) {
    // a + (2^k - b): the constant's own blocks.
    int64_t v = 0, width = 0;
    for (auto [f, bits] : llvm::zip(b.blocks, b.bits))
      v |= f.c << width, width += bits;
    return add(a, constant(-v, width));
  }
  // a + ~b + 1, the 1 carried into block 0.
  SmallVector<Form> s;
  for (auto [i, x, y, bits] : llvm::enumerate(a.blocks, b.blocks, a.bits))
    s.push_back(
        plus(add(x, scale(y, -1)), ((int64_t{1} << bits) - 1) + (i == 0)));
  return addColumns(s, a.bits);
}

Num Builder::mul(const Num &a, const Num &b) {
  const unsigned count = a.blocks.size();
  SmallVector<SmallVector<Form>> cols(count);
  SmallVector<int64_t> known(count + 1, 0);
  auto put = [&](unsigned col, const Form &f) {
    if (col >= count)
      return;
    if (f.known())
      known[col] += f.c;
    else
      cols[col].push_back(f);
  };
  for (unsigned i = 0; i < count; ++i)
    for (unsigned j = 0; i + j < count; ++j) {
      const Form &x = a.blocks[i], &y = b.blocks[j];
      put(i + j, biv(x, y, [](int64_t u, int64_t v) { return u * v % 4; }));
      if (i + j + 1 < count)
        put(i + j + 1,
            biv(x, y, [](int64_t u, int64_t v) { return u * v / 4; }));
    }
  // Known parts carried at compile time, one clean constant per column.
  for (unsigned col = 0; col < count; ++col) {
    known[col + 1] += known[col] / kBase;
    if (known[col] % kBase)
      cols[col].push_back(Form::constant(known[col] % kBase));
  }
  auto total = [](ArrayRef<Form> terms) {
    int64_t hi = 0;
    for (const Form &t : terms)
      hi += t.hi;
    return hi;
  };
  // A column may enter the sum with at most 6 (the top one 14).
  auto limit = [&](unsigned col) { return col + 1 < count ? 6 : 14; };
  while (true) {
    bool done = true;
    for (unsigned col = 0; col < count; ++col)
      done &= total(cols[col]) <= limit(col);
    if (done || error_)
      break;
    SmallVector<SmallVector<Form>> next(count);
    for (unsigned col = 0; col < count; ++col) {
      if (total(cols[col]) <= limit(col)) {
        next[col].append(cols[col]);
        continue;
      }
      SmallVector<Form> chunk;
      int64_t hi = 0;
      auto flush = [&] {
        if (chunk.size() == 1) {
          next[col].push_back(chunk[0]);
        } else if (!chunk.empty()) {
          Form sum = chunk[0];
          for (size_t k = 1; k < chunk.size(); ++k)
            sum = add(sum, chunk[k]);
          next[col].push_back(lut(sum, [](int64_t v) { return v % 4; }));
          if (col + 1 < count)
            next[col + 1].push_back(lut(sum, [](int64_t v) { return v / 4; }));
        }
        chunk.clear(), hi = 0;
      };
      for (const Form &t : cols[col]) {
        if (hi + t.hi >= kModulus)
          flush();
        chunk.push_back(t), hi += t.hi;
      }
      flush();
    }
    cols = std::move(next);
  }
  SmallVector<Form> s;
  for (auto &terms : cols) {
    Form sum = Form::constant(0);
    for (const Form &t : terms)
      sum = add(sum, t);
    s.push_back(sum);
  }
  return addColumns(s, a.bits);
}

// --- bitwise, comparisons, tables -------------------------------------------

Num Builder::bitwise(const Num &a, const Num &b,
                     const std::function<int64_t(int64_t, int64_t)> &f) {
  Num out;
  out.bits = a.bits;
  for (auto [x, y, bits] : llvm::zip(a.blocks, b.blocks, a.bits)) {
    const int64_t mask = (int64_t{1} << bits) - 1;
    out.blocks.push_back(
        biv(x, y, [&](int64_t u, int64_t v) { return f(u, v) & mask; }));
  }
  return out;
}

Num Builder::bitNot(const Num &a) {
  Num out;
  out.bits = a.bits;
  for (auto [x, bits] : llvm::zip(a.blocks, a.bits))
    out.blocks.push_back(plus(scale(x, -1), (int64_t{1} << bits) - 1));
  return out;
}

Form Builder::less(const Num &a, const Num &b, bool is_signed) {
  // a < b iff a + ~b + 1 has no carry out of the top block.
  const unsigned count = a.blocks.size();
  auto state = [&](unsigned i, unsigned shift, bool generate_only) {
    const int64_t beta = int64_t{1} << a.bits[i];
    const int64_t in = i == 0; // the + 1
    auto of = [=](int64_t v) {
      const int64_t g = v >= beta, p = v == beta - 1;
      return generate_only ? g : (2 * g + p) << shift;
    };
    if (is_signed && i + 1 == count) {
      // Two's complement order: the sign bit flipped, then unsigned.
      const int64_t h = beta / 2;
      return biv(a.blocks[i], b.blocks[i], [=](int64_t x, int64_t y) {
        return of((x ^ h) + (beta - 1 - (y ^ h)) + in);
      });
    }
    return lut(plus(add(a.blocks[i], scale(b.blocks[i], -1)), beta - 1 + in),
               of);
  };
  const Form out = carries(count, state)[count];
  return plus(scale(out, -1), 1);
}

Form Builder::equal(const Num &a, const Num &b) {
  SmallVector<Form> same;
  for (auto [x, y, bits] : llvm::zip(a.blocks, b.blocks, a.bits)) {
    const int64_t off = (int64_t{1} << bits) - 1;
    same.push_back(lut(plus(add(x, scale(y, -1)), off),
                       [=](int64_t v) { return int64_t(v == off); }));
  }
  while (same.size() > 1 && !error_) {
    SmallVector<Form> next;
    for (size_t i = 0; i < same.size(); i += kModulus - 1) {
      const size_t n = std::min<size_t>(kModulus - 1, same.size() - i);
      Form sum = Form::constant(0);
      for (size_t k = 0; k < n; ++k)
        sum = add(sum, same[i + k]);
      next.push_back(lut(sum, [=](int64_t v) { return int64_t(v == n); }));
    }
    same = std::move(next);
  }
  return same[0];
}

Num Builder::lookup(const Num &x, ArrayRef<int64_t> table, unsigned width) {
  Num out;
  out.bits = blockBits(width);
  auto entry = [&](int64_t index, unsigned j) -> int64_t {
    if (index < 0 || index >= int64_t(table.size()))
      return 0;
    return (uint64_t(table[index]) >> (2 * j)) & ((1u << out.bits[j]) - 1);
  };
  // The index of the low two blocks (x_0 + 4 x_1 < 16).
  Form low = x.blocks[0];
  if (x.blocks.size() > 1)
    low = add(low, scale(x.blocks[1], kBase));
  const unsigned high_blocks = x.blocks.size() > 2 ? x.blocks.size() - 2 : 0;
  int64_t combos = 1;
  for (unsigned i = 0; i < high_blocks; ++i)
    combos <<= x.bits[2 + i];
  // cand[h][j]: output block j when the high blocks read h.
  SmallVector<SmallVector<Form>> cand(combos);
  for (int64_t h = 0; h < combos; ++h)
    for (unsigned j = 0; j < out.bits.size(); ++j)
      cand[h].push_back(
          lut(low, [&](int64_t v) { return entry(v + kModulus * h, j); }));
  for (unsigned i = 2; i < x.blocks.size(); ++i) {
    const int64_t values = int64_t{1} << x.bits[i];
    SmallVector<SmallVector<Form>> next(cand.size() / values);
    for (size_t h = 0; h < next.size(); ++h)
      for (unsigned j = 0; j < out.bits.size(); ++j) {
        // Exactly one term is nonzero: the sum's range is the union.
        Form sum = Form::constant(0);
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (int64_t d = 0; d < values; ++d) {
          const Form &c = cand[d + values * h][j];
          sum = add(sum, biv(x.blocks[i], c, [d](int64_t u, int64_t v) {
                      return u == d ? v : 0;
                    }));
          lo = std::min(lo, c.lo), hi = std::max(hi, c.hi);
        }
        next[h].push_back(pin(sum, lo, hi));
      }
    cand = std::move(next);
  }
  out.blocks = cand[0];
  return out;
}

} // namespace ember::radix
