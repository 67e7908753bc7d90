// Network layers: Conv, ConvTranspose, Gemm, MatMul, pooling, Resize/Upsample, normalization,
// reductions, depth/space rearrangement.
#include "onnx/loader.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace mlplugin::onnx_detail {
namespace {

// Reads a spatial attribute (kernel_shape, strides, dilations, output_padding) as {H, W};
// `fallback` when absent. 1-D layers (see spatialInput) give one value, for W; H gets `liftedH`.
Result<std::array<uint32_t, 2>> spatialAttr(const Loader& l, const char* name, uint32_t fallback, bool oneD, uint32_t liftedH) {
    auto v = l.intsAttr(name);
    if (!v) return v.error();
    if (v->empty()) return std::array<uint32_t, 2>{oneD ? liftedH : fallback, fallback};
    size_t want = oneD ? 1 : 2;
    if (v->size() != want)
        return l.unsupportedHere(std::string("attribute '") + name + "' has " + std::to_string(v->size()) + " values; " + std::to_string(want) +
                                 " expected (1-D and 2-D layers are supported)");
    for (int64_t x : *v)
        if (x < 0 || x > 65535 || (x == 0 && std::string(name) != "output_padding"))
            return l.invalid(std::string("attribute '") + name + "' value " + std::to_string(x) + " is out of range");
    if (oneD) return std::array<uint32_t, 2>{liftedH, uint32_t((*v)[0])};
    return std::array<uint32_t, 2>{uint32_t((*v)[0]), uint32_t((*v)[1])};
}

struct Pads {
    std::array<uint32_t, 2> begin{0, 0}, end{0, 0};
};

// pads / auto_pad of Conv and pooling. SAME_* pads so that out = ceil(in / stride).
Result<Pads> spatialPads(const Loader& l, const TensorDesc& input, std::array<uint32_t, 2> kernel, std::array<uint32_t, 2> strides,
                         std::array<uint32_t, 2> dilations, bool oneD) {
    auto autoPad = l.stringAttr("auto_pad", "NOTSET");
    if (!autoPad) return autoPad.error();
    Pads p;
    if (*autoPad == "NOTSET") {
        auto pads = l.intsAttr("pads");
        if (!pads) return pads.error();
        if (pads->empty()) return p;
        if (pads->size() != (oneD ? 2u : 4u))
            return l.unsupportedHere("attribute 'pads' has " + std::to_string(pads->size()) + " values; " + (oneD ? "2" : "4") + " expected");
        for (int64_t x : *pads)
            if (x < 0 || x > 65535) return l.invalid("pad " + std::to_string(x) + " is out of range");
        if (oneD) {
            p.begin = {0, uint32_t((*pads)[0])};
            p.end = {0, uint32_t((*pads)[1])};
        } else {
            p.begin = {uint32_t((*pads)[0]), uint32_t((*pads)[1])};
            p.end = {uint32_t((*pads)[2]), uint32_t((*pads)[3])};
        }
    } else if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
        for (int d = 0; d < 2; ++d) {
            int64_t in = input.sizes[2 + d];
            int64_t out = (in + strides[d] - 1) / strides[d];
            int64_t span = int64_t(dilations[d]) * (kernel[d] - 1) + 1;
            int64_t total = std::max<int64_t>(0, (out - 1) * strides[d] + span - in);
            uint32_t small = uint32_t(total / 2), large = uint32_t(total - total / 2);
            p.begin[d] = *autoPad == "SAME_UPPER" ? small : large;
            p.end[d] = *autoPad == "SAME_UPPER" ? large : small;
        }
    } else if (*autoPad != "VALID") {
        return l.invalid("auto_pad '" + *autoPad + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
    }
    return p;
}

Result<GraphView> input4d(Loader& l, size_t i) {
    auto g = l.graphInput(i);
    if (!g) return g.error();
    if (g->view.rank != 4) return l.unsupportedHere("input " + std::to_string(i) + " is " + g->view.toString() + "; only 4-D NCHW tensors are supported");
    return g;
}

// Input i of a spatial layer as NCHW. 1-D layers ([N, C, W], weights [O, I, K]) are viewed as
// [N, C, 1, W] (no copy) and their attributes lifted to 2-D; `oneD` tells the caller.
Result<GraphView> spatialInput(Loader& l, size_t i, bool& oneD) {
    auto g = l.graphInput(i);
    if (!g) return g.error();
    if (g->view.rank == 3) {
        oneD = true;
        return reshapeView(l, *g, {g->view.sizes[0], g->view.sizes[1], 1, g->view.sizes[2]});
    }
    if (g->view.rank != 4)
        return l.unsupportedHere("input " + std::to_string(i) + " is " + g->view.toString() + "; 3-D (NCW) and 4-D (NCHW) tensors are supported");
    return g;
}

// Emits a spatial layer; a 1-D layer's output is viewed back as [N, C, W].
Status emitSpatial(Loader& l, OperatorDesc op, const std::vector<std::optional<GraphView>>& inputs, bool oneD) {
    auto outs = l.addNode(std::move(op), inputs);
    if (!outs) return outs.error();
    GraphView out = outs->at(0);
    if (oneD) {
        auto v = reshapeView(l, out, {out.view.sizes[0], out.view.sizes[1], out.view.sizes[3]});
        if (!v) return v.error();
        out = *v;
    }
    l.setGraphOutput(0, out);
    return {};
}

Status convertConv(Loader& l, bool transposed) {
    if (transposed) MLP_TRY(l.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads", "strides"}));
    else MLP_TRY(l.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"}));
    bool oneD = false, weightOneD = false;
    auto x = spatialInput(l, 0, oneD);
    if (!x) return x.error();
    auto w = spatialInput(l, 1, weightOneD);
    if (!w) return w.error();
    if (oneD != weightOneD) return l.invalid("input " + x->view.toString() + " and weights " + w->view.toString() + " differ in rank");
    std::optional<GraphView> b;
    if (l.hasInput(2)) {
        auto bv = l.graphInput(2);
        if (!bv) return bv.error();
        b = *bv;
    }
    ConvolutionDesc c;
    c.transposed = transposed;
    auto group = l.intAttr("group", 1);
    if (!group) return group.error();
    if (*group <= 0 || *group > 65535) return l.invalid("group " + std::to_string(*group) + " is out of range");
    c.groups = uint32_t(*group);
    std::array<uint32_t, 2> kernel{w->view.sizes[2], w->view.sizes[3]};
    auto ks = spatialAttr(l, "kernel_shape", 0, oneD, 1);
    if (!ks) return ks.error();
    if ((*ks)[1] && *ks != kernel) return l.invalid("kernel_shape does not match the weights " + w->view.toString());
    auto strides = spatialAttr(l, "strides", 1, oneD, 1);
    if (!strides) return strides.error();
    auto dil = spatialAttr(l, "dilations", 1, oneD, 1);
    if (!dil) return dil.error();
    c.strides = *strides;
    c.dilations = *dil;
    if (!transposed) {
        auto pads = spatialPads(l, x->view, kernel, c.strides, c.dilations, oneD);
        if (!pads) return pads.error();
        c.padBegin = pads->begin;
        c.padEnd = pads->end;
    } else {
        auto outPad = spatialAttr(l, "output_padding", 0, oneD, 0);
        if (!outPad) return outPad.error();
        c.outputPadding = *outPad;
        auto autoPad = l.stringAttr("auto_pad", "NOTSET");
        if (!autoPad) return autoPad.error();
        auto outShape = l.intsAttr("output_shape");
        if (!outShape) return outShape.error();
        if (*autoPad != "NOTSET" && outShape->empty()) return l.unsupportedHere("auto_pad '" + *autoPad + "' without output_shape is not supported");
        if (oneD && !outShape->empty()) outShape->insert(outShape->end() - 1, 1);  // H of the lifted layer
        if (!outShape->empty()) {
            // The pads that give output_shape (ONNX ConvTranspose's shape rule).
            if (outShape->size() < 2) return l.invalid("output_shape needs 2 spatial dims");
            for (int64_t v : *outShape)
                if (v <= 0 || v > int64_t(kMaxOnnxTensorElements)) return l.invalid("output_shape entry " + std::to_string(v) + " is out of range");
            size_t off = outShape->size() - 2;
            for (int d = 0; d < 2; ++d) {
                int64_t span = int64_t(c.dilations[d]) * (kernel[d] - 1) + 1;
                int64_t total = int64_t(c.strides[d]) * (x->view.sizes[2 + d] - 1) + c.outputPadding[d] + span - (*outShape)[off + d];
                if (total < 0) return l.unsupportedHere("output_shape larger than the full transposed convolution is not supported");
                bool upper = *autoPad == "SAME_UPPER";
                c.padBegin[d] = uint32_t(upper ? total / 2 : total - total / 2);
                c.padEnd[d] = uint32_t(upper ? total - total / 2 : total / 2);
            }
        } else {
            auto pads = spatialPads(l, x->view, kernel, c.strides, c.dilations, oneD);
            if (!pads) return pads.error();
            c.padBegin = pads->begin;
            c.padEnd = pads->end;
        }
    }
    return emitSpatial(l, c, {*x, *w, b}, oneD);
}

Status convertGemm(Loader& l) {
    MLP_TRY(l.onlyAttributes({"alpha", "beta", "transA", "transB", "broadcast"}));
    GemmDesc g;
    auto alpha = l.floatAttr("alpha", 1.0f), beta = l.floatAttr("beta", 1.0f);
    auto ta = l.intAttr("transA", 0), tb = l.intAttr("transB", 0);
    if (!alpha) return alpha.error();
    if (!beta) return beta.error();
    if (!ta) return ta.error();
    if (!tb) return tb.error();
    g.alpha = *alpha;
    g.beta = *beta;
    g.transposeA = *ta != 0;
    g.transposeB = *tb != 0;
    auto a = l.graphInput(0), b = l.graphInput(1);
    if (!a) return a.error();
    if (!b) return b.error();
    if (a->view.rank != 2 || b->view.rank != 2) return l.invalid("Gemm inputs must be 2-D, got " + a->view.toString() + " and " + b->view.toString());
    std::optional<GraphView> c;
    if (l.hasInput(2)) {
        auto cv = l.graphInput(2);
        if (!cv) return cv.error();
        c = *cv;
    }
    return l.emit(g, {*a, *b, c});
}

// MatMul of any ranks up to kMaxTensorRank: 1-D operands are promoted ([K] -> [1, K] for A,
// [K, 1] for B, the added dim dropped from the output); batch dims broadcast numpy-style and
// neighbours that broadcast alike in A and B are merged, so the GEMM sees at most 2 batch dims.
Status convertMatMul(Loader& l) {
    MLP_TRY(l.onlyAttributes({}));
    auto a = l.graphInput(0), b = l.graphInput(1);
    if (!a) return a.error();
    if (!b) return b.error();
    std::vector<int64_t> da = dimsOf(a->view), db = dimsOf(b->view);
    const bool vectorA = da.size() == 1, vectorB = db.size() == 1;
    if (vectorA) da.insert(da.begin(), 1);
    if (vectorB) db.push_back(1);
    if (da.back() != db[db.size() - 2])
        return l.invalid("inner dims differ: A " + a->view.toString() + " has K = " + std::to_string(da.back()) + ", B " + b->view.toString() +
                         " has K = " + std::to_string(db[db.size() - 2]));
    // Batch dims right-aligned; each merged group: sizes in A, B and the output.
    size_t batchRank = std::max(da.size(), db.size()) - 2;
    std::vector<int64_t> ba(batchRank, 1), bb(batchRank, 1), bo(batchRank, 1);
    for (size_t i = 0; i < da.size() - 2; ++i) ba[batchRank - (da.size() - 2) + i] = da[i];
    for (size_t i = 0; i < db.size() - 2; ++i) bb[batchRank - (db.size() - 2) + i] = db[i];
    std::vector<int64_t> ma, mb, mo;
    for (size_t i = 0; i < batchRank; ++i) {
        if (ba[i] != bb[i] && ba[i] != 1 && bb[i] != 1)
            return l.invalid("batch dims of A " + a->view.toString() + " and B " + b->view.toString() + " do not broadcast (batch dim " +
                             std::to_string(i) + ": " + std::to_string(ba[i]) + " vs " + std::to_string(bb[i]) + ")");
        bo[i] = std::max(ba[i], bb[i]);
        if (bo[i] == 1) continue;
        bool mergeable = !mo.empty() && (ba[i] == 1) == (ma.back() == 1) && (bb[i] == 1) == (mb.back() == 1);
        if (mergeable) {
            ma.back() *= ba[i];
            mb.back() *= bb[i];
            mo.back() *= bo[i];
        } else {
            ma.push_back(ba[i]);
            mb.push_back(bb[i]);
            mo.push_back(bo[i]);
        }
    }
    if (mo.size() > 2)
        return l.unsupportedHere("MatMul of " + a->view.toString() + " and " + b->view.toString() + " needs " + std::to_string(mo.size()) +
                                 " batch dims after merging (at most 2: the GEMM is 4-D)");
    auto view = [&](const GraphView& g, std::vector<int64_t> batch, int64_t rows, int64_t cols) {
        std::vector<uint32_t> sizes(batch.begin(), batch.end());
        sizes.push_back(uint32_t(rows));
        sizes.push_back(uint32_t(cols));
        return reshapeView(l, g, sizes);
    };
    auto va = view(*a, ma, da[da.size() - 2], da.back());
    if (!va) return va.error();
    auto vb = view(*b, mb, db[db.size() - 2], db.back());
    if (!vb) return vb.error();
    auto outs = l.addNode(GemmDesc{}, {*va, *vb});
    if (!outs) return outs.error();
    std::vector<uint32_t> outSizes(bo.begin(), bo.end());
    if (!vectorA) outSizes.push_back(uint32_t(da[da.size() - 2]));
    if (!vectorB) outSizes.push_back(uint32_t(db.back()));
    if (outSizes.empty()) outSizes.push_back(1);
    auto out = reshapeView(l, outs->at(0), outSizes);
    if (!out) return out.error();
    l.setGraphOutput(0, *out);
    return {};
}

Status convertPool(Loader& l, PoolingType type, bool global) {
    bool oneD = false;
    auto x = spatialInput(l, 0, oneD);
    if (!x) return x.error();
    if (l.node().output_size() > 1 && !l.node().output(1).empty()) return l.unsupportedHere("the Indices output is not supported");
    PoolingDesc p;
    p.type = type;
    if (type == PoolingType::Lp) {
        auto norm = l.intAttr("p", 2);
        if (!norm) return norm.error();
        if (*norm < 1 || *norm > 16) return l.invalid("attribute 'p' is " + std::to_string(*norm) + " (1 to 16 are supported)");
        p.p = uint32_t(*norm);
    }
    if (global) {
        if (type == PoolingType::Lp) MLP_TRY(l.onlyAttributes({"p"}));
        else MLP_TRY(l.onlyAttributes({}));
        p.global = true;
        return emitSpatial(l, p, {*x}, oneD);
    }
    // dilations: MaxPool from 10, AveragePool from 19, LpPool from 18; ceil_mode: LpPool from 18.
    if (type == PoolingType::Max) MLP_TRY(l.onlyAttributes({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"}));
    else if (type == PoolingType::Lp && l.opset() >= 18) MLP_TRY(l.onlyAttributes({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "p", "pads", "strides"}));
    else if (type == PoolingType::Lp) MLP_TRY(l.onlyAttributes({"auto_pad", "kernel_shape", "p", "pads", "strides"}));
    else if (l.opset() >= 19) MLP_TRY(l.onlyAttributes({"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides"}));
    else MLP_TRY(l.onlyAttributes({"auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides"}));
    auto k = spatialAttr(l, "kernel_shape", 0, oneD, 1);
    if (!k) return k.error();
    if ((*k)[1] == 0) return l.invalid("attribute 'kernel_shape' is required");
    auto s = spatialAttr(l, "strides", 1, oneD, 1);
    if (!s) return s.error();
    auto d = spatialAttr(l, "dilations", 1, oneD, 1);
    if (!d) return d.error();
    p.window = *k;
    p.strides = *s;
    p.dilations = *d;
    auto pads = spatialPads(l, x->view, p.window, p.strides, p.dilations, oneD);
    if (!pads) return pads.error();
    p.padBegin = pads->begin;
    p.padEnd = pads->end;
    auto cip = l.intAttr("count_include_pad", 0);
    if (!cip) return cip.error();
    p.countIncludePad = *cip != 0;
    auto ceil = l.intAttr("ceil_mode", 0);
    if (!ceil) return ceil.error();
    if (*ceil) {
        // Ceil mode adds windows that start inside the input (or its begin padding) but end past
        // the end padding: extend the end padding to cover them (excluded from max and from
        // averages that do not count padding).
        for (int i = 0; i < 2; ++i) {
            int64_t in = x->view.sizes[2 + i], span = int64_t(p.dilations[i]) * (p.window[i] - 1) + 1;
            int64_t avail = in + p.padBegin[i] + p.padEnd[i] - span;
            if (avail < 0) return l.invalid("the window is larger than the padded input");
            int64_t floorOut = avail / p.strides[i] + 1, ceilOut = (avail + p.strides[i] - 1) / p.strides[i] + 1;
            if ((ceilOut - 1) * p.strides[i] >= in + p.padBegin[i]) --ceilOut;
            if (ceilOut == floorOut) continue;
            if (type == PoolingType::Average && p.countIncludePad)
                return l.unsupportedHere("ceil_mode with count_include_pad changes the output size here; not supported");
            p.padEnd[i] += uint32_t((ceilOut - 1) * p.strides[i] + span - (in + p.padBegin[i] + p.padEnd[i]));
        }
    }
    return emitSpatial(l, p, {*x}, oneD);
}

Result<ResampleMode> resampleMode(const Loader& l, const std::string& mode) {
    if (mode == "nearest") return ResampleMode::Nearest;
    if (mode == "linear" || mode == "bilinear") return ResampleMode::Linear;
    if (mode == "cubic") return ResampleMode::Cubic;
    return l.invalid("attribute 'mode' = '" + mode + "' is not one of nearest, linear, cubic");
}

// Scales for N, C, H, W: N and C must stay.
Status setScales(const Loader& l, ResampleDesc& r, const std::vector<double>& scales) {
    if (scales.size() != 4) return l.unsupportedHere("scales has " + std::to_string(scales.size()) + " values; only 4-D NCHW is supported");
    if (scales[0] != 1 || scales[1] != 1) return l.unsupportedHere("scales " + floatsString(scales) + " scale the batch or channel dim (only H and W can be resized)");
    for (int k = 2; k < 4; ++k)
        if (!(scales[k] > 0 && scales[k] < 65536)) return l.invalid("scales " + floatsString(scales) + ": entry " + std::to_string(k) + " is not a positive finite scale");
    r.scales = {float(scales[2]), float(scales[3])};
    return {};
}

// Resize-18's `axes`: scales or sizes given for the listed axes only; the others keep their
// size (scale 1). Returns the 4-D list.
template <class T>
Result<std::vector<T>> expandToAxes(const Loader& l, const std::vector<T>& values, const std::vector<int64_t>& axes, const TensorDesc& x,
                                    const char* what, T keep) {
    if (axes.empty()) return values;
    if (values.size() != axes.size())
        return l.invalid(std::string(what) + " has " + std::to_string(values.size()) + " values for " + std::to_string(axes.size()) + " axes");
    std::vector<T> full(x.rank, keep);
    std::vector<bool> seen(x.rank, false);
    for (size_t i = 0; i < axes.size(); ++i) {
        auto ax = l.axis(axes[i], x.rank, "attribute 'axes' entry");
        if (!ax) return ax.error();
        if (seen[*ax]) return l.invalid("attribute 'axes' lists axis " + std::to_string(axes[i]) + " twice");
        seen[*ax] = true;
        full[*ax] = values[i];
    }
    if constexpr (std::is_same_v<T, int64_t>)
        for (uint32_t d = 0; d < x.rank; ++d)
            if (!seen[d]) full[d] = x.sizes[d];
    return full;
}

Status convertUpsampleOrResize(Loader& l, bool resize) {
    auto x = input4d(l, 0);
    if (!x) return x.error();
    ResampleDesc r;
    auto modeName = l.stringAttr("mode", "nearest");
    if (!modeName) return modeName.error();
    auto mode = resampleMode(l, *modeName);
    if (!mode) return mode.error();
    r.mode = *mode;
    // Upsample and Resize-10: asymmetric coordinates, nearest rounds down.
    r.transform = CoordinateTransform::Asymmetric;
    r.rounding = NearestRounding::Floor;
    if (!resize || l.opset() < 11) {
        MLP_TRY(l.onlyAttributes({"mode", "scales"}));
        if (r.mode == ResampleMode::Cubic)  // cubic came with Resize-11
            return l.invalid("attribute 'mode' = 'cubic' is not valid for " + std::string(resize ? "Resize" : "Upsample") + " at opset " +
                             std::to_string(l.opset()) + " (nearest, linear; cubic needs Resize at opset 11 or later)");
        std::vector<double> scales;
        if (!resize && l.opset() < 9) {
            auto s = l.floatsAttr("scales");
            if (!s) return s.error();
            scales.assign(s->begin(), s->end());
        } else {
            auto s = l.hostInput(1, "scales");
            if (!s) return s.error();
            scales = s->data;
        }
        MLP_TRY(setScales(l, r, scales));
        return l.emit(r, {*x});
    }
    if (l.opset() >= 18)
        MLP_TRY(l.onlyAttributes({"mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside",
                                  "extrapolation_value", "antialias", "axes", "keep_aspect_ratio_policy"}));
    else
        MLP_TRY(l.onlyAttributes({"mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside", "extrapolation_value"}));
    auto ctm = l.stringAttr("coordinate_transformation_mode", "half_pixel");
    if (!ctm) return ctm.error();
    if (*ctm == "half_pixel") r.transform = CoordinateTransform::HalfPixel;
    else if (*ctm == "align_corners") r.transform = CoordinateTransform::AlignCorners;
    else if (*ctm == "asymmetric") r.transform = CoordinateTransform::Asymmetric;
    else if (*ctm == "pytorch_half_pixel") r.transform = CoordinateTransform::PytorchHalfPixel;
    else if (*ctm == "half_pixel_symmetric" && l.opset() >= 19) r.transform = CoordinateTransform::HalfPixelSymmetric;
    else if (*ctm == "tf_crop_and_resize" || *ctm == "tf_half_pixel_for_nn")
        return l.unsupportedHere("attribute 'coordinate_transformation_mode' = '" + *ctm + "' is not supported");
    else return l.invalid("attribute 'coordinate_transformation_mode' = '" + *ctm + "' is not valid at opset " + std::to_string(l.opset()));
    auto nm = l.stringAttr("nearest_mode", "round_prefer_floor");
    if (!nm) return nm.error();
    if (*nm == "round_prefer_floor") r.rounding = NearestRounding::RoundPreferFloor;
    else if (*nm == "round_prefer_ceil") r.rounding = NearestRounding::RoundPreferCeil;
    else if (*nm == "floor") r.rounding = NearestRounding::Floor;
    else if (*nm == "ceil") r.rounding = NearestRounding::Ceil;
    else return l.invalid("attribute 'nearest_mode' = '" + *nm + "' is not valid");
    // exclude_outside changes only cubic: nearest reads one tap inside the input, and linear's
    // taps past the border (clamped here) would get weight 0 with all the weight on the edge
    // tap, which reads the same value.
    auto exclude = l.intAttr("exclude_outside", 0);
    if (!exclude) return exclude.error();
    if (*exclude != 0 && *exclude != 1) return l.invalid("attribute 'exclude_outside' is " + std::to_string(*exclude) + " (0 or 1)");
    r.excludeOutside = *exclude == 1 && r.mode == ResampleMode::Cubic;
    auto coeffA = l.floatAttr("cubic_coeff_a", -0.75f);
    if (!coeffA) return coeffA.error();
    if (!std::isfinite(*coeffA)) return l.invalid("attribute 'cubic_coeff_a' is " + std::to_string(*coeffA) + ", expected a finite number");
    r.cubicCoeffA = *coeffA;
    auto antialias = l.intAttr("antialias", 0);
    if (!antialias) return antialias.error();
    if (*antialias != 0 && *antialias != 1) return l.invalid("attribute 'antialias' is " + std::to_string(*antialias) + " (0 or 1)");
    auto axes = l.intsAttr("axes");
    if (!axes) return axes.error();
    auto policy = l.stringAttr("keep_aspect_ratio_policy", "stretch");
    if (!policy) return policy.error();
    if (*policy != "stretch" && *policy != "not_larger" && *policy != "not_smaller")
        return l.invalid("attribute 'keep_aspect_ratio_policy' = '" + *policy + "' is not one of stretch, not_larger, not_smaller");
    // Inputs: X, roi (tf_crop_and_resize only), scales, sizes; PyTorch leaves scales empty when
    // it gives sizes.
    std::vector<double> scales;
    std::vector<int64_t> sizes;
    if (l.hasInput(2)) {
        auto s = l.hostInput(2, "scales");
        if (!s) return s.error();
        if (!s->data.empty()) {  // exporters pass an empty tensor when they give sizes
            auto full = expandToAxes<double>(l, s->data, *axes, x->view, "scales", 1.0);
            if (!full) return full.error();
            scales = *full;
        }
    }
    if (l.hasInput(3)) {
        auto s = l.hostInput(3, "sizes");
        if (!s) return s.error();
        if (!s->data.empty()) {
            auto full = expandToAxes<int64_t>(l, toInts(*s), *axes, x->view, "sizes", 0);
            if (!full) return full.error();
            sizes = *full;
        }
    }
    if (!sizes.empty() && !scales.empty()) return l.invalid("scales and sizes are both given");
    if (sizes.empty() && scales.empty()) return l.invalid("neither scales nor sizes is given");
    if (!sizes.empty()) {
        if (sizes.size() != 4) return l.unsupportedHere("sizes has " + std::to_string(sizes.size()) + " values; only 4-D NCHW is supported");
        if (*policy != "stretch") {
            // One scale for the resized axes (H and W here: N and C must keep their size), the
            // smallest or largest of sizes / input; each such output is round(scale * input).
            double scale = *policy == "not_larger" ? INFINITY : 0.0;
            for (int k = 2; k < 4; ++k) {
                double ratio = double(sizes[k]) / x->view.sizes[k];
                scale = *policy == "not_larger" ? std::min(scale, ratio) : std::max(scale, ratio);
            }
            for (int k = 2; k < 4; ++k) sizes[k] = int64_t(std::round(scale * x->view.sizes[k]));
            r.scales = {float(scale), float(scale)};
        }
        if (sizes[0] != x->view.sizes[0] || sizes[1] != x->view.sizes[1])
            return l.unsupportedHere("sizes " + dimsString(sizes) + " change the batch or channel dim (only H and W can be resized)");
        auto out = toSizes(sizes, "Resize output");
        if (!out) return Error{out.error().code, l.where() + ": " + out.error().message};
        r.output = packedDesc(x->view.dataType, *out);
    } else {
        MLP_TRY(setScales(l, r, scales));
    }
    // Antialiasing widens the linear or cubic filter by 1 / scale when downsampling; upsampling is unchanged.
    float minScale = std::min(r.scales[0] != 0 ? r.scales[0] : float(r.output.sizes[2]) / x->view.sizes[2],
                              r.scales[1] != 0 ? r.scales[1] : float(r.output.sizes[3]) / x->view.sizes[3]);
    if (*antialias && r.mode != ResampleMode::Nearest && minScale < 1.0f)
        return l.unsupportedHere("attribute 'antialias' = 1 when downsampling (scale " + std::to_string(minScale) + ") is not supported");
    return l.emit(r, {*x});
}

// GridSample: opset 16 names the modes bilinear / nearest / bicubic and samples 2-D; opset 20
// names them linear / nearest / cubic and allows N-D grids (only 2-D, 4-D inputs, here). Cubic
// is not supported.
Status convertGridSample(Loader& l) {
    MLP_TRY(l.onlyAttributes({"mode", "padding_mode", "align_corners"}));
    const bool opset20 = l.opset() >= 20;
    auto modeName = l.stringAttr("mode", opset20 ? "linear" : "bilinear");
    if (!modeName) return modeName.error();
    GridSampleDesc d;
    const char* linearName = opset20 ? "linear" : "bilinear";
    const char* cubicName = opset20 ? "cubic" : "bicubic";
    if (*modeName == linearName) d.mode = GridSampleMode::Linear;
    else if (*modeName == "nearest") d.mode = GridSampleMode::Nearest;
    else if (*modeName == cubicName) return l.unsupportedHere("attribute 'mode' = '" + *modeName + "' is not supported (" + linearName + ", nearest)");
    else
        return l.invalid("attribute 'mode' = '" + *modeName + "' is not one of " + linearName + ", nearest, " + cubicName + " (opset " +
                         std::to_string(l.opset()) + ")");
    auto padding = l.stringAttr("padding_mode", "zeros");
    if (!padding) return padding.error();
    if (*padding == "zeros") d.padding = GridSamplePadding::Zeros;
    else if (*padding == "border") d.padding = GridSamplePadding::Border;
    else if (*padding == "reflection") d.padding = GridSamplePadding::Reflection;
    else return l.invalid("attribute 'padding_mode' = '" + *padding + "' is not one of zeros, border, reflection");
    auto align = l.intAttr("align_corners", 0);
    if (!align) return align.error();
    if (*align != 0 && *align != 1) return l.invalid("attribute 'align_corners' is " + std::to_string(*align) + " (0 or 1)");
    d.alignCorners = *align == 1;
    auto x = l.graphInput(0);
    if (!x) return x.error();
    auto grid = l.graphInput(1);
    if (!grid) return grid.error();
    if (x->view.rank != 4)
        return x->view.rank >= 3 && opset20 ? l.unsupportedHere("input 0 (X) is " + x->view.toString() + "; only 2-D sampling of 4-D [N, C, H, W] inputs is supported")
                                            : l.invalid("input 0 (X) is " + x->view.toString() + "; GridSample needs [N, C, H, W]");
    if (grid->view.rank != 4 || grid->view.sizes[3] != 2 || grid->view.sizes[0] != x->view.sizes[0])
        return l.invalid("input 1 (grid) is " + grid->view.toString() + "; expected [" + std::to_string(x->view.sizes[0]) + ", outH, outW, 2] for X " +
                         x->view.toString());
    return l.emit(d, {*x, *grid});
}

// The per-channel tensors of BatchNormalization/InstanceNormalization as [C] values.
Status convertBatchNorm(Loader& l) {
    MLP_TRY(l.onlyAttributes({"epsilon", "momentum", "spatial", "is_test", "consumed_inputs", "training_mode"}));
    auto spatial = l.intAttr("spatial", 1);
    if (!spatial) return spatial.error();
    if (*spatial != 1) return l.unsupportedHere("attribute 'spatial' = 0 is not supported");
    auto training = l.intAttr("training_mode", 0);
    if (!training) return training.error();
    if (*training) return l.unsupportedHere("training_mode = 1 is not supported (inference only)");
    for (int o = 1; o < l.node().output_size(); ++o)
        if (!l.node().output(o).empty()) return l.unsupportedHere("training outputs (running mean/variance) are not supported");
    auto eps = l.floatAttr("epsilon", 1e-5f);
    if (!eps) return eps.error();
    auto x = l.graphInput(0);
    if (!x) return x.error();
    std::vector<std::optional<GraphView>> in{*x};
    for (size_t i : {3, 4, 1, 2}) {  // ONNX: X, scale, B, mean, var; the desc: input, mean, variance, scale, bias
        auto v = l.graphInput(i);
        if (!v) return v.error();
        in.push_back(*v);
    }
    return l.emit(BatchNormalizationDesc{.epsilon = *eps}, in);
}

Status convertInstanceNorm(Loader& l) {
    MLP_TRY(l.onlyAttributes({"epsilon"}));
    auto eps = l.floatAttr("epsilon", 1e-5f);
    if (!eps) return eps.error();
    auto x = input4d(l, 0);
    if (!x) return x.error();
    auto s = l.graphInput(1), b = l.graphInput(2);
    if (!s) return s.error();
    if (!b) return b.error();
    return l.emit(InstanceNormalizationDesc{.epsilon = *eps}, {*x, *s, *b});
}

// Reduces `x` over `mask` with a plugin reduction; the output keeps the reduced dims (size 1).
Result<GraphView> reduceNode(Loader& l, ReduceOp op, const GraphView& x, uint32_t mask) {
    auto outs = l.addNode(ReduceDesc{.op = op, .axesMask = mask}, {x});
    if (!outs) return outs.error();
    return outs->at(0);
}

Result<GraphView> elementwiseNode(Loader& l, ElementWiseDesc d, const GraphView& a, std::optional<GraphView> b = std::nullopt) {
    auto outs = l.addNode(d, {a, b});
    if (!outs) return outs.error();
    return outs->at(0);
}

// LayerNormalization's optional outputs Mean and InvStdDev (the normalized dims kept as 1):
// a mean reduction, and 1 / sqrt(mean((x - mean)^2) + epsilon).
Status emitLayerNormStatistics(Loader& l, const GraphView& x, uint32_t mask, float epsilon) {
    auto mean = reduceNode(l, ReduceOp::Mean, x, mask);
    if (!mean) return mean.error();
    l.setGraphOutput(1, *mean);
    if (l.node().output_size() < 3 || l.node().output(2).empty()) return {};
    auto centred = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Subtract}, x, *mean);
    if (!centred) return centred.error();
    auto squared = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Multiply}, *centred, *centred);
    if (!squared) return squared.error();
    auto variance = reduceNode(l, ReduceOp::Mean, *squared, mask);
    if (!variance) return variance.error();
    auto stdDev = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Sqrt, .inputScaleBias = ScaleBias{1.0f, epsilon}}, *variance);
    if (!stdDev) return stdDev.error();
    auto inverse = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Reciprocal}, *stdDev);
    if (!inverse) return inverse.error();
    l.setGraphOutput(2, *inverse);
    return {};
}

