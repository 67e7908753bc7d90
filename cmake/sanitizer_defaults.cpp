// Linked into every executable of a VKML_SANITIZE build (cmake/Sanitizers.cmake): the sanitizer
// runtimes call these hooks at start-up, so tests, tools and fuzz targets behave the same under
// ctest and by hand. Environment variables (ASAN_OPTIONS, ...) still override them.
//
// Suppressions cover third-party code only, each with the reason; a report in our code is a bug
// to fix, never to suppress.

extern "C" {

__attribute__((used, visibility("default"))) const char* __asan_default_options() {
    // Leak checking at exit is the point; initialization-order checks catch static-init bugs.
    return "detect_leaks=1:check_initialization_order=1:strict_init_order=1";
}

__attribute__((used, visibility("default"))) const char* __ubsan_default_options() {
    return "print_stacktrace=1";
}

__attribute__((used, visibility("default"))) const char* __lsan_default_suppressions() {
    // The Khronos validation layer (1.3.239) leaves blocks of its state tracking behind after
    // vkDestroyInstance, only reachable from each other (all "indirect" leaks, from the first
    // device on; the count grows with the objects a test creates and destroys). Ours are not among
    // them: an object we failed to destroy is a validation error at vkDestroyDevice, which fails
    // the test anyway.
    return "leak:libVkLayer_khronos_validation.so\n";
}

__attribute__((used, visibility("default"))) const char* __tsan_default_options() {
    return "second_deadlock_stack=1";
}

__attribute__((used, visibility("default"))) const char* __tsan_default_suppressions() {
    // The validation layer's own worker thread unlocks a lock of its state tracking while the
    // layer tears that state down at device destruction (both stacks inside
    // libVkLayer_khronos_validation.so, after every thread of ours was joined).
    // The layer also takes three of its own locks in an order that makes a cycle across a
    // recording thread and the instance's destruction at exit (every acquisition in the report is
    // inside the layer; seen once in a CI run of the threading tests, 2026-11-29). TSan calls it a
    // potential deadlock; our code holds none of those locks.
    return "race:libVkLayer_khronos_validation.so\n"
           "deadlock:libVkLayer_khronos_validation.so\n";
}

#if defined(__SANITIZE_ADDRESS__)
#define VKML_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VKML_ASAN 1
#endif
#endif

#if defined(VKML_ASAN)
// Shared libraries stay loaded until exit, where LeakSanitizer runs. The Vulkan loader unloads
// the driver at vkDestroyInstance; lavapipe allocates a 128-byte block once (under pthread_once,
// during vkEnumeratePhysicalDevices) and keeps it in a static, so after the unload the block was
// unreachable and reported as a leak of an unnamed module, which no suppression can match.
// With the driver still mapped, its statics keep such blocks reachable, and any real leak in
// driver or layer code would be reported with module names. This definition takes the place of
// libc's for every library of the process (executables are searched first).
int dlclose(void*) { return 0; }
#endif

}  // extern "C"
