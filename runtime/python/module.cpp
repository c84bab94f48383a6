// ember_runtime: the Ember runtime as a Python module, numpy in and out.
//
// Thin bindings only: every computation is a call into ember:: or
// ember::cpu::; this file converts arguments (numpy <-> Poly, bytes <->
// Bytes), keeps referenced objects alive and releases the GIL around the
// heavy calls. Polynomials cross the boundary as C-contiguous (limbs, N)
// arrays of the context's word type plus a basis (global modulus indices).
#include "bytes.h"
#include "ember/bfv.h"
#include "ember/bgv.h"
#include "ember/bgv_params.h"
#include "ember/ckks.h"
#include "ember/context.h"
#include "ember/errors.h"
#include "ember/primes.h"
#include "ember/random.h"
#include "ember/rns.h"
#include "ember/security.h"
#include "ember/serialize.h"
#include "ember/wipe.h"

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace ember;

namespace {

using ContextPtr = std::shared_ptr<Context64>;
using Release = py::call_guard<py::gil_scoped_release>;

// --- Exceptions -------------------------------------------------------------

PyObject *newException(py::module_ &m, const char *name, py::tuple bases,
                       const char *doc) {
  std::string full = std::string("ember_runtime.") + name;
  PyObject *type =
      PyErr_NewExceptionWithDoc(full.c_str(), doc, bases.ptr(), nullptr);
  if (!type)
    throw py::error_already_set();
  m.add_object(name, py::handle(type)); // the module holds a reference
  return type;
}

void registerExceptions(py::module_ &m) {
  // The types live as long as the interpreter (the module holds them).
  static PyObject *ember_error = nullptr, *invalid_argument = nullptr,
                  *security_error = nullptr, *level_mismatch = nullptr,
                  *scale_mismatch = nullptr, *missing_key = nullptr,
                  *serialization_error = nullptr;
  ember_error = newException(m, "EmberError",
                             py::make_tuple(py::handle(PyExc_RuntimeError)),
                             "Base of every error the Ember runtime raises.");
  py::handle base(ember_error);
  invalid_argument = newException(
      m, "InvalidArgument", py::make_tuple(base, py::handle(PyExc_ValueError)),
      "A malformed argument (wrong length, bad slot count, bad basis...).");
  security_error =
      newException(m, "SecurityError", py::make_tuple(base),
                   "Parameters below the requested security level.");
  level_mismatch = newException(
      m, "LevelMismatch", py::make_tuple(base),
      "Operands at different levels, or an operation the level forbids.");
  scale_mismatch = newException(m, "ScaleMismatch", py::make_tuple(base),
                                "Operands with different scales.");
  missing_key = newException(m, "MissingKey", py::make_tuple(base),
                             "A relinearization or Galois key is missing.");
  serialization_error = newException(
      m, "SerializationError", py::make_tuple(base),
      "A serialized object is truncated, corrupt, of another version or "
      "kind, or made for other parameters.");

  // Most derived first; ember::Error last.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const InvalidArgument &e) {
      PyErr_SetString(invalid_argument, e.what());
    } catch (const SecurityError &e) {
      PyErr_SetString(security_error, e.what());
    } catch (const LevelMismatch &e) {
      PyErr_SetString(level_mismatch, e.what());
    } catch (const ScaleMismatch &e) {
      PyErr_SetString(scale_mismatch, e.what());
    } catch (const MissingKey &e) {
      PyErr_SetString(missing_key, e.what());
    } catch (const SerializationError &e) {
      PyErr_SetString(serialization_error, e.what());
    } catch (const Error &e) {
      PyErr_SetString(ember_error, e.what());
    }
  });
}

// --- numpy <-> Poly ---------------------------------------------------------

template <typename Word>
using WordArray = py::array_t<Word, py::array::c_style | py::array::forcecast>;

template <typename Word>
void checkBasis(const Context<Word> &ctx, const std::vector<int> &basis) {
  for (int index : basis)
    if (index < 0 || index >= ctx.allModuliCount())
      throw InvalidArgument("modulus index " + std::to_string(index) +
                            " is outside [0, " +
                            std::to_string(ctx.allModuliCount()) + ")");
}

/// Copies a (limbs, N) array into a polynomial over `basis`; every residue
/// must be reduced modulo its limb's prime (the primitives' precondition).
template <typename Word>
Poly<Word> toPoly(const Context<Word> &ctx, const WordArray<Word> &array,
                  const std::vector<int> &basis, bool ntt) {
  checkBasis(ctx, basis);
  if (array.ndim() != 2 ||
      static_cast<size_t>(array.shape(0)) != basis.size() ||
      static_cast<size_t>(array.shape(1)) != ctx.n())
    throw InvalidArgument(
        "expected an array of shape (" + std::to_string(basis.size()) + ", " +
        std::to_string(ctx.n()) + ") (limbs x N), got ndim " +
        std::to_string(array.ndim()) +
        (array.ndim() == 2 ? " shape (" + std::to_string(array.shape(0)) +
                                 ", " + std::to_string(array.shape(1)) + ")"
                           : std::string()));
  Poly<Word> poly(basis, ctx.n(), ntt);
  std::memcpy(poly.data.data(), array.data(), poly.data.size() * sizeof(Word));
  for (size_t i = 0; i < poly.limbs(); ++i) {
    const Word q = static_cast<Word>(ctx.primes()[basis[i]]);
    const Word *limb = poly.limb(i);
    for (size_t j = 0; j < poly.n; ++j)
      if (limb[j] >= q)
        throw InvalidArgument("residue " + std::to_string(limb[j]) +
                              " at limb " + std::to_string(i) + ", index " +
                              std::to_string(j) + " is not reduced mod " +
                              std::to_string(q));
  }
  return poly;
}

template <typename Word> py::array_t<Word> toArray(const Poly<Word> &poly) {
  py::array_t<Word> out({poly.limbs(), poly.n});
  std::memcpy(out.mutable_data(), poly.data.data(),
              poly.data.size() * sizeof(Word));
  return out;
}

/// (polys, limbs, N) array of several polynomials over one basis.
template <typename Word>
py::array_t<Word> toArray3(const std::vector<Poly<Word>> &polys) {
  size_t limbs = polys.empty() ? 0 : polys[0].limbs();
  size_t n = polys.empty() ? 0 : polys[0].n;
  py::array_t<Word> out({polys.size(), limbs, n});
  Word *dst = out.mutable_data();
  for (const Poly<Word> &p : polys) {
    std::memcpy(dst, p.data.data(), p.data.size() * sizeof(Word));
    dst += p.data.size();
  }
  return out;
}

/// The primitives promise a result basis; a different one is a runtime bug
/// that the caller would otherwise misread silently.
template <typename Word>
void expectBasis(const Poly<Word> &p, const std::vector<int> &basis,
                 const char *op) {
  if (p.basis != basis)
    throw Error(std::string(op) +
                " returned a polynomial over an unexpected basis");
}

using python::fromBytes;
using python::toBytes;

/// A serialized buffer that is wiped when it goes out of scope if it holds
/// a secret key (the copies on the C++ side; Python's bytes are the
/// caller's).
struct SecretBytes {
  Bytes bytes;
  SecretBytes(Bytes b) : bytes(std::move(b)) {}
  SecretBytes(const SecretBytes &) = delete;
  SecretBytes &operator=(const SecretBytes &) = delete;
  ~SecretBytes() {
    if (holdsSecretKey(bytes))
      secureWipe(bytes);
  }
};

// --- Primitives -----------------------------------------------------------

/// ntt/intt for one word size under each name in `suffixes` ("" and "32" for
/// 32-bit words, so that both ntt32(ctx32, ...) and ntt(ctx32, ...) work).
template <typename Word>
void bindNtt(py::module_ &m, std::initializer_list<const char *> suffixes) {
  using Ctx = Context<Word>;
  using Arr = WordArray<Word>;
  auto ntt = [](const Ctx &ctx, const Arr &a, const std::vector<int> &basis) {
    Poly<Word> p = toPoly(ctx, a, basis, false);
    {
      py::gil_scoped_release release;
      cpu::ntt(ctx, p);
    }
    return toArray(p);
  };
  auto intt = [](const Ctx &ctx, const Arr &a, const std::vector<int> &basis) {
    Poly<Word> p = toPoly(ctx, a, basis, true);
    {
      py::gil_scoped_release release;
      cpu::intt(ctx, p);
    }
    return toArray(p);
  };
  for (const char *suffix : suffixes) {
    m.def((std::string("ntt") + suffix).c_str(), ntt, py::arg("ctx"),
          py::arg("coeffs"), py::arg("basis"),
          "Coefficient form (natural order) -> NTT form (bit-reversed "
          "evaluations out[k] = a(psi^(2*brev(k)+1))) of every limb.");
    m.def((std::string("intt") + suffix).c_str(), intt, py::arg("ctx"),
          py::arg("evals"), py::arg("basis"),
          "NTT form -> coefficient form of every limb.");
  }
}

