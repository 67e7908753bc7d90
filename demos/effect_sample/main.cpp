// effect_sample: the temporal upscaler effect in a plain Vulkan program, no engine header. It is
// what an engine does to integrate effects::Upscaler: its own instance, device, queue, images and
// command buffers; the effect is created on them, initialized once, and recorded every frame.
//
// It upscales a sequence written by `upscale_demo --headless --mode taau --channels
// color,depth,motion --out DIR`: DIR/color_NNNNN.npy (render-resolution display-linear RGB),
// depth_NNNNN.npy, motion_NNNNN.npy (render pixels) and frames.json (jitter, camera, cuts, sizes
// per frame), and writes DIR_OUT/frame_NNNNN.png.
//
//   effect_sample --input DIR --out DIR [--mode taau|ml-temporal] [--model FILE] [--sharpness S]
//                 [--tuning FILE] [--time-steps] [--validation]
//
// --time-steps shows the effect's step callbacks (effects/step_callbacks.h) in use: a timestamp
// query before and after each step, read back per frame, the mean per step printed at the end.
//
// --model defaults to the shipped upscaler_temporal.onnx, found at run time as the other demos
// find theirs (demos/common/model_dir.h: $VKML_MODEL_DIR, else ../share/vkml/models beside the
// executable); that lookup is plain C++, no engine code.
#include "model_dir.h"
#include "effects/upscaler.h"
#include "mlplugin/device_support.h"

#include <vkutil/barrier.h>
#include <vkutil/image.h>
#include <vulkan/vulkan.h>

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::runtime_error(message); }

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS) fail(std::string(what) + " failed (VkResult " + std::to_string(int(r)) + ")");
}

// ---------------------------------------------------------------- input files
struct Array {
    std::vector<float> data;
    std::vector<uint32_t> shape;
};

// A little-endian float32 C-order .npy file (what upscale_demo writes), with its size checked
// against the header before anything is allocated.
Array readNpy(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) fail("cannot open '" + path + "'");
    const std::streamoff fileSize = f.tellg();
    f.seekg(0);
    char magic[8];
    if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) fail("'" + path + "' is not a .npy file");
    uint32_t headerLen = 0;
    if (magic[6] == 1) {
        uint16_t n = 0;
        f.read(reinterpret_cast<char*>(&n), 2);
        headerLen = n;
    } else {
        f.read(reinterpret_cast<char*>(&headerLen), 4);
    }
    if (!f || headerLen > 65536) fail("'" + path + "': bad .npy header");
    std::string header(headerLen, '\0');
    f.read(header.data(), headerLen);
    if (header.find("'descr': '<f4'") == std::string::npos || header.find("'fortran_order': False") == std::string::npos)
        fail("'" + path + "' must hold little-endian float32 in C order");
    size_t open = header.find('('), close = header.find(')');
    if (open == std::string::npos || close == std::string::npos) fail("'" + path + "': no shape in the header");
    Array a;
    std::stringstream dims(header.substr(open + 1, close - open - 1));
    uint64_t count = 1;
    for (std::string d; std::getline(dims, d, ',');) {
        if (d.find_first_not_of(" ") == std::string::npos) continue;
        uint64_t v = std::stoull(d);
        if (v == 0 || v > 16384) fail("'" + path + "': dimension " + d + " is out of range");
        a.shape.push_back(uint32_t(v));
        count *= v;
    }
    if (a.shape.empty() || a.shape.size() > 3) fail("'" + path + "': expected an H x W x C array");
    const std::streamoff dataAt = f.tellg();
    if (fileSize - dataAt != std::streamoff(count * 4)) fail("'" + path + "': the data size does not match the shape");
    a.data.resize(count);
    f.read(reinterpret_cast<char*>(a.data.data()), std::streamsize(count * 4));
    if (!f) fail("'" + path + "': truncated");
    return a;
}

// The fields of one frames.json line this sample needs (a flat JSON object per line).
struct FrameInfo {
    float jitter[2] = {0, 0};
    float fovYDeg = 60, nearPlane = 0.05f, farPlane = 200, frameTimeMs = 16.7f;
    bool cut = false;
    uint32_t render[2] = {0, 0}, display[2] = {0, 0};
};

