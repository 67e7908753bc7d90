#pragma once
// Command-line helpers shared by the benchmark tools.
#include <cstdint>
#include <cstdlib>

namespace bench {

// A count in [1, 100000]: false for an empty string, trailing text, 0 or anything larger.
inline bool parseCount(const char* s, uint32_t& out) {
    char* end = nullptr;
    unsigned long v = std::strtoul(s, &end, 10);
    if (!s[0] || *end || v == 0 || v > 100000) return false;
    out = uint32_t(v);
    return true;
}

}  // namespace bench
