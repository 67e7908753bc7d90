// ml_bench: GPU times of reference networks, the shipped ONNX models and single operators
// through the plugin, on the first (or --device) Vulkan device, with timestamp queries:
// warm-up, then the median of --runs executions recorded back to back with a barrier between
// them. Every case runs in fp32, fp16 and each faster path the device has (fp16 arithmetic,
// cooperative matrix on and off), and is also stated as a fraction of device ceilings the
// harness measures first (ceilings.h). Prints a table and writes JSON (schema: bench/README
// section of RESULTS.md). `--smoke` runs tiny sizes with few runs (CI keeps it working on
// lavapipe; its times mean nothing).
#include "ceilings.h"
#include "cli.h"
#include "engine/context.h"
#include "engine/error.h"
#include "bridge/graph_session.h"
#include "bridge/graph_tuning.h"
#ifdef BENCH_HAVE_ONNX
#include "mlplugin/onnx.h"
#endif
#include "networks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace mlplugin;

namespace {

struct Options {
    bench::CommonOptions common{.json = "ml_bench.json"};
    uint32_t runs = 100, warmup = 10;
    std::string groups;  // comma-separated: network, conv, op; empty = all
    bool verify = false;
    bool fullGrid = false;
    bool profile = false;
    std::string tune;  // tuning table file: measured kernel choices, extended and saved per case
    uint32_t rounds = 1;  // every selected case timed this many times, round-robin, each in a new session
};

void usage() {
    std::puts(
        "usage: ml_bench [--smoke] [--runs N] [--warmup N] [--json FILE] [--filter TEXT] [--group LIST] [--device INDEX]\n"
        "                [--validation] [--verify] [--full-grid] [--assets DIR] [--tune FILE] [--profile] [--rounds N]\n"
        "  Times reference networks (ESPCN x2, FSRCNN x2), the shipped upscaler/denoiser/temporal network\n"
        "  (DIR/upscaler_x2.onnx, DIR/denoiser.onnx, DIR/upscaler_temporal.onnx and upscaler_temporal_fast.onnx at half\n"
        "  the display size, when present) and operator sweeps through mlplugin, in every precision and path.\n"
        "  --smoke       tiny sizes, 3 runs: checks that everything runs (CI on lavapipe)\n"
        "  --runs N      timed runs per case (default 100), after --warmup N (default 10)\n"
        "  --json FILE   results as JSON (default ml_bench.json)\n"
        "  --filter TEXT only cases whose name + variant contains TEXT ('|' separates alternatives,\n"
        "              a trailing '$' anchors one at the end: 'conv3x3 64->64 1920x1080 fp16$')\n"
        "  --group LIST  only these case groups, comma-separated: network, conv, op (a full run split over\n"
        "              device commands; bench/make_results.py merges <date>_ml_bench*.json)\n"
        "  --device I    Vulkan device index (default: first discrete GPU)\n"
        "  --validation  enable the Khronos validation layer\n"
        "  --verify      first check every network against the CPU reference (double) at 48x32, in the\n"
        "                precisions of the selected cases\n"
        "  --full-grid   convolution sweep over every cin x cout in {3,12,16,32,64} (default: a subset)\n"
        "  --assets DIR  where the shipped .onnx networks are looked for (default: assets)\n"
        "  --tune FILE   per-shape kernel selection by measurement: before timing a case, time every candidate\n"
        "              kernel of its convolutions that FILE lacks (bridge::tuneGraph) and save FILE; the case is\n"
        "              then timed with the measured choices (without --tune: the fixed heuristics)\n"
        "  --rounds N    time the selected cases N times over (default 1), one round after another, each case in\n"
        "              a new session; every round is printed and the JSON keeps each case's median round\n"
        "              (\"rounds_ms\" lists them all): shows drift within a long-lived process");
}

// --group: network, conv, op, comma-separated.
bool validGroups(const std::string& groups) {
    for (size_t b = 0; b <= groups.size();) {
        size_t e = std::min(groups.find(',', b), groups.size());
        std::string g = groups.substr(b, e - b);
        if (g != "network" && g != "conv" && g != "op") {
            std::fprintf(stderr, "ml_bench: --group takes network, conv, op (comma-separated), not '%s'\n", g.c_str());
            return false;
        }
        b = e + 1;
    }
    return true;
}

bool parse(int argc, char** argv, Options& o) {
    bench::ArgParser args("ml_bench", argc, argv);
    while (args.next()) {
        const char* v = nullptr;
        const bool ok = args.is("--verify")      ? (o.verify = true)
                        : args.is("--full-grid") ? (o.fullGrid = true)
                        : args.is("--profile")   ? (o.profile = true)
                        : args.is("--runs")      ? args.count(o.runs)
                        : args.is("--warmup")    ? args.count(o.warmup)
                        : args.is("--group")     ? (v = args.value()) && validGroups(o.groups = v)
                        : args.is("--tune")      ? (v = args.value()) && !(o.tune = v).empty()
                        : args.is("--rounds")    ? args.count(o.rounds)
                                                 : args.common(o.common, usage);
        if (!ok) return false;
    }
    return true;
}

// One way of running a case: storage type plus execution flags.
struct Variant {
    std::string label;  // "fp32", "fp16", "fp16-arith"; "+no-coop", "+chains" suffixes
    DataType type;
    uint32_t flags;
    bool coop;  // cooperative matrix allowed and the device has it
};

struct Case {
    std::string name;        // "espcn_x2 1920x1080": what peer_torch.py calls the same work
    std::string group;       // network, conv, op
    std::string resolution;  // input WxH
    Variant variant;
    std::function<bench::Network()> build;
};

struct Row {
    std::string name, group, resolution;
    Variant variant;
    double gflop = 0, bytes = 0, medianMs = 0, minMs = 0, recordUs = 0, tflops = 0, gbs = 0;
    std::optional<double> fmaFraction, tensorFraction, bandwidthFraction;
    uint32_t dispatches = 0;
    std::vector<double> roundsMs;  // --rounds: every round's median, in order
    // The nearest ceiling: with tensor cores their GEMM peak bounds the FLOPs, not the FMA peak.
    double boundFraction() const {
        double compute = tensorFraction ? *tensorFraction : fmaFraction.value_or(0);
        return std::max(compute, bandwidthFraction.value_or(0));
    }
};

bool matchesFilter(const std::string& name, const std::string& filter) {
    if (filter.empty()) return true;
    for (size_t begin = 0;;) {
        size_t end = filter.find('|', begin);
        std::string part = filter.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
        bool anchored = !part.empty() && part.back() == '$';  // "...fp16$": the name ends there
        if (anchored) part.pop_back();
        if (!part.empty() && (anchored ? name.ends_with(part) : name.find(part) != std::string::npos)) return true;
        if (end == std::string::npos) return false;
        begin = end + 1;
    }
}

std::vector<Variant> variants(const Capabilities& caps) {
    std::vector<Variant> out = {{"fp32", DataType::Float32, 0, false}};
    if (!caps.fp16Storage) return out;
    std::vector<Variant> fp16 = {{"fp16", DataType::Float16, 0, caps.cooperativeMatrixNV}};
    if (caps.fp16Arithmetic) fp16.push_back({"fp16-arith", DataType::Float16, ExecutionFlagAllowHalfPrecisionComputation, caps.cooperativeMatrixNV});
    for (const Variant& v : fp16) {
        out.push_back(v);
        // The portable path next to the tensor-core one, so the gain is measured, not assumed.
        if (caps.cooperativeMatrixNV) out.push_back({v.label + "+no-coop", v.type, v.flags | ExecutionFlagDisableCooperativeMatrix, false});
    }
    return out;
}

std::string resolution(uint32_t w, uint32_t h) { return std::to_string(w) + "x" + std::to_string(h); }

// The shipped networks (trained by tools/train): the upscaler takes `color` [1,3,H,W]; the
// denoiser `color`, `albedo`, `normal` [1,3,H,W] and `depth` [1,1,H,W]; H and W are free.
bench::Network loadShipped(const std::string& path, const std::string& name, DataType type, uint32_t w, uint32_t h) {
#ifndef BENCH_HAVE_ONNX
    (void)type, (void)w, (void)h;
    throw engine::Error(path + ": " + name + " needs the ONNX loader (mlplugin_onnx), which this build lacks");
#else
    OnnxLoadOptions options;
    options.computeType = type;
    if (name == "denoiser") {
        for (const char* in : {"color", "albedo", "normal"}) options.inputShapes[in] = {1, 3, h, w};
        options.inputShapes["depth"] = {1, 1, h, w};
    } else if (name.starts_with("upscaler_temporal")) {
        // The shipped temporal networks (unshuffle 2: 16 features x 4 per 1/2-display pixel), as
        // effects::Upscaler runs them: w x h is half the display, fp16 tensors channels-last.
        options.inputShapes["features"] = {1, 64, h, w};
    } else {
        options.inputShapes["color"] = {1, 3, h, w};
    }
    auto model = loadOnnxFile(path, options);
    if (!model) throw engine::Error(path + ": " + model.error().message);
    bench::Network net{name, std::move(model->graph)};
    net.gflop = bench::graphGflop(net.graph);
    return name.starts_with("upscaler_temporal") && type == DataType::Float16 ? bench::channelsLastIo(std::move(net)) : net;
#endif
}

std::vector<Case> cases(const Options& o, const Capabilities& caps) {
    struct Res { uint32_t w, h; };
    std::vector<Res> nets = o.common.smoke ? std::vector<Res>{{24, 16}} : std::vector<Res>{{960, 540}, {1920, 1080}};
    Res sweep = o.common.smoke ? Res{20, 12} : Res{1920, 1080};
    std::string upscalerPath = o.common.assets + "/upscaler_x2.onnx", denoiserPath = o.common.assets + "/denoiser.onnx",
                temporalPath = o.common.assets + "/upscaler_temporal.onnx", temporalFastPath = o.common.assets + "/upscaler_temporal_fast.onnx";
    bool haveUpscaler = std::filesystem::exists(upscalerPath), haveDenoiser = std::filesystem::exists(denoiserPath),
         haveTemporal = std::filesystem::exists(temporalPath), haveTemporalFast = std::filesystem::exists(temporalFastPath);
    if (!haveUpscaler) std::printf("skipping the shipped upscaler: %s not found\n", upscalerPath.c_str());
    if (!haveDenoiser) std::printf("skipping the shipped denoiser: %s not found\n", denoiserPath.c_str());
    if (!haveTemporal) std::printf("skipping the shipped temporal upscaler: %s not found\n", temporalPath.c_str());

    // Convolution sweep: kernel 1, 3, 5 over cin x cout in {3,12,16,32,64}; by default the
    // square shapes plus the transitions the reference networks have.
    const uint32_t channels[] = {3, 12, 16, 32, 64};
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    if (o.fullGrid) {
        for (uint32_t ci : channels)
            for (uint32_t co : channels) pairs.push_back({ci, co});
    } else if (o.common.smoke) {
        pairs = {{3, 64}, {16, 16}};  // every kernel size once; CI runs this on lavapipe with validation
    } else {
        pairs = {{3, 64}, {12, 12}, {16, 16}, {32, 32}, {64, 64}, {64, 32}, {32, 12}};
    }

    std::vector<Case> out;
    for (const Variant& v : variants(caps)) {
        DataType t = v.type;
        // Networks also with convolution chains forced (fused layers; the compiler's cost model
        // turns them off where it expects no gain, so this shows what fusion costs or buys).
        bool chains = v.label.find("no-coop") == std::string::npos;
        Variant chained{v.label + "+chains", v.type, v.flags | GraphCompileFlagForceConvChains, v.coop};
        // Tensor-core runs also with every intermediate left NCHW (what channels-last buys).
        Variant nchw{v.label + "+nchw", v.type, v.flags | GraphCompileFlagDisableChannelsLast, v.coop};
        // ...and with intermediates of channel counts that are not a multiple of 16 left unpadded
        // (what whole fragments buy; the same case as `v` where a network has none).
        Variant unpadded{v.label + "+unpadded", v.type, v.flags | GraphCompileFlagDisableChannelPadding, v.coop};
        for (Res r : nets) {
            std::string res = resolution(r.w, r.h);
            // withChains: the forced convolution-chain variant too (not for SRVGG: its layers run
            // fused into the tensor-core kernel's epilogues, which the chain kernel would replace).
            auto net = [&](const std::string& name, std::function<bench::Network()> build, bool withChains = true) {
                out.push_back({name + " " + res, "network", res, v, build});
                if (v.coop) out.push_back({name + " " + res, "network", res, nchw, build});
                if (v.coop) out.push_back({name + " " + res, "network", res, unpadded, build});
                if (chains && withChains) out.push_back({name + " " + res, "network", res, chained, std::move(build)});
            };
            net("espcn_x2", [=] { return bench::espcn(t, r.w, r.h); });
            net("srvgg_x2", [=] { return bench::srvggCompact(t, r.w, r.h); }, false);
            if (r.w >= 1920 || o.common.smoke) {  // OIDN pads to multiples of 16: 1080 -> 1088
                const uint32_t uw = (r.w + 15) / 16 * 16, uh = (r.h + 15) / 16 * 16;
                out.push_back({"unet " + resolution(uw, uh), "network", resolution(uw, uh), v, [=] { return bench::unetOidn(t, uw, uh); }});
            }
            net("fsrcnn_x2", [=] { return bench::fsrcnn(t, r.w, r.h); });
            // Networks of the same kinds in sizes nothing was tuned on (bench/networks.h).
            if (r.w >= 1920 || o.common.smoke) {
                net("espcn_x3", [=] { return bench::espcnScaled(t, r.w, r.h, 3); }, false);
                const uint32_t uw = (r.w + 15) / 16 * 16, uh = (r.h + 15) / 16 * 16;
                out.push_back({"unet_small " + resolution(uw, uh), "network", resolution(uw, uh), v,
                               [=] { return bench::unetVariant(t, uw, uh, bench::kUnetSmall, "small"); }});
            }
            if (r.w < 1920 || o.common.smoke) {
                net("srvgg_x2_c48n12", [=] { return bench::srvggVariant(t, r.w, r.h, 48, 12, 2); }, false);
                net("srvgg_x4_c32n16", [=] { return bench::srvggVariant(t, r.w, r.h, 32, 16, 4); }, false);
            }
            if (haveUpscaler) net("upscaler_x2", [=] { return loadShipped(upscalerPath, "upscaler_x2", t, r.w, r.h); });
            if (haveDenoiser) net("denoiser", [=] { return loadShipped(denoiserPath, "denoiser", t, r.w, r.h); });
            // The temporal network at 1920x1080 is its 4K-output case; no chains (the graph's
            // channels-last input and output are what the effect runs).
            if (haveTemporal) net("upscaler_temporal", [=] { return loadShipped(temporalPath, "upscaler_temporal", t, r.w, r.h); }, false);
            if (haveTemporalFast)
                net("upscaler_temporal_fast", [=] { return loadShipped(temporalFastPath, "upscaler_temporal_fast", t, r.w, r.h); }, false);
        }
        std::string res = resolution(sweep.w, sweep.h);
        Res sw = sweep;
        auto op = [&](std::string name, std::string group, std::function<bench::Network()> build) {
            out.push_back({name + " " + res, group, res, v, std::move(build)});
        };
        for (uint32_t k : {1u, 3u, 5u})
            for (auto [ci, co] : pairs) {
                std::string name = "conv" + std::to_string(k) + "x" + std::to_string(k) + " " + std::to_string(ci) + "->" + std::to_string(co);
                op(name, "conv", [=] { return bench::singleConv(t, sw.w, sw.h, k, ci, co); });
            }
        // Channels-last input and output, as the cuDNN peer's channels_last configuration runs it.
        op("conv3x3 64->64 nhwc", "conv", [=] { return bench::channelsLastIo(bench::singleConv(t, sw.w, sw.h, 3, 64, 64)); });
        op("conv3x3 64->32 +tanh", "conv", [=] { return bench::singleConvActivation(t, sw.w, sw.h, 3, 64, 32, tanhActivation()); });
        if (!o.common.smoke) {  // FSRCNN's other layer shapes
            op("conv5x5 1->56", "conv", [=] { return bench::singleConv(t, sw.w, sw.h, 5, 1, 56); });
            op("conv1x1 56->12", "conv", [=] { return bench::singleConv(t, sw.w, sw.h, 1, 56, 12); });
            op("conv1x1 12->56", "conv", [=] { return bench::singleConv(t, sw.w, sw.h, 1, 12, 56); });
        }
        op("conv_transpose9x9 s2 56->1", "op", [=] { return bench::transposedConv(t, sw.w / 2, sw.h / 2, 56, 1, 9, 2); });
        op("depth_to_space 12->3", "op", [=] { return bench::depthToSpaceOp(t, sw.w, sw.h, 12, 2); });
        op("add 3ch", "op", [=] { return bench::addOp(t, sw.w, sw.h, 3); });
        op("add 32ch", "op", [=] { return bench::addOp(t, sw.w, sw.h, 32); });
        op("prelu 56ch", "op", [=] { return bench::preluOp(t, sw.w, sw.h, 56); });
        op("resize bilinear x2 3ch", "op", [=] { return bench::resizeBilinearX2(t, sw.w, sw.h, 3); });
        op("resize bilinear x2 12ch", "op", [=] { return bench::resizeBilinearX2(t, sw.w, sw.h, 12); });
    }
    return out;
}

// Bytes a case must at least move: its inputs read once and its outputs written once.
double minimumBytes(const GraphDesc& g) {
    double bytes = 0;
    for (ValueId v : g.inputs) bytes += double(g.values[v].desc.requiredBytes());
    for (ValueId v : g.outputs) bytes += double(g.values[v].desc.requiredBytes());
    return bytes;
}

void fillFractions(Row& r, const bench::Ceilings& c) {
    bool halfArith = r.variant.flags & ExecutionFlagAllowHalfPrecisionComputation;
    double fma = halfArith && c.fp16FmaTflops ? *c.fp16FmaTflops : c.fp32FmaTflops;
    if (r.gflop > 0 && fma > 0) r.fmaFraction = r.tflops / fma;
    if (r.gflop > 0 && r.variant.coop && c.coopGemmTflops && *c.coopGemmTflops > 0) r.tensorFraction = r.tflops / *c.coopGemmTflops;
    if (c.computeCopyGBs > 0) r.bandwidthFraction = r.gbs / c.computeCopyGBs;
}

// Deterministic image-like inputs in [0, 1) for every graph input; `host` (when given) receives
// them as the GPU sees them (fp16 inputs rounded), for the CPU reference.
std::vector<std::vector<float>> benchInputs(const GraphDesc& graph, std::vector<HostTensor>* host) {
    std::vector<std::vector<float>> inputs;
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
        const TensorDesc& d = graph.values[graph.inputs[i]].desc;
        std::vector<float> v = bench::detWeights(uint32_t(1000 + i), d.elementCount(), 1.0f);
        for (float& x : v) x = x * 0.5f + 0.5f;
        if (host) {
            HostTensor t{d, std::vector<double>(v.size())};
            for (size_t k = 0; k < v.size(); ++k) t.data[k] = d.dataType == DataType::Float16 ? roundToHalf(v[k]) : v[k];
            host->push_back(std::move(t));
        }
        inputs.push_back(std::move(v));
    }
    return inputs;
}

