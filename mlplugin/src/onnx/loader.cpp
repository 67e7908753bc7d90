#include "onnx/loader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace mlplugin::onnx_detail {

uint64_t HostTensorValue::count() const {
    uint64_t n = 1;
    for (int64_t d : dims) n *= uint64_t(d);
    return n;
}

int64_t toInt64(double v) {
    constexpr double kLimit = double(int64_t(1) << 62);
    if (std::isnan(v)) return 0;
    return int64_t(std::clamp(v, -kLimit, kLimit));
}

std::vector<int64_t> toInts(const HostTensorValue& h) {
    std::vector<int64_t> r;
    r.reserve(h.data.size());
    for (double v : h.data) r.push_back(toInt64(v));
    return r;
}

TensorDesc packedDesc(DataType type, const std::vector<uint32_t>& sizes) {
    TensorDesc t;
    t.dataType = type;
    t.rank = uint32_t(sizes.size());
    for (size_t i = 0; i < sizes.size() && i < kMaxTensorRank; ++i) t.sizes[i] = sizes[i];
    return t;
}

std::vector<uint32_t> sizesOf(const TensorDesc& d) { return {d.sizes.begin(), d.sizes.begin() + std::min(d.rank, kMaxTensorRank)}; }

std::vector<int64_t> dimsOf(const TensorDesc& d) {
    std::vector<int64_t> r;
    for (uint32_t s : sizesOf(d)) r.push_back(s);
    return r;
}

std::string dimsString(const std::vector<int64_t>& dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
    return s + "]";
}

std::string floatsString(const std::vector<double>& values) {
    std::string s = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", values[i]);
        s += (i ? "," : "") + std::string(buf);
    }
    return s + "]";
}

Result<std::vector<uint32_t>> toSizes(const std::vector<int64_t>& dims, const std::string& what) {
    if (dims.size() > kMaxTensorRank)
        return Error{ErrorCode::Unsupported, what + " has rank " + std::to_string(dims.size()) + "; at most " + std::to_string(kMaxTensorRank) +
                                                 " dims are supported"};
    std::vector<uint32_t> sizes;
    uint64_t count = 1;
    for (int64_t d : dims) {
        if (d == 0) return Error{ErrorCode::Unsupported, what + " has a dim of 0 (empty tensors are not supported)"};
        if (d < 0) return Error{ErrorCode::InvalidModel, what + " has a dim of " + std::to_string(d) + " (dims must be positive)"};
        if (uint64_t(d) > kMaxOnnxTensorElements || (count *= uint64_t(d)) > kMaxOnnxTensorElements)
            return Error{ErrorCode::InvalidModel, what + " has more than " + std::to_string(kMaxOnnxTensorElements) + " elements"};
        sizes.push_back(uint32_t(d));
    }
    // Scalars are one-element vectors on the GPU (a TensorDesc of rank 0 is "unset").
    if (sizes.empty()) sizes.push_back(1);
    return sizes;
}

Result<GraphView> reshapeView(const Loader& l, const GraphView& v, const std::vector<uint32_t>& sizes) {
    TensorDesc view = packedDesc(v.view.dataType, sizes);
    if (view.elementCount() != v.view.elementCount())
        return l.invalid("cannot view " + v.view.toString() + " as " + view.toString() + " (element counts differ)");
    if (!v.view.isPacked()) return l.unsupportedHere("reshaping a strided view " + v.view.toString());
    return GraphView{v.value, view};
}

Result<std::vector<int64_t>> dimsOfInput(Loader& l, size_t i) {
    auto v = l.input(i);
    if (!v) return v.error();
    if ((*v)->host) return (*v)->host->dims;
    return dimsOf((*v)->graph->view);
}

HostTensorValue integerVector(const std::vector<int64_t>& values) {
    HostTensorValue h;
    h.integer = true;
    h.dims = {int64_t(values.size())};
    h.data.assign(values.begin(), values.end());
    return h;
}

Result<std::vector<int64_t>> axesAttrOrInput(Loader& l, int64_t inputOpset, const char* name) {
    if (l.opset() < inputOpset) return l.intsAttr(name);
    if (!l.hasInput(1)) return std::vector<int64_t>{};
    auto h = l.hostInput(1, name);
    if (!h) return h.error();
    return toInts(*h);
}

