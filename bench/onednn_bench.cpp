// onednn_bench: times one oneDNN (2.x C++ API) normalization primitive and
// prints one line of JSON.
//
//   onednn_bench KERNEL SHAPE DTYPE [--seconds S] [--layout L]
//
// KERNEL: layer_norm | rms_norm | batch_norm_inference | batch_norm_training
//         | instance_norm | group_norm
// SHAPE:  AxB (layer_norm, rms_norm: normalized over the last dim),
//         NxC (batch_norm_*: a 2-D tensor, layout nc) or
//         NxCxHxW (the others, NCHW)
// DTYPE:  f32 | bf16 (data in this type; scale, shift and statistics are f32
//         as oneDNN requires)
// L:      the data layout of the NCHW kernels: nchw (default), nhwc, nChw8c
//         or nChw16c (the same logical tensor; oneDNN 2.6's AVX2 JIT kernels
//         take nhwc and nChw8c, plain nchw gets a simpler C++ kernel)
//
// Output: {"kernel", "shape", "dtype", "layout", "threads", "us_per_call",
// "calls", "impl", "onednn"} with the median time of one execute() after warm-up, or
// {"kernel", "shape", "dtype", "unsupported": "why"} when oneDNN has no
// primitive for it. Threads: oneDNN's OpenMP runtime, so OMP_NUM_THREADS.
// Exit status: 0 measured or unsupported, 2 bad usage or a runtime error.

#include "oneapi/dnnl/dnnl.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace dnnl;
using Clock = std::chrono::steady_clock;

namespace {

std::string jsonEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

struct Request {
  std::string kernel, shapeText, dtype;
  memory::dims shape;
  double seconds = 0.3;
  std::string layout; // NCHW kernels: nchw | nhwc | nChw8c | nChw16c

};

std::string header(const Request &r) {
  return "{\"kernel\": \"" + r.kernel + "\", \"shape\": \"" + r.shapeText +
         "\", \"dtype\": \"" + r.dtype + "\", \"layout\": \"" + r.layout +
         "\"";
}

int unsupported(const Request &r, const std::string &why) {
  const dnnl_version_t *v = dnnl_version();
  std::printf("%s, \"unsupported\": \"%s\", \"onednn\": \"%d.%d.%d\"}\n",
              header(r).c_str(), jsonEscape(why).c_str(), v->major, v->minor,
              v->patch);
  return 0;
}

int usage(const std::string &why) {
  std::fprintf(stderr,
               "onednn_bench: %s\nusage: onednn_bench KERNEL SHAPE DTYPE "
               "[--seconds S] [--layout nchw|nhwc|nChw8c|nChw16c]\n",
               why.c_str());
  return 2;
}

bool parseShape(const std::string &text, memory::dims &shape) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('x', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    if (part.empty() ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return false;
    shape.push_back(std::strtoll(part.c_str(), nullptr, 10));
    start = end + 1;
  }
  return !shape.empty();
}

uint16_t toBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7fff + ((bits >> 16) & 1); // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

// Fills a memory object with pseudo-random values in [lo, hi).
void fill(const memory &mem, float lo, float hi, uint64_t seed) {
  memory::desc md = mem.get_desc();
  size_t bytes = md.get_size();
  void *data = mem.get_data_handle();
  uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<float>((state >> 40) & 0xffffff) /
                    16777216.0f;
  };
  if (md.data.data_type == dnnl_bf16) {
    uint16_t *p = static_cast<uint16_t *>(data);
    for (size_t i = 0; i < bytes / 2; ++i)
      p[i] = toBf16(next());
  } else if (md.data.data_type == dnnl_f32) {
    float *p = static_cast<float *>(data);
    for (size_t i = 0; i < bytes / 4; ++i)
      p[i] = next();
  } else {
    std::memset(data, 0, bytes);
  }
}

