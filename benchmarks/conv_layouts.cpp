// One thread, per convolution of resnet18 (default) or mobilenet_v3_large (`mobilenet`), batch 4:
// at::conv2d on NCHW tensors against oneDNN's convolution primitive with its weights reordered
// once, on NCHW, channels-last (NHWC, what the runtime keeps between convolutions) and oneDNN's
// own blocked layout, with what converting the activations from and to NCHW would add. Medians
// of 15 runs in ms; prints figures, asserts nothing.
//
//   conv_layouts [mobilenet]
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using dnnl::memory;
using tag = memory::format_tag;

struct Shape {
  int64_t channels, size, kernel, stride, out_channels, groups;
};

template <class F>
double median_ms(F f) {
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> times;
  for (int i = 0; i < 15; ++i) {
    auto start = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  at::set_num_threads(1);
  const bool mobilenet = argc > 1 && std::strcmp(argv[1], "mobilenet") == 0;
  const std::vector<Shape> shapes =
      mobilenet ? std::vector<Shape>{{3, 224, 3, 2, 16, 1},     {16, 112, 3, 1, 16, 16},   {16, 112, 1, 1, 64, 1},
                                     {64, 112, 3, 2, 64, 64},   {24, 56, 1, 1, 72, 1},     {72, 56, 3, 1, 72, 72},
                                     {72, 56, 5, 2, 72, 72},    {120, 28, 5, 1, 120, 120}, {240, 28, 3, 2, 240, 240},
                                     {480, 14, 1, 1, 112, 1},   {672, 14, 5, 2, 672, 672}, {960, 7, 1, 1, 160, 1},
                                     {160, 7, 1, 1, 960, 1}}
                : std::vector<Shape>{{3, 224, 7, 2, 64, 1},   {64, 56, 3, 1, 64, 1},   {64, 56, 3, 2, 128, 1},
                                     {128, 28, 3, 1, 128, 1}, {128, 28, 3, 2, 256, 1}, {256, 14, 3, 1, 256, 1},
                                     {256, 14, 3, 2, 512, 1}, {512, 7, 3, 1, 512, 1},  {64, 56, 1, 2, 128, 1}};
  dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(cpu);
  const auto f32 = memory::data_type::f32;
  const int64_t n = 4;
  std::printf("%-30s %9s %9s %9s %9s %s\n", "convolution (batch 4)", "at::conv", "NCHW", "NHWC", "blocked", "(+ NCHW conversions)");
  for (const Shape& s : shapes) {
    const int64_t pad = s.kernel / 2, out = (s.size + 2 * pad - s.kernel) / s.stride + 1;
    at::Tensor x = at::randn({n, s.channels, s.size, s.size}), w = at::randn({s.out_channels, s.channels / s.groups, s.kernel, s.kernel});
    at::Tensor b = at::randn({s.out_channels});
    const double aten = median_ms([&] { at::conv2d(x, w, b, {s.stride, s.stride}, {pad, pad}, {1, 1}, s.groups); });
    memory::dims src{n, s.channels, s.size, s.size}, dst{n, s.out_channels, out, out}, bias{s.out_channels};
    memory::dims weights = s.groups > 1 ? memory::dims{s.groups, s.out_channels / s.groups, s.channels / s.groups, s.kernel, s.kernel}
                                        : memory::dims{s.out_channels, s.channels, s.kernel, s.kernel};
    double ms[3], conversions = 0;
    const tag layouts[3] = {tag::nchw, tag::nhwc, tag::any};
    for (int l = 0; l < 3; ++l) {
      memory::desc src_md(src, f32, layouts[l]), dst_md(dst, f32, layouts[l]), bias_md(bias, f32, tag::x);
      dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src_md,
                                           memory::desc(weights, f32, tag::any), bias_md, dst_md, {s.stride, s.stride}, {pad, pad},
                                           {pad, pad});
      dnnl::convolution_forward::primitive_desc pd(desc, cpu);
      memory plain_weights({weights, f32, s.groups > 1 ? tag::goihw : tag::oihw}, cpu, w.data_ptr()), packed(pd.weights_desc(), cpu);
      dnnl::reorder(plain_weights, packed).execute(stream, plain_weights, packed);
      memory plain_src({src, f32, tag::nchw}, cpu, x.data_ptr()), conv_src(pd.src_desc(), cpu), conv_dst(pd.dst_desc(), cpu);
      memory plain_dst({dst, f32, tag::nchw}, cpu), b_memory(bias_md, cpu, b.data_ptr());
      dnnl::reorder(plain_src, conv_src).execute(stream, plain_src, conv_src);
      dnnl::convolution_forward conv(pd);
      ms[l] = median_ms([&] {
        conv.execute(stream, {{DNNL_ARG_SRC, conv_src}, {DNNL_ARG_WEIGHTS, packed}, {DNNL_ARG_BIAS, b_memory}, {DNNL_ARG_DST, conv_dst}});
        stream.wait();
      });
      if (layouts[l] == tag::any) {
        dnnl::reorder in(plain_src, conv_src), back(conv_dst, plain_dst);
        conversions = median_ms([&] {
          in.execute(stream, plain_src, conv_src);
          back.execute(stream, conv_dst, plain_dst);
          stream.wait();
        });
      }
    }
    char name[64];
    std::snprintf(name, sizeof name, "%ld->%ld %ldx%ld k%ld s%ld g%ld", (long)s.channels, (long)s.out_channels, (long)s.size, (long)s.size,
                  (long)s.kernel, (long)s.stride, (long)s.groups);
    std::printf("%-30s %9.2f %9.2f %9.2f %9.2f (+ %.2f)\n", name, aten, ms[0], ms[1], ms[2], conversions);
  }
}