// LayerNormalization (opset 17): normalize over dims axis..rank-1, then Scale and optional B,
// which broadcast (right-aligned) to those dims: a mean-variance normalization. Statistics are
// computed in fp32 whatever stash_type says (the CPU reference in double); the Mean and
// InvStdDev outputs, when used, are separate reductions.
Status convertLayerNorm(Loader& l) {
    MLP_TRY(l.onlyAttributes({"axis", "epsilon", "stash_type"}));
    if (l.node().output_size() > 3) return l.invalid("has " + std::to_string(l.node().output_size()) + " outputs (Y, Mean, InvStdDev at most)");
    auto eps = l.floatAttr("epsilon", 1e-5f);
    if (!eps) return eps.error();
    if (!(*eps >= 0) || !std::isfinite(*eps)) return l.invalid("attribute 'epsilon' is " + std::to_string(*eps) + " (must be finite and >= 0)");
    auto stash = l.intAttr("stash_type", onnx::TensorProto::FLOAT);
    if (!stash) return stash.error();
    using TP = onnx::TensorProto;
    if (*stash != TP::FLOAT && *stash != TP::DOUBLE && *stash != TP::FLOAT16 && *stash != TP::BFLOAT16)
        return l.invalid("attribute 'stash_type' is " + std::to_string(*stash) + " (not a floating-point type)");
    auto x = l.graphInput(0);
    if (!x) return x.error();
    uint32_t rank = x->view.rank;
    auto a = l.intAttr("axis", -1);
    if (!a) return a.error();
    auto axis = l.axis(*a, rank, "attribute 'axis'");
    if (!axis) return axis.error();
    MeanVarianceNormalizationDesc d{.epsilon = *eps};
    for (uint32_t i = *axis; i < rank; ++i) d.axesMask |= 1u << i;
    std::vector<std::optional<GraphView>> inputs{*x};
    const char* names[] = {"Scale", "B"};
    for (size_t i = 1; i <= 2; ++i) {
        if (!l.hasInput(i)) {
            if (i == 1) return l.invalid("input 1 (Scale) is missing");
            inputs.push_back(std::nullopt);
            continue;
        }
        auto t = l.graphInput(i);
        if (!t) return t.error();
        // Right-aligned within the normalized dims: every dim equal or 1.
        bool fits = t->view.rank <= rank - *axis;
        for (uint32_t k = 0; fits && k < t->view.rank; ++k) {
            uint32_t target = x->view.sizes[rank - t->view.rank + k];
            fits = t->view.sizes[k] == target || t->view.sizes[k] == 1;
        }
        if (!fits)
            return l.invalid(std::string("input ") + std::to_string(i) + " (" + names[i - 1] + ") " + t->view.toString() +
                             " does not broadcast to the normalized dims of " + x->view.toString() + " from axis " + std::to_string(*axis));
        inputs.push_back(*t);
    }
    MLP_TRY(l.emit(d, inputs));
    if (l.node().output_size() > 1 && (!l.node().output(1).empty() || (l.node().output_size() > 2 && !l.node().output(2).empty())))
        return emitLayerNormStatistics(l, *x, d.axesMask, *eps);
    return {};
}