/// The primitives of rns.h for one word size (the context picks the
/// overload: bconv(ctx32, ...) runs at 32-bit words).
template <typename Word> void bindPrimitives(py::module_ &m) {
  using Arr = WordArray<Word>;
  using Ctx = Context<Word>;
  using P = Poly<Word>;
  using Basis = std::vector<int>;

  // Each primitive: numpy -> Poly, the call without the GIL, a check of the
  // basis it promises, Poly -> numpy.
  auto run = [](const Ctx &ctx, const Arr &a, const Basis &in_basis, bool ntt,
                const Basis &out_basis, const char *name, auto &&fn) {
    P p = toPoly(ctx, a, in_basis, ntt);
    P out;
    {
      py::gil_scoped_release release;
      out = fn(p);
    }
    expectBasis(out, out_basis, name);
    return toArray(out);
  };

  m.def(
      "bconv",
      [run](const Ctx &ctx, const Arr &a, const Basis &from, const Basis &to) {
        checkBasis(ctx, to);
        return run(ctx, a, from, false, to, "bconv",
                   [&](const P &p) { return cpu::bconv(ctx, p, to); });
      },
      py::arg("ctx"), py::arg("coeffs"), py::arg("from_basis"),
      py::arg("to_basis"),
      "Fast base conversion of a coefficient-form polynomial with centred "
      "digits: x_c + u*B with |u| <= |B|/2 (ember/rns.h).");

  m.def(
      "mod_up",
      [run](const Ctx &ctx, const Arr &a, int level, int digit) {
        return run(ctx, a, ctx.qBasis(level), true, ctx.qpBasis(level),
                   "mod_up",
                   [&](const P &p) { return cpu::modUp(ctx, p, digit); });
      },
      py::arg("ctx"), py::arg("ntt_poly"), py::arg("level"), py::arg("digit"),
      "ModUp of digit `digit` of an NTT-form polynomial over q_basis(level); "
      "returns NTT form over qp_basis(level).");

  m.def(
      "bconv_exact",
      [run](const Ctx &ctx, const Arr &a, const Basis &from, const Basis &to) {
        checkBasis(ctx, to);
        return run(ctx, a, from, false, to, "bconv_exact",
                   [&](const P &p) { return cpu::bconvExact(ctx, p, to); });
      },
      py::arg("ctx"), py::arg("coeffs"), py::arg("from_basis"),
      py::arg("to_basis"),
      "Exact base conversion of a coefficient-form polynomial: the centred "
      "representative in (-B/2, B/2) reduced mod every target (ember/rns.h).");

  m.def(
      "klss_mod_up",
      [run](const Ctx &ctx, const Arr &a, int level, int digit) {
        const Basis limbs = ctx.digitLimbs(digit, level);
        P p = toPoly(ctx, a, ctx.qBasis(level), true);
        P part = cpu::selectLimbs(p, limbs);
        P out;
        {
          py::gil_scoped_release release;
          out = cpu::klssModUp(ctx, part);
        }
        return toArray(out);
      },
      py::arg("ctx"), py::arg("ntt_poly"), py::arg("level"), py::arg("digit"),
      "KLSS step 1 for digit `digit` of an NTT-form polynomial over "
      "q_basis(level): exact conversion to T, NTT form over t_basis().");

  m.def(
      "mod_down",
      [run](const Ctx &ctx, const Arr &a, int level) {
        return run(ctx, a, ctx.qpBasis(level), true, ctx.qBasis(level),
                   "mod_down",
                   [&](const P &p) { return cpu::modDown(ctx, p); });
      },
      py::arg("ctx"), py::arg("ntt_poly"), py::arg("level"),
      "ModDown of an NTT-form polynomial over qp_basis(level) to "
      "q_basis(level): about round(x / P) (ember/rns.h).");

  m.def(
      "mod_switch_down",
      [run](const Ctx &ctx, const Arr &a, const Basis &basis,
            const Basis &keep) {
        checkBasis(ctx, keep);
        return run(
            ctx, a, basis, true, keep, "mod_switch_down",
            [&](const P &p) { return cpu::modSwitchDown(ctx, p, keep); });
      },
      py::arg("ctx"), py::arg("ntt_poly"), py::arg("basis"), py::arg("keep"),
      "Modulus switch of an NTT-form polynomial over `basis` = keep u D down "
      "to `keep`: about round(x / D) (ember/rns.h).");

  m.def(
      "rescale",
      [run](const Ctx &ctx, const Arr &a, int level) {
        return run(ctx, a, ctx.qBasis(level), true, ctx.qBasis(level - 1),
                   "rescale", [&](P p) {
                     cpu::rescale(ctx, p);
                     return p;
                   });
      },
      py::arg("ctx"), py::arg("ntt_poly"), py::arg("level"),
      "Rescale of an NTT-form polynomial over q_basis(level) by q_level, "
      "rounding; returns NTT form over q_basis(level - 1).");

  m.def(
      "automorphism",
      [run](const Ctx &ctx, const Arr &a, const Basis &basis, bool ntt,
            uint64_t galois) {
        return run(ctx, a, basis, ntt, basis, "automorphism", [&](const P &p) {
          return cpu::automorphism(ctx, p, galois);
        });
      },
      py::arg("ctx"), py::arg("poly"), py::arg("basis"), py::arg("ntt"),
      py::arg("galois"), "X -> X^galois, in coefficient or NTT form.");

  if (std::is_same_v<Word, uint64_t>)
    m.def(
        "automorphism_ntt_index",
        [](int log_n, uint64_t galois) {
          std::vector<uint32_t> map = cpu::automorphismNttIndex(log_n, galois);
          py::array_t<uint32_t> out(map.size());
          std::memcpy(out.mutable_data(), map.data(),
                      map.size() * sizeof(uint32_t));
          return out;
        },
        py::arg("log_n"), py::arg("galois"),
        "Index map of the NTT-form automorphism: out[j] = in[map[j]].");

  // Elementwise arithmetic (the same form on both operands).
  auto binary = [](auto op) {
    return [op](const Ctx &ctx, const Arr &a, const Arr &b, const Basis &basis,
                bool ntt) {
      P x = toPoly(ctx, a, basis, ntt);
      P y = toPoly(ctx, b, basis, ntt);
      {
        py::gil_scoped_release release;
        op(ctx, x, y);
      }
      return toArray(x);
    };
  };
  m.def("poly_add",
        binary([](auto &c, auto &x, auto &y) { cpu::addInPlace(c, x, y); }),
        py::arg("ctx"), py::arg("a"), py::arg("b"), py::arg("basis"),
        py::arg("ntt") = true, "a + b limb by limb.");
  m.def("poly_sub",
        binary([](auto &c, auto &x, auto &y) { cpu::subInPlace(c, x, y); }),
        py::arg("ctx"), py::arg("a"), py::arg("b"), py::arg("basis"),
        py::arg("ntt") = true, "a - b limb by limb.");
  m.def("poly_mul",
        binary([](auto &c, auto &x, auto &y) { cpu::mulInPlace(c, x, y); }),
        py::arg("ctx"), py::arg("a"), py::arg("b"), py::arg("basis"),
        py::arg("ntt") = true, "Pointwise product of NTT-form polynomials.");
  m.def(
      "poly_neg",
      [](const Ctx &ctx, const Arr &a, const Basis &basis, bool ntt) {
        P x = toPoly(ctx, a, basis, ntt);
        cpu::negInPlace(ctx, x);
        return toArray(x);
      },
      py::arg("ctx"), py::arg("a"), py::arg("basis"), py::arg("ntt") = true);
  m.def(
      "poly_mul_const",
      [](const Ctx &ctx, const Arr &a, const Basis &basis,
         const std::vector<Word> &c, bool ntt) {
        P x = toPoly(ctx, a, basis, ntt);
        cpu::mulConstInPlace(ctx, x, c);
        return toArray(x);
      },
      py::arg("ctx"), py::arg("a"), py::arg("basis"), py::arg("constants"),
      py::arg("ntt") = true, "a * c_i on limb i.");
  m.def(
      "poly_add_const",
      [](const Ctx &ctx, const Arr &a, const Basis &basis,
         const std::vector<Word> &c, bool ntt) {
        P x = toPoly(ctx, a, basis, ntt);
        cpu::addConstInPlace(ctx, x, c);
        return toArray(x);
      },
      py::arg("ctx"), py::arg("a"), py::arg("basis"), py::arg("constants"),
      py::arg("ntt") = true, "a + c_i on every coefficient of limb i.");
}

// --- Contexts ----------------------------------------------------------------

