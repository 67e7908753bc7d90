// Fuzz target: .npy bytes -> npy::parse (mlplugin/src/npy, what mlrun reads its inputs with).
// Beyond not crashing, an accepted array must hold exactly as many values as its shape says:
// mlrun builds tensors from the shape and reads `values`.
#include "npy.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto array = npy::parse(std::span<const uint8_t>(data, size), "fuzz.npy");
    if (!array) {
        if (array.error().message.empty()) std::abort();
        return 0;
    }
    uint64_t count = 1;
    for (uint64_t d : array->shape) {
        if (d != 0 && count > UINT64_MAX / d) {
            std::fprintf(stderr, "fuzz check failed: accepted a shape whose element count overflows\n");
            std::abort();
        }
        count *= d;
    }
    if (count != array->values.size()) {
        std::fprintf(stderr, "fuzz check failed: shape holds %llu elements, values %zu\n", (unsigned long long)count, array->values.size());
        std::abort();
    }
    return 0;
}