// The ONNX Reduce* operators. L2, SumSquare and Prod are plugin reductions; L1 is Abs then
// Sum, LogSum is Sum then Log, LogSumExp is max + log(sum(exp(x - max))) (stable for large x).
enum class OnnxReduce { Mean, Sum, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp };

Result<GraphView> reduceComposite(Loader& l, OnnxReduce kind, const GraphView& x, uint32_t mask) {
    switch (kind) {
    case OnnxReduce::Mean: return reduceNode(l, ReduceOp::Mean, x, mask);
    case OnnxReduce::Sum: return reduceNode(l, ReduceOp::Sum, x, mask);
    case OnnxReduce::Max: return reduceNode(l, ReduceOp::Max, x, mask);
    case OnnxReduce::Min: return reduceNode(l, ReduceOp::Min, x, mask);
    case OnnxReduce::Prod: return reduceNode(l, ReduceOp::Prod, x, mask);
    case OnnxReduce::L2: return reduceNode(l, ReduceOp::L2, x, mask);
    case OnnxReduce::SumSquare: return reduceNode(l, ReduceOp::SumSquare, x, mask);
    case OnnxReduce::L1: {
        auto a = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Abs}, x);
        if (!a) return a.error();
        return reduceNode(l, ReduceOp::Sum, *a, mask);
    }
    case OnnxReduce::LogSum: {
        auto sum = reduceNode(l, ReduceOp::Sum, x, mask);
        if (!sum) return sum.error();
        return elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Log}, *sum);
    }
    case OnnxReduce::LogSumExp: {
        auto max = reduceNode(l, ReduceOp::Max, x, mask);
        if (!max) return max.error();
        auto shifted = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Subtract}, x, *max);
        if (!shifted) return shifted.error();
        auto e = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Exp}, *shifted);
        if (!e) return e.error();
        auto sum = reduceNode(l, ReduceOp::Sum, *e, mask);
        if (!sum) return sum.error();
        auto log = elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Log}, *sum);
        if (!log) return log.error();
        return elementwiseNode(l, ElementWiseDesc{.op = ElementWiseOp::Add}, *log, *max);
    }
    }
    return l.invalid("unknown reduction");
}