template <typename Word, typename Class> void bindContextCommon(Class &cls) {
  using Ctx = Context<Word>;
  cls.def_property_readonly("spec", &Ctx::spec)
      .def_property_readonly("n", &Ctx::n)
      .def_property_readonly("log_n", &Ctx::logN)
      .def_property_readonly("slots_max", &Ctx::slotsMax)
      .def_property_readonly("max_level", &Ctx::maxLevel)
      .def_property_readonly("q_count", &Ctx::qCount)
      .def_property_readonly("p_count", &Ctx::pCount)
      .def_property_readonly("scale_primes", &Ctx::scalePrimes,
                             "Primes a rescale divides by (2: double-prime "
                             "scaling).")
      .def_property_readonly("moduli_count", &Ctx::moduliCount)
      .def_property_readonly("primes", &Ctx::primes)
      .def_property_readonly("hash",
                             [](const Ctx &c) {
                               const auto &h = c.hash();
                               return py::bytes(
                                   reinterpret_cast<const char *>(h.data()),
                                   h.size());
                             })
      .def(
          "psi",
          [](const Ctx &c, int index) {
            if (index < 0 || index >= c.allModuliCount())
              throw InvalidArgument("modulus index out of range");
            return static_cast<uint64_t>(c.ntt(index).psi());
          },
          py::arg("index"),
          "The primitive 2N-th root of unity the NTT of modulus `index` "
          "uses.")
      .def("describe", &Ctx::describe)
      .def("__repr__",
           [](const Ctx &c) { return "<Context " + c.describe() + ">"; })
      .def("digit_count", &Ctx::digitCount, py::arg("level"))
      .def("digit_limbs", &Ctx::digitLimbs, py::arg("digit"), py::arg("level"))
      .def("q_basis", &Ctx::qBasis, py::arg("level"))
      .def("p_basis", &Ctx::pBasis)
      .def("qp_basis", &Ctx::qpBasis, py::arg("level"))
      .def_property_readonly("all_moduli_count", &Ctx::allModuliCount)
      .def_property_readonly("t_count", &Ctx::tCount)
      .def_property_readonly("has_klss", &Ctx::hasKlss)
      .def_property_readonly("klss_gamma", &Ctx::klssGamma)
      .def("t_basis", &Ctx::tBasis)
      .def("klss_group_count", &Ctx::klssGroupCount, py::arg("level"))
      .def("klss_group_limbs", &Ctx::klssGroupLimbs, py::arg("group"),
           py::arg("level"))
      .def_property_readonly("klss_t_bits", &Ctx::klssTBits)
      .def_property_readonly("klss_t_bits_needed", &Ctx::klssTBitsNeeded);
}

void bindParams(py::module_ &m) {
  py::enum_<Security>(m, "Security")
      .value("k128", Security::k128)
      .value("INSECURE_TEST_ONLY", Security::kInsecureTestOnly);

  py::class_<ParamSpec>(m, "ParamSpec",
                        "What a user asks for: ring degree, prime sizes, "
                        "dnum, scale, secret distribution, security.")
      .def(py::init([](int log_n, std::vector<int> q_bits,
                       std::vector<int> p_bits, int dnum, double log_scale,
                       int hamming_weight, bool insecure, std::string name,
                       int klss_gamma, std::vector<int> t_bits) {
             ParamSpec s;
             s.klss_gamma = klss_gamma;
             s.t_bits = std::move(t_bits);
             s.name = std::move(name);
             s.log_n = log_n;
             s.q_bits = std::move(q_bits);
             s.p_bits = std::move(p_bits);
             s.dnum = dnum;
             s.log_scale = log_scale;
             s.hamming_weight = hamming_weight;
             s.security =
                 insecure ? Security::kInsecureTestOnly : Security::k128;
             return s;
           }),
           py::kw_only(), py::arg("log_n"), py::arg("q_bits"),
           py::arg("p_bits"), py::arg("dnum") = 1, py::arg("log_scale") = 40.0,
           py::arg("hamming_weight") = 0, py::arg("insecure") = false,
           py::arg("name") = "custom", py::arg("klss_gamma") = 0,
           py::arg("t_bits") = std::vector<int>{})
      .def_static(
          "named",
          [](const std::string &name) {
            ParamSpec s;
            if (!namedParamSpec(name, s))
              throw InvalidArgument("unknown parameter set '" + name +
                                    "' (expected A, B, C, athena40, "
                                    "athena24, athena47 or cheddar32)");
            return s;
          },
          py::arg("name"),
          "Parameter set A, B or C of BENCHMARKS.md, the Athena Table 5 "
          "shapes athena40 / athena24, or cheddar32 (Cheddar's 32-bit shape, "
          "double-prime scaling; for Context32) (ember/security.h).")
      .def_readwrite("name", &ParamSpec::name)
      .def_readwrite("log_n", &ParamSpec::log_n)
      .def_readwrite("q_bits", &ParamSpec::q_bits)
      .def_readwrite("p_bits", &ParamSpec::p_bits)
      .def_readwrite("dnum", &ParamSpec::dnum)
      .def_readwrite("log_scale", &ParamSpec::log_scale)
      .def_readwrite("hamming_weight", &ParamSpec::hamming_weight)
      .def_readwrite("security", &ParamSpec::security)
      .def_readwrite("klss_gamma", &ParamSpec::klss_gamma)
      .def_readwrite("t_bits", &ParamSpec::t_bits)
      .def_readwrite("scale_primes", &ParamSpec::scale_primes,
                     "Primes per rescale: 1, or 2 for double-prime scaling "
                     "(q_bits: q_0 then pairs).")
      .def_property(
          "insecure",
          [](const ParamSpec &s) {
            return s.security == Security::kInsecureTestOnly;
          },
          [](ParamSpec &s, bool insecure) {
            s.security =
                insecure ? Security::kInsecureTestOnly : Security::k128;
          })
      .def_property_readonly("log_qp", &ParamSpec::logQP)
      .def_property_readonly("max_level", &ParamSpec::maxLevel)
      .def("__repr__", [](const ParamSpec &s) {
        return "<ParamSpec " + s.name + " log_n=" + std::to_string(s.log_n) +
               " Q=" + std::to_string(s.q_bits.size()) +
               " P=" + std::to_string(s.p_bits.size()) +
               " dnum=" + std::to_string(s.dnum) +
               " log_qp=" + std::to_string(s.logQP()) +
               (s.security == Security::kInsecureTestOnly ? " INSECURE" : "") +
               ">";
      });

  m.def("max_log_qp_128", &maxLogQP128, py::arg("log_n"),
        "Largest log2(QP) with 128-bit security for a ternary secret (0 "
        "outside the table).");
  m.def("max_log_qp_sparse_128", &maxLogQPSparse128, py::arg("log_n"),
        py::arg("h"),
        "Largest log2(QP) with 128-bit security for a secret of fixed "
        "Hamming weight h (0: no published figure covers it).");
  m.def("prime_bits", &primeBits, py::arg("q"),
        "Bits of a prime as the security checks count them (bit length).");
  m.def(
      "log_qp",
      [](const std::vector<uint64_t> &q, const std::vector<uint64_t> &p) {
        return logQP(q, p);
      },
      py::arg("q_primes"), py::arg("p_primes"),
      "log2(QP) as the security checks count it: the sum of the primes' "
      "bit lengths.");
  m.def("generate_double_prime_chain",
        static_cast<std::vector<uint64_t> (*)(int, int, int, int, int, size_t)>(
            &generateDoublePrimeChain),
        py::arg("log_n"), py::arg("q0_bits"), py::arg("pairs"),
        py::arg("log_scale"), py::arg("max_bits") = 30, py::arg("window") = 64,
        "Double-prime scaling's Q chain: q_0, then pairs of NTT primes below "
        "2^max_bits whose products track the scale 2^log_scale (top pair "
        "last; ember/primes.h).");
  m.def("generate_double_prime_chain",
        static_cast<std::vector<uint64_t> (*)(
            int, int, const std::vector<int> &, int, size_t)>(
            &generateDoublePrimeChain),
        py::arg("log_n"), py::arg("q0_bits"), py::arg("pair_log_scales"),
        py::arg("max_bits") = 30, py::arg("window") = 64,
        "The chain with a scale per pair (the base pair first): runs of "
        "equal scales, each tracked from its top as ckks levelScales reads "
        "it.");
  m.def("generate_ntt_primes", &generateNttPrimes, py::arg("log_n"),
        py::arg("bits"), py::arg("exclude") = std::vector<uint64_t>{},
        "Distinct primes = 1 mod 2N of the given bit sizes.");
  m.def("is_prime", &isPrime, py::arg("n"));
  m.def("digit_sizes",
        &digitSizes<std::vector<uint64_t>, std::vector<uint64_t>>,
        py::arg("q_primes"), py::arg("p_primes"), py::arg("dnum"));
  m.def("balanced_digit_sizes", &balancedDigitSizes, py::arg("q_bits"),
        py::arg("dnum"));
  m.def("check_security", &checkSecurity, py::arg("spec"));
  m.def("bit_reverse", &bitReverse, py::arg("x"), py::arg("bits"));

  py::class_<Context64, ContextPtr> ctx64(
      m, "Context",
      "RNS context with 64-bit words: primes, NTT tables, digit layout.");
  ctx64
      .def(py::init([](const ParamSpec &spec) {
             py::gil_scoped_release release;
             return std::make_shared<Context64>(spec);
           }),
           py::arg("spec"))
      .def(py::init([](const ParamSpec &spec, const std::vector<uint64_t> &q,
                       const std::vector<uint64_t> &p,
                       const std::vector<uint64_t> &t) {
             py::gil_scoped_release release;
             return std::make_shared<Context64>(spec, q, p, t);
           }),
           py::arg("spec"), py::arg("q_primes"), py::arg("p_primes"),
           py::arg("t_primes") = std::vector<uint64_t>{});
  bindContextCommon<uint64_t>(ctx64);

  py::class_<Context32, std::shared_ptr<Context32>> ctx32(
      m, "Context32",
      "RNS context with 32-bit words (primes below 2^30): the word-generic "
      "primitives; with scale_primes = 2, double-prime scaling's chain.");
  ctx32.def(py::init([](const ParamSpec &spec) {
              py::gil_scoped_release release;
              return std::make_shared<Context32>(spec);
            }),
            py::arg("spec"),
            "Primes generated from the spec (generateDoublePrimeChain for Q "
            "when spec.scale_primes is 2).");
  ctx32.def(py::init([](const ParamSpec &spec, const std::vector<uint64_t> &q,
                        const std::vector<uint64_t> &p,
                        const std::vector<uint64_t> &t) {
              py::gil_scoped_release release;
              return std::make_shared<Context32>(spec, q, p, t);
            }),
            py::arg("spec"), py::arg("q_primes"),
            py::arg("p_primes") = std::vector<uint64_t>{},
            py::arg("t_primes") = std::vector<uint64_t>{});
  bindContextCommon<uint32_t>(ctx32);
}