// Every network at a small size against referenceEvaluateGraph, in each of `precisions`.
bool verify(engine::Context& ctx, Device& device, const std::vector<Variant>& precisions) {
    bool ok = true;
    std::printf("verification against the CPU reference (relative L2 error):\n");
    for (const Variant& v : precisions) {
        const DataType type = v.type;
        const uint32_t flags = v.flags;
        for (bench::Network net : {bench::espcn(type, 48, 32), bench::fsrcnn(type, 48, 32), bench::espcnScaled(type, 47, 29, 3),
                                   bench::srvggVariant(type, 45, 27, 48, 2, 2), bench::srvggVariant(type, 45, 27, 32, 2, 4),
                                   bench::unetVariant(type, 48, 32, bench::kUnetSmall, "small")}) {
            bridge::GraphSession session(ctx, device, net.graph, flags);
            std::vector<HostTensor> inputs;
            session.setInputs(benchInputs(net.graph, &inputs));
            session.run();
            auto got = session.readOutputs();
            auto want = referenceEvaluateGraph(net.graph, inputs);
            if (!want) throw engine::Error("reference: " + want.error().message);
            // Elements only: a fp16 tensor with an odd element count has a padding half at
            // the end of both spans (requiredBytes() rounds to 4 bytes), which no kernel writes.
            const TensorDesc& out = net.graph.values[net.graph.outputs[0]].desc;
            if (!out.isPacked()) throw engine::Error("verify: " + net.name + "'s output is strided");
            double diff = 0, norm = 0;
            for (size_t i = 0; i < out.elementCount(); ++i) {
                double d = got[0][i] - (*want)[0].data[i];
                diff += d * d;
                norm += (*want)[0].data[i] * (*want)[0].data[i];
            }
            double rel = std::sqrt(diff / std::max(norm, 1e-30));
            double tolerance = type == DataType::Float16 ? 1e-2 : 1e-4;
            bool pass = rel < tolerance;
            ok &= pass;
            std::printf("  %-16s %-18s %.2e (< %.0e) %s\n", net.name.c_str(), v.label.c_str(), rel, tolerance, pass ? "ok" : "FAILED");
        }
    }
    return ok;
}

