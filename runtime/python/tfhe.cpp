// FHEW/TFHE in ember_runtime (submodule `tfhe`): parameter sets, keys, LWE
// ciphertexts, gates and lookup tables on the CPU (ember/lwe.h).

#include "bytes.h"
#include "ember/errors.h"
#include "ember/lwe.h"
#include "ember/random.h"
#include "ember/wipe.h"
#ifdef EMBER_HAVE_CUDA
#include "ember/lwe_cuda.h"
#endif

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace py = pybind11;
using namespace ember;
using namespace ember::lwe;

namespace {

using Release = py::call_guard<py::gil_scoped_release>;
using U32Array =
    py::array_t<uint32_t, py::array::c_style | py::array::forcecast>;

std::shared_ptr<Prng> orDefault(std::shared_ptr<Prng> prng) {
  return prng ? prng : std::make_shared<Prng>();
}

py::array_t<uint32_t> toNumpy(const std::vector<uint32_t> &v) {
  return py::array_t<uint32_t>(static_cast<py::ssize_t>(v.size()), v.data());
}
std::vector<uint32_t> fromNumpy(const U32Array &a, const char *what) {
  if (a.ndim() != 1)
    throw InvalidArgument(std::string(what) + ": expected a 1-D array, got " +
                          std::to_string(a.ndim()) + " dimensions");
  return std::vector<uint32_t>(a.data(), a.data() + a.size());
}

/// The keys with the Prng and secret key they came from kept alive.
struct PyEvaluationKeys {
  std::shared_ptr<EvaluationKeys> keys;
};
struct PyEvaluator {
  std::shared_ptr<EvaluationKeys> keys;
  std::unique_ptr<Evaluator> ev;
};

#ifdef EMBER_HAVE_CUDA
struct PyCudaEvaluator {
  std::shared_ptr<EvaluationKeys> keys;
  std::unique_ptr<cuda::DeviceEvaluator> ev;
};

/// A batch as a (count, n + 1) array of words at q.
const uint32_t *batchRows(const U32Array &a, const Params &p,
                          const char *what) {
  if (a.ndim() != 2 || a.shape(1) != p.n + 1)
    throw InvalidArgument(std::string(what) + ": expected a (count, " +
                          std::to_string(p.n + 1) + ") array of LWE rows");
  return a.data();
}
py::array_t<uint32_t> batchOut(size_t count, const Params &p) {
  return py::array_t<uint32_t>({py::ssize_t(count), py::ssize_t(p.n + 1)});
}
/// A batch of radix blocks as a (count, N + 1) array of words at Q.
const uint32_t *blockRows(const U32Array &a, const Params &p,
                          const char *what) {
  if (a.ndim() != 2 || size_t(a.shape(1)) != p.ringN() + 1)
    throw InvalidArgument(std::string(what) + ": expected a (count, " +
                          std::to_string(p.ringN() + 1) +
                          ") array of radix block rows");
  return a.data();
}
py::array_t<uint32_t> blockOut(size_t count, const Params &p) {
  return py::array_t<uint32_t>(
      {py::ssize_t(count), py::ssize_t(p.ringN() + 1)});
}
#endif

} // namespace

