#version 460
// Deferred lighting: a sun and point lights (GGX specular + Lambert), shadows traced against
// the scene's SDF, sky where nothing was drawn, ACES tonemap. Writes display-linear colour
// (0..1, before sRGB encoding) and the sun's visibility (the denoiser's noisy/reference signal).
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D gDepth;
layout(set = 0, binding = 1) uniform sampler2D gAlbedo;
layout(set = 0, binding = 2) uniform sampler2D gNormal;
layout(set = 0, binding = 3, rgba16f) uniform writeonly image2D outColor;
layout(set = 0, binding = 4, r16f) uniform writeonly image2D outSunVisibility;
layout(set = 0, binding = 5, std430) readonly buffer Scene { SceneData scene; };

layout(push_constant) uniform Push { LightingPush pc; };

#include "sdf.glsl"

const float PI = 3.14159265359;
const int MAX_STEPS = 64;
const float MAX_DISTANCE = 40.0;

// Primitives whose bounding sphere comes within `margin` of the segment origin + dir * [0, maxT]
// (bit i of the 64-bit mask = primitive i). Marching only those keeps the per-step cost at the
// two or three primitives near the ray instead of the whole scene.
uvec2 candidates(vec3 origin, vec3 dir, float maxT, float margin) {
    uvec2 mask = uvec2(0u);
    uint n = uint(scene.counts.y);
    for (uint i = 0u; i < n; ++i) {
        vec4 bounds = scene.primitives[i].bounds;
        vec3 oc = bounds.xyz - origin;
        float t = clamp(dot(oc, dir), 0.0, maxT);
        if (length(oc - dir * t) < bounds.w + margin) mask[i >> 5u] |= 1u << (i & 31u);
    }
    return mask;
}

float sceneDistance(vec3 p, uvec2 mask) {
    float d = 1e9;
    for (uint word = 0u; word < 2u; ++word) {
        for (uint bits = mask[word]; bits != 0u; bits &= bits - 1u) {
            uint i = word * 32u + uint(findLSB(bits));
            d = min(d, sdPrimitive(scene.primitives[i], p));
        }
    }
    return d;
}

// Distance along `dir` after which the ray is above every occluder (scene.counts.w is the top
// of the scene's bounding box): shadow rays towards high lights stop after a few steps.
float exitDistance(vec3 origin, vec3 dir, float maxT) {
    float top = scene.counts.w;
    if (origin.y > top && dir.y >= 0.0) return 0.0;
    return dir.y > 1e-4 ? min(maxT, (top - origin.y) / dir.y) : maxT;
}

// Penumbra estimate from the closest miss along the ray (one ray, deterministic). Primitives
// farther than maxT / k from the ray cannot lower the estimate below 1, so they are culled.
float softShadow(vec3 origin, vec3 dir, float maxT, float k) {
    maxT = exitDistance(origin, dir, maxT);
    uvec2 mask = candidates(origin, dir, maxT, maxT / k);
    if (mask == uvec2(0u)) return 1.0;
    float result = 1.0;
    float t = 0.02;
    for (int i = 0; i < MAX_STEPS && t < maxT; ++i) {
        float d = sceneDistance(origin + dir * t, mask);
        if (d < 0.0005) return 0.0;
        result = min(result, k * d / t);
        t += clamp(d, 0.01, 1.0);
    }
    return smoothstep(0.0, 1.0, result);
}

float hardShadow(vec3 origin, vec3 dir, float maxT) {
    maxT = exitDistance(origin, dir, maxT);
    uvec2 mask = candidates(origin, dir, maxT, 0.0);
    float t = 0.02;
    for (int i = 0; i < MAX_STEPS && t < maxT && mask != uvec2(0u); ++i) {
        float d = sceneDistance(origin + dir * t, mask);
        if (d < 0.0005) return 0.0;
        t += max(d, 0.002);
    }
    return 1.0;
}