// Defines output 0 as input 0 with new dims (host: same data; graph: a view).

std::vector<uint64_t> stridesOf(const std::vector<int64_t>& dims) {
    std::vector<uint64_t> s(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * uint64_t(dims[i]);
    return s;
}

namespace {

// Reads `count` little-endian values of T from raw bytes into doubles.
template <class T>
void readRaw(const std::string& raw, std::vector<double>& out) {
    size_t n = raw.size() / sizeof(T);
    out.resize(n);
    for (size_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
        out[i] = double(v);
    }
}

double halfToDouble(uint16_t h) {
    uint32_t sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
    double v;
    if (exp == 0) v = std::ldexp(double(mant), -24);
    else if (exp == 31) v = mant ? std::nan("") : INFINITY;
    else v = std::ldexp(double(mant | 1024), int(exp) - 25);
    return sign ? -v : v;
}

}  // namespace

Result<HostTensorValue> hostFromTensorProto(const onnx::TensorProto& t, const std::string& what, const ExternalDataSource& external) {
    auto bad = [&](const std::string& why) { return Error{ErrorCode::InvalidModel, what + ": " + why}; };
    HostTensorValue h;
    uint64_t count = 1;
    for (int64_t d : t.dims()) {
        if (d < 0) return bad("negative dim " + std::to_string(d));
        if (uint64_t(d) > kMaxOnnxTensorElements || (count *= uint64_t(d)) > kMaxOnnxTensorElements)
            return bad("more than " + std::to_string(kMaxOnnxTensorElements) + " elements");
        h.dims.push_back(d);
    }
    using TP = onnx::TensorProto;
    size_t elemBytes = 0;
    switch (t.data_type()) {
    case TP::FLOAT: case TP::INT32: elemBytes = 4; break;
    case TP::DOUBLE: case TP::INT64: elemBytes = 8; break;
    case TP::FLOAT16: elemBytes = 2; break;
    case TP::BOOL: elemBytes = 1; break;
    default:
        return Error{ErrorCode::Unsupported, what + ": data type " + std::to_string(t.data_type()) +
                                                 " is not supported (float, float16, double, int64, int32, bool are)"};
    }
    // External data is read (after its checks) into a raw byte string, then parsed like raw_data.
    std::string externalBytes;
    const bool isExternal = t.data_location() == TP::EXTERNAL || t.external_data_size() > 0;
    if (isExternal) {
        auto bytes = readExternalData(t, what, external, count * elemBytes);
        if (!bytes) return bytes.error();
        externalBytes = std::move(*bytes);
    }
    const bool hasRaw = isExternal || t.has_raw_data();
    const std::string& raw = isExternal ? externalBytes : t.raw_data();
    if (hasRaw && raw.size() != count * elemBytes)
        return bad("raw data holds " + std::to_string(raw.size()) + " bytes, its dims need " + std::to_string(count * elemBytes));
    switch (t.data_type()) {
    case TP::FLOAT:
        if (hasRaw) readRaw<float>(raw, h.data); else h.data.assign(t.float_data().begin(), t.float_data().end());
        break;
    case TP::DOUBLE:
        if (hasRaw) readRaw<double>(raw, h.data); else h.data.assign(t.double_data().begin(), t.double_data().end());
        break;
    case TP::FLOAT16:
        if (hasRaw) {
            std::vector<double> bits;
            readRaw<uint16_t>(raw, bits);
            for (double b : bits) h.data.push_back(halfToDouble(uint16_t(b)));
        } else {
            for (int32_t b : t.int32_data()) h.data.push_back(halfToDouble(uint16_t(b)));
        }
        break;
    case TP::INT64:
        h.integer = true;
        if (hasRaw) readRaw<int64_t>(raw, h.data); else h.data.assign(t.int64_data().begin(), t.int64_data().end());
        break;
    case TP::INT32:
        h.integer = true;
        if (hasRaw) readRaw<int32_t>(raw, h.data); else h.data.assign(t.int32_data().begin(), t.int32_data().end());
        break;
    case TP::BOOL:
        h.integer = true;
        if (hasRaw) readRaw<uint8_t>(raw, h.data); else h.data.assign(t.int32_data().begin(), t.int32_data().end());
        break;
    default: break;  // rejected above
    }
    if (h.data.size() != count)
        return bad("holds " + std::to_string(h.data.size()) + " values, its dims need " + std::to_string(count));
    return h;
}

// --- Loader

std::string Loader::nodeName() const {
    if (!node_) return "graph";
    if (!node_->name().empty()) return node_->name();
    return node_->op_type() + "_" + std::to_string(nodeIndex_);
}

std::string Loader::where() const {
    if (!node_) return "graph";
    return "node " + std::to_string(nodeIndex_) + " '" + nodeName() + "' (" + node_->op_type() + ")";
}

Error Loader::invalid(const std::string& what) const { return {ErrorCode::InvalidModel, where() + ": " + what}; }
Error Loader::unsupportedHere(const std::string& what) const { return {ErrorCode::Unsupported, where() + ": " + what}; }

const LoaderValue* Loader::find(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
}

size_t Loader::inputCount() const { return size_t(node_->input_size()); }
bool Loader::hasInput(size_t i) const { return i < inputCount() && !node_->input(int(i)).empty(); }

Result<const LoaderValue*> Loader::input(size_t i) const {
    if (!hasInput(i)) return invalid("input " + std::to_string(i) + " is missing");
    const std::string& name = node_->input(int(i));
    const LoaderValue* v = find(name);
    // Nodes are visited in file order, which ONNX requires to be topological: an input not
    // defined yet is either undefined or part of a cycle.
    if (!v) return invalid("input '" + name + "' is not defined before this node (undefined tensor or a cycle)");
    return v;
}

Result<HostTensorValue> Loader::hostInput(size_t i, const char* what) const {
    auto v = input(i);
    if (!v) return v.error();
    if (!(*v)->host)
        return unsupportedHere(std::string(what) + " (input '" + node_->input(int(i)) + "') must be known at load time (a constant or a folded shape)");
    return *(*v)->host;
}

Result<GraphView> Loader::asGraph(const std::string& name) {
    auto it = values_.find(name);
    if (it == values_.end()) return invalid("tensor '" + name + "' is not defined");
    LoaderValue& v = it->second;
    if (v.graph) return *v.graph;
    if (v.materialized == kNoValue) {
        auto sizes = toSizes(v.host->dims, "constant '" + name + "'");
        if (!sizes) return Error{sizes.error().code, where() + ": " + sizes.error().message};
        std::vector<float> data(v.host->data.begin(), v.host->data.end());
        v.materialized = graph_.addConstant(name, packedDesc(computeType_, *sizes), std::move(data));
    }
    return GraphView{v.materialized, graph_.values[v.materialized].desc};
}

Result<GraphView> Loader::graphInput(size_t i) {
    auto v = input(i);
    if (!v) return v.error();
    return asGraph(node_->input(int(i)));
}

void Loader::setHostOutput(size_t i, HostTensorValue t) {
    if (i < size_t(node_->output_size()) && !node_->output(int(i)).empty()) values_[node_->output(int(i))] = {std::move(t), {}, kNoValue};
}

Status Loader::countFolded() {
    for (const auto& out : node_->output()) {
        const LoaderValue* v = out.empty() ? nullptr : find(out);
        if (!v || !v->host) continue;
        foldedElements_ += v->host->data.size();
        if (foldedElements_ > kMaxFoldedTotalElements)
            return invalid("the tensors computed at load time reach " + std::to_string(foldedElements_) + " elements in total with output '" + out +
                           "' (at most " + std::to_string(kMaxFoldedTotalElements) + ")");
    }
    return {};
}

void Loader::setGraphOutput(size_t i, GraphView v) {
    if (i < size_t(node_->output_size()) && !node_->output(int(i)).empty()) values_[node_->output(int(i))] = {{}, v, kNoValue};
}

Result<std::vector<GraphView>> Loader::addNode(OperatorDesc op, const std::vector<std::optional<GraphView>>& inputs) {
    std::visit([&](auto& d) { d.name = nodeName(); }, op);
    // addNode fills the op's input descs from the values it reads; a view is presented through
    // a scratch value with the view's desc, then the node is pointed at the real value (same
    // memory, packed, same element count).
    std::vector<ValueId> ids;
    std::vector<std::pair<size_t, ValueId>> redirect;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (!inputs[k]) { ids.push_back(kNoValue); continue; }
        const GraphView& g = *inputs[k];
        if (g.view == graph_.values[g.value].desc) { ids.push_back(g.value); continue; }
        if (graph_.values[g.value].kind == GraphValue::Kind::Constant) {
            // Constants get a copy with the view's desc: compile-time folding reads a
            // constant's own desc.
            GraphValue copy = graph_.values[g.value];
            copy.desc = g.view;
            graph_.values.push_back(std::move(copy));
            ids.push_back(ValueId(graph_.values.size() - 1));
            continue;
        }
        graph_.values.push_back({graph_.values[g.value].name + "@view", g.view, GraphValue::Kind::Intermediate, {}});
        ids.push_back(ValueId(graph_.values.size() - 1));
        redirect.push_back({k, g.value});
    }
    auto outs = graph_.addNode(std::move(op), ids);
    if (!outs) return Error{outs.error().code, where() + ": " + outs.error().message};
    GraphNode& n = graph_.nodes.back();
    for (auto [k, v] : redirect) n.inputs[k] = v;
    std::vector<GraphView> result;
    for (size_t o = 0; o < outs->size(); ++o) {
        ValueId v = (*outs)[o];
        if (graph_.values[v].desc.elementCount() > kMaxOnnxTensorElements)
            return invalid("output " + graph_.values[v].desc.toString() + " has more than " + std::to_string(kMaxOnnxTensorElements) + " elements");
        if (o < size_t(node_->output_size()) && !node_->output(int(o)).empty()) graph_.values[v].name = node_->output(int(o));
        result.push_back({v, graph_.values[v].desc});
    }
    return result;
}

