// onnx_inference: mlplugin inside an application of its own, built against the installed package
// (find_package(vkml)); no engine, no bridge. It
//   1. creates its own VkInstance and VkDevice (one compute queue),
//   2. writes a small ONNX model (3x3 convolution + bias + ReLU) with ONNX's protobuf classes,
//   3. loads it (vkml::mlplugin_onnx), compiles the graph, initializes the weights,
//   4. binds, records into its own command buffer, submits, reads back, and compares every output
//      with a CPU computation.
// Exit status 0 when every output matches (and, with --validation, the Khronos validation layer
// with synchronization validation stayed silent), 1 otherwise.
#include <mlplugin/mlplugin.h>
#include <mlplugin/onnx.h>
#include <onnx/onnx_pb.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// The model: x [1, C, H, W] -> relu(conv3x3(x, w, pad 1) + b) -> y [1, K, H, W].
constexpr uint32_t kC = 3, kK = 4, kH = 6, kW = 7;

#define VK_CHECK(call)                                                                                          \
    do {                                                                                                        \
        VkResult r_ = (call);                                                                                   \
        if (r_ != VK_SUCCESS) throw std::runtime_error(std::string(#call) + " failed: VkResult " + std::to_string(r_)); \
    } while (0)

template <class T>
T take(mlplugin::Result<T> r, const char* what) {
    if (!r) throw std::runtime_error(std::string(what) + ": " + r.error().message);
    return std::move(r).value();
}
void check(const mlplugin::Status& s, const char* what) {
    if (!s) throw std::runtime_error(std::string(what) + ": " + s.error().message);
}

// Runs `fn` at scope exit: the app's Vulkan objects are destroyed in reverse order of creation.
struct Defer {
    std::function<void()> fn;
    ~Defer() { fn(); }
};

uint32_t validationMessages = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    ++validationMessages;
    std::fprintf(stderr, "[vulkan] %s\n", data->pMessage);
    return VK_FALSE;
}

// The application's own Vulkan objects: instance (+ validation), a Vulkan 1.3 device with the
// features mlplugin needs, one compute queue.
struct Gpu {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkQueue queue = VK_NULL_HANDLE;
    std::string name;
    mlplugin::DeviceSupport support;  // what `device` was created with

    explicit Gpu(bool validation);
    ~Gpu();
    Gpu(const Gpu&) = delete;
    Gpu& operator=(const Gpu&) = delete;
    uint32_t hostVisibleMemoryType(uint32_t typeBits) const;
};

Gpu::Gpu(bool validation) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "onnx_inference";
    app.apiVersion = VK_API_VERSION_1_3;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* debugUtils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkValidationFeatureEnableEXT syncValidation = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = &syncValidation;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (validation) {
        ici.pNext = &features;
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
        ici.enabledExtensionCount = 1;
        ici.ppEnabledExtensionNames = &debugUtils;
    }
    VkResult r = vkCreateInstance(&ici, nullptr, &instance);
    if (r == VK_ERROR_LAYER_NOT_PRESENT) throw std::runtime_error("--validation: VK_LAYER_KHRONOS_validation is not installed (vulkan-validationlayers)");
    VK_CHECK(r);
    if (validation) {
        VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
        mci.pfnUserCallback = onValidationMessage;
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
        if (!create) throw std::runtime_error("--validation: vkCreateDebugUtilsMessengerEXT is not available");
        VK_CHECK(create(instance, &mci, nullptr, &messenger));
    }

    // The first device with a compute queue and what mlplugin requires (mlplugin::queryDeviceSupport
    // asks before the device exists; missingRequired() names what a device lacks).
    uint32_t count = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
    std::string rejected;
    for (VkPhysicalDevice pd : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(pd, &props);
        mlplugin::Result<mlplugin::DeviceSupport> offered = mlplugin::queryDeviceSupport(instance, pd, vkGetInstanceProcAddr);
        if (!offered) throw std::runtime_error(offered.error().message);
        if (std::string missing = offered->missingRequired(); !missing.empty()) {
            rejected += std::string("; ") + props.deviceName + ": " + missing;
            continue;
        }
        uint32_t familyCount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &familyCount, nullptr);
        std::vector<VkQueueFamilyProperties> families(familyCount);
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &familyCount, families.data());
        for (uint32_t i = 0; i < familyCount && !physicalDevice; ++i)
            if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) physicalDevice = pd, family = i, name = props.deviceName, support = *offered;
        if (physicalDevice) break;
    }
    if (!physicalDevice) throw std::runtime_error("no Vulkan device mlplugin can use (" + std::to_string(count) + " devices" + rejected + ")");

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    // Exactly what the plugin uses: its requirements, fp16 and tensor cores where offered.
    mlplugin::DeviceFeatureChain enable(support);
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, enable.head()};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = uint32_t(support.extensions.size());
    dci.ppEnabledExtensionNames = support.extensions.data();
    VK_CHECK(vkCreateDevice(physicalDevice, &dci, nullptr, &device));
    vkGetDeviceQueue(device, family, 0, &queue);
}

