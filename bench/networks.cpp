#include "networks.h"

#include <cmath>
#include <stdexcept>

namespace bench {

using namespace mlplugin;

std::vector<float> detWeights(uint32_t seed, size_t count, float scale) {
    std::vector<float> w(count);
    for (size_t i = 0; i < count; ++i) {
        uint64_t x = (uint64_t(i) + uint64_t(seed) * 1000003ull) * 2654435761ull;
        double frac = double(x & 0xffffffffull) / 4294967296.0;
        w[i] = float((frac - 0.5) * 2.0 * scale);
    }
    return w;
}

namespace {

struct Builder {
    GraphBuilder g;
    DataType type;
    uint32_t seed = 1;

    Expr weights(const std::string& name, std::vector<uint32_t> sizes, uint32_t fanIn) {
        size_t n = 1;
        TensorDesc d;
        d.dataType = DataType::Float32;
        d.rank = uint32_t(sizes.size());
        for (size_t i = 0; i < sizes.size(); ++i) { d.sizes[i] = sizes[i]; n *= sizes[i]; }
        return g.constant(name, d, detWeights(seed++, n, 1.0f / std::sqrt(float(fanIn))));
    }
    Expr conv(Expr x, uint32_t cin, uint32_t cout, uint32_t k, const std::string& name) {
        Expr w = weights(name + ".weight", {cout, cin, k, k}, cin * k * k);
        Expr b = weights(name + ".bias", {cout}, cin * k * k);
        return conv2d(x, w, b, {.pad = k / 2, .name = name});
    }
    Expr prelu(Expr x, uint32_t channels, const std::string& name) {
        Expr slope = g.constant(name + ".slope", TensorDesc::make(DataType::Float32, {1, channels, 1, 1}), std::vector<float>(channels, 0.25f));
        return mlplugin::prelu(x, slope);
    }
    Network finish(std::string name, Expr out) {
        g.output(out);
        auto desc = g.finish();
        if (!desc) throw std::runtime_error(name + ": " + desc.error().message);
        Network n{std::move(name), std::move(*desc)};
        n.gflop = graphGflop(n.graph);
        n.outHeight = out.desc().sizes[2];
        n.outWidth = out.desc().sizes[3];
        return n;
    }
};

}  // namespace

Network espcn(DataType type, uint32_t width, uint32_t height) { return espcnScaled(type, width, height, 2); }

Network espcnScaled(DataType type, uint32_t width, uint32_t height, uint32_t scale) {
    Builder b{{}, type};
    Expr x = b.g.input("lowres", TensorDesc::make(type, {1, 3, height, width}));
    Expr y = tanh(b.conv(x, 3, 64, 5, "conv1"));
    y = tanh(b.conv(y, 64, 32, 3, "conv2"));
    y = depthToSpace(b.conv(y, 32, 3 * scale * scale, 3, "conv3"), scale);
    return b.finish("espcn_x" + std::to_string(scale), y);
}

Network fsrcnn(DataType type, uint32_t width, uint32_t height) {
    Builder b{{}, type};
    Expr x = b.g.input("lowres_y", TensorDesc::make(type, {1, 1, height, width}));
    Expr y = b.prelu(b.conv(x, 1, 56, 5, "feature"), 56, "feature");
    y = b.prelu(b.conv(y, 56, 12, 1, "shrink"), 12, "shrink");
    for (int i = 0; i < 4; ++i) y = b.prelu(b.conv(y, 12, 12, 3, "map" + std::to_string(i)), 12, "map" + std::to_string(i));
    y = b.prelu(b.conv(y, 12, 56, 1, "expand"), 56, "expand");
    Expr w = b.weights("deconv.weight", {56, 1, 9, 9}, 56 * 9 * 9 / 4);
    Expr bias = b.weights("deconv.bias", {1}, 56);
    y = convTranspose2d(y, w, bias, {.stride = 2, .pad = 4, .outputPadding = 1, .name = "deconv"});
    return b.finish("fsrcnn_x2", y);
}

Network srvggCompact(DataType type, uint32_t width, uint32_t height) {
    Network n = srvggVariant(type, width, height, 64, 16, 2);
    n.name = "srvgg_x2";
    return n;
}

Network srvggVariant(DataType type, uint32_t width, uint32_t height, uint32_t channels, uint32_t bodies, uint32_t scale) {
    Builder b{{}, type};
    Expr x = b.g.input("lowres", TensorDesc::make(type, {1, 3, height, width}));
    Expr y = b.prelu(b.conv(x, 3, channels, 3, "body0"), channels, "act0");
    for (uint32_t i = 1; i <= bodies; ++i)
        y = b.prelu(b.conv(y, channels, channels, 3, "body" + std::to_string(i)), channels, "act" + std::to_string(i));
    y = depthToSpace(b.conv(y, channels, 3 * scale * scale, 3, "last"), scale, DepthSpaceOrder::CRD);
    const std::string name = "srvgg_x" + std::to_string(scale) + "_c" + std::to_string(channels) + "n" + std::to_string(bodies);
    return b.finish(name, y + resize(x, float(scale), float(scale), ResampleMode::Nearest));
}

Network unetOidn(DataType type, uint32_t width, uint32_t height) {
    Network n = unetVariant(type, width, height, UnetWidths{}, "");
    n.name = "unet";
    return n;
}

Network unetVariant(DataType type, uint32_t width, uint32_t height, const UnetWidths& w, const std::string& tag) {
    Builder b{{}, type};
    auto conv = [&](Expr x, uint32_t cin, uint32_t cout, const std::string& name) { return relu(b.conv(x, cin, cout, 3, name)); };
    auto pool = [](Expr x) { return maxPool2d(x); };
    auto up = [](Expr x) { return resize(x, 2.0f, 2.0f, ResampleMode::Nearest); };
    const uint32_t* e = w.enc;
    const uint32_t* d = w.dec;
    Expr input = b.g.input("color_albedo_normal", TensorDesc::make(type, {1, w.input, height, width}));
    Expr x = conv(input, w.input, e[0], "enc_conv0");
    Expr pool1 = pool(conv(x, e[0], e[1], "enc_conv1"));
    Expr pool2 = pool(conv(pool1, e[1], e[2], "enc_conv2"));
    Expr pool3 = pool(conv(pool2, e[2], e[3], "enc_conv3"));
    x = pool(conv(pool3, e[3], e[4], "enc_conv4"));
    x = conv(conv(x, e[4], e[5], "enc_conv5a"), e[5], e[6], "enc_conv5b");
    x = conv(conv(concat({up(x), pool3}, 1), e[6] + e[3], d[0], "dec_conv4a"), d[0], d[1], "dec_conv4b");
    x = conv(conv(concat({up(x), pool2}, 1), d[1] + e[2], d[2], "dec_conv3a"), d[2], d[3], "dec_conv3b");
    x = conv(conv(concat({up(x), pool1}, 1), d[3] + e[1], d[4], "dec_conv2a"), d[4], d[5], "dec_conv2b");
    x = conv(conv(concat({up(x), input}, 1), d[5] + w.input, d[6], "dec_conv1a"), d[6], d[7], "dec_conv1b");
    return b.finish(tag.empty() ? "unet" : "unet_" + tag, b.conv(x, d[7], 3, 3, "dec_conv0"));
}

Network channelsLastIo(Network net) {
    GraphDesc& g = net.graph;
    for (const auto* ids : {&g.inputs, &g.outputs})
        for (ValueId v : *ids)
            if (Status s = g.setLayout(v, g.values[v].desc.channelsLast()); !s) throw std::runtime_error("channelsLastIo: " + s.error().message);
    net.name += " nhwc";
    return net;
}

Network singleConv(DataType type, uint32_t width, uint32_t height, uint32_t k, uint32_t cin, uint32_t cout) {
    Builder b{{}, type};
    Expr x = b.g.input("x", TensorDesc::make(type, {1, cin, height, width}));
    std::string name = "conv" + std::to_string(k) + "x" + std::to_string(k) + "_" + std::to_string(cin) + "to" + std::to_string(cout);
    return b.finish(name, b.conv(x, cin, cout, k, name));
}

Network singleConvActivation(DataType type, uint32_t width, uint32_t height, uint32_t k, uint32_t cin, uint32_t cout, Activation activation) {
    Builder b{{}, type};
    Expr x = b.g.input("x", TensorDesc::make(type, {1, cin, height, width}));
    std::string name = "conv" + std::to_string(k) + "x" + std::to_string(k) + "_" + toString(activation.type);
    return b.finish(name, mlplugin::activation(b.conv(x, cin, cout, k, name), activation));
}

Network depthToSpaceOp(DataType type, uint32_t width, uint32_t height, uint32_t channels, uint32_t block) {
    Builder b{{}, type};
    Expr x = b.g.input("x", TensorDesc::make(type, {1, channels, height, width}));
    return b.finish("depth_to_space", depthToSpace(x, block));
}

Network addOp(DataType type, uint32_t width, uint32_t height, uint32_t channels) {
    Builder b{{}, type};
    Expr x = b.g.input("x", TensorDesc::make(type, {1, channels, height, width}));
    Expr y = b.g.input("y", TensorDesc::make(type, {1, channels, height, width}));
    return b.finish("add", x + y);
}

Network preluOp(DataType type, uint32_t width, uint32_t height, uint32_t channels) {
    Builder b{{}, type};
    Expr x = b.g.input("x", TensorDesc::make(type, {1, channels, height, width}));
    return b.finish("prelu", b.prelu(x, channels, "prelu"));
}

Network resizeBilinearX2(DataType type, uint32_t width, uint32_t height, uint32_t channels) {
    Builder b{{}, type};
    Expr x = b.g.input("x", TensorDesc::make(type, {1, channels, height, width}));
    return b.finish("resize_bilinear_x2", resize(x, 2.0f, 2.0f));
}

Network transposedConv(DataType type, uint32_t width, uint32_t height, uint32_t cin, uint32_t cout, uint32_t k, uint32_t stride) {
    Builder b{{}, type};
    Expr x = b.g.input("x", TensorDesc::make(type, {1, cin, height, width}));
    Expr w = b.weights("w", {cin, cout, k, k}, cin * k * k / (stride * stride));
    Expr bias = b.weights("b", {cout}, cin);
    return b.finish("conv_transpose", convTranspose2d(x, w, bias, {.stride = stride, .pad = (k - 1) / 2, .outputPadding = stride - 1}));
}

double graphGflop(const GraphDesc& g) {
    double flop = 0;
    for (const GraphNode& n : g.nodes) {
        if (const auto* c = std::get_if<ConvolutionDesc>(&n.op)) {
            double k = double(c->filter.sizes[2]) * c->filter.sizes[3];
            if (!c->transposed)
                flop += 2.0 * double(c->output.elementCount()) * c->filter.sizes[1] * k;
            else
                flop += 2.0 * double(c->input.elementCount()) * c->filter.sizes[1] * k;
        } else if (const auto* m = std::get_if<GemmDesc>(&n.op)) {
            uint32_t kdim = m->transposeA ? m->a.sizes[m->a.rank - 2] : m->a.sizes[m->a.rank - 1];
            flop += 2.0 * double(m->output.elementCount()) * kdim;
        }
    }
    return flop / 1e9;
}

}  // namespace bench
