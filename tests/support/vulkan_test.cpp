#include "vulkan_test.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace testsupport {
namespace {
std::atomic<uint64_t> g_messages{0};
}

engine::ContextDesc validatedContextDesc() {
    engine::ContextDesc desc;
    desc.applicationName = "vkml-tests";
    desc.validation = true;
    desc.synchronizationValidation = true;
    if (const char* idx = std::getenv("VKML_TEST_DEVICE")) desc.deviceIndex = uint32_t(std::atoi(idx));
    desc.onMessage = [](engine::MessageSeverity severity, const char* message) {
        if (severity < engine::MessageSeverity::Warning) return;
        g_messages.fetch_add(1);
        std::fprintf(stderr, "[validation] %s\n", message);
        ADD_FAILURE() << "Vulkan validation message: " << message;
    };
    return desc;
}

engine::Context& context() {
    static std::unique_ptr<engine::Context> ctx = std::make_unique<engine::Context>(validatedContextDesc());
    return *ctx;
}

uint64_t validationMessages() { return g_messages.load(); }

}  // namespace testsupport
