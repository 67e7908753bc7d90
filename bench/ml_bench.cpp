// ml_bench: GPU times of reference networks and single operators through the plugin, on the
// first (or --device) Vulkan device, with timestamp queries: warm-up, then the median of
// --runs executions recorded back to back with a barrier between them. Prints a table and
// writes JSON. `--smoke` runs tiny sizes with few runs (CI keeps it working on lavapipe;
// its times mean nothing).
#include "engine/buffer.h"
#include "engine/context.h"
#include "engine/error.h"
#include "bridge/graph_session.h"
#include "networks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace mlplugin;

namespace {

struct Options {
    bool smoke = false;
    uint32_t runs = 100, warmup = 10;
    std::string json = "ml_bench.json";
    std::string filter;
    int device = -1;
    bool validation = false;
    bool verify = false;
};

void usage() {
    std::puts(
        "usage: ml_bench [--smoke] [--runs N] [--warmup N] [--json FILE] [--filter TEXT] [--device INDEX] [--validation]\n"
        "  Times reference networks (ESPCN x2, FSRCNN x2) and convolution sweeps through mlplugin.\n"
        "  --smoke       tiny sizes, 3 runs: checks that everything runs (CI on lavapipe)\n"
        "  --runs N      timed runs per case (default 100), after --warmup N (default 10)\n"
        "  --json FILE   results as JSON (default ml_bench.json)\n"
        "  --filter TEXT only cases whose name contains TEXT\n"
        "  --device I    Vulkan device index (default: first discrete GPU)\n"
        "  --validation  enable the Khronos validation layer\n"
        "  --verify      first check every network against the CPU reference (double) at 48x32");
}

bool parseUint(const char* s, uint32_t& out) {
    char* end = nullptr;
    unsigned long v = std::strtoul(s, &end, 10);
    if (!s[0] || *end || v == 0 || v > 100000) return false;
    out = uint32_t(v);
    return true;
}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](const char* what) -> const char* {
            if (i + 1 >= argc) { std::fprintf(stderr, "ml_bench: %s needs a value\n", what); return nullptr; }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") { usage(); std::exit(0); }
        else if (a == "--smoke") o.smoke = true;
        else if (a == "--validation") o.validation = true;
        else if (a == "--verify") o.verify = true;
        else if (a == "--runs" || a == "--warmup") {
            const char* v = value(a.c_str());
            uint32_t n;
            if (!v || !parseUint(v, n)) { std::fprintf(stderr, "ml_bench: %s expects an integer 1..100000\n", a.c_str()); return false; }
            (a == "--runs" ? o.runs : o.warmup) = n;
        } else if (a == "--json") { const char* v = value("--json"); if (!v) return false; o.json = v; }
        else if (a == "--filter") { const char* v = value("--filter"); if (!v) return false; o.filter = v; }
        else if (a == "--device") {
            const char* v = value("--device");
            uint32_t n;
            if (!v || (std::strcmp(v, "0") != 0 && !parseUint(v, n))) { std::fprintf(stderr, "ml_bench: --device expects an index\n"); return false; }
            o.device = std::atoi(v);
        } else { std::fprintf(stderr, "ml_bench: unknown option '%s' (see --help)\n", a.c_str()); return false; }
    }
    return true;
}

struct Case {
    std::string name;
    std::string precision;
    uint32_t flags;
    std::function<bench::Network()> build;
};

struct Row {
    std::string name, precision, resolution;
    double gflop, medianMs, recordUs, tflops;
    uint32_t dispatches;
};

