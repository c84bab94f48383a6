// The driver of compiled programs in the runtime's Python module: builds an
// emitted .cpp into a shared library against this runtime (g++), loads it
// with dlopen and runs it on ciphertexts with evaluation keys only. Needs
// the runtime (headers + libEmberRuntime.a), not the compiler.
#include "ember/program.h"
#include "ember/ckks.h"
#include "ember/errors.h"
#include "library.h"
#include "paths.h"

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace ember;

std::string ember::runtimePath(const char *path) {
#ifdef EMBER_RUNTIME_RELATIVE
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&runtimePath), &info) && info.dli_fname)
    if (char *self = realpath(info.dli_fname, nullptr)) {
      std::string dir(self);
      free(self);
      return dir.substr(0, dir.rfind('/') + 1) + path;
    }
#endif
  return path;
}

const std::string &ember::runtimeIncludeDir() {
  static const std::string path = runtimePath(EMBER_RUNTIME_INCLUDE_DIR);
  return path;
}

const std::string &ember::runtimeLibrary() {
  static const std::string path = runtimePath(EMBER_RUNTIME_LIBRARY);
  return path;
}

namespace {

/// A loaded program library (closed when the last reference goes).
class LoadedProgram {
public:
  LoadedProgram(const std::string &path, const std::string &data)
      : path_(path) {
    if (!data.empty())
      data_ = std::make_unique<program::ConstantData>(
          program::readConstantData(data));
    entry_ = python::openProgram(path, program::kCpuEntry, handle_);
    word_ = python::programWord(handle_, path);
  }
  ~LoadedProgram() {
    if (handle_)
      dlclose(handle_);
  }
  LoadedProgram(const LoadedProgram &) = delete;
  LoadedProgram &operator=(const LoadedProgram &) = delete;

  /// Runs the program on ciphertexts of its word size (InvalidArgument for
  /// the other: a 32-bit program takes Context32 objects).
  template <typename Word>
  std::vector<BasicCiphertext<Word>>
  run(const Context<Word> &ctx, const BasicEvaluationKeys<Word> &keys,
      const std::vector<BasicCiphertext<Word>> &inputs,
      const std::vector<std::vector<std::complex<double>>> &plain) {
    std::lock_guard<std::mutex> lock(mutex_); // the constant cache
    std::vector<BasicCiphertext<Word>> outputs;
    program::BasicCpuArgs<Word> args;
    args.ctx = &ctx;
    args.keys = &keys;
    args.inputs = &inputs;
    args.outputs = &outputs;
    args.constants = &cache<Word>();
    args.data = data_.get();
    args.plain = &plain;
    entry<Word>()(args);
    return outputs;
  }
  /// Encodes the constants for `ctx` now (a later run with `ctx` finds them).
  template <typename Word> void prepare(const Context<Word> &ctx) {
    std::lock_guard<std::mutex> lock(mutex_);
    program::BasicCpuArgs<Word> args;
    args.ctx = &ctx;
    args.constants = &cache<Word>();
    args.data = data_.get();
    args.prepare_only = true;
    entry<Word>()(args);
  }
  /// Constants encoded so far (0 before the first run or prepare).
  size_t constantCount() const {
    return word_ == 64 ? constants_.polys.size() : constants32_.polys.size();
  }
  const std::string &path() const { return path_; }
  int word() const { return word_; }

private:
  std::string path_;
  void *handle_ = nullptr;
  void *entry_ = nullptr;
  int word_ = 64;
  std::mutex mutex_;
  program::ConstantCache<Poly64> constants_;
  program::ConstantCache<Poly32> constants32_;
  std::unique_ptr<program::ConstantData> data_;

  template <typename Word> auto entry() const {
    if (word_ != 8 * static_cast<int>(sizeof(Word)))
      throw InvalidArgument("program '" + path_ + "' has " +
                            std::to_string(word_) +
                            "-bit words; it runs on a Context" +
                            (word_ == 32 ? "32" : "") + " and its objects");
    return reinterpret_cast<void (*)(const program::BasicCpuArgs<Word> &)>(
        entry_);
  }
  template <typename Word> program::ConstantCache<Poly<Word>> &cache() {
    if constexpr (sizeof(Word) == 8)
      return constants_;
    else
      return constants32_;
  }
};

} // namespace

std::string ember::shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

