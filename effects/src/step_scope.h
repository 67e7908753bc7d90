#pragma once
// StepScope: brackets one step of an effect's record() with the application's StepCallbacks
// (effects/step_callbacks.h), `end` included when the step fails and record() returns early.
#include "effects/step_callbacks.h"

namespace effects::detail {

class StepScope {
public:
    StepScope(const StepCallbacks& callbacks, VkCommandBuffer cmd, const char* step) : callbacks_(callbacks), cmd_(cmd) {
        if (callbacks_.begin) callbacks_.begin(callbacks_.user, cmd_, step);
    }
    ~StepScope() {
        if (callbacks_.end) callbacks_.end(callbacks_.user, cmd_);
    }
    StepScope(const StepScope&) = delete;
    StepScope& operator=(const StepScope&) = delete;

private:
    const StepCallbacks& callbacks_;
    VkCommandBuffer cmd_;
};

}  // namespace effects::detail
