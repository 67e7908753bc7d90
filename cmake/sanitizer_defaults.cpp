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
    return "";
}

__attribute__((used, visibility("default"))) const char* __tsan_default_options() {
    return "second_deadlock_stack=1";
}

__attribute__((used, visibility("default"))) const char* __tsan_default_suppressions() {
    return "";
}

}  // extern "C"
