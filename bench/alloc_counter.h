#pragma once
// Counts heap allocations made through the global operator new (every form) in this process.
// alloc_counter.cpp replaces the global operators; link it into a binary (add the source) to
// count. Driver allocations made with malloc (Mesa, most ICDs) are not counted: the count is
// what our C++ code and the C++ libraries it calls allocate.
#include <cstdint>

namespace bench {

uint64_t heapAllocations();  // operator new calls since start (all threads)

}  // namespace bench