Status Loader::emit(OperatorDesc op, const std::vector<std::optional<GraphView>>& inputs) {
    auto outs = addNode(std::move(op), inputs);
    if (!outs) return outs.error();
    setGraphOutput(0, outs->at(0));
    return {};
}

// --- attributes

const onnx::AttributeProto* Loader::attribute(const std::string& name) const {
    for (const auto& a : node_->attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

Result<int64_t> Loader::intAttr(const std::string& name, int64_t fallback) const {
    const auto* a = attribute(name);
    if (!a) return fallback;
    if (a->type() != onnx::AttributeProto::INT) return invalid("attribute '" + name + "' must be an int");
    return a->i();
}

Result<float> Loader::floatAttr(const std::string& name, float fallback) const {
    const auto* a = attribute(name);
    if (!a) return fallback;
    if (a->type() != onnx::AttributeProto::FLOAT) return invalid("attribute '" + name + "' must be a float");
    return a->f();
}

Result<std::string> Loader::stringAttr(const std::string& name, const std::string& fallback) const {
    const auto* a = attribute(name);
    if (!a) return fallback;
    if (a->type() != onnx::AttributeProto::STRING) return invalid("attribute '" + name + "' must be a string");
    return a->s();
}

Result<std::vector<int64_t>> Loader::intsAttr(const std::string& name) const {
    const auto* a = attribute(name);
    if (!a) return std::vector<int64_t>{};
    if (a->type() != onnx::AttributeProto::INTS) return invalid("attribute '" + name + "' must be a list of ints");
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

Result<std::vector<float>> Loader::floatsAttr(const std::string& name) const {
    const auto* a = attribute(name);
    if (!a) return std::vector<float>{};
    if (a->type() != onnx::AttributeProto::FLOATS) return invalid("attribute '" + name + "' must be a list of floats");
    return std::vector<float>(a->floats().begin(), a->floats().end());
}

Status Loader::onlyAttributes(std::initializer_list<const char*> known) const {
    for (const auto& a : node_->attribute()) {
        bool ok = std::any_of(known.begin(), known.end(), [&](const char* k) { return a.name() == k; });
        if (!ok) {
            std::string list;
            for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
            return unsupportedHere("attribute '" + a.name() + "' is not supported (supported: " + (list.empty() ? "none" : list) + ")");
        }
    }
    return {};
}

Result<uint32_t> Loader::axis(int64_t a, uint32_t rank, const char* what) const {
    int64_t r = a < 0 ? a + int64_t(rank) : a;
    if (r < 0 || r >= int64_t(rank)) return invalid(std::string(what) + " " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return uint32_t(r);
}

}  // namespace mlplugin::onnx_detail
