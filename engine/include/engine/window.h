#pragma once
/// \file
/// A GLFW window with a Vulkan surface. Only windowed apps include this; headless code needs
/// neither GLFW nor a display.
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

struct GLFWwindow;

ENGINE_API_BEGIN
namespace engine {

/// A VkSurfaceKHR owned by the app; destroy it before the instance (declare it after the Context).
class Surface {
public:
    /// No surface.
    Surface() = default;
    /// Takes ownership of `surface`.
    Surface(VkInstance instance, VkSurfaceKHR surface) : instance_(instance), surface_(surface) {}
    ~Surface();
    /// Takes over `other`'s surface.
    Surface(Surface&& other) noexcept;
    /// Destroys this surface and takes over `other`'s.
    Surface& operator=(Surface&& other) noexcept;
    Surface(const Surface&) = delete;
    Surface& operator=(const Surface&) = delete;
    /// The surface.
    VkSurfaceKHR handle() const { return surface_; }

private:
    VkInstance instance_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
};

/// A GLFW window for a Vulkan surface (no OpenGL context); keys and resizes are collected for
/// the frame loop.
class Window {
public:
    /// Throws engine::Error when GLFW cannot initialise (no display: run with --headless or
    /// under xvfb-run) or has no Vulkan support.
    Window(const std::string& title, uint32_t width, uint32_t height);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    /// Instance extensions the surface needs (pass to ContextDesc::instanceExtensions).
    static std::vector<const char*> requiredInstanceExtensions();

    /// Creates a surface for this window once the instance exists.
    Surface createSurface(VkInstance instance);

    /// Processes window events (call once per frame).
    void pollEvents();
    /// Blocks while the window is minimised (framebuffer 0x0) so no zero-sized swapchain is made.
    void waitWhileMinimized();
    /// True when the user closed the window (or requestClose was called).
    bool shouldClose() const;
    /// Makes shouldClose() true.
    void requestClose();
    /// Resizes the window (the framebuffer follows; takeResized reports it).
    void setSize(uint32_t width, uint32_t height);
    /// Framebuffer size in pixels.
    VkExtent2D framebufferExtent() const;
    /// True once after the framebuffer changed size.
    bool takeResized();
    /// Keys pressed since the last call, as characters: 'A'..'Z', '0'..'9', 9 (Tab),
    /// 27 (Escape); other keys are dropped.
    std::string takeKeys();
    /// Cursor position in framebuffer pixels; false when the cursor is outside the window.
    bool cursorPosition(uint32_t& x, uint32_t& y) const;

    /// The GLFW window.
    GLFWwindow* handle() const { return window_; }

private:
    GLFWwindow* window_ = nullptr;
    bool resized_ = false;
    std::string keys_;
};

}  // namespace engine
ENGINE_API_END