// 3 warm-up calls, then calls until minSeconds have passed and at least 5
// calls (norm-runner's rule); a call slower than 0.25 s gets 1 warm-up and
// at least 3 measured calls.
double medianSeconds(const std::function<void()> &body, double minSeconds,
                     size_t &calls) {
  Clock::time_point first = Clock::now();
  body();
  bool slow = std::chrono::duration<double>(Clock::now() - first).count() > 0.25;
  for (int i = 1; i < (slow ? 1 : 3); ++i)
    body();
  const size_t minCalls = slow ? 3 : 5;
  std::vector<double> times;
  Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(minSeconds));
  while (times.size() < minCalls ||
         (Clock::now() < deadline && times.size() < 100000)) {
    Clock::time_point start = Clock::now();
    body();
    times.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
  }
  calls = times.size();
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Allocates the data, scale, shift and every other execution argument
/// (statistics, workspace, scratchpad) the primitive descriptor asks for.
template <typename PrimitiveDesc>
void allocateArguments(const PrimitiveDesc &pd, const engine &eng,
                       std::unordered_map<int, memory> &args) {
  args[DNNL_ARG_SRC] = memory(pd.src_desc(), eng);
  args[DNNL_ARG_DST] = memory(pd.dst_desc(), eng);
  args[DNNL_ARG_SCALE] = memory(pd.weights_desc(), eng);
  args[DNNL_ARG_SHIFT] = memory(pd.weights_desc(), eng);
  for (int a : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE, DNNL_ARG_WORKSPACE,
                DNNL_ARG_SCRATCHPAD}) {
    memory::desc md = pd.query_md(query::exec_arg_md, a);
    if (md.get_size() != 0)
      args[a] = memory(md, eng);
  }
}