// --rounds: the round whose median time is the median of the rounds' (the lower middle one for
// an even count), carrying every round's time.
Row medianRound(const std::vector<Row>& measured) {
    std::vector<size_t> order(measured.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return measured[a].medianMs < measured[b].medianMs; });
    Row r = measured[order[(order.size() - 1) / 2]];
    r.roundsMs.clear();
    for (const Row& m : measured) r.roundsMs.push_back(m.medianMs);
    return r;
}

void writeJson(const std::string& path, const std::string& device, const Options& o, const bench::Ceilings& c, const std::vector<Row>& rows) {
    std::ofstream f(path);
    if (!f) throw engine::Error("cannot write " + path);
    f << "{\n  \"tool\": \"ml_bench\",\n  \"device\": " << bench::jsonString(device) << ",\n  \"runs\": " << o.runs << ",\n  \"warmup\": " << o.warmup
      << ",\n  \"smoke\": " << (o.common.smoke ? "true" : "false") << ",\n  \"ceilings\": {\"copyBufferGBs\": " << bench::jsonNumber(c.copyBufferGBs)
      << ", \"computeCopyGBs\": " << bench::jsonNumber(c.computeCopyGBs) << ", \"fp32FmaTflops\": " << bench::jsonNumber(c.fp32FmaTflops)
      << ", \"fp16FmaTflops\": " << bench::jsonNumber(c.fp16FmaTflops) << ", \"coopGemmTflops\": " << bench::jsonNumber(c.coopGemmTflops) << "},\n"
      << "  \"copy_bandwidth_gbs\": " << bench::jsonNumber(c.copyBufferGBs) << ",\n  \"results\": [\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        f << "    {\"name\": " << bench::jsonString(r.name) << ", \"group\": " << bench::jsonString(r.group) << ", \"resolution\": " << bench::jsonString(r.resolution)
          << ", \"precision\": " << bench::jsonString(r.variant.label) << ", \"storage\": " << bench::jsonString(toString(r.variant.type))
          << ", \"flags\": " << r.variant.flags << ", \"coop\": " << (r.variant.coop ? "true" : "false") << ", \"gflop\": " << bench::jsonNumber(r.gflop)
          << ", \"bytes\": " << bench::jsonNumber(r.bytes) << ", \"median_ms\": " << bench::jsonNumber(r.medianMs) << ", \"min_ms\": " << bench::jsonNumber(r.minMs) << ", \"record_us\": " << bench::jsonNumber(r.recordUs)
          << ", \"tflops\": " << bench::jsonNumber(r.tflops) << ", \"gbs\": " << bench::jsonNumber(r.gbs) << ", \"fraction\": {\"fma\": " << bench::jsonNumber(r.fmaFraction)
          << ", \"tensor\": " << bench::jsonNumber(r.tensorFraction) << ", \"bandwidth\": " << bench::jsonNumber(r.bandwidthFraction)
          << "}, \"dispatches\": " << r.dispatches;
        if (r.roundsMs.size() > 1) {
            f << ", \"rounds_ms\": [";
            for (size_t k = 0; k < r.roundsMs.size(); ++k) f << (k ? ", " : "") << bench::jsonNumber(r.roundsMs[k]);
            f << "]";
        }
        f << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    f << "  ]\n}\n";
}

std::string optionalText(std::optional<double> v, const char* unit) {
    if (!v) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.3g %s", *v, unit);
    return buf;
}

}  // namespace