uint hash(uint x) {
    x ^= x >> 16; x *= 0x7feb352du;
    x ^= x >> 15; x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
float random01(inout uint state) {
    state = hash(state);
    return float(state >> 8) * (1.0 / 16777216.0);
}

// Sun visibility: the sun is a disc of angular radius `angle` around `dir`.
float sunVisibility(vec3 origin, vec3 dir, float angle, uvec2 pixel) {
    if (pc.shadowMode == SHADOW_OFF) return 1.0;
    if (pc.shadowMode == SHADOW_ANALYTIC) return softShadow(origin, dir, MAX_DISTANCE, 1.0 / angle);
    vec3 helper = abs(dir.y) < 0.9 ? vec3(0, 1, 0) : vec3(1, 0, 0);
    vec3 t = normalize(cross(dir, helper)), b = cross(dir, t);
    uint state = hash(pixel.x * 1973u + pixel.y * 9277u + pc.frameSeed * 26699u);
    float sum = 0.0;
    uint traced = 0u;
    for (uint s = 0u; s < pc.shadowSamples; ++s) {
        float r = angle * sqrt(random01(state)), phi = 2.0 * PI * random01(state);
        vec3 sampleDir = normalize(dir + r * (cos(phi) * t + sin(phi) * b));
        sum += hardShadow(origin, sampleDir, MAX_DISTANCE);
        ++traced;
    }
    // Average over the rays actually traced: llvmpipe ends all loops of an invocation after
    // 65535 iterations in total (its runaway-loop guard), which cuts long ray loops short;
    // dividing by shadowSamples then darkened converged references.
    return sum / float(max(traced, 1u));
}

vec3 brdf(vec3 n, vec3 v, vec3 l, vec3 albedo, float roughness, float metalness) {
    vec3 h = normalize(v + l);
    float nl = max(dot(n, l), 0.0), nv = max(dot(n, v), 1e-4), nh = max(dot(n, h), 0.0), vh = max(dot(v, h), 0.0);
    float a2 = roughness * roughness * roughness * roughness;
    float denom = nh * nh * (a2 - 1.0) + 1.0;
    float D = a2 / (PI * denom * denom);
    float k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
    float G = nv / (nv * (1.0 - k) + k) * nl / (nl * (1.0 - k) + k);
    vec3 F0 = mix(vec3(0.04), albedo, metalness);
    vec3 F = F0 + (1.0 - F0) * pow(1.0 - vh, 5.0);
    vec3 specular = D * G * F / (4.0 * nv * max(nl, 1e-4) + 1e-4);
    vec3 diffuse = (1.0 - F) * (1.0 - metalness) * albedo / PI;
    return (diffuse + specular) * nl;
}

vec3 skyGradient(vec3 dir) {
    return mix(scene.skyHorizon.rgb, scene.skyZenith.rgb, clamp(dir.y * 1.5, 0.0, 1.0));
}

vec3 sky(vec3 dir) {
    vec3 sun = scene.lights[0].position.xyz;
    return skyGradient(dir) + vec3(4.0, 3.6, 3.0) * smoothstep(cos(scene.lights[0].color.w), 1.0, dot(dir, sun));
}

// Environment reflection without tracing: the sky gradient above the horizon, a dim ground
// below. Gives metals their look (the sun's highlight itself comes from the BRDF). The sharp
// reflection fades with roughness; a rough metal reflects its surroundings diffusely instead
// (the ambient light tinted by F0, from roughness 0.4 up), else it would be black away from the
// sun: glTF's default material is metallic 1, roughness 1, and many files keep both factors at 1
// next to a metallic-roughness texture. The procedural scene's metals (roughness 0.18, and 0.35
// for wires) are unchanged.
vec3 environmentSpecular(vec3 n, vec3 v, vec3 albedo, float roughness, float metalness) {
    vec3 r = reflect(-v, n);
    vec3 env = r.y >= 0.0 ? skyGradient(r) : 0.35 * scene.skyHorizon.rgb;
    vec3 F0 = mix(vec3(0.04), albedo, metalness);
    float fresnel = pow(1.0 - max(dot(n, v), 0.0), 5.0);
    vec3 F = F0 + (max(vec3(1.0 - roughness), F0) - F0) * fresnel;
    float smoothness = 1.0 - roughness;
    vec3 diffuseReflection = scene.ambient.rgb * F0 * metalness * (0.6 + 0.4 * n.y) * smoothstep(0.4, 1.0, roughness);
    return env * F * smoothness * smoothness + diffuseReflection;
}

vec3 acesTonemap(vec3 x) {  // Narkowicz's fit
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (pixel.x >= pc.width || pixel.y >= pc.height) return;
    ivec2 ip = ivec2(pixel);
    float depth = texelFetch(gDepth, ip, 0).r;
    vec4 albedoRough = texelFetch(gAlbedo, ip, 0);
    vec2 ndc = (vec2(pixel) + 0.5) / vec2(pc.width, pc.height) * 2.0 - 1.0;
    vec4 farPoint = pc.invViewProj * vec4(ndc, 1.0, 1.0);
    vec3 viewDir = normalize(farPoint.xyz / farPoint.w - pc.cameraPosition.xyz);

    if (pc.lightingEnabled == 0u) {  // unlit: what the G-buffer holds, for tests
        imageStore(outColor, ip, vec4(depth < 1.0 ? albedoRough.rgb : vec3(0), 1.0));
        imageStore(outSunVisibility, ip, vec4(1.0));
        return;
    }
    if (depth >= 1.0) {
        imageStore(outColor, ip, vec4(acesTonemap(sky(viewDir)), 1.0));
        imageStore(outSunVisibility, ip, vec4(1.0));
        return;
    }
    vec4 world = pc.invViewProj * vec4(ndc, depth, 1.0);
    vec3 p = world.xyz / world.w;
    vec4 normalMetal = texelFetch(gNormal, ip, 0);
    vec3 n = normalize(normalMetal.xyz);
    vec3 v = -viewDir;
    if (dot(n, v) < 0.0) n = -n;  // back faces of open cylinders
    vec3 albedo = albedoRough.rgb;
    float roughness = max(albedoRough.a, 0.05);
    vec3 origin = p + n * 0.02;

    float metalness = normalMetal.w;
    vec3 color = scene.ambient.rgb * albedo * (1.0 - metalness) * (0.6 + 0.4 * n.y) +
                 environmentSpecular(n, v, albedo, roughness, metalness);
    float visibility = 1.0;
    uint lights = uint(scene.counts.x);
    int shadowedPoint = int(scene.counts.z);
    for (uint i = 0u; i < lights; ++i) {
        Light light = scene.lights[i];
        vec3 l;
        vec3 radiance = light.color.rgb;
        float shadow = 1.0;
        if (uint(light.position.w) == LIGHT_DIRECTIONAL) {
            l = light.position.xyz;
            if (dot(n, l) > 0.0) visibility = shadow = sunVisibility(origin, l, light.color.w, pixel);
            else visibility = 0.0;
        } else {
            vec3 toLight = light.position.xyz - p;
            float dist = length(toLight);
            l = toLight / dist;
            float window = clamp(1.0 - pow(dist / light.color.w, 4.0), 0.0, 1.0);
            radiance *= window * window / (dist * dist + 1.0);
            if (int(i) == shadowedPoint && pc.shadowMode != SHADOW_OFF && dot(n, l) > 0.0 && window > 0.0)
                shadow = softShadow(origin, l, dist - 0.05, 16.0);
        }
        color += brdf(n, v, l, albedo, roughness, metalness) * radiance * shadow * PI;
    }
    imageStore(outColor, ip, vec4(acesTonemap(color * 0.8), 1.0));
    imageStore(outSunVisibility, ip, vec4(visibility));
}
