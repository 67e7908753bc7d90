// The demo view pass's push constants, shared by view.comp and demos/upscale_demo/view_pass.cpp.
#ifndef DEMO_VIEW_SHARED_H
#define DEMO_VIEW_SHARED_H

#ifdef __cplusplus
#include <cstdint>
namespace demo::gpu {
using uint = uint32_t;
#define DEMO_CONST inline constexpr
#else
#define DEMO_CONST const
#endif

DEMO_CONST uint VIEW_SPLIT = 1u;       // right of splitX: side B
DEMO_CONST uint VIEW_B_BICUBIC = 2u;   // side B is Catmull-Rom (else bilinear)
DEMO_CONST uint VIEW_ZOOM = 4u;        // magnified inset around (zoomX, zoomY)
DEMO_CONST uint VIEW_OVERLAY = 8u;     // text box at the top left
DEMO_CONST uint VIEW_FONT_WORDS = 190u;  // 95 glyphs x 2 words at the start of the text buffer

struct ViewPush {
    uint outWidth;
    uint outHeight;
    uint lowWidth;   // render resolution (side B's source)
    uint lowHeight;
    uint flags;      // VIEW_*
    int splitX;
    uint zoomX;
    uint zoomY;
    int zoomRadius;  // half the lens size, pixels
    uint zoomFactor;
    uint textColumns;
    uint textRows;
    int textScale;   // font pixels per glyph pixel
    uint pad0;
    uint pad1;
    uint pad2;
};

#ifdef __cplusplus
}  // namespace demo::gpu
#undef DEMO_CONST
#endif
#endif