std::vector<float> numbers(const std::string& line, const std::string& key, size_t count) {
    size_t at = line.find("\"" + key + "\":");
    if (at == std::string::npos) fail("frames.json: a line has no \"" + key + "\"");
    std::vector<float> out;
    const char* p = line.c_str() + at + key.size() + 3;
    while (out.size() < count) {
        while (*p == ' ' || *p == '[' || *p == ',') ++p;
        char* end = nullptr;
        float v = std::strtof(p, &end);
        if (end == p || !std::isfinite(v)) fail("frames.json: \"" + key + "\" is not " + std::to_string(count) + " number(s)");
        out.push_back(v);
        p = end;
    }
    return out;
}

std::vector<FrameInfo> readFrames(const std::string& path) {
    std::ifstream f(path);
    if (!f) fail("cannot open '" + path + "' (write the sequence with upscale_demo --channels color,depth,motion)");
    std::vector<FrameInfo> frames;
    for (std::string line; std::getline(f, line);) {
        if (line.empty()) continue;
        FrameInfo fi;
        auto j = numbers(line, "jitter", 2), r = numbers(line, "render", 2), d = numbers(line, "display", 2);
        fi.jitter[0] = j[0];
        fi.jitter[1] = j[1];
        fi.fovYDeg = numbers(line, "fov_y_deg", 1)[0];
        fi.nearPlane = numbers(line, "near", 1)[0];
        fi.farPlane = numbers(line, "far", 1)[0];
        fi.frameTimeMs = numbers(line, "frame_time_ms", 1)[0];
        fi.cut = line.find("\"cut\": true") != std::string::npos;
        for (int k = 0; k < 2; ++k) {
            if (r[k] < 1 || r[k] > 16384 || d[k] < 1 || d[k] > 16384) fail("frames.json: a size is out of range");
            fi.render[k] = uint32_t(r[k]);
            fi.display[k] = uint32_t(d[k]);
        }
        frames.push_back(fi);
    }
    if (frames.empty()) fail("'" + path + "' lists no frames");
    return frames;
}

// ---------------------------------------------------------------- Vulkan
struct Gpu {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t family = 0;
    uint32_t timestampValidBits = 0;  // of the queue family; 0: no timestamps
    float timestampPeriodNs = 0.0f;
    VkQueue queue = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    mlplugin::DeviceSupport support;  // what the device was created with
    VkPhysicalDeviceMemoryProperties memory{};

