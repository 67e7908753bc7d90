// npy_compare GOT.npy WANT.npy TOLERANCE: exits 0 when the shapes match and the relative L2
// error ||got - want|| / ||want|| is below TOLERANCE (NaN fails). For mlrun's ctests.
#include "npy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: npy_compare GOT.npy WANT.npy TOLERANCE\n");
        return 2;
    }
    auto got = npy::read(argv[1]);
    auto want = npy::read(argv[2]);
    if (!got || !want) {
        std::fprintf(stderr, "npy_compare: %s\n", (!got ? got.error() : want.error()).message.c_str());
        return 1;
    }
    if (got->shape != want->shape) {
        std::fprintf(stderr, "npy_compare: shapes differ\n");
        return 1;
    }
    double num = 0, den = 0;
    for (size_t i = 0; i < got->values.size(); ++i) {
        double d = double(got->values[i]) - want->values[i];
        num += d * d;
        den += double(want->values[i]) * want->values[i];
    }
    double rel = std::sqrt(num) / std::max(std::sqrt(den), 1e-30);
    double tolerance = std::atof(argv[3]);
    std::printf("relative L2 %.3g (tolerance %.3g)\n", rel, tolerance);
    return rel < tolerance ? 0 : 1;  // NaN compares false: fails
}