// --profile: nodes 0..last of the graph (in execution order), every value they produce and do
// not consume themselves becoming a graph output, so that all of them run. An fp16 output that a
// convolution would keep channels-last is stored so here too, so the prefix does not pay for an
// NCHW store the whole network never makes.
GraphDesc graphPrefix(const GraphDesc& graph, size_t last, bool tensorCores) {
    GraphDesc g = graph;
    g.outputs.clear();
    std::vector<bool> consumed(g.values.size(), false);
    for (size_t i = 0; i <= last; ++i)
        for (ValueId v : g.nodes[i].inputs)
            if (v != kNoValue) consumed[v] = true;
    for (size_t i = 0; i <= last; ++i)
        for (ValueId v : g.nodes[i].outputs) {
            if (consumed[v] || g.values[v].kind != GraphValue::Kind::Intermediate) continue;
            g.outputs.push_back(v);
            const TensorDesc& d = g.values[v].desc;
            if (tensorCores && d.dataType == DataType::Float16 && d.rank == 4 && d.sizes[1] % 8 == 0 && d.isPacked())
                (void)g.setLayout(v, d.channelsLast());  // a failure keeps the packed layout
        }
    return g;
}

void profileNetwork(engine::Context& ctx, Device& device, const GraphDesc& graph, const Variant& variant, const Options& o) {
    double previous = 0;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        GraphDesc prefix = graphPrefix(graph, i, variant.coop);
        if (prefix.outputs.empty()) continue;
        bridge::GraphSession session(ctx, device, prefix, variant.flags);
        session.setInputs(benchInputs(prefix, nullptr));
        const double ms = session.time(o.runs, o.warmup, o.common.smoke ? std::chrono::milliseconds(0) : std::chrono::milliseconds(250)).medianGpuMs;
        std::printf("    profile %3zu %-48s %8.3f ms  %+8.3f ms\n", i, operatorLabel(graph.nodes[i].op).substr(0, 48).c_str(), ms, ms - previous);
        previous = ms;
    }
}

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) return 2;
    if (o.common.smoke) { o.runs = std::min(o.runs, 3u); o.warmup = std::min(o.warmup, 1u); }
    try {
        engine::Context ctx(bench::contextDesc("ml_bench", o.common));
        auto device = bridge::createDevice(ctx, false);
        const Capabilities& caps = device->capabilities();
        std::printf("device: %s (fp16 storage %s, fp16 arithmetic %s, cooperative matrix %s)\n", caps.deviceName.c_str(),
                    caps.fp16Storage ? "yes" : "no", caps.fp16Arithmetic ? "yes" : "no", caps.cooperativeMatrixNV ? "yes" : "no");
        bench::Ceilings ceilings = bench::measureCeilings(ctx, o.common.smoke);
        std::printf("ceilings: vkCmdCopyBuffer %.3g GB/s, compute copy %.3g GB/s (read + write); fp32 FMA %.3g TFLOP/s, fp16 FMA %s, "
                    "fp16 cooperative-matrix GEMM %s\n",
                    ceilings.copyBufferGBs, ceilings.computeCopyGBs, ceilings.fp32FmaTflops, optionalText(ceilings.fp16FmaTflops, "TFLOP/s").c_str(),
                    optionalText(ceilings.coopGemmTflops, "TFLOP/s").c_str());

        TuningTable tuning;
        if (!o.tune.empty()) {
            if (auto loaded = tuning.load(o.tune); !loaded) throw engine::Error(loaded.error().message);
            device->setTuningTable(std::make_shared<TuningTable>(tuning));
            std::printf("tuning table %s: %zu entries\n", o.tune.c_str(), tuning.size());
        }
        std::vector<Case> selected;
        for (Case& c : cases(o, caps)) {
            if (!matchesFilter(c.name + " " + c.variant.label, o.common.filter)) continue;
            if (!o.groups.empty() && ("," + o.groups + ",").find("," + c.group + ",") == std::string::npos) continue;
            selected.push_back(std::move(c));
        }
        if (o.verify) {
            // The precisions the selected cases run in (every precision when none is selected):
            // a run of fp16-arith cases does not pay for compiling the fp32 and fp16 networks.
            std::vector<Variant> precisions;
            for (const Variant& v : variants(caps))
                if (selected.empty() || std::any_of(selected.begin(), selected.end(), [&](const Case& c) {
                        return c.variant.type == v.type && (c.variant.flags & ~uint32_t(GraphCompileFlagForceConvChains)) == v.flags;
                    }))
                    precisions.push_back(v);
            if (!verify(ctx, *device, precisions)) return 1;
        }
        std::vector<Row> rows;
        std::vector<std::vector<Row>> rounds(selected.size());  // per case, one row per round so far
        // Round-robin: every selected case once per round.
        for (size_t step = 0; step < size_t(o.rounds) * selected.size(); ++step) {
            const uint32_t round = uint32_t(step / selected.size()) + 1;
            const size_t ci = step % selected.size();
            const Case& c = selected[ci];
            bench::Network net = c.build();
            if (!o.tune.empty()) {
                bridge::TuneOptions to;
                if (o.common.smoke)
                    to.runs = 2, to.warmup = 1, to.maxCandidates = 2, to.sweeps = 1, to.confirmRounds = 1, to.clockRampUp = std::chrono::milliseconds(0);
                to.progress = [](const bridge::TuneRecord& t) {
                    std::printf("    %-7s %-40s %-34s %8.3f ms  [%s]\n", t.confirmation ? "confirm" : t.sweep ? "again" : "tune", t.node.substr(0, 40).c_str(),
                                t.candidate.c_str(), t.ms, t.key.c_str());
                    std::fflush(stdout);
                };
                bridge::tuneGraph(ctx, *device, net.graph, c.variant.flags, tuning, to);
                if (auto saved = tuning.save(o.tune); !saved) throw engine::Error(saved.error().message);
                device->setTuningTable(std::make_shared<TuningTable>(tuning));
            }
            bridge::GraphSession session(ctx, *device, net.graph, c.variant.flags);
            session.setInputs(benchInputs(net.graph, nullptr));
            bridge::Timing t = session.time(o.runs, o.warmup, o.common.smoke ? std::chrono::milliseconds(0) : std::chrono::milliseconds(250));
            Row r{c.name, c.group, c.resolution, c.variant};
            r.gflop = net.gflop;
            r.bytes = minimumBytes(net.graph);
            r.medianMs = t.medianGpuMs;
            r.minMs = t.minGpuMs;
            r.recordUs = t.medianRecordUs;
            r.tflops = t.medianGpuMs > 0 ? net.gflop / t.medianGpuMs : 0.0;
            r.gbs = t.medianGpuMs > 0 ? r.bytes / (t.medianGpuMs * 1e6) : 0.0;
            r.dispatches = session.compiled().report.dispatchablesOut;
            fillFractions(r, ceilings);
            if (o.rounds > 1) {
                // What the session compiled to, so that a round slower than the others can be
                // told apart from a different plan.
                const GraphCompileReport& report = session.compiled().report;
                std::string chosen;
                for (const TunableConvolution& conv : report.tuning) chosen += (chosen.empty() ? "" : ",") + conv.chosen;
                std::printf("  [round %u] plan: %u dispatches, %llu temporary bytes, kernels %s\n", round, report.dispatchablesOut,
                            (unsigned long long)report.temporaryBytes, chosen.empty() ? "-" : chosen.c_str());
                std::printf("  [round %u]", round);
            }
            std::printf("  %-34s %-18s %9.3f ms (min %7.3f)  %7.2f TFLOP/s  %7.1f GB/s  %5.1f%% of ceiling  record %6.1f us\n", c.name.c_str(),
                        c.variant.label.c_str(), r.medianMs, r.minMs, r.tflops, r.gbs, 100 * r.boundFraction(), r.recordUs);
            if (o.profile && c.group == "network" && round == 1) profileNetwork(ctx, *device, net.graph, c.variant, o);
            std::fflush(stdout);
            rounds[ci].push_back(r);
            rows.clear();
            for (const std::vector<Row>& measured : rounds)
                if (!measured.empty()) rows.push_back(medianRound(measured));
            writeJson(o.common.json, caps.deviceName, o, ceilings, rows);  // a run cut short keeps what it measured
        }
        writeJson(o.common.json, caps.deviceName, o, ceilings, rows);
        std::printf("\n%-36s %-18s %10s %9s %9s %9s %8s %11s\n", "case", "precision", "median ms", "GFLOP", "TFLOP/s", "GB/s", "%ceil", "record us");
        for (const Row& r : rows)
            std::printf("%-36s %-18s %10.3f %9.2f %9.2f %9.1f %7.1f%% %11.1f\n", r.name.c_str(), r.variant.label.c_str(), r.medianMs, r.gflop,
                        r.tflops, r.gbs, 100 * r.boundFraction(), r.recordUs);
        std::printf("%% of ceiling: the larger of achieved / compute peak (tensor-core GEMM peak for cooperative-matrix runs, else\n"
                    "fp32 or fp16 FMA peak) and minimum bytes moved / compute-copy bandwidth.\nwrote %s (%zu cases, median of %u runs after %u warm-up)\n",
                    o.common.json.c_str(), rows.size(), o.runs, o.warmup);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ml_bench: %s\n", e.what());
        return 1;
    }
}
