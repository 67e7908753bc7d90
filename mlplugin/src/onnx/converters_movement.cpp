// Data-movement operators: Slice, Gather, Concat, Split, Pad, Transpose, Expand, Tile. Host
// inputs are evaluated at load time where shape subgraphs need it (Slice, Gather, Concat,
// Transpose); runtime tensors become plugin operators (Expand and Tile: Identity copies whose
// input broadcasts).
#include "onnx/loader.h"

#include <algorithm>

namespace mlplugin::onnx_detail {
namespace {

struct SliceRange {
    int64_t start = 0, step = 1, size = 0;
};

// ONNX Slice clamping for one axis of size `dim`.
SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step) {
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    if (step > 0) {
        start = std::clamp<int64_t>(start, 0, dim);
        end = std::clamp<int64_t>(end, 0, dim);
    } else {
        start = std::clamp<int64_t>(start, 0, dim - 1);
        end = std::clamp<int64_t>(end, -1, dim - 1);
    }
    int64_t size = step > 0 ? (end - start + step - 1) / step : (start - end + (-step) - 1) / (-step);
    return {start, step, std::max<int64_t>(size, 0)};
}

// Slices input 0 with per-axis ranges (host: copies; graph: SliceDesc) and defines output 0.
Status applySlice(Loader& l, const std::vector<SliceRange>& ranges, const std::vector<int64_t>& outDims) {
    auto v = l.input(0);
    if (!v) return v.error();
    for (int64_t d : outDims)
        if (d == 0) return l.unsupportedHere("empty slices are not supported");
    if ((*v)->host) {
        const HostTensorValue& in = *(*v)->host;
        HostTensorValue out;
        out.integer = in.integer;
        out.dims = outDims;
        auto inStrides = stridesOf(in.dims);
        std::vector<int64_t> idx(outDims.size(), 0);
        for (uint64_t e = 0, n = out.count(); e < n; ++e) {
            uint64_t src = 0;
            for (size_t i = 0; i < idx.size(); ++i) src += uint64_t(ranges[i].start + idx[i] * ranges[i].step) * inStrides[i];
            out.data.push_back(in.data[src]);
            for (size_t i = idx.size(); i-- > 0;) {
                if (++idx[i] < outDims[i]) break;
                idx[i] = 0;
            }
        }
        l.setHostOutput(0, std::move(out));
        return {};
    }
    SliceDesc s;
    for (size_t i = 0; i < ranges.size(); ++i) {
        s.offsets[i] = uint32_t(ranges[i].start);
        s.steps[i] = int32_t(ranges[i].step);
    }
    auto sizes = toSizes(outDims, l.where() + " output");
    if (!sizes) return sizes.error();
    s.output = packedDesc(l.computeType(), *sizes);
    auto g = l.graphInput(0);
    if (!g) return g.error();
    return l.emit(s, {*g});
}

Status convertSlice(Loader& l) {
    auto in = dimsOfInput(l, 0);
    if (!in) return in.error();
    std::vector<int64_t> starts, ends, axes, steps;
    if (l.opset() < 10) {
        MLP_TRY(l.onlyAttributes({"starts", "ends", "axes"}));
        auto s = l.intsAttr("starts"), e = l.intsAttr("ends"), a = l.intsAttr("axes");
        if (!s) return s.error();
        if (!e) return e.error();
        if (!a) return a.error();
        starts = *s, ends = *e, axes = *a;
    } else {
        MLP_TRY(l.onlyAttributes({}));
        const char* names[] = {"starts", "ends", "axes", "steps"};
        std::vector<int64_t>* targets[] = {&starts, &ends, &axes, &steps};
        for (size_t i = 0; i < 4; ++i) {
            if (!l.hasInput(i + 1)) continue;
            auto h = l.hostInput(i + 1, names[i]);
            if (!h) return h.error();
            *targets[i] = toInts(*h);
        }
    }
    if (starts.size() != ends.size()) return l.invalid("starts and ends differ in length");
    if (axes.empty()) for (size_t i = 0; i < starts.size(); ++i) axes.push_back(int64_t(i));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (axes.size() != starts.size() || steps.size() != starts.size()) return l.invalid("axes/steps differ in length from starts");
    uint32_t rank = uint32_t(in->size());
    std::vector<SliceRange> ranges(rank);
    std::vector<int64_t> outDims = *in;
    for (uint32_t i = 0; i < rank; ++i) ranges[i] = {0, 1, (*in)[i]};
    for (size_t k = 0; k < starts.size(); ++k) {
        auto ax = l.axis(axes[k], rank, "axis");
        if (!ax) return ax.error();
        if (steps[k] == 0) return l.invalid("step 0");
        ranges[*ax] = sliceRange((*in)[*ax], starts[k], ends[k], steps[k]);
        outDims[*ax] = ranges[*ax].size;
    }
    return applySlice(l, ranges, outDims);
}

// Gather with load-time indices: folded for host data, a one-element Slice (plus a view
// dropping the axis for scalar indices) for runtime data.
Status convertGather(Loader& l) {
    MLP_TRY(l.onlyAttributes({"axis"}));
    auto in = dimsOfInput(l, 0);
    if (!in) return in.error();
    auto indices = l.hostInput(1, "indices");
    if (!indices) return indices.error();
    auto a = l.intAttr("axis", 0);
    if (!a) return a.error();
    auto axis = l.axis(*a, uint32_t(in->size()), "axis");
    if (!axis) return axis.error();
    int64_t dim = (*in)[*axis];
    std::vector<int64_t> idx = toInts(*indices);
    for (int64_t& i : idx) {
        if (i < -dim || i >= dim) return l.invalid("index " + std::to_string(i) + " is out of range for dim " + std::to_string(dim));
        if (i < 0) i += dim;
    }
    auto v = l.input(0);
    if (!v) return v.error();
    if ((*v)->host) {
        const HostTensorValue& data = *(*v)->host;
        HostTensorValue out;
        out.integer = data.integer;
        for (uint32_t i = 0; i < *axis; ++i) out.dims.push_back(data.dims[i]);
        for (int64_t d : indices->dims) out.dims.push_back(d);
        for (size_t i = *axis + 1; i < data.dims.size(); ++i) out.dims.push_back(data.dims[i]);
        uint64_t outer = 1, inner = 1;
        for (uint32_t i = 0; i < *axis; ++i) outer *= uint64_t(data.dims[i]);
        for (size_t i = *axis + 1; i < data.dims.size(); ++i) inner *= uint64_t(data.dims[i]);
        if (outer * idx.size() * inner > kMaxFoldedElements) return l.invalid("folded Gather is too large");
        for (uint64_t o = 0; o < outer; ++o)
            for (int64_t i : idx)
                for (uint64_t k = 0; k < inner; ++k) out.data.push_back(data.data[(o * uint64_t(dim) + uint64_t(i)) * inner + k]);
        l.setHostOutput(0, std::move(out));
        return {};
    }
    if (idx.size() != 1) return l.unsupportedHere("Gather of a runtime tensor supports one index only");
    std::vector<SliceRange> ranges;
    for (int64_t d : *in) ranges.push_back({0, 1, d});
    ranges[*axis] = {idx[0], 1, 1};
    std::vector<int64_t> sliced = *in;
    sliced[*axis] = 1;
    MLP_TRY(applySlice(l, ranges, sliced));
    if (indices->dims.empty()) {  // scalar index: the axis disappears
        std::vector<uint32_t> sizes;
        for (size_t i = 0; i < in->size(); ++i)
            if (i != *axis) sizes.push_back(uint32_t((*in)[i]));
        if (sizes.empty()) sizes.push_back(1);
        auto out = l.find(l.node().output(0));
        auto view = reshapeView(l, *out->graph, sizes);
        if (!view) return view.error();
        l.setGraphOutput(0, *view);
    }
    return {};
}

Status convertConcat(Loader& l) {
    MLP_TRY(l.onlyAttributes({"axis"}));
    if (l.inputCount() == 0) return l.invalid("needs inputs");
    auto first = dimsOfInput(l, 0);
    if (!first) return first.error();
    auto a = l.intAttr("axis", l.opset() < 4 ? 1 : INT64_MIN);
    if (!a) return a.error();
    if (*a == INT64_MIN) return l.invalid("attribute 'axis' is required");
    uint32_t rank = uint32_t(first->size());
    if (rank == 0) return l.invalid("cannot concatenate scalars");
    auto axis = l.axis(*a, rank, "axis");
    if (!axis) return axis.error();
    bool allHost = true;
    for (size_t i = 0; i < l.inputCount(); ++i) {
        auto v = l.input(i);
        if (!v) return v.error();
        allHost &= bool((*v)->host);
        auto d = dimsOfInput(l, i);
        if (!d) return d.error();
        // Both shapes in the message: the usual cause is a U-Net run at a size its pooling levels
        // do not divide (the upsampled tensor one row short of its skip), which the shapes show.
        auto mismatch = [&](const std::string& what) {
            return l.invalid("input " + std::to_string(i) + " " + dimsString(*d) + " and input 0 " + dimsString(*first) + " differ in " + what +
                             " (only dim " + std::to_string(*axis) + ", the axis, may differ)");
        };
        if (d->size() != rank) return mismatch("rank");
        for (uint32_t k = 0; k < rank; ++k)
            if (k != *axis && (*d)[k] != (*first)[k]) return mismatch("dim " + std::to_string(k));
    }
    if (allHost) {
        HostTensorValue out;
        out.dims = *first;
        out.dims[*axis] = 0;
        out.integer = true;
        std::vector<HostTensorValue> parts;
        for (size_t i = 0; i < l.inputCount(); ++i) {
            parts.push_back(l.hostInput(i, "input").value());
            out.dims[*axis] += parts.back().dims[*axis];
            out.integer &= parts.back().integer;
        }
        uint64_t outer = 1;
        for (uint32_t k = 0; k < *axis; ++k) outer *= uint64_t(out.dims[k]);
        for (uint64_t o = 0; o < outer; ++o)
            for (const auto& p : parts) {
                uint64_t chunk = p.count() / outer;
                out.data.insert(out.data.end(), p.data.begin() + int64_t(o * chunk), p.data.begin() + int64_t((o + 1) * chunk));
            }
        l.setHostOutput(0, std::move(out));
        return {};
    }
    std::vector<std::optional<GraphView>> in;
    for (size_t i = 0; i < l.inputCount(); ++i) {
        auto g = l.graphInput(i);
        if (!g) return g.error();
        in.push_back(*g);
    }
    if (in.size() == 1) {
        l.setGraphOutput(0, *in[0]);
        return {};
    }
    return l.emit(ConcatDesc{.axis = *axis}, in);
}

// Split: sizes from the `split` attribute (before 13) or input (from 13); else `num_outputs`
// (from 18: parts of ceil(dim / n), the last one smaller); else equal parts, one per output.
Status convertSplit(Loader& l) {
    if (l.opset() < 13) MLP_TRY(l.onlyAttributes({"axis", "split"}));
    else if (l.opset() < 18) MLP_TRY(l.onlyAttributes({"axis"}));
    else MLP_TRY(l.onlyAttributes({"axis", "num_outputs"}));
    auto x = l.graphInput(0);
    if (!x) return x.error();
    auto a = l.intAttr("axis", 0);
    if (!a) return a.error();
    auto axis = l.axis(*a, x->view.rank, "attribute 'axis'");
    if (!axis) return axis.error();
    auto split = axesAttrOrInput(l, 13, "split");
    if (!split) return split.error();
    auto numOutputs = l.intAttr("num_outputs", 0);
    if (!numOutputs) return numOutputs.error();
    size_t outputs = size_t(l.node().output_size());
    uint32_t dim = x->view.sizes[*axis];
    std::vector<int64_t> parts = *split;
    if (!parts.empty() && *numOutputs) return l.invalid("input 'split' and attribute 'num_outputs' are both given");
    if (parts.empty() && *numOutputs) {
        if (*numOutputs < 1 || uint64_t(*numOutputs) != outputs)
            return l.invalid("attribute 'num_outputs' is " + std::to_string(*numOutputs) + " but the node has " + std::to_string(outputs) + " outputs");
        int64_t chunk = (int64_t(dim) + *numOutputs - 1) / *numOutputs;
        for (int64_t left = dim; left > 0; left -= chunk) parts.push_back(std::min(chunk, left));
        if (parts.size() != outputs)
            return l.unsupportedHere("splitting dim " + std::to_string(dim) + " into " + std::to_string(outputs) + " parts of " +
                                     std::to_string(chunk) + " leaves empty outputs");
    }
    if (parts.empty()) {
        if (outputs == 0 || dim % outputs) return l.invalid("dim " + std::to_string(dim) + " does not split evenly into " + std::to_string(outputs));
        parts.assign(outputs, dim / int64_t(outputs));
    }
    if (parts.size() != outputs) return l.invalid("split has " + std::to_string(parts.size()) + " entries for " + std::to_string(outputs) + " outputs");
    int64_t total = 0;
    SplitDesc s{.axis = *axis};
    for (int64_t p : parts) {
        if (p == 0) return l.unsupportedHere("empty split outputs are not supported (split " + dimsString(parts) + ")");
        if (p < 0 || p > int64_t(dim)) return l.invalid("split size " + std::to_string(p) + " is out of range for dim " + std::to_string(dim));
        total += p;
        TensorDesc d = x->view;
        d.sizes[*axis] = uint32_t(p);
        s.outputs.push_back(packedDesc(d.dataType, sizesOf(d)));
    }
    if (total != dim) return l.invalid("split sizes " + dimsString(parts) + " add up to " + std::to_string(total) + ", the dim is " + std::to_string(dim));
    auto outs = l.addNode(s, {*x});
    if (!outs) return outs.error();
    for (size_t i = 0; i < outs->size(); ++i) l.setGraphOutput(i, (*outs)[i]);
    return {};
}

// Pad: pads (and the constant) are attributes before 11, inputs from 11; from 18 an optional
// `axes` input says which dims the pads are for. Negative pads crop (constant mode only:
// cropping and reflecting/repeating do not commute).
Status convertPad(Loader& l) {
    std::vector<int64_t> pads;
    float value = 0;
    if (l.opset() < 11) {
        MLP_TRY(l.onlyAttributes({"pads", "mode", "value"}));
        auto p = l.intsAttr("pads");
        if (!p) return p.error();
        pads = *p;
        auto v = l.floatAttr("value", 0.0f);
        if (!v) return v.error();
        value = *v;
    } else {
        MLP_TRY(l.onlyAttributes({"mode"}));
        auto p = l.hostInput(1, "pads");
        if (!p) return p.error();
        pads = toInts(*p);
        if (l.hasInput(2)) {
            auto v = l.hostInput(2, "constant_value");
            if (!v) return v.error();
            if (v->data.size() > 1) return l.invalid("input 2 (constant_value) must be a scalar, has " + std::to_string(v->data.size()) + " values");
            if (!v->data.empty()) value = float(v->data[0]);
        }
    }
    auto m = l.stringAttr("mode", "constant");
    if (!m) return m.error();
    auto x = l.graphInput(0);
    if (!x) return x.error();
    PadDesc p{.value = value};
    if (*m == "constant") p.mode = PadMode::Constant;
    else if (*m == "edge") p.mode = PadMode::Edge;
    else if (*m == "reflect") p.mode = PadMode::Reflect;
    else if (*m == "wrap" && l.opset() >= 19) p.mode = PadMode::Wrap;
    else return l.invalid("attribute 'mode' = '" + *m + "' is not valid at opset " + std::to_string(l.opset()));
    const uint32_t rank = x->view.rank;
    std::vector<int64_t> axes;
    if (l.opset() >= 18 && l.hasInput(3)) {
        auto a = l.hostInput(3, "axes");
        if (!a) return a.error();
        axes = toInts(*a);
    } else {
        for (uint32_t i = 0; i < rank; ++i) axes.push_back(i);
    }
    if (pads.size() != 2 * axes.size())
        return l.invalid("pads " + dimsString(pads) + " has " + std::to_string(pads.size()) + " values for " + std::to_string(axes.size()) +
                         " axes (2 per axis)");
    std::vector<int64_t> begin(rank, 0), end(rank, 0);
    std::vector<bool> seen(rank, false);
    for (size_t k = 0; k < axes.size(); ++k) {
        auto ax = l.axis(axes[k], rank, "axes entry");
        if (!ax) return ax.error();
        if (seen[*ax]) return l.invalid("axes lists axis " + std::to_string(axes[k]) + " twice");
        seen[*ax] = true;
        begin[*ax] = pads[k];
        end[*ax] = pads[axes.size() + k];
    }
    // Negative pads: a Slice first.
    bool crop = false;
    std::vector<SliceRange> ranges(rank);
    std::vector<int64_t> cropped = dimsOf(x->view);
    for (uint32_t i = 0; i < rank; ++i) {
        int64_t dim = x->view.sizes[i];
        // The size checks come first, so the sum below cannot overflow (pads are any int64).
        if (begin[i] > 65535 || end[i] > 65535) return l.invalid("pads " + dimsString(pads) + ": a pad above 65535 is not supported");
        if (begin[i] < -dim || end[i] < -dim || begin[i] + end[i] <= -dim)
            return l.invalid("pads " + dimsString(pads) + " crop all of dim " + std::to_string(i) + " (size " + std::to_string(dim) + ")");
        int64_t cutBegin = std::max<int64_t>(-begin[i], 0), cutEnd = std::max<int64_t>(-end[i], 0);
        ranges[i] = {cutBegin, 1, dim - cutBegin - cutEnd};
        cropped[i] = dim - cutBegin - cutEnd;
        crop = crop || cutBegin || cutEnd;
        begin[i] = std::max<int64_t>(begin[i], 0);
        end[i] = std::max<int64_t>(end[i], 0);
        p.padBegin[i] = uint32_t(begin[i]);
        p.padEnd[i] = uint32_t(end[i]);
    }
    GraphView source = *x;
    if (crop) {
        if (p.mode != PadMode::Constant) return l.unsupportedHere("negative pads (cropping) with mode '" + *m + "' are not supported (constant only)");
        SliceDesc s;
        for (uint32_t i = 0; i < rank; ++i) s.offsets[i] = uint32_t(ranges[i].start);
        auto sizes = toSizes(cropped, l.where() + " cropped input");
        if (!sizes) return sizes.error();
        s.output = packedDesc(x->view.dataType, *sizes);
        auto outs = l.addNode(s, {*x});
        if (!outs) return outs.error();
        source = outs->at(0);
        bool anyPad = false;
        for (uint32_t i = 0; i < rank; ++i) anyPad = anyPad || p.padBegin[i] || p.padEnd[i];
        if (!anyPad) {
            l.setGraphOutput(0, source);
            return {};
        }
    }
    return l.emit(p, {source});
}

// Transposes a host tensor (shape arithmetic: PyTorch builds Pad's pads this way).
HostTensorValue transposeHost(const HostTensorValue& in, const std::vector<uint32_t>& perm) {
    HostTensorValue out;
    out.integer = in.integer;
    for (uint32_t p : perm) out.dims.push_back(in.dims[p]);
    auto inStrides = stridesOf(in.dims);
    std::vector<int64_t> idx(perm.size(), 0);
    for (uint64_t e = 0, n = in.count(); e < n; ++e) {
        uint64_t src = 0;
        for (size_t i = 0; i < perm.size(); ++i) src += uint64_t(idx[i]) * inStrides[perm[i]];
        out.data.push_back(in.data[src]);
        for (size_t i = idx.size(); i-- > 0;) {
            if (++idx[i] < out.dims[i]) break;
            idx[i] = 0;
        }
    }
    return out;
}

Status convertTranspose(Loader& l) {
    MLP_TRY(l.onlyAttributes({"perm"}));
    auto in = l.input(0);
    if (!in) return in.error();
    auto perm = l.intsAttr("perm");
    if (!perm) return perm.error();
    if ((*in)->host && (*in)->host->dims.size() <= 8) {
        uint32_t rank = uint32_t((*in)->host->dims.size());
        if (!perm->empty() && perm->size() != rank) return l.invalid("perm is not a permutation");
        std::vector<uint32_t> p;
        for (uint32_t i = 0; i < rank; ++i) p.push_back(perm->empty() ? rank - 1 - i : uint32_t(std::clamp<int64_t>((*perm)[i], 0, rank - 1)));
        std::vector<bool> seen(rank, false);
        for (uint32_t v : p) {
            if (seen[v]) return l.invalid("perm is not a permutation");
            seen[v] = true;
        }
        l.setHostOutput(0, transposeHost(*(*in)->host, p));
        return {};
    }
    auto x = l.graphInput(0);
    if (!x) return x.error();
    uint32_t rank = x->view.rank;
    TransposeDesc t;
    if (perm->empty()) for (uint32_t i = 0; i < rank; ++i) t.permutation[i] = rank - 1 - i;
    else {
        if (perm->size() != rank) return l.invalid("perm has " + std::to_string(perm->size()) + " entries for rank " + std::to_string(rank));
        std::vector<bool> seen(rank, false);
        for (uint32_t i = 0; i < rank; ++i) {
            int64_t p = (*perm)[i];
            if (p < 0 || p >= rank || seen[size_t(p)]) return l.invalid("perm is not a permutation");
            seen[size_t(p)] = true;
            t.permutation[i] = uint32_t(p);
        }
    }
    return l.emit(t, {*x});
}

// Expand of a runtime tensor: an Identity whose input broadcasts (size-1 dims repeat) into the
// larger output.
Status convertExpand(Loader& l) {
    MLP_TRY(l.onlyAttributes({}));
    auto x = l.graphInput(0);
    if (!x) return x.error();
    auto arg = l.hostInput(1, "shape");
    if (!arg) return arg.error();
    std::vector<int64_t> in = dimsOf(x->view), want = toInts(*arg), out;
    size_t rank = std::max(in.size(), want.size());
    for (size_t i = 0; i < rank; ++i) {
        int64_t a = i < rank - in.size() ? 1 : in[i - (rank - in.size())];
        int64_t b = i < rank - want.size() ? 1 : want[i - (rank - want.size())];
        if (a != b && a != 1 && b != 1)
            return l.invalid("shape " + dimsString(want) + " does not broadcast with the input " + x->view.toString() + " (dim " +
                             std::to_string(i) + ")");
        out.push_back(std::max(a, b));
    }
    auto sizes = toSizes(out, l.where() + " output");
    if (!sizes) return sizes.error();
    if (packedDesc(x->view.dataType, *sizes) == x->view) {
        l.setGraphOutput(0, *x);
        return {};
    }
    return l.emit(ElementWiseDesc{.op = ElementWiseOp::Identity, .output = packedDesc(x->view.dataType, *sizes)}, {*x});
}

// One dim of a tiling pass: `in` elements read, `out` written (out == in: copied; in == 1:
// broadcast, out = repeats).
struct TileDim {
    uint32_t in, out;
};

// The broadcast shape of one tiling pass over `dims` tiling the dims in `tiled`: a dim of size
// d > 1 tiled r times becomes [r (broadcast), d]; a size-1 dim just [r]. Neighbours of the same
// kind merge (the view is packed), so the pass needs as few dims as possible.
std::vector<TileDim> tilePass(const std::vector<int64_t>& dims, const std::vector<int64_t>& repeats, const std::vector<bool>& tiled) {
    std::vector<TileDim> pass;
    auto add = [&](TileDim t) {
        if (t.in == 1 && t.out == 1) return;
        if (!pass.empty()) {
            TileDim& b = pass.back();
            bool copied = b.in == b.out && t.in == t.out, broadcast = b.in == 1 && t.in == 1;
            if (copied || broadcast) {
                b = {b.in * t.in, b.out * t.out};
                return;
            }
        }
        pass.push_back(t);
    };
    for (size_t i = 0; i < dims.size(); ++i) {
        uint32_t d = uint32_t(dims[i]);
        if (tiled[i]) add({1, uint32_t(repeats[i])});
        add({d, d});
    }
    if (pass.empty()) pass.push_back({1, 1});
    return pass;
}

// Tile of a runtime tensor: Identity copies whose input broadcasts into a repeat dim inserted
// before each tiled dim ([d] tiled r times reads [1, d] into [r, d], then is viewed as [r * d]).
// Tiled dims are taken greedily while a pass's broadcast shape fits in kMaxTensorRank dims
// (one pass for tensors up to rank 4, more only for high-rank tensors tiled along many dims).
Status convertTile(Loader& l) {
    MLP_TRY(l.onlyAttributes({}));
    auto x = l.graphInput(0);
    if (!x) return x.error();
    auto arg = l.hostInput(1, "repeats");
    if (!arg) return arg.error();
    std::vector<int64_t> dims = dimsOf(x->view), repeats = toInts(*arg);
    if (arg->dims.size() != 1 || repeats.size() != dims.size())
        return l.invalid("repeats " + dimsString(repeats) + " must be 1-D with one entry per input dim (input " + x->view.toString() + ")");
    std::vector<int64_t> outDims;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (repeats[i] < 1)
            return repeats[i] == 0 ? l.unsupportedHere("repeats " + dimsString(repeats) + " makes an empty output (entry " + std::to_string(i) + " is 0)")
                                   : l.invalid("repeats entry " + std::to_string(i) + " is " + std::to_string(repeats[i]) + " (must be >= 0)");
        outDims.push_back(dims[i] * std::min<int64_t>(repeats[i], int64_t(kMaxOnnxTensorElements) + 1));
    }
    auto outSizes = toSizes(outDims, l.where() + " output");
    if (!outSizes) return outSizes.error();
    GraphView current = *x;
    std::vector<bool> pending(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) pending[i] = repeats[i] > 1;
    if (std::find(pending.begin(), pending.end(), true) == pending.end()) {
        l.setGraphOutput(0, current);
        return {};
    }
    while (std::find(pending.begin(), pending.end(), true) != pending.end()) {
        std::vector<bool> take(dims.size(), false);
        for (size_t i = 0; i < dims.size(); ++i) {
            if (!pending[i]) continue;
            take[i] = true;
            if (tilePass(dims, repeats, take).size() > kMaxTensorRank) {
                take[i] = false;  // the first tiled dim always fits: at most 4 dims with its neighbours
                break;
            }
        }
        std::vector<TileDim> pass = tilePass(dims, repeats, take);
        std::vector<uint32_t> inView, outView;
        for (const TileDim& t : pass) {
            inView.push_back(t.in);
            outView.push_back(t.out);
        }
        auto source = reshapeView(l, current, inView);
        if (!source) return source.error();
        auto outs = l.addNode(ElementWiseDesc{.op = ElementWiseOp::Identity, .output = packedDesc(current.view.dataType, outView)}, {*source});
        if (!outs) return outs.error();
        for (size_t i = 0; i < dims.size(); ++i)
            if (take[i]) {
                dims[i] *= repeats[i];
                pending[i] = false;
            }
        std::vector<uint32_t> newSizes(dims.begin(), dims.end());
        auto tiledView = reshapeView(l, outs->at(0), newSizes);
        if (!tiledView) return tiledView.error();
        current = *tiledView;
    }
    l.setGraphOutput(0, current);
    return {};
}

}  // namespace

void registerMovementConverters(std::unordered_map<std::string, Converter>& t) {
    t["Slice"] = [](Loader& l, const onnx::NodeProto&) { return convertSlice(l); };
    t["Gather"] = [](Loader& l, const onnx::NodeProto&) { return convertGather(l); };
    t["Concat"] = [](Loader& l, const onnx::NodeProto&) { return convertConcat(l); };
    t["Split"] = [](Loader& l, const onnx::NodeProto&) { return convertSplit(l); };
    t["Pad"] = [](Loader& l, const onnx::NodeProto&) { return convertPad(l); };
    t["Transpose"] = [](Loader& l, const onnx::NodeProto&) { return convertTranspose(l); };
    t["Expand"] = [](Loader& l, const onnx::NodeProto&) { return convertExpand(l); };
    t["Tile"] = [](Loader& l, const onnx::NodeProto&) { return convertTile(l); };
}

}  // namespace mlplugin::onnx_detail
