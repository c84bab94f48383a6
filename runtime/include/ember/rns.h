// RNS polynomial primitives of the CPU backend (the reference the CUDA
// backend must match bit for bit). Every CKKS operation is built from these:
// NTT/INTT, base conversion, ModUp, ModDown, rescale, automorphism and
// elementwise arithmetic (Cheddar 2.2-2.3).
//
// Conventions: inputs are fully reduced ([0, q)); outputs are fully reduced.
// Functions throw InvalidArgument on a basis/form mismatch.
#pragma once

#include "ember/context.h"
#include "ember/poly.h"

#include <cstdint>
#include <vector>

namespace ember::cpu {

/// Coefficient -> NTT form (every limb), and back.
template <typename Word> void ntt(const Context<Word> &ctx, Poly<Word> &p);
template <typename Word> void intt(const Context<Word> &ctx, Poly<Word> &p);

/// Fast base conversion of a coefficient-form polynomial from its basis B to
/// the basis `to` (disjoint from B), with centred digits:
///   y_i = [x_i * (B/b_i)^-1]_{b_i},  y~_i = y_i - b_i if y_i > b_i/2 else y_i
///   out_t = sum_i y~_i * (B/b_i)  mod t.
/// With x the centred representative of the input, the result equals
/// x + u*B (mod t) with |u| <= |B|/2: exact up to that
/// small multiple of B, which key switching tolerates (Cheddar eq. 2), and
/// centred so that the error u has mean zero (a floor-style u in [0, |B|)
/// would bias every coefficient the same way, and the all-ones polynomial
/// concentrates that bias on the slots near 1).
template <typename Word>
Poly<Word> bconv(const Context<Word> &ctx, const Poly<Word> &in,
                 const std::vector<int> &to);

/// Exact base conversion (Athena 2.2, EBConv) of a coefficient-form
/// polynomial from its basis B to `to` (disjoint from B): each coefficient's
/// centred representative x in (-B/2, B/2) reduced mod every target prime,
///   y_i = [x_i (B/b_i)^-1]_{b_i},  v = round(sum_i y_i / b_i),
///   out_t = sum_i y_i [B/b_i]_t - v [B]_t  mod t.
/// v is computed in doubles (IEEE division and addition, in basis order, no
/// fused multiply-add), within 2^-45 of sum_i y_i / b_i = x/B + v. So the
/// result is exact when |x| < B/2 (1 - 2^-40); an x closer to +-B/2 may come
/// out as x -+ B. Both backends do the same operations in the same order and
/// agree bit for bit. KLSS key switching needs this exactness on the way
/// back from T, where the products are far below T/2.
template <typename Word>
Poly<Word> bconvExact(const Context<Word> &ctx, const Poly<Word> &in,
                      const std::vector<int> &to);

/// KLSS step 1 for one key-switching digit: the digit's limbs (NTT form, a
/// digitLimbs() range) -> INTT -> exact BConv to T -> NTT. Result: NTT form
/// over tBasis(). InvalidArgument when the context has no KLSS form.
template <typename Word>
Poly<Word> klssModUp(const Context<Word> &ctx, const Poly<Word> &digit);

/// ModUp of digit `digit` of an NTT-form polynomial over Q_l: its limbs are
/// kept, and INTT -> BConv -> NTT produces the other limbs of Q_l u P.
/// Result: NTT form over qpBasis(l).
template <typename Word>
Poly<Word> modUp(const Context<Word> &ctx, const Poly<Word> &in, int digit);

/// ModUp of every digit of `in` (NTT form over Q_l) at once, the digits'
/// coefficient form read from `coeff` (the same polynomial in coefficient
/// form) instead of transformed back: what BFV's multiplyRelin uses, whose
/// c_2 leaves the scale-and-round in coefficient form. Bit for bit
/// modUp(ctx, in, j) for every digit j; all digits' BConv rows and NTTs run
/// in one parallel loop.
template <typename Word>
std::vector<Poly<Word>> modUpAll(const Context<Word> &ctx, const Poly<Word> &in,
                                 const Poly<Word> &coeff);

/// Modulus switch down of a polynomial over B u D to B = `keep`, in either
/// form (the result has the input's form; KLSS key switching ends in
/// coefficient form and switches down before its single NTT), rounding: (x -
/// BConv_{D->B}([x]_D)) * D^-1 with the centred BConv, i.e. round(x / D) minus
/// the zero-mean conversion error u (|u| <= |D|/2; u = 0 when D is one prime).
/// ModDown (D = P), rescale (D = q_l) and their merged form (D = P q_l,
/// Cheddar 5.2) are this one operation.
/// plain_modulus t != 0 (BGV): the subtracted multiple of D is also 0 mod t,
///   (x - t BConv_{D->B}([x t^-1]_D)) * D^-1  (OpenFHE's ApproxModDown with
/// t), so the result is x D^-1 (mod t) exactly and differs from x / D by at
/// most t (|D| + 1) / 2: a BGV message m stays m, its factor times D^-1.
template <typename Word>
Poly<Word> modSwitchDown(const Context<Word> &ctx, const Poly<Word> &in,
                         const std::vector<int> &keep,
                         uint64_t plain_modulus = 0);

/// ModDown of an NTT-form polynomial over Q_l u P to Q_l, rounding:
///   (x - BConv_{P->Q_l}([x]_P)) * P^-1 with the centred BConv above, so
/// [x]_P is taken as its centred representative: the result is round(x / P)
/// minus the zero-mean conversion error u (|u| <= K/2).
template <typename Word>
Poly<Word> modDown(const Context<Word> &ctx, const Poly<Word> &in);

/// Rescale of an NTT-form polynomial over q_0..q_l by its last prime,
/// rounding: (x - r) * q_l^-1 over q_0..q_{l-1} with the centred remainder
/// r = [x + h]_{q_l} - h, h = (q_l - 1) / 2, coefficientwise: exactly
/// round(x / q_l).
template <typename Word> void rescale(const Context<Word> &ctx, Poly<Word> &p);

/// X -> X^galois (galois odd, modulo 2N), in either form.
template <typename Word>
Poly<Word> automorphism(const Context<Word> &ctx, const Poly<Word> &in,
                        uint64_t galois);

/// Index map of the NTT-form automorphism: out[j] = in[map[j]].
std::vector<uint32_t> automorphismNttIndex(int log_n, uint64_t galois);

// Elementwise ops over identical bases and forms (mul needs NTT form).
template <typename Word>
void addInPlace(const Context<Word> &ctx, Poly<Word> &a, const Poly<Word> &b);
template <typename Word>
void subInPlace(const Context<Word> &ctx, Poly<Word> &a, const Poly<Word> &b);
template <typename Word>
void negInPlace(const Context<Word> &ctx, Poly<Word> &a);
template <typename Word>
void mulInPlace(const Context<Word> &ctx, Poly<Word> &a, const Poly<Word> &b);
/// a *= c_i on limb i (one constant per limb, reduced mod that limb's prime).
template <typename Word>
void mulConstInPlace(const Context<Word> &ctx, Poly<Word> &a,
                     const std::vector<Word> &c);
/// a += c_i on every coefficient of limb i.
template <typename Word>
void addConstInPlace(const Context<Word> &ctx, Poly<Word> &a,
                     const std::vector<Word> &c);
/// acc += a * b (NTT form), the building block of key-switch inner products.
template <typename Word>
void mulAddInPlace(const Context<Word> &ctx, Poly<Word> &acc,
                   const Poly<Word> &a, const Poly<Word> &b);

/// Keeps the limbs whose global indices are in `keep` (a subset, any order).
template <typename Word>
Poly<Word> selectLimbs(const Poly<Word> &p, const std::vector<int> &keep);
/// Keeps q_0..q_level of a polynomial over q_0..q_m (m >= level).
template <typename Word> void dropToLevel(Poly<Word> &p, int level);

} // namespace ember::cpu