// --- CKKS --------------------------------------------------------------------

/// Own what the wrapped class holds by reference (the context, the Prng).
/// The evaluation keys a compiled program runs with, at one word size.
template <typename Word>
void bindEvaluationKeys(py::module_ &m, const char *name) {
  using K = BasicEvaluationKeys<Word>;
  const char *doc = sizeof(Word) == 8
                        ? "The evaluation keys of a compiled program."
                        : "The evaluation keys of a compiled 32-bit program.";
  py::class_<K>(m, name, doc)
      .def(py::init(
               [](std::optional<BasicRelinKey<Word>> relin,
                  std::optional<BasicGaloisKeys<Word>> galois,
                  std::optional<BasicKlssRelinKey<Word>> klss_relin,
                  std::optional<BasicKlssGaloisKeys<Word>> klss_galois,
                  std::optional<BasicEncapsulationKeys<Word>> encapsulation) {
                 K k;
                 if (encapsulation) {
                   k.has_encapsulation = true;
                   k.encapsulation = std::move(*encapsulation);
                 }
                 if (relin) {
                   k.has_relin = true;
                   k.relin = std::move(*relin);
                 }
                 if (galois)
                   k.galois = std::move(*galois);
                 if (klss_relin) {
                   k.has_klss_relin = true;
                   k.klss_relin = std::move(*klss_relin);
                 }
                 if (klss_galois)
                   k.klss_galois = std::move(*klss_galois);
                 return k;
               }),
           py::arg("relin") = py::none(), py::arg("galois") = py::none(),
           py::arg("klss_relin") = py::none(),
           py::arg("klss_galois") = py::none(),
           py::arg("encapsulation") = py::none())
      .def_readonly("has_encapsulation", &K::has_encapsulation)
      .def_property_readonly(
          "encapsulation",
          [](const K &k) -> const BasicEncapsulationKeys<Word> & {
            if (!k.has_encapsulation)
              throw MissingKey("these evaluation keys hold no encapsulation "
                               "keys");
            return k.encapsulation;
          },
          py::return_value_policy::reference_internal)
      .def_readonly("has_klss_relin", &K::has_klss_relin)
      .def_property_readonly(
          "klss_relin",
          [](const K &k) -> const BasicKlssRelinKey<Word> & {
            if (!k.has_klss_relin)
              throw MissingKey("these evaluation keys hold no KLSS "
                               "relinearization key");
            return k.klss_relin;
          },
          py::return_value_policy::reference_internal)
      .def_readonly("klss_galois", &K::klss_galois)
      .def_readonly("has_relin", &K::has_relin)
      .def_property_readonly(
          "relin",
          [](const K &k) -> const BasicRelinKey<Word> & {
            if (!k.has_relin)
              throw MissingKey("these evaluation keys hold no "
                               "relinearization key");
            return k.relin;
          },
          py::return_value_policy::reference_internal)
      .def_readonly("galois", &K::galois);
}

template <typename Word> struct PyEncoderT {
  std::shared_ptr<Context<Word>> ctx;
  std::unique_ptr<BasicEncoder<Word>> enc;
};
template <typename Word> struct PyKeyGeneratorT {
  std::shared_ptr<Prng> prng;
  std::unique_ptr<BasicKeyGenerator<Word>> kg;
};
template <typename Word> struct PyEncryptorT {
  std::shared_ptr<Prng> prng;
  std::unique_ptr<BasicEncryptor<Word>> enc;
};
using PyKeyGenerator = PyKeyGeneratorT<Word64>;

std::shared_ptr<Prng> prngOrDefault(std::shared_ptr<Prng> prng) {
  return prng ? prng : std::make_shared<Prng>();
}

template <typename T> void bindCopy(py::class_<T> &cls) {
  cls.def("copy", [](const T &x) { return T(x); })
      .def("__copy__", [](const T &x) { return T(x); })
      .def("__deepcopy__", [](const T &x, py::dict) { return T(x); });
}

/// A map of Galois keys by element (hybrid GaloisKeys or KlssGaloisKeys).
template <typename Keys> void bindGaloisKeys(py::module_ &m, const char *name) {
  using Key = typename decltype(Keys::keys)::mapped_type;
  py::class_<Keys>(m, name)
      .def(py::init<>())
      .def("has", &Keys::has, py::arg("galois"))
      .def("__contains__", &Keys::has)
      .def("__len__", [](const Keys &g) { return g.keys.size(); })
      .def_property_readonly("elements",
                             [](const Keys &g) {
                               std::vector<uint64_t> out;
                               for (const auto &kv : g.keys)
                                 out.push_back(kv.first);
                               return out;
                             })
      .def(
          "__getitem__",
          [](const Keys &g, uint64_t galois) -> const Key & {
            auto it = g.keys.find(galois);
            if (it == g.keys.end())
              throw MissingKey("no Galois key for element " +
                               std::to_string(galois));
            return it->second;
          },
          py::return_value_policy::reference_internal)
      .def(
          "add",
          [](Keys &g, uint64_t galois, const Key &k) { g.keys[galois] = k; },
          py::arg("galois"), py::arg("key"));
}

/// Key switching of d (NTT form over q_basis(level)) with a hybrid or KLSS
/// key, as a (2, limbs, N) array.
template <typename Key>
py::array_t<uint64_t> keySwitchArray(const Evaluator &e, const Context64 &ctx,
                                     const WordArray<uint64_t> &d, int level,
                                     const Key &key) {
  Poly64 p = toPoly(ctx, d, ctx.qBasis(level), true);
  std::pair<Poly64, Poly64> out;
  {
    py::gil_scoped_release release;
    out = e.keySwitch(p, key);
  }
  return toArray3<Word64>({out.first, out.second});
}

/// Integers of any size and sign, reduced mod t (floats are refused).
std::vector<int64_t> bgvIntegers(const py::object &input, uint64_t t) {
  py::module_ np = py::module_::import("numpy");
  py::array values = np.attr("asarray")(input);
  const char kind = values.dtype().kind();
  if (values.ndim() != 1 || (kind != 'i' && kind != 'u' && kind != 'O'))
    throw InvalidArgument("BGV and BFV encode a 1-D array of integers");
  py::array reduced = np.attr("mod")(values.attr("astype")("object"), t)
                          .attr("astype")("int64");
  auto a =
      py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(
          reduced);
  return std::vector<int64_t>(a.data(), a.data() + a.size());
}