// Axes are an attribute before opset 18 (ReduceSum: before 13) and an optional input from
// then on, with noop_with_empty_axes. Empty axes reduce every dim (or, with
// noop_with_empty_axes, pass the input through).
Status convertReduce(Loader& l, OnnxReduce kind) {
    const int64_t inputOpset = l.node().op_type() == "ReduceSum" ? 13 : 18;
    const bool axesFromInput = l.opset() >= inputOpset;
    if (axesFromInput) MLP_TRY(l.onlyAttributes({"keepdims", "noop_with_empty_axes"}));
    else MLP_TRY(l.onlyAttributes({"axes", "keepdims"}));
    if (!axesFromInput && l.inputCount() > 1)
        return l.invalid("has " + std::to_string(l.inputCount()) + " inputs; axes is an attribute before opset " + std::to_string(inputOpset));
    auto x = l.graphInput(0);
    if (!x) return x.error();
    auto axes = axesAttrOrInput(l, inputOpset, "axes");
    if (!axes) return axes.error();
    auto keep = l.intAttr("keepdims", 1);
    if (!keep) return keep.error();
    if (*keep != 0 && *keep != 1) return l.invalid("attribute 'keepdims' is " + std::to_string(*keep) + " (0 or 1)");
    auto noop = l.intAttr("noop_with_empty_axes", 0);
    if (!noop) return noop.error();
    if (*noop != 0 && *noop != 1) return l.invalid("attribute 'noop_with_empty_axes' is " + std::to_string(*noop) + " (0 or 1)");
    uint32_t rank = x->view.rank, mask = 0;
    for (int64_t a : *axes) {
        auto ax = l.axis(a, rank, "axis");
        if (!ax) return ax.error();
        if (mask & (1u << *ax)) return l.invalid("axis " + std::to_string(a) + " is listed twice in axes " + dimsString(*axes));
        mask |= 1u << *ax;
    }
    if (axes->empty()) {
        if (*noop) {
            l.setGraphOutput(0, *x);
            return {};
        }
        mask = (1u << rank) - 1;
    }
    auto reduced = reduceComposite(l, kind, *x, mask);
    if (!reduced) return reduced.error();
    GraphView out = *reduced;
    if (!*keep) {
        std::vector<uint32_t> sizes;
        for (uint32_t i = 0; i < rank; ++i)
            if (!(mask & (1u << i))) sizes.push_back(out.view.sizes[i]);
        if (sizes.empty()) sizes.push_back(1);
        auto v = reshapeView(l, out, sizes);
        if (!v) return v.error();
        out = *v;
    }
    l.setGraphOutput(0, out);
    return {};
}