int run(Request r) {
  const bool rowwise = r.kernel == "layer_norm" || r.kernel == "rms_norm";
  const bool nchw = r.kernel == "batch_norm_inference" ||
                    r.kernel == "batch_norm_training" ||
                    r.kernel == "instance_norm" || r.kernel == "group_norm";
  if (!rowwise && !nchw)
    return usage("unknown kernel '" + r.kernel + "'");
  if (rowwise && r.shape.size() != 2)
    return usage(r.kernel + " takes an AxB shape");
  if (rowwise)
    r.layout = "ab"; // row-major M x N, the only layout that makes sense
  // BatchNorm also takes a 2-D [N, C] tensor (statistics over N), whose one
  // dense layout is nc.
  const bool bn2d = (r.kernel == "batch_norm_inference" ||
                     r.kernel == "batch_norm_training") &&
                    r.shape.size() == 2;
  if (bn2d)
    r.layout = "nc";
  if (nchw && !bn2d && r.shape.size() != 4)
    return usage(r.kernel + " takes an NxCxHxW shape" +
                 (r.kernel.rfind("batch_norm", 0) == 0 ? " or an NxC one" : ""));
  if (r.dtype != "f32" && r.dtype != "bf16")
    return usage("dtype must be f32 or bf16");

  // What oneDNN 2.6 has no primitive for (dnnl.hpp: normalization_flags has
  // no RMS flag, and there is no group normalization primitive).
  if (r.kernel == "rms_norm")
    return unsupported(r, "oneDNN " + std::to_string(DNNL_VERSION_MAJOR) +
                              "." + std::to_string(DNNL_VERSION_MINOR) +
                              " layer_normalization always subtracts the "
                              "mean: no RMS normalization flag");
  if (r.kernel == "group_norm")
    return unsupported(r, "oneDNN " + std::to_string(DNNL_VERSION_MAJOR) +
                              "." + std::to_string(DNNL_VERSION_MINOR) +
                              " has no group normalization primitive");

  engine eng(engine::kind::cpu, 0);
  stream strm(eng);
  memory::data_type dt =
      r.dtype == "bf16" ? memory::data_type::bf16 : memory::data_type::f32;
  const float eps = 1e-5f;

  memory::dims dataDims = r.shape;
  memory::format_tag tag = memory::format_tag::ab;
  memory::dim channels = 0;
  if (bn2d) {
    tag = memory::format_tag::nc;
    channels = r.shape[1];
  } else if (nchw) {
    if (r.layout == "nchw")
      tag = memory::format_tag::nchw;
    else if (r.layout == "nhwc")
      tag = memory::format_tag::nhwc;
    else if (r.layout == "nChw8c")
      tag = memory::format_tag::nChw8c;
    else if (r.layout == "nChw16c")
      tag = memory::format_tag::nChw16c;
    else
      return usage("unknown layout '" + r.layout + "'");
    channels = r.shape[1];
    if (r.kernel == "instance_norm") {
      // Per-(n, c) statistics: batch normalization over [1, N*C, H, W].
      channels = r.shape[0] * r.shape[1];
      dataDims = {1, channels, r.shape[2], r.shape[3]};
    }
  } else {
    channels = r.shape[1];
  }
  memory::desc dataMd(dataDims, dt, tag);

  std::unordered_map<int, memory> args;
  primitive prim;
  std::string impl;
  try {
    if (rowwise) {
      layer_normalization_forward::desc d(
          prop_kind::forward_inference, dataMd, eps,
          normalization_flags::use_scale | normalization_flags::use_shift);
      layer_normalization_forward::primitive_desc pd(d, eng);
      impl = pd.impl_info_str();
      prim = layer_normalization_forward(pd);
      allocateArguments(pd, eng, args);
    } else {
      bool inference = r.kernel == "batch_norm_inference";
      normalization_flags flags =
          normalization_flags::use_scale | normalization_flags::use_shift;
      if (inference)
        flags = flags | normalization_flags::use_global_stats;
      batch_normalization_forward::desc d(
          inference ? prop_kind::forward_inference
                    : prop_kind::forward_training,
          dataMd, eps, flags);
      batch_normalization_forward::primitive_desc pd(d, eng);
      impl = pd.impl_info_str();
      prim = batch_normalization_forward(pd);
      allocateArguments(pd, eng, args);
    }
  } catch (const dnnl::error &e) {
    if (e.status == dnnl_unimplemented)
      return unsupported(
          r, std::string("no ") + r.dtype +
                 " implementation on this CPU (dnnl_unimplemented" +
                 (r.dtype == "bf16" ? "; oneDNN 2.x's bf16 kernels need AVX-512"
                                    : "") +
                 ")");
    return unsupported(r, std::string("primitive descriptor creation failed: ") +
                              e.what() + " (status " +
                              std::to_string(static_cast<int>(e.status)) +
                              ")");
  }

  uint64_t seed = 1;
  for (auto &[arg, mem] : args) {
    if (arg == DNNL_ARG_VARIANCE)
      fill(mem, 0.5f, 2.0f, seed++);
    else if (arg == DNNL_ARG_SCALE)
      fill(mem, 0.5f, 1.5f, seed++);
    else
      fill(mem, -1.0f, 1.0f, seed++);
  }

  size_t calls = 0;
  double seconds;
  try {
    seconds = medianSeconds(
        [&] {
          prim.execute(strm, args);
          strm.wait();
        },
        r.seconds, calls);
  } catch (const dnnl::error &e) {
    std::fprintf(stderr, "onednn_bench: execute failed: %s\n", e.what());
    return 2;
  }

  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  const dnnl_version_t *v = dnnl_version();
  std::printf("%s, \"threads\": %d, \"us_per_call\": %.3f, \"calls\": %zu, "
              "\"impl\": \"%s\", \"onednn\": \"%d.%d.%d\"}\n",
              header(r).c_str(), threads, seconds * 1e6, calls,
              jsonEscape(impl).c_str(), v->major, v->minor, v->patch);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> positional;
  Request r;
  r.layout = "nchw";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--layout" && i + 1 < argc) {
      r.layout = argv[++i];
    } else if (a.rfind("--layout=", 0) == 0) {
      r.layout = a.substr(9);
    } else if (a == "--seconds" && i + 1 < argc) {
      r.seconds = std::atof(argv[++i]);
    } else if (a.rfind("--seconds=", 0) == 0) {
      r.seconds = std::atof(a.c_str() + 10);
    } else if (a == "-h" || a == "--help") {
      return usage("help");
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option '" + a + "'");
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 3)
    return usage("expected KERNEL SHAPE DTYPE");
  r.kernel = positional[0];
  r.shapeText = positional[1];
  r.dtype = positional[2];
  if (!parseShape(r.shapeText, r.shape))
    return usage("bad shape '" + r.shapeText + "' (want AxB or NxCxHxW)");
  try {
    return run(r);
  } catch (const dnnl::error &e) {
    std::fprintf(stderr, "onednn_bench: %s (status %d)\n", e.what(),
                 static_cast<int>(e.status));
    return 2;
  }
}
