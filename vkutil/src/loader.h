#pragma once
// Internal: the loader's exported entry points as a function table, so the loader-bound
// overloads are the templates called with it (one implementation of each helper).
#include "vkutil/function_table.h"

#include <vulkan/vulkan.h>

namespace vkutil::detail {

struct Loader {
#define VKUTIL_LOADER_ENTRY(name) PFN_##name name = ::name;
    VKUTIL_DEVICE_FUNCTIONS(VKUTIL_LOADER_ENTRY)
#undef VKUTIL_LOADER_ENTRY
};

inline const Loader kLoader;

}  // namespace vkutil::detail
