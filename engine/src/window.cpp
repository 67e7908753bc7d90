#include "engine/window.h"

#include "engine/error.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <utility>

namespace engine {
namespace {

std::string lastGlfwError() {
    const char* description = nullptr;
    int code = glfwGetError(&description);
    return code == GLFW_NO_ERROR ? std::string("unknown error") : std::string(description ? description : "no description");
}

// GLFW is process-global: initialise on first use, terminate with the last window.
int g_windows = 0;

void initGlfw() {
    if (g_windows++ > 0) return;
    if (!glfwInit()) {
        --g_windows;
        throw Error(ErrorCode::Unsupported, "cannot open a window: GLFW failed to initialise (" + lastGlfwError() +
                    "); is a display available? Use --headless, or run under xvfb-run");
    }
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        --g_windows;
        throw Error(ErrorCode::Unsupported, "cannot open a window: GLFW finds no Vulkan loader/ICD for presenting");
    }
}

void releaseGlfw() {
    if (--g_windows == 0) glfwTerminate();
}

}  // namespace

std::vector<const char*> Window::requiredInstanceExtensions() {
    initGlfw();
    uint32_t n = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&n);
    std::vector<const char*> out(names, names + n);
    releaseGlfw();  // the strings are static in GLFW and stay valid after terminate
    return out;
}

Window::Window(const std::string& title, uint32_t width, uint32_t height) {
    initGlfw();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window_ = glfwCreateWindow(int(width), int(height), title.c_str(), nullptr, nullptr);
    if (!window_) {
        std::string why = lastGlfwError();
        releaseGlfw();
        throw Error(ErrorCode::Unsupported, "cannot create a " + std::to_string(width) + "x" + std::to_string(height) + " window: " + why);
    }
    glfwSetWindowUserPointer(window_, this);
    glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) {
        static_cast<Window*>(glfwGetWindowUserPointer(w))->resized_ = true;
    });
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
        if (action != GLFW_PRESS) return;
        char c = (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) || (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) ? char(key)
                 : key == GLFW_KEY_TAB                                                             ? '\t'
                 : key == GLFW_KEY_ESCAPE                                                          ? char(27)
                                                                                                   : 0;
        if (c) static_cast<Window*>(glfwGetWindowUserPointer(w))->keys_ += c;
    });
}

Surface::~Surface() {
    if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
}

Surface::Surface(Surface&& other) noexcept : instance_(other.instance_), surface_(other.surface_) {
    other.surface_ = VK_NULL_HANDLE;
}

Surface& Surface::operator=(Surface&& other) noexcept {
    if (this != &other) {
        if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
        instance_ = other.instance_;
        surface_ = other.surface_;
        other.surface_ = VK_NULL_HANDLE;
    }
    return *this;
}

Window::~Window() {
    if (window_) glfwDestroyWindow(window_);
    releaseGlfw();
}

Surface Window::createSurface(VkInstance instance) {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkResult r = glfwCreateWindowSurface(instance, window_, nullptr, &surface);
    if (r != VK_SUCCESS) throw Error("cannot create a Vulkan surface for the window: " + lastGlfwError(), r);
    return Surface(instance, surface);
}

void Window::pollEvents() { glfwPollEvents(); }

void Window::waitWhileMinimized() {
    for (VkExtent2D e = framebufferExtent(); (e.width == 0 || e.height == 0) && !shouldClose(); e = framebufferExtent())
        glfwWaitEvents();
}

bool Window::shouldClose() const { return glfwWindowShouldClose(window_); }
void Window::requestClose() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::setSize(uint32_t width, uint32_t height) { glfwSetWindowSize(window_, int(width), int(height)); }

std::string Window::takeKeys() { return std::exchange(keys_, {}); }

bool Window::cursorPosition(uint32_t& x, uint32_t& y) const {
    double cx = 0, cy = 0;
    glfwGetCursorPos(window_, &cx, &cy);
    int ww = 0, wh = 0;
    glfwGetWindowSize(window_, &ww, &wh);
    VkExtent2D fb = framebufferExtent();
    if (ww <= 0 || wh <= 0 || cx < 0 || cy < 0 || cx >= ww || cy >= wh) return false;
    x = uint32_t(cx * fb.width / ww);  // window coordinates -> pixels (HiDPI)
    y = uint32_t(cy * fb.height / wh);
    return true;
}

VkExtent2D Window::framebufferExtent() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    return {uint32_t(w), uint32_t(h)};
}

bool Window::takeResized() {
    bool r = resized_;
    resized_ = false;
    return r;
}

}  // namespace engine
