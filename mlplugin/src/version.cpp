#include "mlplugin/version.h"

namespace mlplugin {

// Compiled into the library: the version it was built as, whatever headers the caller used.
Version version() { return headerVersion(); }

#define MLPLUGIN_STRINGIFY2(x) #x
#define MLPLUGIN_STRINGIFY(x) MLPLUGIN_STRINGIFY2(x)
const char* versionString() {
    return MLPLUGIN_STRINGIFY(MLPLUGIN_VERSION_MAJOR) "." MLPLUGIN_STRINGIFY(MLPLUGIN_VERSION_MINOR) "." MLPLUGIN_STRINGIFY(MLPLUGIN_VERSION_PATCH);
}

}  // namespace mlplugin
