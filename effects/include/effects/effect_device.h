#pragma once
/// \file
/// What every effect (effects/upscaler.h, effects/denoiser.h) is created from and records with.
///
/// Effects follow the FidelityFX / XeSS pattern: the application creates an effect on its own
/// Vulkan device, asks what memory and descriptors it needs, records its one-time initialization
/// (weights) once, and then records it every frame into its own command buffers with its own
/// images. Effects never create queues, never submit and never wait; they load their Vulkan
/// functions through the application's vkGetInstanceProcAddr (they do not link the loader).
///
/// Threading: an effect object is externally synchronized (one thread at a time per object);
/// different effect objects may be used from different threads.
///
/// Errors: every fallible call returns mlplugin::Result / mlplugin::Status carrying an error code
/// (InvalidArgument, InvalidModel, Unsupported, OutOfMemory, DeviceLost, VulkanError, IoError) and
/// a sentence naming the image, field and numbers involved.
#include "effects/export.h"

#include "mlplugin/result.h"
#include "mlplugin/tuning.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

EFFECTS_API_BEGIN
namespace effects {

using mlplugin::Error;
using mlplugin::ErrorCode;
using mlplugin::Result;
using mlplugin::Status;

/// The application's device and the features it enabled on it (the effect cannot query them).
struct EffectDevice {
    VkInstance instance = VK_NULL_HANDLE;  ///< the application's instance
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;  ///< the GPU `device` was created on
    VkDevice device = VK_NULL_HANDLE;  ///< the application's device; it must outlive the effect
    uint32_t queueFamilyIndex = 0;  ///< the family whose command buffers the effect records into (compute-capable)
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;  ///< required
    /// Needed by the ML modes (the network runs through mlplugin): storage-buffer arrays indexed
    /// dynamically. fp16 storage + arithmetic make the network run in fp16 (the default where
    /// present); VK_NV_cooperative_matrix lets it use tensor cores. mlplugin/device_support.h says
    /// what the physical device offers, builds the feature chain that enables it, and fills these
    /// members (DeviceSupport::describeEnabled).
    bool shaderStorageBufferArrayDynamicIndexingEnabled = false;
    bool storageBuffer16BitAccessEnabled = false;  ///< storageBuffer16BitAccess was enabled
    bool shaderFloat16Enabled = false;  ///< shaderFloat16 was enabled
    /// VK_NV_cooperative_matrix, its feature and the Vulkan 1.2 feature vulkanMemoryModel were enabled
    bool cooperativeMatrixNVEnabled = false;
    /// Optional: pipelines are created through this cache (no shader-compile stalls on a warm start).
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;
    /// Validate every image against the declared formats and sizes with named errors on each
    /// record() (the checks that keep the GPU safe run regardless).
    bool debugChecks = false;
    /// Every command buffer handed to record() is a primary one. The ML modes then record their
    /// network once, at creation, into a secondary command buffer of their own
    /// (mlplugin::CommandBundle) and execute it with one vkCmdExecuteCommands per frame instead
    /// of recording its dispatches each time (bench/RESULTS.md, "Recording"). Leave it false when
    /// record() may get a secondary command buffer (a secondary cannot execute another).
    bool primaryCommandBuffers = false;
    /// Optional: measured kernel choices for the ML modes' network (mlplugin/tuning.h), written
    /// on this GPU by `mlrun MODEL.onnx --tuning FILE` or bridge::tuneGraph and read with
    /// TuningTable::load. Null: the plugin's fixed heuristics. Entries of other GPUs or drivers
    /// are never used (their keys name both); every choice computes the same function, within
    /// the precision's tolerance. Read at creation; the effect keeps the table alive.
    std::shared_ptr<const mlplugin::TuningTable> tuning;
};

/// An image the application hands to record(): a view of a 2D colour (or depth) image, the layout
/// it is in while the recorded commands execute, and the extent and format of the view (used to
/// validate the inputs and to address them; the effect never reads outside `extent`).
struct ImageInput {
    VkImageView view = VK_NULL_HANDLE;  ///< VK_NULL_HANDLE: absent (only for optional inputs)
    VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;  ///< the image's layout while the recorded commands execute
    VkExtent2D extent{};  ///< size of the view
    VkFormat format = VK_FORMAT_UNDEFINED;  ///< format of the view
};

/// What an effect allocates and binds for itself, for the application's memory budget. The
/// effect owns these allocations (vkAllocateMemory on the application's device).
struct EffectRequirements {
    VkDeviceSize deviceLocalBytes = 0;   ///< history, internal images, network weights and scratch
    VkDeviceSize hostVisibleBytes = 0;   ///< the weight staging buffer, alive until destruction
    uint32_t descriptorSets = 0;         ///< in the effect's own descriptor pool
    uint32_t descriptors = 0;            ///< all types together
    uint32_t allocations = 0;            ///< vkAllocateMemory calls
};

}  // namespace effects
EFFECTS_API_END
