// stb_image and stb_image_write (Debian's libstb-dev), compiled once, alone in this file, with
// signed overflow defined as wrapping (-fwrapv, every build) and exempt from UBSan's shift and
// signed-overflow checks in sanitizer builds (engine/CMakeLists.txt). On a corrupt JPEG
// entropy-coded stream stb's bit reader lets its bit count go negative and shifts by 32 or more
// (found by the long fuzz_image_io run), and its DC predictor, which adds every block's
// difference unchecked, overflows int when multiplied by the quantiser (found by CI's 60 s
// fuzz_image_io run; fuzz/corpus/image_io/regression-jpeg-dc-predictor-overflow). Both give
// garbage pixels for a corrupt file, caught by no check of ours, and every other check (bounds,
// ASan) still covers stb here. The Huffman-table and PNG-chunk checks that stop stb's memory
// errors are in image_io.cpp.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG  // glTF base colour textures
// stb_image's asserts check decoder state that a corrupt file can break (a JPEG Huffman code
// that does not match its table, found by fuzz_image_io); its bounds checks come before them, and
// release builds compile them out, leaving garbage pixels or an error for a corrupt file. The
// sanitizer and fuzz builds keep asserts on for our code (-UNDEBUG), so stb's are turned off here
// explicitly: all builds decode alike, and memory errors in stb still stop ASan/UBSan.
#define STBI_ASSERT(x) ((void)0)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb_image.h>
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