Gpu::~Gpu() {
    if (device) vkDestroyDevice(device, nullptr);
    if (messenger) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
        destroy(instance, messenger, nullptr);
    }
    if (instance) vkDestroyInstance(instance, nullptr);
}

uint32_t Gpu::hostVisibleMemoryType(uint32_t typeBits) const {
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(physicalDevice, &mem);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    throw std::runtime_error("no host-visible, coherent memory type for a storage buffer");
}

// A storage buffer in host-visible memory, mapped: enough for a sample this small (an application
// keeps its tensors in device-local memory and copies through staging buffers).
class HostBuffer {
public:
    HostBuffer(const Gpu& gpu, uint64_t bytes) : device_(gpu.device), size_(std::max<uint64_t>((bytes + 3) & ~uint64_t(3), 4)) {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = size_;
        bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VK_CHECK(vkCreateBuffer(device_, &bci, nullptr, &buffer_));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device_, buffer_, &req);
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = gpu.hostVisibleMemoryType(req.memoryTypeBits);
        VK_CHECK(vkAllocateMemory(device_, &mai, nullptr, &memory_));
        VK_CHECK(vkBindBufferMemory(device_, buffer_, memory_, 0));
        VK_CHECK(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
        std::memset(mapped_, 0, size_);
    }
    ~HostBuffer() {
        vkDestroyBuffer(device_, buffer_, nullptr);
        vkFreeMemory(device_, memory_, nullptr);
    }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;

    mlplugin::BufferBinding binding() const { return {buffer_, 0, size_}; }
    void write(const void* data, uint64_t bytes) { std::memcpy(mapped_, data, std::min(bytes, size_)); }
    const float* floats() const { return static_cast<const float*>(mapped_); }

private:
    VkDevice device_;
    uint64_t size_;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    void* mapped_ = nullptr;
};

// Deterministic values in [-1, 1].
std::vector<float> pseudoRandom(size_t n, uint32_t seed) {
    std::vector<float> v(n);
    for (float& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = float(seed >> 8) / float(1u << 24) * 2.0f - 1.0f;
    }
    return v;
}

// The model as ONNX bytes (opset 13): Conv(x, w, b, pads 1) -> Relu -> y.
std::string writeModel(const std::vector<float>& w, const std::vector<float>& b) {
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.set_producer_name("vkml onnx_inference example");
    onnx::OperatorSetIdProto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(13);
    onnx::GraphProto* graph = model.mutable_graph();
    graph->set_name("conv_relu");

    auto tensorInfo = [](onnx::ValueInfoProto* info, const char* name, std::initializer_list<int64_t> dims) {
        info->set_name(name);
        onnx::TypeProto::Tensor* type = info->mutable_type()->mutable_tensor_type();
        type->set_elem_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims) type->mutable_shape()->add_dim()->set_dim_value(d);
    };
    auto initializer = [&](const char* name, std::initializer_list<int64_t> dims, const std::vector<float>& values) {
        onnx::TensorProto* t = graph->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims) t->add_dims(d);
        for (float v : values) t->add_float_data(v);
    };
    auto ints = [](onnx::NodeProto* node, const char* name, std::initializer_list<int64_t> values) {
        onnx::AttributeProto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values) a->add_ints(v);
    };

    tensorInfo(graph->add_input(), "x", {1, kC, kH, kW});
    tensorInfo(graph->add_output(), "y", {1, kK, kH, kW});
    initializer("w", {kK, kC, 3, 3}, w);
    initializer("b", {kK}, b);
    onnx::NodeProto* conv = graph->add_node();
    conv->set_op_type("Conv");
    conv->set_name("conv");
    for (const char* in : {"x", "w", "b"}) conv->add_input(in);
    conv->add_output("conv_out");
    ints(conv, "kernel_shape", {3, 3});
    ints(conv, "pads", {1, 1, 1, 1});
    onnx::NodeProto* relu = graph->add_node();
    relu->set_op_type("Relu");
    relu->set_name("relu");
    relu->add_input("conv_out");
    relu->add_output("y");
    return model.SerializeAsString();
}