template <class Desc>
Status convertDepthSpace(Loader& l, bool hasMode) {
    if (hasMode) MLP_TRY(l.onlyAttributes({"blocksize", "mode"}));
    else MLP_TRY(l.onlyAttributes({"blocksize"}));
    auto x = input4d(l, 0);
    if (!x) return x.error();
    auto bs = l.intAttr("blocksize", 0);
    if (!bs) return bs.error();
    if (*bs <= 0 || *bs > 256) return l.invalid("blocksize " + std::to_string(*bs) + " is out of range");
    Desc d;
    d.blockSize = uint32_t(*bs);
    // The block must divide what it splits: H and W for SpaceToDepth, C by blocksize^2 for
    // DepthToSpace (a pixel (un)shuffle at a size it does not divide).
    const auto& in = x->view.sizes;
    if constexpr (std::is_same_v<Desc, SpaceToDepthDesc>) {
        for (uint32_t k : {2u, 3u})
            if (in[k] % d.blockSize)
                return l.invalid("blocksize " + std::to_string(*bs) + " does not divide the input " + (k == 2 ? "height " : "width ") +
                                 std::to_string(in[k]) + " (input " + dimsString(dimsOf(x->view)) + ")");
    } else if (in[1] % (uint64_t(d.blockSize) * d.blockSize)) {
        return l.invalid("blocksize^2 = " + std::to_string(*bs * *bs) + " does not divide the input channels " + std::to_string(in[1]) +
                         " (input " + dimsString(dimsOf(x->view)) + ")");
    }
    if (hasMode) {
        auto m = l.stringAttr("mode", "DCR");
        if (!m) return m.error();
        if (*m == "CRD") d.order = DepthSpaceOrder::CRD;
        else if (*m != "DCR") return l.invalid("mode '" + *m + "' is not DCR or CRD");
    }
    return l.emit(d, {*x});
}

}  // namespace

