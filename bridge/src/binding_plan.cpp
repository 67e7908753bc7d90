#include "binding_plan.h"

#include "engine/error.h"

#include <algorithm>

namespace bridge::detail {
namespace {

using mlplugin::DataType;
using mlplugin::GraphDesc;
using mlplugin::TensorDesc;

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// A model that does not fit the pass's bindings or extents.
engine::Error modelError(const std::string& message) { return engine::Error(engine::ErrorCode::InvalidModel, message); }

std::string extent(VkExtent2D e) { return std::to_string(e.width) + "x" + std::to_string(e.height); }

std::string valueNames(const GraphDesc& g, const std::vector<mlplugin::ValueId>& ids) {
    std::string out;
    for (mlplugin::ValueId v : ids) out += (out.empty() ? "'" : ", '") + g.values[v].name + "'";
    return out.empty() ? "none" : out;
}

// The index in `ids` of the value called `name`, or ids.size().
size_t findByName(const GraphDesc& g, const std::vector<mlplugin::ValueId>& ids, const std::string& name) {
    for (size_t i = 0; i < ids.size(); ++i)
        if (g.values[ids[i]].name == name) return i;
    return ids.size();
}

// [1, C, H, W] with the expected channels check left to the caller.
void checkImageTensor(const TensorDesc& d, const std::string& what, VkExtent2D e, const char* whichImages) {
    if (d.rank != 4 || d.sizes[0] != 1) throw modelError(what + " is not a [1, C, H, W] tensor");
    if (d.sizes[2] != e.height || d.sizes[3] != e.width)
        throw modelError(what + " is " + std::to_string(d.sizes[3]) + "x" + std::to_string(d.sizes[2]) + " (WxH) but " + whichImages + " " +
                         extent(e));
}

void planInputs(BindingPlan& plan, const std::string& who, const GraphDesc& g, const std::vector<TensorInput>& inputs, VkExtent2D e,
                const std::function<bool(FrameImage)>& provided) {
    if (inputs.size() != g.inputs.size())
        throw modelError(who + ": the model has " + std::to_string(g.inputs.size()) + " input(s) (" + valueNames(g, g.inputs) + ") but " +
                         std::to_string(inputs.size()) + " input binding(s) are given");
    ToTensorParams& params = plan.toTensor;
    params.width = e.width;
    params.height = e.height;
    plan.inputRanges.resize(g.inputs.size());
    for (size_t b = 0; b < inputs.size(); ++b) {
        const TensorInput& binding = inputs[b];
        size_t index = b;
        if (!binding.name.empty()) {
            index = findByName(g, g.inputs, binding.name);
            if (index == g.inputs.size()) throw modelError(who + ": the model has no input '" + binding.name + "' (inputs: " + valueNames(g, g.inputs) + ")");
        }
        const mlplugin::GraphValue& value = g.values[g.inputs[index]];
        const TensorDesc& d = value.desc;
        const std::string what = who + ": input '" + value.name + "' " + d.toString();
        uint32_t channels = 0;
        for (const ImageChannels& c : binding.channels) channels += uint32_t(c.components.size());
        checkImageTensor(d, what, e, "the input images are");
        if (d.sizes[1] != channels)
            throw modelError(what + " has " + std::to_string(d.sizes[1]) + " channel(s) but its binding reads " + std::to_string(channels));
        if (d.dataType == DataType::Float16) plan.fp16 = true;
        const uint64_t elementBytes = mlplugin::byteSize(d.dataType);
        plan.inputBytes = alignUp(plan.inputBytes, kInputAlignment);
        plan.inputRanges[index] = {plan.inputBytes, d.requiredBytes()};
        const auto strides = d.effectiveStrides();
        uint32_t channel = 0;
        for (const ImageChannels& c : binding.channels) {
            if (!provided(c.image))
                throw engine::Error(what + " reads the " + std::string(toString(c.image)) + " image, which this stage does not provide");
            auto at = std::find(plan.sources.begin(), plan.sources.end(), c.image);
            if (at == plan.sources.end()) {
                if (plan.sources.size() == kMaxSourceImages)
                    throw engine::Error(who + ": the bindings read more than " + std::to_string(kMaxSourceImages) + " distinct images");
                at = plan.sources.insert(plan.sources.end(), c.image);
            }
            if (params.sliceCount == kMaxSlices)
                throw engine::Error(who + ": more than " + std::to_string(kMaxSlices) + " image channel runs in the input bindings");
            SliceParams& s = params.slices[params.sliceCount++];
            const std::vector<uint32_t> comps = parseComponents(c.components, what);
            for (uint32_t k = 0; k < comps.size(); ++k) {
                s.scale[k] = c.scale;
                s.bias[k] = c.bias;
                s.components[k] = comps[k];
            }
            s.image = uint32_t(at - plan.sources.begin());
            s.channelCount = uint32_t(comps.size());
            s.dtype = d.dataType == DataType::Float16 ? 1 : 0;
            s.encoding = c.encoding == Encoding::Srgb ? 1 : 0;
            s.offset = uint32_t(plan.inputBytes / elementBytes + uint64_t(channel) * strides[1]);
            s.strideC = strides[1];
            s.strideH = strides[2];
            s.strideW = strides[3];
            channel += s.channelCount;
        }
        plan.inputBytes += d.requiredBytes();
    }
}

void planOutput(BindingPlan& plan, const std::string& who, const GraphDesc& g, const TensorOutput& output, VkExtent2D e) {
    size_t outIndex = 0;
    if (output.name.empty()) {
        if (g.outputs.size() != 1)
            throw modelError(who + ": the model has " + std::to_string(g.outputs.size()) + " outputs (" + valueNames(g, g.outputs) +
                             "); name the one to write (TensorOutput::name)");
    } else {
        outIndex = findByName(g, g.outputs, output.name);
        if (outIndex == g.outputs.size())
            throw modelError(who + ": the model has no output '" + output.name + "' (outputs: " + valueNames(g, g.outputs) + ")");
        if (g.outputs.size() != 1) throw modelError(who + ": the model has " + std::to_string(g.outputs.size()) + " outputs; MlPass binds exactly one");
    }
    const mlplugin::GraphValue& value = g.values[g.outputs[outIndex]];
    const TensorDesc& d = value.desc;
    const std::string what = who + ": output '" + value.name + "' " + d.toString();
    checkImageTensor(d, what, e, "the output image is");
    if (d.sizes[1] != 1 && d.sizes[1] != 3 && d.sizes[1] != 4)
        throw modelError(what + " has " + std::to_string(d.sizes[1]) + " channels; the output image takes 1, 3 or 4");
    if (d.dataType == DataType::Float16) plan.fp16 = true;
    const auto strides = d.effectiveStrides();
    ToImagePush& p = plan.toImage;
    for (uint32_t k = 0; k < 4; ++k) p.scale[k] = output.scale, p.bias[k] = output.bias;
    p.width = e.width;
    p.height = e.height;
    p.channelCount = d.sizes[1];
    p.dtype = d.dataType == DataType::Float16 ? 1 : 0;
    p.encoding = output.encoding == Encoding::Srgb ? 1 : 0;
    p.offset = 0;
    p.strideC = strides[1];
    p.strideH = strides[2];
    p.strideW = strides[3];
    plan.outputBytes = d.requiredBytes();
}

}  // namespace

BindingPlan planBindings(const std::string& who, const GraphDesc& graph, const std::vector<TensorInput>& inputs, const TensorOutput& output,
                         VkExtent2D inputExtent, VkExtent2D outputExtent, const std::function<bool(FrameImage)>& provided) {
    BindingPlan plan;
    planInputs(plan, who, graph, inputs, inputExtent, provided);
    planOutput(plan, who, graph, output, outputExtent);
    return plan;
}

}  // namespace bridge::detail