// The same network on the CPU, in double precision.
std::vector<double> referenceOutput(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
    std::vector<double> y(size_t(kK) * kH * kW);
    for (uint32_t k = 0; k < kK; ++k)
        for (uint32_t h = 0; h < kH; ++h)
            for (uint32_t wi = 0; wi < kW; ++wi) {
                double sum = b[k];
                for (uint32_t c = 0; c < kC; ++c)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx) {
                            int iy = int(h) + dy, ix = int(wi) + dx;
                            if (iy < 0 || ix < 0 || iy >= int(kH) || ix >= int(kW)) continue;
                            sum += double(x[(c * kH + iy) * kW + ix]) * w[((k * kC + c) * 3 + dy + 1) * 3 + dx + 1];
                        }
                y[(k * kH + h) * kW + wi] = std::max(sum, 0.0);
            }
    return y;
}

int run(bool validation) {
    using namespace mlplugin;
    if (version() != headerVersion()) {
        std::fprintf(stderr, "onnx_inference: built against mlplugin %u.%u headers, running with library %s\n",
                     headerVersion().major, headerVersion().minor, versionString());
        return 1;
    }
    Gpu gpu(validation);  // declared first: destroyed after everything below

    // 1. The plugin device over the application's Vulkan objects.
    DeviceDesc dd;
    dd.instance = gpu.instance;
    dd.physicalDevice = gpu.physicalDevice;
    dd.device = gpu.device;
    dd.queueFamilyIndex = gpu.family;
    dd.getInstanceProcAddr = vkGetInstanceProcAddr;
    gpu.support.describeEnabled(dd);  // what the Gpu enabled
    dd.flags = DeviceFlagDebug;
    std::unique_ptr<Device> device = take(createDevice(dd), "createDevice");

    // 2. The model: written here, loaded from memory (loadOnnxFile reads a file the same way).
    std::vector<float> w = pseudoRandom(size_t(kK) * kC * 9, 1), b = pseudoRandom(kK, 2), x = pseudoRandom(size_t(kC) * kH * kW, 3);
    std::string bytes = writeModel(w, b);
    OnnxModel model = take(loadOnnx({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}), "loadOnnx");
    CompiledGraph net = take(compileGraph(*device, model.graph), "compileGraph");
    const TensorDesc& inputDesc = model.graph.values[model.graph.inputs.at(0)].desc;
    const TensorDesc& outputDesc = model.graph.values[model.graph.outputs.at(0)].desc;

    // 3. Memory and descriptors, as much as the compiled graph and its initializer ask for.
    CompiledOperator* ops[] = {net.op.get()};
    std::unique_ptr<OperatorInitializer> initializer = take(device->createOperatorInitializer(ops), "createOperatorInitializer");
    BindingProperties props = net.op->bindingProperties(), initProps = initializer->bindingProperties();
    HostBuffer input(gpu, inputDesc.requiredBytes()), output(gpu, outputDesc.requiredBytes());
    HostBuffer constants(gpu, net.constantData.size()), temporary(gpu, props.temporaryBytes), persistent(gpu, props.persistentBytes);
    input.write(x.data(), x.size() * sizeof(float));
    constants.write(net.constantData.data(), net.constantData.size());

    uint32_t setCount = std::max(initProps.descriptorSetCount + props.descriptorSetCount, 1u);
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, setCount * kDescriptorsPerSet};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = setCount;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &poolSize;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorPool(gpu.device, &dpci, nullptr, &pool));
    Defer destroyPool{[&] { vkDestroyDescriptorPool(gpu.device, pool, nullptr); }};
    std::vector<VkDescriptorSetLayout> layouts(setCount, device->descriptorSetLayout());
    std::vector<VkDescriptorSet> sets(setCount);
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = setCount;
    dsai.pSetLayouts = layouts.data();
    VK_CHECK(vkAllocateDescriptorSets(gpu.device, &dsai, sets.data()));

    // 4. Bind: the initializer reads the constants and writes the persistent resource; the
    //    graph reads x (the constants slot stays empty: owned by the plugin) and writes y.
    BufferBinding persistentBinding = props.persistentBytes ? persistent.binding() : BufferBinding{};
    std::vector<BufferBinding> initInputs(model.graph.inputs.size());
    initInputs.push_back(net.constantData.empty() ? BufferBinding{} : constants.binding());
    auto initTable = take(device->createBindingTable({initializer.get(), {sets.data(), initProps.descriptorSetCount}}), "initializer table");
    check(initTable->bindInputs(initInputs), "initializer bindInputs");
    check(initTable->bindOutputs({&persistentBinding, 1}), "initializer bindOutputs");
    auto table = take(device->createBindingTable({net.op.get(), {sets.data() + initProps.descriptorSetCount, props.descriptorSetCount}}), "table");
    std::vector<BufferBinding> inputs = {input.binding(), BufferBinding{}};
    check(table->bindInputs(inputs), "bindInputs");
    BufferBinding outputBinding = output.binding();
    check(table->bindOutputs({&outputBinding, 1}), "bindOutputs");
    if (props.temporaryBytes) check(table->bindTemporary(temporary.binding()), "bindTemporary");
    if (props.persistentBytes) check(table->bindPersistent(persistentBinding), "bindPersistent");

    // 5. Record into the application's command buffer; the application submits and waits.
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.queueFamilyIndex = gpu.family;
    VkCommandPool commandPool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(gpu.device, &cpci, nullptr, &commandPool));
    Defer destroyCommandPool{[&] { vkDestroyCommandPool(gpu.device, commandPool, nullptr); }};
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = commandPool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(gpu.device, &cbai, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    std::unique_ptr<CommandRecorder> recorder = take(device->createCommandRecorder(), "createCommandRecorder");
    if (initProps.descriptorSetCount) {
        check(recorder->record(cmd, *initializer, *initTable), "record initializer");
        recordComputeBarrier(*device, cmd);  // persistent resource written -> read by the graph
    }
    check(recorder->record(cmd, *net.op, *table), "record graph");
    VkMemoryBarrier2 toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                            VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT};
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &toHost;
    vkCmdPipelineBarrier2(cmd, &dependency);
    VK_CHECK(vkEndCommandBuffer(cmd));

    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(gpu.device, &fci, nullptr, &fence));
    Defer destroyFence{[&] { vkDestroyFence(gpu.device, fence, nullptr); }};
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    VK_CHECK(vkQueueSubmit(gpu.queue, 1, &submit, fence));
    VK_CHECK(vkWaitForFences(gpu.device, 1, &fence, VK_TRUE, UINT64_MAX));

    // 6. Read back and compare with the CPU.
    std::vector<double> expected = referenceOutput(x, w, b);
    if (outputDesc.dataType != DataType::Float32 || outputDesc.requiredBytes() != expected.size() * sizeof(float))
        throw std::runtime_error("unexpected output tensor " + outputDesc.toString());
    double maxError = 0;
    size_t mismatches = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
        double error = std::abs(double(output.floats()[i]) - expected[i]);
        maxError = std::max(maxError, error);
        if (!(error <= 1e-4 * std::max(1.0, std::abs(expected[i])))) ++mismatches;  // NaN counts as a mismatch
    }
    std::printf("onnx_inference: mlplugin %s on %s: %s -> %s, %zu outputs, max |error| %.2e, %zu mismatches\n", versionString(),
                gpu.name.c_str(), inputDesc.toString().c_str(), outputDesc.toString().c_str(), expected.size(), maxError, mismatches);
    if (validationMessages) std::fprintf(stderr, "onnx_inference: %u validation messages\n", validationMessages);
    return mismatches || validationMessages ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    bool validation = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--validation") == 0) {
            validation = true;
        } else {
            std::fprintf(stderr, "usage: onnx_inference [--validation]\n");
            return 2;
        }
    }
    try {
        return run(validation);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "onnx_inference: %s\n", e.what());
        return 1;
    }
}