/// The g++ command that builds `source` into the shared library `output`.
/// -O1: the emitted kernels are elementwise loops over limbs whose 64-bit
/// modular products do not vectorize, and the transforms and key switches
/// they call are in the runtime library (built -O3). -O1 ran every example
/// as fast as -O2 and compiles the MLP's source in 2.3 s instead of 4.6 s
/// (bench/RESULTS.md, "Examples").
std::string buildCommand(const std::string &source, const std::string &output,
                         const std::string &compiler,
                         const std::vector<std::string> &flags) {
  std::string cmd =
      shellQuote(compiler) + " -std=c++17 -O1 -fPIC -shared -fopenmp -I" +
      shellQuote(runtimeIncludeDir()) + " " + shellQuote(source) + " -o " +
      shellQuote(output) + " " + shellQuote(runtimeLibrary()) + " " +
      shellQuote(EMBER_CRYPTO_LIBRARY);
  for (const std::string &f : flags)
    cmd += " " + shellQuote(f);
  return cmd;
}

} // namespace

void bindProgram(py::module_ &m) {
  m.attr("runtime_include_dir") = runtimeIncludeDir();
  m.attr("runtime_library") = runtimeLibrary();
  m.def("program_build_command", &buildCommand, py::arg("source"),
        py::arg("output"), py::arg("compiler") = "g++",
        py::arg("flags") = std::vector<std::string>{},
        "The shell command build_program runs.");
  m.def(
      "build_program",
      [](const std::string &source, const std::string &output,
         const std::string &compiler, const std::vector<std::string> &flags) {
        std::string cmd = buildCommand(source, output, compiler, flags);
        int rc;
        {
          py::gil_scoped_release release;
          rc = std::system((cmd + " 2>&1").c_str());
        }
        if (rc != 0)
          throw InvalidArgument("building the program failed (exit " +
                                std::to_string(rc) + "): " + cmd);
        return output;
      },
      py::arg("source"), py::arg("output"), py::arg("compiler") = "g++",
      py::arg("flags") = std::vector<std::string>{},
      "Builds an emitted .cpp into a shared library against this runtime.");
  py::class_<LoadedProgram, std::shared_ptr<LoadedProgram>>(
      m, "Program",
      "A compiled Ember program (a shared library built from an emitted "
      ".cpp). It runs on ciphertexts with evaluation keys only.")
      .def(py::init<const std::string &, const std::string &>(),
           py::arg("path"), py::arg("data") = "",
           "Loads the library; `data` is the program's data file "
           "(<name>.data), needed when it has vector constants.")
      .def_property_readonly("path", &LoadedProgram::path)
      .def_property_readonly("word", &LoadedProgram::word,
                             "The program's word size: 64 or 32.")
      .def(
          "prepare",
          [](LoadedProgram &p, const Context64 &ctx) {
            py::gil_scoped_release release;
            p.prepare(ctx);
          },
          py::arg("ctx"))
      .def(
          "prepare",
          [](LoadedProgram &p, const Context32 &ctx) {
            py::gil_scoped_release release;
            p.prepare(ctx);
          },
          py::arg("ctx"),
          "Encodes the program's plaintext constants for `ctx` now, so that "
          "the first run does not (OpenFHE's EvalBootstrapSetup does the same "
          "for its transforms).")
      .def_property_readonly("constant_count", &LoadedProgram::constantCount,
                             "Plaintext constants encoded so far.")
      .def(
          "run",
          [](LoadedProgram &p, const Context64 &ctx, const EvaluationKeys &keys,
             const std::vector<Ciphertext> &in,
             const std::vector<std::vector<std::complex<double>>> &plain) {
            py::gil_scoped_release release;
            return p.run(ctx, keys, in, plain);
          },
          py::arg("ctx"), py::arg("keys"), py::arg("inputs"),
          py::arg("plain") = std::vector<std::vector<std::complex<double>>>{})
      .def(
          "run",
          [](LoadedProgram &p, const Context32 &ctx,
             const EvaluationKeys32 &keys, const std::vector<Ciphertext32> &in,
             const std::vector<std::vector<std::complex<double>>> &plain) {
            py::gil_scoped_release release;
            return p.run(ctx, keys, in, plain);
          },
          py::arg("ctx"), py::arg("keys"), py::arg("inputs"),
          py::arg("plain") = std::vector<std::vector<std::complex<double>>>{},
          "Runs the program; `plain` holds the values of its plaintext "
          "inputs (complex slot values, interface order). Returns the "
          "output ciphertexts in manifest order.");
}