void registerNetworkConverters(std::unordered_map<std::string, Converter>& t) {
    t["Conv"] = [](Loader& l, const onnx::NodeProto&) { return convertConv(l, false); };
    t["ConvTranspose"] = [](Loader& l, const onnx::NodeProto&) { return convertConv(l, true); };
    t["Gemm"] = [](Loader& l, const onnx::NodeProto&) { return convertGemm(l); };
    t["MatMul"] = [](Loader& l, const onnx::NodeProto&) { return convertMatMul(l); };
    t["MaxPool"] = [](Loader& l, const onnx::NodeProto&) { return convertPool(l, PoolingType::Max, false); };
    t["AveragePool"] = [](Loader& l, const onnx::NodeProto&) { return convertPool(l, PoolingType::Average, false); };
    t["GlobalMaxPool"] = [](Loader& l, const onnx::NodeProto&) { return convertPool(l, PoolingType::Max, true); };
    t["GlobalAveragePool"] = [](Loader& l, const onnx::NodeProto&) { return convertPool(l, PoolingType::Average, true); };
    t["LpPool"] = [](Loader& l, const onnx::NodeProto&) { return convertPool(l, PoolingType::Lp, false); };
    t["GlobalLpPool"] = [](Loader& l, const onnx::NodeProto&) { return convertPool(l, PoolingType::Lp, true); };
    t["Upsample"] = [](Loader& l, const onnx::NodeProto&) { return convertUpsampleOrResize(l, false); };
    t["Resize"] = [](Loader& l, const onnx::NodeProto&) { return convertUpsampleOrResize(l, true); };
    t["GridSample"] = [](Loader& l, const onnx::NodeProto&) { return convertGridSample(l); };
    t["BatchNormalization"] = [](Loader& l, const onnx::NodeProto&) { return convertBatchNorm(l); };
    t["InstanceNormalization"] = [](Loader& l, const onnx::NodeProto&) { return convertInstanceNorm(l); };
    t["LayerNormalization"] = [](Loader& l, const onnx::NodeProto&) { return convertLayerNorm(l); };
    const std::pair<const char*, OnnxReduce> reductions[] = {
        {"ReduceMean", OnnxReduce::Mean}, {"ReduceSum", OnnxReduce::Sum},         {"ReduceMax", OnnxReduce::Max},
        {"ReduceMin", OnnxReduce::Min},   {"ReduceProd", OnnxReduce::Prod},       {"ReduceL1", OnnxReduce::L1},
        {"ReduceL2", OnnxReduce::L2},     {"ReduceSumSquare", OnnxReduce::SumSquare}, {"ReduceLogSum", OnnxReduce::LogSum},
        {"ReduceLogSumExp", OnnxReduce::LogSumExp}};
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
    for (const auto& reduction : reductions) {
        const OnnxReduce kind = reduction.second;
        t[reduction.first] = [kind](Loader& l, const onnx::NodeProto&) { return convertReduce(l, kind); };
    }
    t["DepthToSpace"] = [](Loader& l, const onnx::NodeProto&) { return convertDepthSpace<DepthToSpaceDesc>(l, l.opset() >= 11); };
    t["SpaceToDepth"] = [](Loader& l, const onnx::NodeProto&) { return convertDepthSpace<SpaceToDepthDesc>(l, false); };
}

}  // namespace mlplugin::onnx_detail