void bindTfhe(py::module_ &parent) {
  py::module_ m = parent.def_submodule(
      "tfhe", "FHEW/TFHE on the CPU: LWE ciphertexts of bits and small "
              "integers, gate and programmable bootstrapping (GINX, ternary "
              "keys; OpenFHE's parameter sets).");

  py::class_<Params>(m, "Params",
                     "A FHEW/TFHE parameter set: Params.named('STD128').")
      .def_static("named", &Params::named, py::arg("name"))
      .def_static("names", &Params::names)
      .def_readonly("name", &Params::name)
      .def_readonly("n", &Params::n, "LWE dimension")
      .def_readonly("q", &Params::q, "modulus of gate inputs and outputs")
      .def_property_readonly("ring_degree", &Params::ringN, "N")
      .def_readonly("ring_q", &Params::ring_q, "Q, the RLWE prime")
      .def_readonly("ring_p", &Params::ring_p,
                    "P of the external product by modulus raising (0: "
                    "gadget decomposition)")
      .def_property_readonly("raising", &Params::raising)
      .def_readonly("base_r", &Params::base_r,
                    "B_r of the AP/DM blind rotation (0: GINX)")
      .def_property_readonly("digits_r", &Params::digitsR)
      .def_readonly("base_g", &Params::base_g)
      .def_readonly("q_ks", &Params::q_ks)
      .def_readonly("base_ks", &Params::base_ks)
      .def_readonly("sigma", &Params::sigma)
      .def_readonly("insecure", &Params::insecure)
      .def_property_readonly("digits_g", &Params::digitsG)
      .def_property_readonly("digits_ks", &Params::digitsKs)
      .def(
          "noise",
          [](const Params &p) {
            const NoiseEstimate e = estimateNoise(p);
            py::dict d;
            d["blind_rotation"] = e.blind_rotation;
            d["key_switch"] = e.key_switch;
            d["mod_switch"] = e.mod_switch;
            d["total"] = e.total;
            d["log2_gate_failure"] = e.log2_gate_failure;
            py::dict lut;
            for (uint32_t t = 2; 2 * t <= p.q && t <= 64; t *= 2)
              lut[py::int_(t)] = e.log2LutFailure(t);
            d["log2_lut_failure"] = lut;
            return d;
          },
          "Variances of a bootstrapped ciphertext's phase at q by step, and "
          "log2 of the failure probability of a gate and of a lookup table "
          "over Z_t.")
      .def("__repr__", [](const Params &p) {
        return "<tfhe.Params " + p.name + ": n=" + std::to_string(p.n) +
               " q=" + std::to_string(p.q) + " N=" + std::to_string(p.ringN()) +
               " Q=" + std::to_string(p.ring_q) +
               (p.raising() ? " P=" + std::to_string(p.ring_p) : "") + ">";
      });

  py::class_<Ciphertext>(m, "Ciphertext",
                         "An LWE ciphertext: phase b - <a, s> mod modulus.")
      .def(py::init([](const U32Array &a, uint32_t b, uint32_t modulus) {
             Ciphertext ct;
             ct.a = fromNumpy(a, "Ciphertext");
             ct.b = b;
             ct.modulus = modulus;
             return ct;
           }),
           py::arg("a"), py::arg("b"), py::arg("modulus"))
      .def_property_readonly("a",
                             [](const Ciphertext &c) { return toNumpy(c.a); })
      .def_readonly("b", &Ciphertext::b)
      .def_readonly("modulus", &Ciphertext::modulus)
      .def_property_readonly("dimension",
                             [](const Ciphertext &c) { return c.a.size(); })
      .def(
          "row",
          [](const Ciphertext &c) {
            std::vector<uint32_t> r(c.a);
            r.push_back(c.b);
            return toNumpy(r);
          },
          "The n + 1 words (a, then b): one row of a GPU batch.")
      .def_static(
          "from_row",
          [](const U32Array &row, uint32_t modulus) {
            std::vector<uint32_t> v = fromNumpy(row, "from_row");
            if (v.empty())
              throw InvalidArgument("from_row: an empty row");
            Ciphertext c;
            c.b = v.back();
            v.pop_back();
            c.a = std::move(v);
            c.modulus = modulus;
            return c;
          },
          py::arg("row"), py::arg("modulus"));

  py::class_<SecretKey, std::shared_ptr<SecretKey>>(
      m, "SecretKey", "The client's LWE key s (n) and RLWE key s' (N).")
      .def(py::init([](const Params &p, std::shared_ptr<Prng> prng) {
             prng = orDefault(prng);
             return std::make_shared<SecretKey>(p, *prng);
           }),
           py::arg("params"), py::arg("prng") = nullptr)
      .def_property_readonly("params", &SecretKey::params)
      .def(
          "encrypt",
          [](const SecretKey &sk, uint32_t m, uint32_t p,
             std::shared_ptr<Prng> prng) {
            prng = orDefault(prng);
            return sk.encrypt(m, p, *prng);
          },
          py::arg("m"), py::arg("p") = 4, py::arg("prng") = nullptr,
          "m q / p at q: p = 4 for bits, 2t for Z_t with a padding bit.")
      .def("decrypt", &SecretKey::decrypt, py::arg("ct"), py::arg("p") = 4)
      .def(
          "encrypt_block",
          [](const SecretKey &sk, uint32_t m, uint32_t t,
             std::shared_ptr<Prng> prng) {
            prng = orDefault(prng);
            return sk.encryptBlock(m, t, *prng);
          },
          py::arg("m"), py::arg("t") = 16, py::arg("prng") = nullptr,
          "A radix block: m round(Q / 2t) at Q, dimension N, under the ring "
          "key s' (m < 2t).")
      .def("decrypt_block", &SecretKey::decryptBlock, py::arg("ct"),
           py::arg("t") = 16, "round(phase 2t / Q) mod 2t of a radix block.")
      .def("phase", &SecretKey::phase, py::arg("ct"))
      .def_property_readonly("lwe_key",
                             [](const SecretKey &sk) {
                               return py::array_t<int32_t>(sk.lweKey().size(),
                                                           sk.lweKey().data());
                             })
      .def_property_readonly("ring_key", [](const SecretKey &sk) {
        return py::array_t<int32_t>(sk.ringKey().size(), sk.ringKey().data());
      });

  py::class_<PyEvaluationKeys>(m, "EvaluationKeys",
                               "The server's keys: bootstrapping (RGSW of s "
                               "under s') and key switching (s' to s).")
      .def(py::init([](const SecretKey &sk, std::shared_ptr<Prng> prng) {
             prng = orDefault(prng);
             py::gil_scoped_release release;
             return PyEvaluationKeys{
                 std::make_shared<EvaluationKeys>(sk, *prng)};
           }),
           py::arg("secret_key"), py::arg("prng") = nullptr)
      .def_property_readonly(
          "params", [](const PyEvaluationKeys &k) { return k.keys->params(); })
      .def_property_readonly(
          "bootstrap_key_bytes",
          [](const PyEvaluationKeys &k) { return k.keys->bootstrapKeyBytes(); })
      .def_property_readonly("key_switch_key_bytes",
                             [](const PyEvaluationKeys &k) {
                               return k.keys->keySwitchKeyBytes();
                             });

  py::class_<PyEvaluator>(m, "Evaluator",
                          "Gates and lookup tables (one thread at a time).")
      .def(py::init([](const PyEvaluationKeys &k) {
             return PyEvaluator{k.keys, std::make_unique<Evaluator>(*k.keys)};
           }),
           py::arg("keys"))
      .def_property_readonly(
          "params", [](const PyEvaluator &e) { return e.ev->params(); })
      .def(
          "gate",
          [](PyEvaluator &e, const std::string &name, const Ciphertext &a,
             const Ciphertext &b) {
            const Gate g = gateFromName(name);
            py::gil_scoped_release release;
            return e.ev->gate(g, a, b);
          },
          py::arg("gate"), py::arg("a"), py::arg("b"),
          "AND, OR, NAND, NOR, XOR or XNOR: one bootstrap.")
      .def(
          "not_",
          [](PyEvaluator &e, const Ciphertext &a) { return e.ev->notGate(a); },
          py::arg("a"))
      .def(
          "mux",
          [](PyEvaluator &e, const Ciphertext &s, const Ciphertext &t,
             const Ciphertext &f) { return e.ev->mux(s, t, f); },
          py::arg("sel"), py::arg("t"), py::arg("f"), Release(),
          "sel ? t : f (two bootstraps, one key switch).")
      .def(
          "bootstrap",
          [](PyEvaluator &e, const Ciphertext &a) {
            return e.ev->bootstrap(a);
          },
          py::arg("a"), Release())
      .def(
          "lut",
          [](PyEvaluator &e, const Ciphertext &a,
             const std::vector<uint32_t> &table) {
            return e.ev->lut(a, table);
          },
          py::arg("a"), py::arg("table"), Release(),
          "table[m] for m in Z_t encrypted as m q / (2t).")
      .def(
          "pbs",
          [](PyEvaluator &e, const Ciphertext &block,
             const std::vector<uint32_t> &table) {
            return e.ev->pbs(block, table);
          },
          py::arg("ct"), py::arg("table"), Release(),
          "table[m] of a radix block (key switch first): a block again.")
      .def(
          "blind_rotate",
          [](PyEvaluator &e, const Ciphertext &a, const U32Array &tv) {
            const std::vector<uint32_t> v = fromNumpy(tv, "blind_rotate");
            std::vector<uint32_t> out;
            {
              py::gil_scoped_release release;
              out = e.ev->blindRotate(a, v);
            }
            return toNumpy(out);
          },
          py::arg("a"), py::arg("tv"),
          "The accumulator [a-part, b-part] (2N words mod Q, coefficient "
          "form) encrypting X^(-phase 2N/q) tv.")
      .def(
          "sample_extract",
          [](const PyEvaluator &e, const U32Array &acc) {
            return e.ev->sampleExtract(fromNumpy(acc, "sample_extract"));
          },
          py::arg("acc"))
      .def(
          "key_switch",
          [](const PyEvaluator &e, const Ciphertext &a) {
            return e.ev->keySwitch(a);
          },
          py::arg("a"), Release());

#ifdef EMBER_HAVE_CUDA
  py::class_<PyCudaEvaluator>(
      m, "CudaEvaluator",
      "Batched gates and lookup tables on the GPU, word for word the CPU "
      "Evaluator's. Batches are (count, n + 1) uint32 arrays of LWE rows (a, "
      "then b) at q.")
      .def(py::init([](const PyEvaluationKeys &k) {
             return PyCudaEvaluator{
                 k.keys, std::make_unique<cuda::DeviceEvaluator>(*k.keys)};
           }),
           py::arg("keys"))
      .def_property_readonly(
          "device_name",
          [](const PyCudaEvaluator &e) { return e.ev->deviceName(); })
      .def_property_readonly(
          "cluster_blocks",
          [](const PyCudaEvaluator &e) { return e.ev->clusterBlocks(); },
          "Blocks per thread-block cluster of the small-batch blind "
          "rotation (0: none)")
      .def_property_readonly(
          "cluster_jobs",
          [](const PyCudaEvaluator &e) { return e.ev->clusterJobs(); },
          "The largest batch that takes the cluster kernel")
      .def(
          "gate",
          [](PyCudaEvaluator &e, const std::string &name, const U32Array &a,
             const U32Array &b) {
            const Params &p = e.ev->params();
            const Gate g = gateFromName(name);
            const uint32_t *pa = batchRows(a, p, gateName(g)),
                           *pb = batchRows(b, p, gateName(g));
            if (a.shape(0) != b.shape(0))
              throw InvalidArgument("gate: batches of " +
                                    std::to_string(a.shape(0)) + " and " +
                                    std::to_string(b.shape(0)) + " rows");
            auto out = batchOut(a.shape(0), p);
            uint32_t *po = out.mutable_data();
            py::gil_scoped_release release;
            e.ev->gate(g, pa, pb, a.shape(0), po);
            return out;
          },
          py::arg("gate"), py::arg("a"), py::arg("b"))
      .def(
          "bootstrap",
          [](PyCudaEvaluator &e, const U32Array &a) {
            const Params &p = e.ev->params();
            const uint32_t *pa = batchRows(a, p, "bootstrap");
            auto out = batchOut(a.shape(0), p);
            uint32_t *po = out.mutable_data();
            py::gil_scoped_release release;
            e.ev->bootstrap(pa, a.shape(0), po);
            return out;
          },
          py::arg("a"))
      .def(
          "lut",
          [](PyCudaEvaluator &e, const U32Array &a,
             const std::vector<uint32_t> &table) {
            const Params &p = e.ev->params();
            const uint32_t *pa = batchRows(a, p, "lut");
            auto out = batchOut(a.shape(0), p);
            uint32_t *po = out.mutable_data();
            py::gil_scoped_release release;
            e.ev->lut(pa, a.shape(0), table, po);
            return out;
          },
          py::arg("a"), py::arg("table"))
      .def(
          "pbs",
          [](PyCudaEvaluator &e, const std::vector<Ciphertext> &blocks,
             const std::vector<uint32_t> &table) {
            return e.ev->pbs(blocks, table);
          },
          py::arg("blocks"), py::arg("table"), Release(),
          "Evaluator.pbs of each block, in one batch; the output blocks.")
      .def(
          "pbs",
          [](PyCudaEvaluator &e, const U32Array &a,
             const std::vector<uint32_t> &table) {
            const Params &p = e.ev->params();
            const uint32_t *pa = blockRows(a, p, "pbs");
            auto out = blockOut(a.shape(0), p);
            uint32_t *po = out.mutable_data();
            py::gil_scoped_release release;
            e.ev->pbs(pa, a.shape(0), table, po);
            return out;
          },
          py::arg("blocks"), py::arg("table"),
          "The same on a (count, N + 1) array of block rows at Q.")
      .def(
          "run",
          [](PyCudaEvaluator &e, const Circuit &c,
             const std::vector<Ciphertext> &in) {
            return e.ev->runCircuit(c, in);
          },
          py::arg("circuit"), py::arg("inputs"), Release(),
          "Runs a circuit on the GPU, level by level; the outputs' bits (or "
          "blocks, for a radix circuit).")
      .def(
          "run_many",
          [](PyCudaEvaluator &e, const Circuit &c,
             const std::vector<std::vector<Ciphertext>> &runs) {
            return e.ev->runCircuit(c, runs);
          },
          py::arg("circuit"), py::arg("runs"), Release(),
          "Several runs of a circuit, each level's bootstraps of every run "
          "in one batch; the outputs' bits per run.")
      .def_property_readonly("last_timing", [](const PyCudaEvaluator &e) {
        const cuda::DeviceEvaluator::Timing t = e.ev->lastTiming();
        py::dict d;
        d["upload_ms"] = t.upload;
        d["blind_rotation_ms"] = t.blind_rotation;
        d["key_switch_ms"] = t.key_switch;
        d["download_ms"] = t.download;
        return d;
      });
#endif

  py::class_<Circuit>(m, "Circuit",
                      "A compiled FHEW/TFHE program: the circuit table of "
                      "ember-translate --emit-tfhe-circuit.")
      .def(
          py::init([](int input_bits, int wires,
                      const py::array_t<int32_t, py::array::c_style |
                                                     py::array::forcecast> &ops,
                      const std::vector<int32_t> &outputs,
                      const std::vector<std::vector<uint32_t>> &tables,
                      const std::vector<std::array<int32_t, 3>> &forms,
                      bool radix, uint32_t block_modulus) {
            if (ops.ndim() != 2 || ops.shape(1) != 5)
              throw InvalidArgument("Circuit: ops must be a (count, 5) array");
            Circuit c;
            c.input_bits = input_bits;
            c.wires = wires;
            c.ops.resize(ops.shape(0));
            for (py::ssize_t k = 0; k < ops.shape(0); ++k)
              for (int j = 0; j < 5; ++j)
                c.ops[k][j] = ops.at(k, j);
            c.outputs = outputs;
            c.tables = tables;
            c.forms = forms;
            c.radix = radix;
            c.block_modulus = block_modulus;
            c.validate();
            return c;
          }),
          py::arg("input_bits"), py::arg("wires"), py::arg("ops"),
          py::arg("outputs"),
          py::arg("tables") = std::vector<std::vector<uint32_t>>{},
          py::arg("forms") = std::vector<std::array<int32_t, 3>>{},
          py::arg("radix") = false, py::arg("block_modulus") = 16,
          "input_bits: the input wires (bits, or blocks when radix). A "
          "radix circuit's ops are kLinear [9, out, a, b, form], kLut [10, "
          "out, a, table, -1] and kBlock [11, out, v, -1, -1]; tables of "
          "block_modulus entries, forms (x, y, c).")
      .def_readonly("input_bits", &Circuit::input_bits)
      .def_readonly("wires", &Circuit::wires)
      .def_readonly("radix", &Circuit::radix)
      .def_readonly("block_modulus", &Circuit::block_modulus)
      .def_readonly("tables", &Circuit::tables)
      .def_readonly("forms", &Circuit::forms)
      .def_property_readonly("op_count",
                             [](const Circuit &c) { return c.ops.size(); });
  m.def(
      "run_circuit",
      [](PyEvaluator &e, const Circuit &c, const std::vector<Ciphertext> &in) {
        return runCircuit(*e.ev, c, in);
      },
      py::arg("evaluator"), py::arg("circuit"), py::arg("inputs"), Release(),
      "Runs a circuit on the CPU; the outputs' bits (or blocks, for a "
      "radix circuit) in order.");

  // Serialization (ember/lwe.h): bytes in and out.
  using python::fromBytes;
  using python::toBytes;
  m.def(
      "serialize_secret_key",
      [](const SecretKey &sk) {
        Bytes b = serialize(sk);
        py::bytes out = toBytes(b);
        secureWipe(b); // Python's bytes are the caller's
        return out;
      },
      py::arg("secret_key"));
  m.def(
      "serialize_evaluation_keys",
      [](const PyEvaluationKeys &k) { return toBytes(serialize(*k.keys)); },
      py::arg("keys"));
  m.def(
      "serialize_ciphertexts",
      [](const Params &p, const std::vector<Ciphertext> &cts) {
        return toBytes(serialize(p, cts));
      },
      py::arg("params"), py::arg("ciphertexts"),
      "All bits (at q, dimension n) or all radix blocks (at Q, dimension "
      "N).");
  m.def(
      "deserialize_secret_key",
      [](const py::bytes &b) {
        Bytes bytes = fromBytes(b);
        std::shared_ptr<SecretKey> sk = deserializeSecretKey(bytes);
        secureWipe(bytes);
        return sk;
      },
      py::arg("data"));
  m.def(
      "deserialize_evaluation_keys",
      [](const py::bytes &b) {
        const Bytes bytes = fromBytes(b);
        py::gil_scoped_release release;
        return PyEvaluationKeys{
            std::make_shared<EvaluationKeys>(deserializeEvaluationKeys(bytes))};
      },
      py::arg("data"));
  m.def(
      "deserialize_ciphertexts",
      [](const Params &p, const py::bytes &b, std::optional<bool> blocks) {
        return blocks ? deserializeCiphertexts(p, fromBytes(b), *blocks)
                      : deserializeCiphertexts(p, fromBytes(b));
      },
      py::arg("params"), py::arg("data"), py::arg("blocks") = py::none(),
      "Bits or radix blocks, as the file holds; blocks=True or False "
      "refuses a file of the other kind.");

  m.def("mod_switch", &modSwitch, py::arg("ct"), py::arg("to"),
        "round(x to / modulus) on every word.");
  m.def("signed_digits", &signedDigits, py::arg("x"), py::arg("params"),
        "OpenFHE's signed gadget digits 1 .. d-1 of x mod Q.");
}