py::array_t<uint64_t> uint64Array(const std::vector<uint64_t> &v) {
  py::array_t<uint64_t> out(v.size());
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

/// BFV (64-bit words): the encoder and the HPS evaluator.
void bindBfv(py::module_ &m) {
  m.def(
      "choose_bgv_params",
      [](const std::string &scheme, int depth, uint64_t t, size_t slots) {
        if (scheme != "bgv" && scheme != "bfv")
          throw InvalidArgument("scheme must be 'bgv' or 'bfv', got '" +
                                scheme + "'");
        return bgv::chooseParams(scheme == "bfv" ? bgv::Scheme::kBfv
                                                 : bgv::Scheme::kBgv,
                                 depth, t, slots);
      },
      py::arg("scheme"), py::arg("depth"), py::arg("t"), py::arg("slots"),
      "128-bit BGV or BFV parameters for a multiplicative depth, a "
      "plaintext modulus and a slot count (ember/bgv_params.h).");
  struct PyBfvEncoder {
    std::shared_ptr<Context64> ctx;
    std::unique_ptr<BfvEncoder> enc;
  };
  py::class_<PyBfvEncoder>(
      m, "BfvEncoder",
      "BFV encoding over a prime t = 1 (mod 2N): encode() gives Delta m "
      "(encryption, add_plain), encode_multiplier() the centred m "
      "(mul_plain); decode() scales a decryption by t/Q and rounds.")
      .def(py::init([](std::shared_ptr<Context64> ctx, uint64_t t) {
             auto out = std::make_unique<PyBfvEncoder>();
             out->enc = std::make_unique<BfvEncoder>(*ctx, t);
             out->ctx = std::move(ctx);
             return out;
           }),
           py::arg("ctx"), py::arg("t"))
      .def_property_readonly(
          "plain_modulus",
          [](const PyBfvEncoder &e) { return e.enc->plainModulus(); })
      .def_property_readonly(
          "delta", [](const PyBfvEncoder &e) { return e.enc->delta(); })
      .def(
          "encode",
          [](const PyBfvEncoder &e, const py::object &input,
             std::optional<size_t> slots) {
            std::vector<int64_t> v = bgvIntegers(input, e.enc->plainModulus());
            const size_t s = slots.value_or(v.size());
            py::gil_scoped_release release;
            return e.enc->encode(v, s);
          },
          py::arg("values"), py::arg("slots") = py::none())
      .def(
          "encode_multiplier",
          [](const PyBfvEncoder &e, const py::object &input,
             std::optional<size_t> slots) {
            std::vector<int64_t> v = bgvIntegers(input, e.enc->plainModulus());
            const size_t s = slots.value_or(v.size());
            py::gil_scoped_release release;
            return e.enc->encodeMultiplier(v, s);
          },
          py::arg("values"), py::arg("slots") = py::none())
      .def(
          "decode",
          [](const PyBfvEncoder &e, const Plaintext &pt) {
            std::vector<uint64_t> v;
            {
              py::gil_scoped_release release;
              v = e.enc->decode(pt);
            }
            return uint64Array(v);
          },
          py::arg("pt"))
      .def(
          "noise_budget",
          [](const PyBfvEncoder &e, const Plaintext &pt) {
            py::gil_scoped_release release;
            return e.enc->noiseBudget(pt);
          },
          py::arg("pt"));
  using E = BfvEvaluator;
  py::class_<E>(m, "BfvEvaluator",
                "BFV evaluation at the full modulus; multiply is the HPS "
                "tensor product over Q u R, multiply_behz the BEHZ one over "
                "the same primes (both decrypt to the product; their "
                "residues differ).")
      .def(py::init<const Context64 &, uint64_t>(), py::arg("ctx"),
           py::arg("t"), py::keep_alive<1, 2>())
      .def_property_readonly("aux_primes", &E::auxPrimes)
      .def("add", &E::add, py::arg("a"), py::arg("b"), Release())
      .def("sub", &E::sub, py::arg("a"), py::arg("b"), Release())
      .def("negate", &E::negate, py::arg("a"), Release())
      .def("add_plain", &E::addPlain, py::arg("a"), py::arg("pt"), Release())
      .def("sub_plain", &E::subPlain, py::arg("a"), py::arg("pt"), Release())
      .def("mul_plain", &E::mulPlain, py::arg("a"), py::arg("pt"), Release())
      .def("add_int", &E::addInt, py::arg("a"), py::arg("c"), Release())
      .def("mul_int", &E::mulInt, py::arg("a"), py::arg("c"), Release())
      .def("multiply", &E::multiply, py::arg("a"), py::arg("b"), Release())
      .def("relinearize", &E::relinearize, py::arg("a"), py::arg("rk"),
           Release())
      .def("multiply_relin", &E::multiplyRelin, py::arg("a"), py::arg("b"),
           py::arg("rk"), Release())
      .def("multiply_behz", &E::multiplyBehz, py::arg("a"), py::arg("b"),
           Release())
      .def("multiply_relin_behz", &E::multiplyRelinBehz, py::arg("a"),
           py::arg("b"), py::arg("rk"), Release())
      .def("rotate", &E::rotate, py::arg("a"), py::arg("k"), py::arg("keys"),
           Release());
}

/// BGV at one word: the encoder over t and the evaluator; ciphertexts and
/// plaintexts are the CKKS classes with `scale` holding the factor mu.
template <typename Word, typename Name>
void bindBgvWord(py::module_ &m, const Name &name) {
  using Pt = BasicPlaintext<Word>;
  using CtxPtr = std::shared_ptr<Context<Word>>;
  struct PyBgvEncoder {
    CtxPtr ctx;
    std::unique_ptr<BasicBgvEncoder<Word>> enc;
  };
  auto integers = bgvIntegers;
  auto toNumpy = uint64Array;
  py::class_<PyBgvEncoder>(
      m, name("BgvEncoder").c_str(),
      "BGV batch encoding over a prime t = 1 (mod 2N): slot vectors of "
      "integers mod t, rotations by Galois elements 5^k.")
      .def(py::init([](CtxPtr ctx, uint64_t t) {
             auto out = std::make_unique<PyBgvEncoder>();
             out->enc = std::make_unique<BasicBgvEncoder<Word>>(*ctx, t);
             out->ctx = std::move(ctx);
             return out;
           }),
           py::arg("ctx"), py::arg("t"))
      .def_property_readonly(
          "plain_modulus",
          [](const PyBgvEncoder &e) { return e.enc->plainModulus(); })
      .def(
          "encode",
          [integers](const PyBgvEncoder &e, const py::object &input,
                     std::optional<int> level, std::optional<size_t> slots,
                     uint64_t factor) {
            std::vector<int64_t> v = integers(input, e.enc->plainModulus());
            const int l = level.value_or(e.ctx->maxLevel());
            const size_t s = slots.value_or(v.size());
            py::gil_scoped_release release;
            return e.enc->encode(v, l, s, factor);
          },
          py::arg("values"), py::arg("level") = py::none(),
          py::arg("slots") = py::none(), py::arg("factor") = 1,
          "Encodes integers (taken mod t) in `slots` slots (default their "
          "count) at `level` (default max_level) with factor mu (default "
          "1; add_plain needs the ciphertext's).")
      .def(
          "decode",
          [toNumpy](const PyBgvEncoder &e, const Pt &pt) {
            std::vector<uint64_t> v;
            {
              py::gil_scoped_release release;
              v = e.enc->decode(pt);
            }
            return toNumpy(v);
          },
          py::arg("pt"),
          "The slot values in [0, t) of an exact decryption (uint64 array).")
      .def(
          "noise_budget",
          [](const PyBgvEncoder &e, const Pt &pt) {
            py::gil_scoped_release release;
            return e.enc->noiseBudget(pt);
          },
          py::arg("pt"),
          "Bits of noise budget left in an exact decryption (0: "
          "decryption fails).")
      .def(
          "encode_coefficients",
          [integers, toNumpy](const PyBgvEncoder &e, const py::object &input,
                              std::optional<size_t> slots) {
            std::vector<int64_t> v = integers(input, e.enc->plainModulus());
            return toNumpy(
                e.enc->encodeCoefficients(v, slots.value_or(v.size())));
          },
          py::arg("values"), py::arg("slots") = py::none(),
          "The plaintext polynomial's coefficients in [0, t).")
      .def(
          "decode_coefficients",
          [toNumpy](const PyBgvEncoder &e,
                    const std::vector<uint64_t> &coefficients, size_t slots) {
            return toNumpy(e.enc->decodeCoefficients(coefficients, slots));
          },
          py::arg("coefficients"), py::arg("slots"));

  using E = BasicBgvEvaluator<Word>;
  py::class_<E>(m, name("BgvEvaluator").c_str(),
                "BGV evaluation: operands at different levels or factors are "
                "aligned first; ciphertexts' `scale` is the factor mu.")
      .def(py::init<const Context<Word> &, uint64_t>(), py::arg("ctx"),
           py::arg("t"), py::keep_alive<1, 2>())
      .def_property_readonly("plain_modulus", &E::plainModulus)
      .def("add", &E::add, py::arg("a"), py::arg("b"), Release())
      .def("sub", &E::sub, py::arg("a"), py::arg("b"), Release())
      .def("negate", &E::negate, py::arg("a"), Release())
      .def("add_plain", &E::addPlain, py::arg("a"), py::arg("pt"), Release())
      .def("sub_plain", &E::subPlain, py::arg("a"), py::arg("pt"), Release())
      .def("mul_plain", &E::mulPlain, py::arg("a"), py::arg("pt"), Release())
      .def("add_int", &E::addInt, py::arg("a"), py::arg("c"), Release())
      .def("mul_int", &E::mulInt, py::arg("a"), py::arg("c"), Release())
      .def("multiply", &E::multiply, py::arg("a"), py::arg("b"), Release())
      .def("relinearize", &E::relinearize, py::arg("a"), py::arg("rk"),
           Release())
      .def("multiply_relin", &E::multiplyRelin, py::arg("a"), py::arg("b"),
           py::arg("rk"), Release(),
           "Tensor, relinearization and a modulus switch (one level down).")
      .def("mod_switch", &E::modSwitch, py::arg("a"), Release())
      .def("mod_switch_to", &E::modSwitchTo, py::arg("a"), py::arg("level"),
           Release())
      .def("rotate", &E::rotate, py::arg("a"), py::arg("k"), py::arg("keys"),
           Release())
      .def("normalize_factor", &E::normalizeFactor, py::arg("a"), Release());
}

/// The classes of bindCkksWord that the 64-bit extras extend.
/// Bootstrapping's encapsulation keys at one word (EncapsulationKeys,
/// EncapsulationKeys32) and the key generator's method for them.
template <typename Word>
void bindEncapsulationKeys(py::module_ &m, const std::string &sfx,
                           py::class_<PyKeyGeneratorT<Word>> &keygen) {
  using E = BasicEncapsulationKeys<Word>;
  py::class_<E>(m, ("EncapsulationKeys" + sfx).c_str(),
                "Bootstrapping's sparse-secret encapsulation keys: to_sparse "
                "(s -> s', at Q_0 p_0, one digit per limb of Q_0) and "
                "from_sparse (s' -> s).")
      .def_readonly("to_sparse", &E::to_sparse)
      .def_readonly("from_sparse", &E::from_sparse);
  keygen.def(
      "encapsulation_keys",
      [](PyKeyGeneratorT<Word> &g, int hamming_weight) {
        return g.kg->encapsulationKeys(hamming_weight);
      },
      py::arg("hamming_weight"), Release(),
      "Bootstrapping's encapsulation keys for a fresh ephemeral secret "
      "of this Hamming weight (SecurityError when Q_0 p_0 is too large "
      "for it).");
}

/// The KLSS forms at one word size (KlssKey, KlssRelinKey, KlssGaloisKeys
/// with the suffix), the public transformation from a hybrid key and the
/// key generator's methods for them.
template <typename Word>
void bindKlss(py::module_ &m, const std::string &sfx,
              py::class_<PyKeyGeneratorT<Word>> &keygen) {
  using K = BasicKlssKey<Word>;
  using R = BasicKlssRelinKey<Word>;
  py::class_<K>(m, ("KlssKey" + sfx).c_str(),
                "KLSS form of a switching key: digits x groups pairs over the "
                "temporary basis T (ember/ckks.h).")
      .def_readonly("digits", &K::digits)
      .def_readonly("groups", &K::groups)
      .def(
          "residues",
          [](const K &k, int digit, int group) {
            if (digit < 0 || digit >= k.digits || group < 0 ||
                group >= k.groups)
              throw InvalidArgument("KLSS key part out of range");
            const size_t at = size_t(digit) * k.groups + group;
            return toArray3<Word>({k.b[at], k.a[at]});
          },
          py::arg("digit"), py::arg("group"),
          "(b, a) of (digit, group) in NTT form over T, shape (2, r', N).");
  py::class_<R>(m, ("KlssRelinKey" + sfx).c_str()).def_readonly("key", &R::key);
  bindGaloisKeys<BasicKlssGaloisKeys<Word>>(m,
                                            ("KlssGaloisKeys" + sfx).c_str());
  m.def(
      "klss_key_from_hybrid",
      [](const Context<Word> &ctx, const BasicSwitchingKey<Word> &key) {
        py::gil_scoped_release release;
        return klssKeyFromHybrid(ctx, key);
      },
      py::arg("ctx"), py::arg("key"),
      "The KLSS form of a hybrid switching key (a public transformation).");
  m.def("hybrid_key_bytes", &hybridKeyBytes<Word>, py::arg("ctx"),
        "Bytes of one hybrid switching key in memory.");
  m.def("klss_key_bytes", &klssKeyBytes<Word>, py::arg("ctx"),
        "Bytes of one KLSS switching key in memory (0 without a KLSS form).");
  keygen
      .def(
          "klss_relin_key",
          [](PyKeyGeneratorT<Word> &g) { return g.kg->klssRelinKey(); },
          Release())
      .def(
          "klss_galois_keys",
          [](PyKeyGeneratorT<Word> &g, const std::vector<uint64_t> &elements) {
            return g.kg->klssGaloisKeys(elements);
          },
          py::arg("elements"), Release());
}

template <typename Word> struct CkksClasses {
  py::class_<PyKeyGeneratorT<Word>> keygen;
  py::class_<BasicEvaluator<Word>> eval;
};

/// The CKKS objects and operations common to both words, named
/// Plaintext, ..., Evaluator at 64-bit words and Plaintext32, ...,
/// Evaluator32 at 32-bit ones (a Context32).
template <typename Word>
CkksClasses<Word> bindCkksWord(py::module_ &m, const std::string &sfx) {
  using Pt = BasicPlaintext<Word>;
  using Ctx = BasicCiphertext<Word>;
  using Sk = BasicSecretKey<Word>;
  using Pk = BasicPublicKey<Word>;
  using Swk = BasicSwitchingKey<Word>;
  using Rk = BasicRelinKey<Word>;
  using Gk = BasicGaloisKeys<Word>;
  using CtxPtr = std::shared_ptr<Context<Word>>;
  auto name = [&](const char *base) { return std::string(base) + sfx; };

  py::class_<Pt> pt(m, name("Plaintext").c_str());
  pt.def_readonly("level", &Pt::level)
      .def_readwrite("scale", &Pt::scale)
      .def_readonly("slots", &Pt::slots)
      .def_property_readonly("basis", [](const Pt &p) { return p.poly.basis; })
      .def(
          "residues", [](const Pt &p) { return toArray(p.poly); },
          "NTT-form residues, shape (limbs, N).");
  bindCopy(pt);

  py::class_<Ctx> ct(m, name("Ciphertext").c_str());
  ct.def_readonly("level", &Ctx::level)
      .def_readwrite("scale", &Ctx::scale)
      .def_readonly("slots", &Ctx::slots)
      .def_property_readonly("degree", &Ctx::degree)
      .def_property_readonly("size", [](const Ctx &c) { return c.c.size(); })
      .def_property_readonly("basis",
                             [](const Ctx &c) {
                               return c.c.empty() ? std::vector<int>{}
                                                  : c.c[0].basis;
                             })
      .def(
          "residues", [](const Ctx &c) { return toArray3(c.c); },
          "NTT-form residues, shape (polys, limbs, N).")
      .def("__repr__", [sfx](const Ctx &c) {
        return "<Ciphertext" + sfx + " degree=" + std::to_string(c.degree()) +
               " level=" + std::to_string(c.level) + " scale=2^" +
               std::to_string(std::log2(c.scale)) +
               " slots=" + std::to_string(c.slots) + ">";
      });
  bindCopy(ct);

  py::class_<Sk> sk(m, name("SecretKey").c_str());
  sk.def(
      "residues", [](const Sk &k) { return toArray(k.s); },
      "s in NTT form over Q u P, shape (limbs, N).");
  py::class_<Pk> pk(m, name("PublicKey").c_str());
  pk.def(
      "residues",
      [](const Pk &k) {
        return toArray3<Word>({k.b, k.a});
      },
      "(b, a) in NTT form over Q, shape (2, limbs, N).");
  py::class_<Swk>(m, name("SwitchingKey").c_str())
      .def_property_readonly("digits", [](const Swk &k) { return k.b.size(); })
      .def(
          "residues",
          [](const Swk &k, size_t digit) {
            if (digit >= k.b.size())
              throw InvalidArgument("digit out of range");
            return toArray3<Word>({k.b[digit], k.a[digit]});
          },
          py::arg("digit"), "(b_j, a_j) of digit j, shape (2, limbs, N).");
  py::class_<Rk>(m, name("RelinKey").c_str()).def_readonly("key", &Rk::key);
  bindGaloisKeys<Gk>(m, name("GaloisKeys").c_str());

  m.def("galois_element_for_rotation", &galoisElementForRotation<Word>,
        py::arg("ctx"), py::arg("k"), py::arg("slots"),
        "Galois element of a left rotation by k slots: 5^(k mod slots) mod "
        "2N.");
  m.def("galois_element_for_conjugation", &galoisElementForConjugation<Word>,
        py::arg("ctx"));

  using Enc = PyEncoderT<Word>;
  py::class_<Enc>(m, name("Encoder").c_str())
      .def(py::init([](CtxPtr ctx) {
             auto out = std::make_unique<Enc>();
             out->enc = std::make_unique<BasicEncoder<Word>>(*ctx);
             out->ctx = std::move(ctx);
             return out;
           }),
           py::arg("ctx"))
      .def(
          "encode",
          [](const Enc &e, const py::object &input, std::optional<int> level,
             std::optional<double> scale, std::optional<size_t> slots) {
            // Lists, tuples and arrays of any numeric dtype.
            py::array values =
                py::module_::import("numpy").attr("asarray")(input);
            if (values.ndim() != 1)
              throw InvalidArgument("encode takes a 1-D array, got ndim " +
                                    std::to_string(values.ndim()));
            const size_t count = static_cast<size_t>(values.shape(0));
            const int l = level.value_or(e.ctx->maxLevel());
            const double sc =
                scale.value_or(std::exp2(e.ctx->spec().log_scale));
            const size_t s = slots.value_or(count);
            if (values.dtype().kind() == 'c') {
              auto a = py::array_t<std::complex<double>,
                                   py::array::c_style |
                                       py::array::forcecast>::ensure(values);
              std::vector<std::complex<double>> v(a.data(), a.data() + count);
              py::gil_scoped_release release;
              return e.enc->encode(v, l, sc, s);
            }
            auto a =
                py::array_t<double, py::array::c_style |
                                        py::array::forcecast>::ensure(values);
            if (!a)
              throw InvalidArgument("encode takes real or complex numbers");
            std::vector<double> v(a.data(), a.data() + count);
            py::gil_scoped_release release;
            return e.enc->encode(v, l, sc, s);
          },
          py::arg("values"), py::arg("level") = py::none(),
          py::arg("scale") = py::none(), py::arg("slots") = py::none(),
          "Encodes a real or complex vector (length `slots`, default its "
          "length) at `level` (default max_level) and `scale` (default "
          "2^log_scale).")
      .def(
          "decode",
          [](const Enc &e, const Pt &pt) {
            std::vector<std::complex<double>> v;
            {
              py::gil_scoped_release release;
              v = e.enc->decode(pt);
            }
            py::array_t<std::complex<double>> out(v.size());
            std::memcpy(out.mutable_data(), v.data(),
                        v.size() * sizeof(std::complex<double>));
            return out;
          },
          py::arg("pt"), "Decodes to a complex numpy array of pt.slots.");

  using Kg = PyKeyGeneratorT<Word>;
  py::class_<Kg> keygen(m, name("KeyGenerator").c_str());
  keygen
      .def(py::init([](const Context<Word> &ctx, std::shared_ptr<Prng> prng,
                       uint64_t error_factor) {
             auto out = std::make_unique<Kg>();
             out->prng = prngOrDefault(std::move(prng));
             py::gil_scoped_release release;
             out->kg = std::make_unique<BasicKeyGenerator<Word>>(
                 ctx, *out->prng, error_factor);
             return out;
           }),
           py::arg("ctx"), py::arg("prng") = py::none(),
           py::arg("error_factor") = 1, py::keep_alive<1, 2>(),
           "Samples a fresh secret key (with `prng`, default a new "
           "OpenSSL-seeded one). error_factor multiplies the keys' errors: "
           "1 for CKKS and BFV, the plaintext modulus t for BGV.")
      .def(
          "secret_key",
          [](const Kg &g) -> const Sk & { return g.kg->secretKey(); },
          py::return_value_policy::reference_internal)
      .def(
          "public_key", [](Kg &g) { return g.kg->publicKey(); }, Release())
      .def(
          "relin_key", [](Kg &g) { return g.kg->relinKey(); }, Release())
      .def(
          "galois_key",
          [](Kg &g, uint64_t galois) { return g.kg->galoisKey(galois); },
          py::arg("galois"), Release())
      .def(
          "galois_keys",
          [](Kg &g, const std::vector<uint64_t> &elements) {
            return g.kg->galoisKeys(elements);
          },
          py::arg("elements"), Release());

  using Encr = PyEncryptorT<Word>;
  py::class_<Encr>(m, name("Encryptor").c_str())
      .def(py::init([](const Context<Word> &ctx, std::shared_ptr<Prng> prng,
                       uint64_t error_factor) {
             auto out = std::make_unique<Encr>();
             out->prng = prngOrDefault(std::move(prng));
             out->enc = std::make_unique<BasicEncryptor<Word>>(ctx, *out->prng,
                                                               error_factor);
             return out;
           }),
           py::arg("ctx"), py::arg("prng") = py::none(),
           py::arg("error_factor") = 1, py::keep_alive<1, 2>(),
           "error_factor: t for BGV (c = u pk + t e + m), else 1.")
      .def(
          "encrypt",
          [](const Encr &e, const Pt &pt, const Pk &pk) {
            return e.enc->encrypt(pt, pk);
          },
          py::arg("pt"), py::arg("pk"), Release())
      .def(
          "encrypt_symmetric",
          [](const Encr &e, const Pt &pt, const Sk &sk) {
            return e.enc->encryptSymmetric(pt, sk);
          },
          py::arg("pt"), py::arg("sk"), Release());

  using Dec = BasicDecryptor<Word>;
  py::class_<Dec>(m, name("Decryptor").c_str())
      .def(py::init<const Context<Word> &, const Sk &>(), py::arg("ctx"),
           py::arg("sk"), py::keep_alive<1, 2>(), py::keep_alive<1, 3>())
      .def(
          "decrypt",
          [](const Dec &d, const Ctx &ct, std::optional<double> flooding_bits,
             std::shared_ptr<Prng> prng) {
            if (!flooding_bits) {
              py::gil_scoped_release release;
              return d.decrypt(ct);
            }
            prng = prngOrDefault(std::move(prng));
            py::gil_scoped_release release;
            return d.decrypt(ct, *flooding_bits, *prng);
          },
          py::arg("ct"), py::arg("flooding_bits") = py::none(),
          py::arg("prng") = py::none(),
          "Exact decryption, or with flooding_bits the noise-flooded one for "
          "results that are shared: Gaussian noise of standard deviation "
          "2^flooding_bits on every coefficient (from prng, default a new "
          "OpenSSL-seeded one); choose it with flooding_bits(noise_bits). "
          "See README.md, 'Shared decryptions'.");

  using E = BasicEvaluator<Word>;
  using Ct = const Ctx &;
  py::class_<E> eval(m, name("Evaluator").c_str());
  eval.def(py::init<const Context<Word> &>(), py::arg("ctx"),
           py::keep_alive<1, 2>())
      .def("add", &E::add, py::arg("a"), py::arg("b"), Release())
      .def("sub", &E::sub, py::arg("a"), py::arg("b"), Release())
      .def("negate", &E::negate, py::arg("a"), Release())
      .def("add_plain", &E::addPlain, py::arg("a"), py::arg("pt"), Release())
      .def("sub_plain", &E::subPlain, py::arg("a"), py::arg("pt"), Release())
      .def("mul_plain", &E::mulPlain, py::arg("a"), py::arg("pt"), Release())
      .def("add_const", &E::addConst, py::arg("a"), py::arg("c"), Release())
      .def("mul_const", &E::mulConst, py::arg("a"), py::arg("c"),
           py::arg("const_scale") = 0.0, Release())
      .def("multiply", &E::multiply, py::arg("a"), py::arg("b"), Release())
      .def("relinearize",
           py::overload_cast<Ct, const Rk &>(&E::relinearize, py::const_),
           py::arg("a"), py::arg("rk"), Release())
      .def("multiply_relin",
           py::overload_cast<Ct, Ct, const Rk &>(&E::multiplyRelin, py::const_),
           py::arg("a"), py::arg("b"), py::arg("rk"), Release())
      .def("rescale", &E::rescale, py::arg("a"), Release(),
           "Divides by the top scale_primes primes (a pair with double-prime "
           "scaling).")
      .def("mod_drop_to", &E::modDropTo, py::arg("a"), py::arg("level"),
           Release())
      .def("rotate",
           py::overload_cast<Ct, int64_t, const Gk &>(&E::rotate, py::const_),
           py::arg("a"), py::arg("k"), py::arg("keys"), Release())
      .def("conjugate",
           py::overload_cast<Ct, const Gk &>(&E::conjugate, py::const_),
           py::arg("a"), py::arg("keys"), Release())
      .def("apply_galois",
           py::overload_cast<Ct, uint64_t, const Gk &>(&E::applyGalois,
                                                       py::const_),
           py::arg("a"), py::arg("galois"), py::arg("keys"), Release());
  bindBgvWord<Word>(m, name);
  return {std::move(keygen), std::move(eval)};
}

void bindCkks(py::module_ &m) {
  py::class_<Prng, std::shared_ptr<Prng>>(
      m, "Prng",
      "AES-256-CTR stream from OpenSSL. Prng() seeds from RAND_bytes; "
      "Prng(seed) with 32 bytes replays a fixed stream (tests only).")
      .def(py::init<>())
      .def(py::init([](const py::bytes &seed) {
             std::string_view s = seed;
             if (s.size() != 32)
               throw InvalidArgument("a Prng seed is 32 bytes, got " +
                                     std::to_string(s.size()));
             Prng::Seed arr;
             std::memcpy(arr.data(), s.data(), 32);
             return std::make_shared<Prng>(arr);
           }),
           py::arg("seed"))
      .def("next64", &Prng::next64)
      .def("uniform", &Prng::uniform, py::arg("bound"))
      .def(
          "bytes",
          [](Prng &p, size_t n) {
            std::string out(n, '\0');
            p.fill(out.data(), n);
            return py::bytes(out);
          },
          py::arg("n"));

  CkksClasses<Word64> c64 = bindCkksWord<Word64>(m, "");
  CkksClasses<uint32_t> c32 = bindCkksWord<uint32_t>(m, "32");
  bindEncapsulationKeys(m, "", c64.keygen);
  bindEncapsulationKeys(m, "32", c32.keygen);

  bindKlss(m, "", c64.keygen);
  bindKlss(m, "32", c32.keygen);

  bindBfv(m);
  bindEvaluationKeys<Word64>(m, "EvaluationKeys");
  bindEvaluationKeys<uint32_t>(m, "EvaluationKeys32");

  // 64-bit only: a switching key from any s', noise flooding's helper.
  c64.keygen.def(
      "switching_key",
      [](PyKeyGenerator &g, const Context64 &ctx,
         const WordArray<uint64_t> &s_prime) {
        Poly64 s = toPoly(ctx, s_prime, ctx.qpBasis(ctx.maxLevel()), true);
        py::gil_scoped_release release;
        return g.kg->switchingKey(s);
      },
      py::arg("ctx"), py::arg("s_prime"),
      "Key switching from s' (NTT form over qp_basis(max_level)) to s.");

  m.def("flooding_bits", &floodingBits, py::arg("noise_bits"),
        py::arg("statistical_security") = kFloodingStatisticalSecurity,
        py::arg("queries") = 1.0,
        "log2 of the flooding noise for a ciphertext error of "
        "2^noise_bits: noise_bits + s/2 + log2 sqrt(12 queries) "
        "(Li-Micciancio-Schultz-Sorrell 2022; OpenFHE's "
        "NOISE_FLOODING_DECRYPT).");
  m.attr("FLOODING_STATISTICAL_SECURITY") = kFloodingStatisticalSecurity;

  using E = Evaluator;
  using Ct = const Ciphertext &;
  c64.eval
      .def(
          "relinearize",
          [](const E &e, Ct a, const EvaluationKeys &k) {
            if (!k.has_relin)
              throw MissingKey("relinearize: the evaluation keys hold no "
                               "relinearization key");
            return e.relinearize(a, k.relin);
          },
          py::arg("a"), py::arg("keys"), Release())
      .def(
          "multiply_relin",
          [](const E &e, Ct a, Ct b, const EvaluationKeys &k) {
            if (!k.has_relin)
              throw MissingKey("multiply_relin: the evaluation keys hold no "
                               "relinearization key");
            return e.multiplyRelin(a, b, k.relin);
          },
          py::arg("a"), py::arg("b"), py::arg("keys"), Release())
      .def("relinearize",
           py::overload_cast<Ct, const KlssRelinKey &>(&E::relinearize,
                                                       py::const_),
           py::arg("a"), py::arg("rk"), Release())
      .def("multiply_relin",
           py::overload_cast<Ct, Ct, const KlssRelinKey &>(&E::multiplyRelin,
                                                           py::const_),
           py::arg("a"), py::arg("b"), py::arg("rk"), Release())
      .def("rotate",
           py::overload_cast<Ct, int64_t, const KlssGaloisKeys &>(&E::rotate,
                                                                  py::const_),
           py::arg("a"), py::arg("k"), py::arg("keys"), Release())
      .def("conjugate",
           py::overload_cast<Ct, const KlssGaloisKeys &>(&E::conjugate,
                                                         py::const_),
           py::arg("a"), py::arg("keys"), Release())
      .def("apply_galois",
           py::overload_cast<Ct, uint64_t, const KlssGaloisKeys &>(
               &E::applyGalois, py::const_),
           py::arg("a"), py::arg("galois"), py::arg("keys"), Release())
      .def(
          "rotate",
          [](const E &e, Ct a, int64_t k, const EvaluationKeys &keys) {
            return e.rotate(a, k, keys.galois);
          },
          py::arg("a"), py::arg("k"), py::arg("keys"), Release())
      .def(
          "conjugate",
          [](const E &e, Ct a, const EvaluationKeys &keys) {
            return e.conjugate(a, keys.galois);
          },
          py::arg("a"), py::arg("keys"), Release())
      .def(
          "apply_galois",
          [](const E &e, Ct a, uint64_t galois, const EvaluationKeys &keys) {
            return e.applyGalois(a, galois, keys.galois);
          },
          py::arg("a"), py::arg("galois"), py::arg("keys"), Release())
      .def("key_switch", keySwitchArray<SwitchingKey>, py::arg("ctx"),
           py::arg("d"), py::arg("level"), py::arg("key"),
           "Hybrid key switching of d (NTT form over q_basis(level)): "
           "returns (k0, k1) as an array of shape (2, limbs, N).")
      .def("key_switch_klss", keySwitchArray<KlssKey>, py::arg("ctx"),
           py::arg("d"), py::arg("level"), py::arg("key"),
           "KLSS key switching of d, same contract as key_switch.");
}

// --- Serialization -----------------------------------------------------------

/// serialize / deserialize_<suffix> / save / load_<suffix> of one object
/// type with its context (Context64 or Context32: each word's overloads).
template <typename Ctx, typename T>
void bindSerializeOf(py::module_ &m, const char *suffix,
                     T (*load)(const Ctx &, const Bytes &)) {
  m.def(
      "serialize",
      [](const Ctx &ctx, const T &obj) {
        std::optional<SecretBytes> b;
        {
          py::gil_scoped_release release;
          b.emplace(serialize(ctx, obj));
        }
        return toBytes(b->bytes);
      },
      py::arg("ctx"), py::arg("obj"));
  m.def((std::string("deserialize_") + suffix).c_str(),
        [load](const Ctx &ctx, const py::bytes &data) {
          SecretBytes b(fromBytes(data));
          py::gil_scoped_release release;
          return load(ctx, b.bytes);
        },
        py::arg("ctx"), py::arg("data"));
  m.def(
      "save",
      [](const std::string &path, const Ctx &ctx, const T &obj) {
        py::gil_scoped_release release;
        SecretBytes b(serialize(ctx, obj));
        writeFile(path, b.bytes); // a secret key: mode 0600
      },
      py::arg("path"), py::arg("ctx"), py::arg("obj"));
  m.def((std::string("load_") + suffix).c_str(),
        [load](const Ctx &ctx, const std::string &path) {
          py::gil_scoped_release release;
          SecretBytes b(readFile(path));
          return load(ctx, b.bytes);
        },
        py::arg("ctx"), py::arg("path"));
}

void bindSerialize(py::module_ &m) {
  py::enum_<ObjectKind>(m, "ObjectKind")
      .value("PARAMS", ObjectKind::kParams)
      .value("SECRET_KEY", ObjectKind::kSecretKey)
      .value("PUBLIC_KEY", ObjectKind::kPublicKey)
      .value("EVALUATION_KEYS", ObjectKind::kEvaluationKeys)
      .value("CIPHERTEXT", ObjectKind::kCiphertext)
      .value("PLAINTEXT", ObjectKind::kPlaintext)
      .value("LWE_SECRET_KEY", ObjectKind::kLweSecretKey)
      .value("LWE_EVALUATION_KEYS", ObjectKind::kLweEvaluationKeys)
      .value("LWE_CIPHERTEXTS", ObjectKind::kLweCiphertexts)
      .value("LWE_BLOCKS", ObjectKind::kLweBlocks);
  m.attr("FORMAT_VERSION") = kFormatVersion;
  m.def("object_kind_name", &objectKindName, py::arg("kind"));

  // Parameters first: serialize(ctx) with one argument.
  m.def(
      "serialize",
      [](const Context64 &ctx) { return toBytes(serializeParams(ctx)); },
      py::arg("ctx"));
  m.def(
      "serialize_params",
      [](const Context64 &ctx) { return toBytes(serializeParams(ctx)); },
      py::arg("ctx"));
  m.def(
      "deserialize_params",
      [](const py::bytes &data) {
        Bytes b = fromBytes(data);
        py::gil_scoped_release release;
        return ContextPtr(deserializeParams(b));
      },
      py::arg("data"));
  m.def(
      "save",
      [](const std::string &path, const Context64 &ctx) {
        writeFile(path, serializeParams(ctx));
      },
      py::arg("path"), py::arg("ctx"));
  m.def(
      "load_params",
      [](const std::string &path) {
        py::gil_scoped_release release;
        return ContextPtr(deserializeParams(readFile(path)));
      },
      py::arg("path"));

  bindSerializeOf<Context64, SecretKey>(m, "secret_key", &deserializeSecretKey);
  bindSerializeOf<Context64, PublicKey>(m, "public_key", &deserializePublicKey);
  bindSerializeOf<Context64, EvaluationKeys>(m, "evaluation_keys",
                                             &deserializeEvaluationKeys);
  bindSerializeOf<Context64, Ciphertext>(m, "ciphertext",
                                         &deserializeCiphertext);
  bindSerializeOf<Context64, Plaintext>(m, "plaintext", &deserializePlaintext);
  bindSerializeOf<Context32, SecretKey32>(m, "secret_key",
                                          &deserializeSecretKey);
  bindSerializeOf<Context32, PublicKey32>(m, "public_key",
                                          &deserializePublicKey);
  bindSerializeOf<Context32, EvaluationKeys32>(m, "evaluation_keys",
                                               &deserializeEvaluationKeys);
  bindSerializeOf<Context32, Ciphertext32>(m, "ciphertext",
                                           &deserializeCiphertext);
  bindSerializeOf<Context32, Plaintext32>(m, "plaintext",
                                          &deserializePlaintext);

  m.def(
      "peek_kind",
      [](const py::bytes &data) { return peekKind(fromBytes(data)); },
      py::arg("data"),
      "The kind of object a buffer holds (after checking header and "
      "checksum).");
  m.def(
      "write_file",
      [](const std::string &path, const py::bytes &data) {
        SecretBytes b(fromBytes(data));
        writeFile(path, b.bytes);
      },
      py::arg("path"), py::arg("data"),
      "Writes data to path; a secret key file gets mode 0600.");
  m.def(
      "read_file",
      [](const std::string &path) {
        SecretBytes b(readFile(path));
        return toBytes(b.bytes);
      },
      py::arg("path"));
}

} // namespace

void bindProgram(py::module_ &m);
void bindTfhe(py::module_ &m);
#ifdef EMBER_HAVE_CUDA
void bindCuda(py::module_ &m);
#endif

PYBIND11_MODULE(ember_runtime, m) {
  m.doc() = "The Ember runtime (CPU backend): RNS primitives and CKKS, numpy "
            "in and out.";
  registerExceptions(m);
  bindParams(m);
  bindNtt<uint64_t>(m, {""});
  bindNtt<uint32_t>(m, {"32", ""});
  bindPrimitives<uint64_t>(m);
  bindPrimitives<uint32_t>(m);
  bindCkks(m);
  bindSerialize(m);
  bindProgram(m); // runtime/python/program.cpp: compiled programs
  bindTfhe(m);    // runtime/python/tfhe.cpp: FHEW/TFHE (submodule tfhe)
#ifdef EMBER_HAVE_CUDA
  bindCuda(m); // runtime/python/cuda.cpp: the GPU
#else
  m.attr("cuda_built") = false;
#endif
}
