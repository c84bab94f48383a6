// Runs one program emitted by `ember-translate --emit-cuda` on the GPU.
// Linked with the program's .cu (which exports ember_program_run_cuda) by
// bench/gpu_e2e.sh.
//
//   gpu_e2e check DIR RUNS  inputs, keys and the CPU run's outputs from DIR
//                           (bench/make_gpu_artifacts.sh): runs once,
//                           compares every residue, then times RUNS runs.
//   gpu_e2e bench DIR RUNS  params from DIR, fresh keys (the Galois elements
//                           of galois.txt) and inputs (inputs.txt) made
//                           here; times RUNS runs.
//
// Prints one JSON object: identical (check), mismatching residues, median
// and min time in ms over the runs (CUDA events around the entry call, after
// one warm-up run that fills the memory pool).
#include "ember/program_cuda.h"
#include "ember/serialize.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" void ember_program_run_cuda(const ember::program::CudaArgs &args);

using namespace ember;

namespace {

bool exists(const std::string &path) { return std::ifstream(path).good(); }

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s check|bench DIR RUNS\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1], dir = argv[2];
  const int runs = std::max(1, std::atoi(argv[3]));
  try {
    std::unique_ptr<Context64> ctx =
        deserializeParams(readFile(dir + "/params.bin"));
    EvaluationKeys keys;
    std::vector<Ciphertext> inputs, expected;
    if (mode == "check") {
      keys = deserializeEvaluationKeys(*ctx, readFile(dir + "/keys.bin"));
      for (int i = 0; exists(dir + "/in" + std::to_string(i) + ".bin"); ++i)
        inputs.push_back(deserializeCiphertext(
            *ctx, readFile(dir + "/in" + std::to_string(i) + ".bin")));
      for (int i = 0; exists(dir + "/out" + std::to_string(i) + ".bin"); ++i)
        expected.push_back(deserializeCiphertext(
            *ctx, readFile(dir + "/out" + std::to_string(i) + ".bin")));
    } else {
      Prng prng;
      KeyGenerator kg(*ctx, prng);
      // galois.txt: hybrid elements, then "klss" and the KLSS elements.
      std::vector<uint64_t> galois, klss_galois;
      std::ifstream g(dir + "/galois.txt");
      bool klss = false;
      for (std::string word; g >> word;) {
        if (word == "klss")
          klss = true;
        else
          (klss ? klss_galois : galois).push_back(std::stoull(word));
      }
      keys.galois = kg.galoisKeys(galois);
      keys.klss_galois = kg.klssGaloisKeys(klss_galois);
      PublicKey pk = kg.publicKey();
      Encoder encoder(*ctx);
      Encryptor enc(*ctx, prng);
      std::ifstream in(dir + "/inputs.txt");
      std::string line;
      while (std::getline(in, line)) {
        if (line == "relin") {
          keys.has_relin = true;
          keys.relin = kg.relinKey();
          continue;
        }
        if (line == "klss_relin") {
          keys.has_klss_relin = true;
          keys.klss_relin = kg.klssRelinKey();
          continue;
        }
        std::istringstream s(line);
        int level;
        double scale;
        size_t slots;
        s >> level >> scale >> slots;
        std::vector<double> v(slots);
        for (size_t i = 0; i < slots; ++i)
          v[i] = std::sin(double(i));
        inputs.push_back(
            enc.encrypt(encoder.encode(v, level, scale, slots), pk));
      }
    }
    cuda::DeviceContext dctx(*ctx);
    cuda::DeviceRelinKey relin;
    if (keys.has_relin)
      relin = cuda::upload(dctx, keys.relin);
    cuda::DeviceGaloisKeys galois = cuda::upload(dctx, keys.galois);
    cuda::DeviceKlssRelinKey klss_relin;
    if (keys.has_klss_relin)
      klss_relin = cuda::upload(dctx, keys.klss_relin);
    cuda::DeviceKlssGaloisKeys klss_galois =
        cuda::upload(dctx, keys.klss_galois);
    std::vector<cuda::DeviceCiphertext> din, dout;
    for (const Ciphertext &ct : inputs)
      din.push_back(cuda::upload(dctx, ct));
    program::ConstantCache<cuda::DevicePoly> constants; // before dctx dies
    // The plaintext constants' values: DIR/<name>.data, name = DIR's name.
    const std::string name = dir.substr(dir.find_last_of('/') + 1);
    program::ConstantData data;
    if (exists(dir + "/" + name + ".data"))
      data = program::readConstantData(dir + "/" + name + ".data");
    program::CudaArgs args;
    args.data = &data;
    args.ctx = &dctx;
    args.relin = keys.has_relin ? &relin : nullptr;
    args.galois = &galois;
    args.klss_relin = keys.has_klss_relin ? &klss_relin : nullptr;
    args.klss_galois = &klss_galois;
    args.inputs = &din;
    args.outputs = &dout;
    args.constants = &constants;

    ember_program_run_cuda(args); // warm-up, fills the pool
    dctx.synchronize();
    program::cudaCheck(cudaGetLastError(), "program");
    long mismatches = 0, residues = 0;
    if (mode == "check") {
      if (dout.size() != expected.size())
        throw InvalidArgument("the program returned " +
                              std::to_string(dout.size()) + " outputs, " +
                              std::to_string(expected.size()) + " expected");
      for (size_t i = 0; i < dout.size(); ++i) {
        Ciphertext got = cuda::download(dctx, dout[i]);
        if (got.c.size() != expected[i].c.size() ||
            got.level != expected[i].level)
          throw InvalidArgument("output " + std::to_string(i) +
                                " has the wrong shape");
        for (size_t p = 0; p < got.c.size(); ++p)
          for (size_t k = 0; k < got.c[p].data.size(); ++k, ++residues)
            mismatches += got.c[p].data[k] != expected[i].c[p].data[k];
      }
    }
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::vector<float> ms;
    for (int r = 0; r < runs; ++r) {
      cudaEventRecord(start, dctx.stream());
      ember_program_run_cuda(args);
      cudaEventRecord(stop, dctx.stream());
      cudaEventSynchronize(stop);
      float t = 0;
      cudaEventElapsedTime(&t, start, stop);
      ms.push_back(t);
    }
    program::cudaCheck(cudaGetLastError(), "program");
    std::sort(ms.begin(), ms.end());
    std::printf("{\"dir\": \"%s\", \"mode\": \"%s\", \"identical\": %s, "
                "\"residues\": %ld, \"mismatches\": %ld, \"runs\": %d, "
                "\"median_ms\": %.4f, \"min_ms\": %.4f, \"pool_bytes\": %zu}\n",
                dir.c_str(), mode.c_str(),
                mode == "check" ? (mismatches == 0 ? "true" : "false") : "null",
                residues, mismatches, runs, ms[ms.size() / 2], ms.front(),
                dctx.poolBytes());
    return mismatches == 0 ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gpu_e2e %s %s: %s\n", mode.c_str(), dir.c_str(),
                 e.what());
    return 1;
  }
}