    explicit Gpu(bool validation) {
        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.pApplicationName = "effect_sample";
        app.apiVersion = VK_API_VERSION_1_3;
        const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
        VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        ici.pApplicationInfo = &app;
        ici.enabledLayerCount = validation ? 1 : 0;
        ici.ppEnabledLayerNames = layers;
        check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance");
        uint32_t n = 0;
        vkEnumeratePhysicalDevices(instance, &n, nullptr);
        if (n == 0) fail("no Vulkan device");
        std::vector<VkPhysicalDevice> devices(n);
        vkEnumeratePhysicalDevices(instance, &n, devices.data());
        physical = devices[0];
        uint32_t qn = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &qn, nullptr);
        std::vector<VkQueueFamilyProperties> families(qn);
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &qn, families.data());
        family = UINT32_MAX;
        for (uint32_t i = 0; i < qn && family == UINT32_MAX; ++i)
            if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
        if (family == UINT32_MAX) fail("no compute queue");
        timestampValidBits = families[family].timestampValidBits;
        VkPhysicalDeviceProperties properties{};
        vkGetPhysicalDeviceProperties(physical, &properties);
        timestampPeriodNs = properties.limits.timestampPeriod;
        // What the effects need, and what makes their networks fast (fp16, tensor cores), asked
        // before the device exists; the chain enables exactly that (an engine with a feature chain
        // of its own sets the same members in it instead).
        mlplugin::Result<mlplugin::DeviceSupport> queried = mlplugin::queryDeviceSupport(instance, physical, vkGetInstanceProcAddr);
        if (!queried) fail(queried.error().message);
        support = *queried;
        if (std::string missing = support.missingRequired(); !missing.empty()) fail(missing);
        mlplugin::DeviceFeatureChain features(support);
        float priority = 1.0f;
        VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qci.queueFamilyIndex = family;
        qci.queueCount = 1;
        qci.pQueuePriorities = &priority;
        VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, features.head()};
        dci.queueCreateInfoCount = 1;
        dci.pQueueCreateInfos = &qci;
        dci.enabledExtensionCount = uint32_t(support.extensions.size());
        dci.ppEnabledExtensionNames = support.extensions.data();
        check(vkCreateDevice(physical, &dci, nullptr, &device), "vkCreateDevice");
        vkGetDeviceQueue(device, family, 0, &queue);
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pci.queueFamilyIndex = family;
        check(vkCreateCommandPool(device, &pci, nullptr, &pool), "vkCreateCommandPool");
        vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    }
    ~Gpu() {
        if (device) {
            vkDeviceWaitIdle(device);  // shutdown: the one place a program may wait for everything
            vkDestroyCommandPool(device, pool, nullptr);
            vkDestroyDevice(device, nullptr);
        }
        vkDestroyInstance(instance, nullptr);
    }

    uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags flags) const {
        for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
            if ((bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
        fail("no suitable memory type");
    }

    // Records `fn` into a one-time command buffer, submits it and waits (a sample, not a frame loop).
    template <class F>
    void submit(F&& fn) const {
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VkCommandBuffer cmd;
        check(vkAllocateCommandBuffers(device, &ai, &cmd), "vkAllocateCommandBuffers");
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
        fn(cmd);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        check(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
        check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
        vkFreeCommandBuffers(device, pool, 1, &cmd);
    }
};

struct Buffer {
    const Gpu& gpu;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    Buffer(const Gpu& g, VkDeviceSize size, VkBufferUsageFlags usage) : gpu(g) {
        VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        ci.size = size;
        ci.usage = usage;
        check(vkCreateBuffer(gpu.device, &ci, nullptr, &buffer), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(gpu.device, buffer, &req);
        VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = gpu.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        check(vkAllocateMemory(gpu.device, &ai, nullptr, &memory), "vkAllocateMemory");
        check(vkBindBufferMemory(gpu.device, buffer, memory, 0), "vkBindBufferMemory");
        check(vkMapMemory(gpu.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    }
    ~Buffer() {
        vkDestroyBuffer(gpu.device, buffer, nullptr);
        vkFreeMemory(gpu.device, memory, nullptr);
    }
};

void barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage,
             VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    vkutil::imageBarrier(cmd, image, aspect, from, to, srcStage, srcAccess, dstStage, dstAccess);
}

// A 2D image the application owns: inputs are uploaded from float texels, the output read back.
struct Image {
    const Gpu& gpu;
    VkFormat format;
    VkExtent2D extent;
    VkImageAspectFlags aspect;
    uint32_t components;
    vkutil::Image owned;
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;

    Image(const Gpu& g, VkFormat f, VkExtent2D e, uint32_t comps, VkImageUsageFlags usage)
        : gpu(g), format(f), extent(e), aspect(vkutil::aspectOf(f)), components(comps) {
        check(owned.create(gpu.physical, gpu.device, f, e, usage), "creating an image");
        image = owned.handle();
        view = owned.view();
    }

    // Uploads `texels` (`srcComponents` floats per texel, padded with 1) and leaves the image in
    // SHADER_READ_ONLY_OPTIMAL, visible to compute shaders.
    void upload(const std::vector<float>& texels, uint32_t srcComponents) {
        const size_t n = size_t(extent.width) * extent.height;
        if (texels.size() != n * srcComponents) fail("an input array does not match the render size in frames.json");
        Buffer staging(gpu, n * components * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        auto* dst = static_cast<float*>(staging.mapped);
        for (size_t p = 0; p < n; ++p)
            for (uint32_t c = 0; c < components; ++c) dst[p * components + c] = c < srcComponents ? texels[p * srcComponents + c] : 1.0f;
        gpu.submit([&](VkCommandBuffer cmd) {
            barrier(cmd, image, aspect, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0,
                    VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            VkBufferImageCopy region{};
            region.imageSubresource = {aspect, 0, 0, 1};
            region.imageExtent = {extent.width, extent.height, 1};
            vkCmdCopyBufferToImage(cmd, staging.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
            barrier(cmd, image, aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        });
    }
};

void writePng(const std::string& path, const std::vector<float>& rgba, VkExtent2D e) {
    std::vector<uint8_t> pixels(size_t(e.width) * e.height * 4);
    for (size_t p = 0; p < pixels.size() / 4; ++p)
        for (int c = 0; c < 4; ++c) {
            float v = std::clamp(rgba[p * 4 + c], 0.0f, 1.0f);
            if (c < 3) v = v <= 0.0031308f ? v * 12.92f : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;  // sRGB-encode for viewing
            pixels[p * 4 + c] = uint8_t(std::lround(v * 255.0f));
        }
    if (!stbi_write_png(path.c_str(), int(e.width), int(e.height), 4, pixels.data(), int(e.width) * 4)) fail("cannot write '" + path + "'");
}

struct Options {
    std::string input, out, model;
    std::shared_ptr<const mlplugin::TuningTable> tuning;  // --tuning: measured kernel choices for the network
    effects::UpscalerMode mode = effects::UpscalerMode::Taau;
    float sharpness = 0;
    bool validation = false;
    bool timeSteps = false;  // --time-steps
};

// --time-steps: GPU time per step of the effect, from timestamp queries written by the effect's
// step callbacks: one query pool, two queries per step, reset in each frame's command buffer
// before record() and read after the frame's submit has completed.
class StepTimer {
public:
    static constexpr uint32_t kMaxSteps = 8;

    explicit StepTimer(const Gpu& gpu) : gpu_(gpu) {
        if (gpu.timestampValidBits == 0) fail("--time-steps: the queue family has no timestamps");
        VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        ci.queryCount = 2 * kMaxSteps;
        check(vkCreateQueryPool(gpu.device, &ci, nullptr, &pool_), "vkCreateQueryPool");
    }
    ~StepTimer() { vkDestroyQueryPool(gpu_.device, pool_, nullptr); }
    StepTimer(const StepTimer&) = delete;
    StepTimer& operator=(const StepTimer&) = delete;

    // Before record(), in the same command buffer.
    void beginFrame(VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, pool_, 0, 2 * kMaxSteps);
        frameSteps_ = 0;
    }
    effects::StepCallbacks callbacks() {
        return {.begin = [](void* self, VkCommandBuffer cmd, const char* step) { static_cast<StepTimer*>(self)->begin(cmd, step); },
                .end = [](void* self, VkCommandBuffer cmd) { static_cast<StepTimer*>(self)->end(cmd); },
                .user = this};
    }
    // After the frame's submit completed.
    void endFrame() {
        if (frameSteps_ == 0) return;
        uint64_t ticks[2 * kMaxSteps] = {};
        check(vkGetQueryPoolResults(gpu_.device, pool_, 0, 2 * frameSteps_, sizeof ticks, ticks, sizeof(uint64_t),
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              "vkGetQueryPoolResults");
        const uint64_t mask = gpu_.timestampValidBits >= 64 ? ~0ull : (1ull << gpu_.timestampValidBits) - 1;
        for (uint32_t i = 0; i < frameSteps_; ++i)
            steps_[i].totalMs += double((ticks[2 * i + 1] - ticks[2 * i]) & mask) * gpu_.timestampPeriodNs * 1e-6;
        ++frames_;
    }
    void print() const {
        for (uint32_t i = 0; i < stepCount_; ++i)
            std::printf("  step %-14s %8.3f ms (mean of %u frames)\n", steps_[i].name, steps_[i].totalMs / std::max(frames_, 1u), frames_);
    }

private:
    void begin(VkCommandBuffer cmd, const char* step) {
        if (frameSteps_ == kMaxSteps) fail("--time-steps: more than " + std::to_string(kMaxSteps) + " steps in a frame");
        steps_[frameSteps_].name = step;  // static strings, the same steps in the same order every frame
        stepCount_ = std::max(stepCount_, frameSteps_ + 1);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, pool_, 2 * frameSteps_);
    }
    void end(VkCommandBuffer cmd) { vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, pool_, 2 * frameSteps_++ + 1); }

    struct Step {
        const char* name = "";
        double totalMs = 0;
    };
    const Gpu& gpu_;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    Step steps_[kMaxSteps];
    uint32_t frameSteps_ = 0, stepCount_ = 0, frames_ = 0;
};

// A tuning table the user named: unlike TuningTable::load, a missing file is an error here.
std::shared_ptr<const mlplugin::TuningTable> readTuningTable(const std::string& path) {
    if (!std::filesystem::is_regular_file(path))
        fail("--tuning: no tuning table at '" + path + "' (write one on this GPU with: mlrun MODEL.onnx --tuning FILE)");
    auto table = std::make_shared<mlplugin::TuningTable>();
    if (mlplugin::Status s = table->load(path); !s) fail("--tuning: " + s.error().message);
    return table;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) fail(a + " needs a value");
            return argv[++i];
        };
        if (a == "--input") o.input = value();
        else if (a == "--out") o.out = value();
        else if (a == "--model") o.model = value();
        else if (a == "--validation") o.validation = true;
        else if (a == "--time-steps") o.timeSteps = true;
        else if (a == "--tuning") o.tuning = readTuningTable(value());
        else if (a == "--sharpness") o.sharpness = std::stof(value());
        else if (a == "--mode") {
            std::string m = value();
            if (m == "taau") o.mode = effects::UpscalerMode::Taau;
            else if (m == "ml-temporal") o.mode = effects::UpscalerMode::MlTemporal;
            else fail("--mode: '" + m + "' is not one of taau, ml-temporal");
        } else if (a == "--help" || a == "-h") {
            std::puts("usage: effect_sample --input DIR --out DIR [--mode taau|ml-temporal] [--model FILE] [--sharpness S] [--tuning FILE]\n"
                      "                     [--time-steps] [--validation]\n"
                      "  upscales a sequence written by upscale_demo --headless --mode taau --channels color,depth,motion --out DIR\n"
                      "  --model FILE   ml-temporal: ONNX model (default: upscaler_temporal.onnx of the model directory,\n"
                      "                 $VKML_MODEL_DIR or ../share/vkml/models beside this program)\n"
                      "  --tuning FILE  measured kernel choices for the network (mlrun MODEL.onnx --tuning FILE on this GPU)\n"
                      "  --time-steps   GPU time of each of the effect's steps (timestamps from its step callbacks)");
            std::exit(0);
        } else fail("unknown option '" + a + "' (see --help)");
    }
    if (o.input.empty() || o.out.empty()) fail("--input and --out are required (see --help)");
    if (o.mode == effects::UpscalerMode::MlTemporal && o.model.empty()) {
        demo::ModelLocation shipped = demo::findModel("upscaler_temporal.onnx", demo::ModelSearch::fromProcess());
        if (!shipped) fail("--mode ml-temporal without --model FILE: " + shipped.problem);
        o.model = shipped.path.string();
    }
    return o;
}

std::string numbered(const std::string& dir, const char* stem, size_t i, const char* ext) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%05zu.%s", stem, i, ext);
    return dir + "/" + name;
}

int run(const Options& o) {
    std::vector<FrameInfo> frames = readFrames(o.input + "/frames.json");
    const VkExtent2D render{frames[0].render[0], frames[0].render[1]}, display{frames[0].display[0], frames[0].display[1]};
    std::filesystem::create_directories(o.out);
    Gpu gpu(o.validation);

    effects::UpscalerDesc desc;
    desc.device.instance = gpu.instance;
    desc.device.physicalDevice = gpu.physical;
    desc.device.device = gpu.device;
    desc.device.queueFamilyIndex = gpu.family;
    desc.device.getInstanceProcAddr = vkGetInstanceProcAddr;
    gpu.support.describeEnabled(desc.device);
    desc.device.tuning = o.tuning;
    desc.device.primaryCommandBuffers = true;  // this sample records into primaries: the network runs as a bundle
    desc.maxRenderSize = render;
    desc.displaySize = display;
    desc.outputFormat = VK_FORMAT_R32G32B32A32_SFLOAT;
    desc.mode = o.mode;
    desc.modelPath = o.model;
    desc.sharpness = o.sharpness;
    desc.framesInFlight = 1;
    auto created = effects::Upscaler::create(desc);
    if (!created) fail(created.error().message);
    std::unique_ptr<effects::Upscaler> upscaler = std::move(*created);
    effects::EffectRequirements needs = upscaler->requirements();
    std::printf("upscaler %s: %ux%u -> %ux%u, %.1f MiB device memory, %u descriptor sets%s%s\n", effects::toString(o.mode), render.width,
                render.height, display.width, display.height, double(needs.deviceLocalBytes) / 1048576.0, needs.descriptorSets,
                upscaler->usesFp16() ? ", fp16 network" : "",
                upscaler->usesTensorCores() ? ", tensor cores" : "");

    Image color(gpu, VK_FORMAT_R32G32B32A32_SFLOAT, render, 4, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    Image depth(gpu, VK_FORMAT_D32_SFLOAT, render, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    Image motion(gpu, VK_FORMAT_R32G32_SFLOAT, render, 2, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    Image output(gpu, VK_FORMAT_R32G32B32A32_SFLOAT, display, 4, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    Buffer readback(gpu, VkDeviceSize(display.width) * display.height * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::optional<StepTimer> stepTimer;
    if (o.timeSteps) stepTimer.emplace(gpu);
    gpu.submit([&](VkCommandBuffer cmd) {
        barrier(cmd, output.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE, 0,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        if (effects::Status s = upscaler->recordInitialization(cmd); !s) fail(s.error().message);
    });

    for (size_t i = 0; i < frames.size(); ++i) {
        const FrameInfo& f = frames[i];
        if (f.render[0] != render.width || f.render[1] != render.height) fail("frames.json: the render size changes at frame " + std::to_string(i));
        color.upload(readNpy(numbered(o.input, "color", i, "npy")).data, 3);
        depth.upload(readNpy(numbered(o.input, "depth", i, "npy")).data, 1);
        motion.upload(readNpy(numbered(o.input, "motion", i, "npy")).data, 2);
        effects::UpscalerInputs in;
        in.color = {color.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, render, color.format};
        in.depth = {depth.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, render, depth.format};
        in.motion = {motion.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, render, motion.format};
        in.output = {output.view, VK_IMAGE_LAYOUT_GENERAL, display, output.format};
        in.renderSize = render;
        in.jitterX = f.jitter[0];
        in.jitterY = f.jitter[1];
        in.cameraNear = f.nearPlane;
        in.cameraFar = f.farPlane;
        in.cameraFovY = f.fovYDeg * 3.14159265f / 180.0f;
        in.frameTimeDeltaMs = f.frameTimeMs;
        in.reset = f.cut;
        if (stepTimer) in.steps = stepTimer->callbacks();
        gpu.submit([&](VkCommandBuffer cmd) {
            if (stepTimer) stepTimer->beginFrame(cmd);
            if (effects::Status s = upscaler->record(cmd, in); !s) fail(s.error().message);
            // The effect leaves its output written by compute shaders in GENERAL: copy it out.
            barrier(cmd, output.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageExtent = {display.width, display.height, 1};
            vkCmdCopyImageToBuffer(cmd, output.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
            barrier(cmd, output.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                    VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        });
        if (stepTimer) stepTimer->endFrame();
        const float* px = static_cast<const float*>(readback.mapped);
        writePng(numbered(o.out, "frame", i, "png"), std::vector<float>(px, px + size_t(display.width) * display.height * 4), display);
    }
    std::printf("upscaled %zu frame(s) into %s\n", frames.size(), o.out.c_str());
    if (stepTimer) stepTimer->print();
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(parse(argc, argv));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "effect_sample: error: %s\n", e.what());
        return 1;
    }
}
