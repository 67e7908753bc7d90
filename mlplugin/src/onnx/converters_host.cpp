// Operators that only appear in shape-computing subgraphs (comparisons, Where, rounding,
// Range, Mod): evaluated at load time on host tensors. A runtime input is an error naming the node:
// the plugin has no GPU kernels for them.
#include "onnx/loader.h"

#include <algorithm>
#include <cmath>

namespace mlplugin::onnx_detail {
namespace {

Result<HostTensorValue> hostOperand(Loader& l, size_t i) { return l.hostInput(i, ("input " + std::to_string(i)).c_str()); }

Status foldBinary(Loader& l, double (*f)(double, double), bool integerResult) {
    MLP_TRY(l.onlyAttributes({}));
    auto a = hostOperand(l, 0);
    if (!a) return a.error();
    auto b = hostOperand(l, 1);
    if (!b) return b.error();
    auto r = broadcastHost(l, *a, *b, f);
    if (!r) return r.error();
    r->integer = integerResult || r->integer;
    l.setHostOutput(0, std::move(*r));
    return {};
}

Status foldUnary(Loader& l, double (*f)(double), bool integerResult) {
    MLP_TRY(l.onlyAttributes({}));
    auto a = hostOperand(l, 0);
    if (!a) return a.error();
    for (double& v : a->data) v = f(v);
    a->integer = integerResult || a->integer;
    l.setHostOutput(0, std::move(*a));
    return {};
}

// Where(cond, x, y): broadcast in two steps, selecting through a sentinel-free index trick:
// first pick x where cond, then y where !cond.
Status foldWhere(Loader& l) {
    MLP_TRY(l.onlyAttributes({}));
    auto c = hostOperand(l, 0);
    if (!c) return c.error();
    auto x = hostOperand(l, 1);
    if (!x) return x.error();
    auto y = hostOperand(l, 2);
    if (!y) return y.error();
    auto pickX = broadcastHost(l, *c, *x, [](double cond, double v) { return cond != 0 ? v : 0.0; });
    if (!pickX) return pickX.error();
    auto notC = *c;
    for (double& v : notC.data) v = v != 0 ? 0.0 : 1.0;
    auto pickY = broadcastHost(l, notC, *y, [](double cond, double v) { return cond != 0 ? v : 0.0; });
    if (!pickY) return pickY.error();
    auto sum = broadcastHost(l, *pickX, *pickY, [](double a, double b) { return a + b; });
    if (!sum) return sum.error();
    sum->integer = x->integer && y->integer;
    l.setHostOutput(0, std::move(*sum));
    return {};
}

// Mod: torch exports Python's `%` on shapes as Mod (fmod=0, the result takes the divisor's sign),
// e.g. OIDN-style dynamic models padding H and W up to a multiple of 16 with
// `(16 - h % 16) % 16`. fmod=1 is C's fmod (the dividend's sign).
Status foldMod(Loader& l) {
    MLP_TRY(l.onlyAttributes({"fmod"}));
    auto fmod = l.intAttr("fmod", 0);
    if (!fmod) return fmod.error();
    if (*fmod != 0 && *fmod != 1) return l.invalid("attribute 'fmod' = " + std::to_string(*fmod) + " is not 0 or 1");
    auto a = hostOperand(l, 0);
    if (!a) return a.error();
    auto b = hostOperand(l, 1);
    if (!b) return b.error();
    if (*fmod == 0 && !(a->integer && b->integer)) return l.invalid("fmod = 0 on floating-point inputs (the operator requires fmod = 1 for them)");
    // Integer division by zero is undefined in ONNX; refusing it beats folding a made-up shape.
    if (a->integer && b->integer && std::find(b->data.begin(), b->data.end(), 0.0) != b->data.end()) return l.invalid("integer Mod by zero");
    double (*cMod)(double, double) = [](double x, double y) { return std::fmod(x, y); };
    double (*pythonMod)(double, double) = [](double x, double y) {
        double m = std::fmod(x, y);
        return m != 0 && (m < 0) != (y < 0) ? m + y : m;
    };
    auto r = broadcastHost(l, *a, *b, *fmod ? cMod : pythonMod);
    if (!r) return r.error();
    l.setHostOutput(0, std::move(*r));
    return {};
}

Status foldRange(Loader& l) {
    MLP_TRY(l.onlyAttributes({}));
    double v[3];
    for (size_t i = 0; i < 3; ++i) {
        auto h = hostOperand(l, i);
        if (!h) return h.error();
        if (h->data.size() != 1) return l.invalid("Range inputs must be scalars");
        v[i] = h->data[0];
    }
    if (v[2] == 0) return l.invalid("Range delta is 0");
    double n = std::ceil((v[1] - v[0]) / v[2]);
    if (!(n <= double(kMaxFoldedElements))) return l.invalid("Range is too long");
    HostTensorValue out;
    out.integer = true;
    for (int64_t i = 0; i < int64_t(std::max(n, 0.0)); ++i) out.data.push_back(v[0] + double(i) * v[2]);
    out.dims = {int64_t(out.data.size())};
    l.setHostOutput(0, std::move(out));
    return {};
}

}  // namespace

void registerHostConverters(std::unordered_map<std::string, Converter>& t) {
    t["Equal"] = [](Loader& l, const onnx::NodeProto&) { return foldBinary(l, [](double a, double b) { return a == b ? 1.0 : 0.0; }, true); };
    t["Less"] = [](Loader& l, const onnx::NodeProto&) { return foldBinary(l, [](double a, double b) { return a < b ? 1.0 : 0.0; }, true); };
    t["Greater"] = [](Loader& l, const onnx::NodeProto&) { return foldBinary(l, [](double a, double b) { return a > b ? 1.0 : 0.0; }, true); };
    t["Not"] = [](Loader& l, const onnx::NodeProto&) { return foldUnary(l, [](double a) { return a != 0 ? 0.0 : 1.0; }, true); };
    t["Floor"] = [](Loader& l, const onnx::NodeProto&) { return foldUnary(l, [](double a) { return std::floor(a); }, false); };
    t["Ceil"] = [](Loader& l, const onnx::NodeProto&) { return foldUnary(l, [](double a) { return std::ceil(a); }, false); };
    t["Where"] = [](Loader& l, const onnx::NodeProto&) { return foldWhere(l); };
    t["Range"] = [](Loader& l, const onnx::NodeProto&) { return foldRange(l); };
    t["Mod"] = [](Loader& l, const onnx::NodeProto&) { return foldMod(l); };
}

}  // namespace mlplugin::onnx_detail