// Copy bandwidth ceiling: device-local to device-local copies, bytes read + written per second.
double copyBandwidthGBs(engine::Context& ctx, uint64_t bytes, uint32_t runs) {
    constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    engine::Buffer a(ctx, bytes, usage, engine::MemoryUsage::DeviceLocal), b(ctx, bytes, usage, engine::MemoryUsage::DeviceLocal);
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2;
    VkQueryPool q;
    ENGINE_VK(vkCreateQueryPool(ctx.device(), &qci, nullptr, &q));
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, q, 0, 2);
        VkBufferCopy copy{0, 0, bytes};
        vkCmdCopyBuffer(cmd, a.handle(), b.handle(), 1, &copy);  // warm-up
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, q, 0);
        for (uint32_t i = 0; i < runs; ++i) {
            // Each copy reads what the previous one wrote (ping-pong): a transfer barrier between them.
            VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, VK_PIPELINE_STAGE_2_COPY_BIT,
                                VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                                VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_TRANSFER_READ_BIT};
            VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
            dep.memoryBarrierCount = 1;
            dep.pMemoryBarriers = &mb;
            vkCmdPipelineBarrier2(cmd, &dep);
            vkCmdCopyBuffer(cmd, (i & 1) ? b.handle() : a.handle(), (i & 1) ? a.handle() : b.handle(), 1, &copy);
        }
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, q, 1);
    });
    uint64_t t[2];
    ENGINE_VK(vkGetQueryPoolResults(ctx.device(), q, 0, 2, sizeof(t), t, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    vkDestroyQueryPool(ctx.device(), q, nullptr);
    double seconds = double(t[1] - t[0]) * ctx.features().timestampPeriodNs * 1e-9;
    return seconds > 0 ? 2.0 * double(bytes) * runs / seconds / 1e9 : 0.0;
}

std::vector<Case> cases(const Options& o, const Capabilities& caps) {
    struct Res { uint32_t w, h; };
    std::vector<Res> nets = o.smoke ? std::vector<Res>{{24, 16}} : std::vector<Res>{{960, 540}, {1920, 1080}};
    Res sweep = o.smoke ? Res{20, 12} : Res{1920, 1080};
    struct Precision { const char* name; DataType type; uint32_t flags; };
    std::vector<Precision> precisions = {{"fp32", DataType::Float32, 0}};
    if (caps.fp16Storage) {
        precisions.push_back({"fp16", DataType::Float16, 0});
        if (caps.fp16Arithmetic) precisions.push_back({"fp16-arith", DataType::Float16, ExecutionFlagAllowHalfPrecisionComputation});
    }
    std::vector<Case> out;
    for (const Precision& p : precisions) {
        for (Res r : nets) {
            std::string res = std::to_string(r.w) + "x" + std::to_string(r.h);
            out.push_back({"espcn_x2 " + res, p.name, p.flags, [=] { return bench::espcn(p.type, r.w, r.h); }});
            out.push_back({"fsrcnn_x2 " + res, p.name, p.flags, [=] { return bench::fsrcnn(p.type, r.w, r.h); }});
        }
        std::string res = std::to_string(sweep.w) + "x" + std::to_string(sweep.h);
        for (uint32_t k : {1u, 3u, 5u})
            for (uint32_t c : {3u, 12u, 16u, 32u, 64u}) {
                if (k == 5 && c != 3 && c != 32) continue;  // 5x5: the ESPCN-like shapes only
                uint32_t cout = (k == 5 && c == 3) ? 64 : c;
                std::string name = "conv" + std::to_string(k) + "x" + std::to_string(k) + " " + std::to_string(c) + "->" + std::to_string(cout) + " " + res;
                out.push_back({name, p.name, p.flags, [=] { return bench::singleConv(p.type, sweep.w, sweep.h, k, c, cout); }});
            }
        auto add = [&](std::string name, std::function<bench::Network()> build) { out.push_back({name + " " + res, p.name, p.flags, build}); };
        DataType t = p.type;
        Res sw = sweep;
        add("conv3x3 64->32 +tanh", [=] { return bench::singleConvActivation(t, sw.w, sw.h, 3, 64, 32, tanhActivation()); });
        add("conv_transpose9x9 s2 56->1", [=] { return bench::transposedConv(t, sw.w / 2, sw.h / 2, 56, 1, 9, 2); });
        add("depth_to_space 12->3", [=] { return bench::depthToSpaceOp(t, sw.w, sw.h, 12, 2); });
        add("add 32ch", [=] { return bench::addOp(t, sw.w, sw.h, 32); });
        add("resize bilinear x2 3ch", [=] { return bench::resizeBilinearX2(t, sw.w, sw.h, 3); });
    }
    return out;
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

// Every network in every precision at a small size against referenceEvaluateGraph.
bool verify(engine::Context& ctx, Device& device, const Capabilities& caps) {
    bool ok = true;
    std::printf("verification against the CPU reference (relative L2 error):\n");
    for (DataType type : {DataType::Float32, DataType::Float16}) {
        if (type == DataType::Float16 && !caps.fp16Storage) continue;
        for (uint32_t flags : {0u, uint32_t(ExecutionFlagAllowHalfPrecisionComputation)}) {
            if (type == DataType::Float32 && flags) continue;
            for (bench::Network net : {bench::espcn(type, 48, 32), bench::fsrcnn(type, 48, 32)}) {
                bridge::GraphSession session(ctx, device, net.graph, flags);
                std::vector<HostTensor> inputs;
                session.setInputs(benchInputs(net.graph, &inputs));
                session.run();
                auto got = session.readOutputs();
                auto want = referenceEvaluateGraph(net.graph, inputs);
                if (!want) throw engine::Error("reference: " + want.error().message);
                double diff = 0, norm = 0;
                for (size_t i = 0; i < (*want)[0].data.size(); ++i) {
                    double d = got[0][i] - (*want)[0].data[i];
                    diff += d * d;
                    norm += (*want)[0].data[i] * (*want)[0].data[i];
                }
                double rel = std::sqrt(diff / std::max(norm, 1e-30));
                double tolerance = type == DataType::Float16 ? 1e-2 : 1e-4;
                bool pass = rel < tolerance;
                ok &= pass;
                std::printf("  %-10s %-5s%-6s %.2e (< %.0e) %s\n", net.name.c_str(), toString(type), flags ? "+arith" : "", rel, tolerance,
                            pass ? "ok" : "FAILED");
            }
        }
    }
    return ok;
}

void writeJson(const std::string& path, const std::string& device, double copyGBs, const std::vector<Row>& rows) {
    std::ofstream f(path);
    if (!f) throw engine::Error("cannot write " + path);
    f << "{\n  \"device\": \"" << device << "\",\n  \"copy_bandwidth_gbs\": " << copyGBs << ",\n  \"results\": [\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        f << "    {\"name\": \"" << r.name << "\", \"precision\": \"" << r.precision << "\", \"gflop\": " << r.gflop
          << ", \"median_ms\": " << r.medianMs << ", \"record_us\": " << r.recordUs
          << ", \"tflops\": " << r.tflops << ", \"dispatches\": " << r.dispatches << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    f << "  ]\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) return 2;
    if (o.smoke) { o.runs = std::min(o.runs, 3u); o.warmup = std::min(o.warmup, 1u); }
    try {
        engine::ContextDesc cd;
        cd.applicationName = "ml_bench";
        cd.validation = o.validation;
        if (o.device >= 0) cd.deviceIndex = uint32_t(o.device);
        engine::Context ctx(cd);
        DeviceDesc dd;
        dd.instance = ctx.instance();
        dd.physicalDevice = ctx.physicalDevice();
        dd.device = ctx.device();
        dd.queueFamilyIndex = ctx.queueFamily();
        dd.getInstanceProcAddr = vkGetInstanceProcAddr;
        dd.shaderStorageBufferArrayDynamicIndexingEnabled = true;
        dd.storageBuffer16BitAccessEnabled = ctx.features().storageBuffer16BitAccess;
        dd.shaderFloat16Enabled = ctx.features().shaderFloat16;
        dd.cooperativeMatrixNVEnabled = ctx.features().cooperativeMatrixNV;
        auto device = createDevice(dd);
        if (!device) throw engine::Error("createDevice: " + device.error().message);
        const Capabilities& caps = (*device)->capabilities();
        std::printf("device: %s (fp16 %s, cooperative matrix %s)\n", caps.deviceName.c_str(), caps.fp16Storage ? "yes" : "no",
                    caps.cooperativeMatrixNV ? "yes" : "no");
        double copyGBs = copyBandwidthGBs(ctx, o.smoke ? (1u << 20) : (256u << 20), o.smoke ? 2 : 20);
        std::printf("copy bandwidth ceiling: %.0f GB/s (read + write)\n", copyGBs);

        if (o.verify && !verify(ctx, **device, caps)) return 1;
        std::vector<Row> rows;
        for (const Case& c : cases(o, caps)) {
            if (!o.filter.empty() && (c.name + " " + c.precision).find(o.filter) == std::string::npos) continue;
            bench::Network net = c.build();
            bridge::GraphSession session(ctx, **device, net.graph, c.flags);
            session.setInputs(benchInputs(net.graph, nullptr));
            bridge::Timing t = session.time(o.runs, o.warmup);
            Row r{c.name, c.precision, "", net.gflop, t.medianGpuMs, t.medianRecordUs,
                  t.medianGpuMs > 0 ? net.gflop / t.medianGpuMs : 0.0, session.compiled().report.dispatchablesOut};
            std::printf("  %-28s %-10s %9.3f ms  %7.2f TFLOP/s  record %6.1f us\n", c.name.c_str(), c.precision.c_str(), r.medianMs,
                        r.tflops, r.recordUs);
            rows.push_back(r);
        }
        writeJson(o.json, caps.deviceName, copyGBs, rows);
        std::printf("\n%-30s %-10s %10s %10s %9s %11s\n", "case", "precision", "median ms", "GFLOP", "TFLOP/s", "record us");
        for (const Row& r : rows)
            std::printf("%-30s %-10s %10.3f %10.2f %9.2f %11.1f\n", r.name.c_str(), r.precision.c_str(), r.medianMs, r.gflop, r.tflops, r.recordUs);
        std::printf("wrote %s (%zu cases)\n", o.json.c_str(), rows.size());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ml_bench: %s\n", e.what());
        return 1;
    }
}
