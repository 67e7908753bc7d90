// Signed distance functions of the scene's analytic primitives (see renderer_shared.h and
// scene.cpp, which tessellates the same shapes). Used for shadow rays.
#ifndef ENGINE_SDF_GLSL
#define ENGINE_SDF_GLSL

float sdSphere(vec3 p, vec3 c, float r) { return length(p - c) - r; }

float sdBox(vec3 p, vec3 c, vec3 halfExtents, float rotY) {
    vec3 q = p - c;
    float cs = cos(rotY), sn = sin(rotY);
    // Inverse of the mesh's rotation: local axes x = (cos, 0, -sin), z = (sin, 0, cos).
    q = vec3(cs * q.x - sn * q.z, q.y, sn * q.x + cs * q.z);
    vec3 d = abs(q) - halfExtents;
    return length(max(d, 0.0)) + min(max(d.x, max(d.y, d.z)), 0.0);
}

float sdCapsule(vec3 p, vec3 a, vec3 b, float r) {
    vec3 pa = p - a, ba = b - a;
    float h = clamp(dot(pa, ba) / dot(ba, ba), 0.0, 1.0);
    return length(pa - ba * h) - r;
}

// Posts every `spacing` metres from `start`, `rails` horizontal wires evenly up to `height`.
float sdFence(vec3 p, vec3 start, vec3 end, float r, vec4 params) {
    float height = params.x, spacing = params.y, rails = params.z;
    vec3 along = end - start;
    float len = length(along);
    vec3 dir = along / len;
    vec3 q = p - start;
    float u = dot(q.xz, dir.xz);
    float w = dot(q.xz, vec2(-dir.z, dir.x));
    float lastPost = floor(len / spacing);
    float k = clamp(round(u / spacing), 0.0, lastPost);
    float yOut = max(q.y - height, 0.0) + min(q.y, 0.0);
    float post = length(vec3(u - k * spacing, yOut, w)) - r;
    float step = height / rails;
    float j = clamp(round(q.y / step), 1.0, rails);
    float uOut = max(u - len, 0.0) + min(u, 0.0);
    float rail = length(vec3(uOut, q.y - j * step, w)) - r;
    return min(post, rail);
}

float sdPrimitive(Primitive prim, vec3 p) {
    uint type = uint(prim.p0.w);
    if (type == PRIM_SPHERE) return sdSphere(p, prim.p0.xyz, prim.p1.w);
    if (type == PRIM_BOX) return sdBox(p, prim.p0.xyz, prim.p1.xyz, prim.p2.x);
    if (type == PRIM_CAPSULE) return sdCapsule(p, prim.p0.xyz, prim.p1.xyz, prim.p1.w);
    return sdFence(p, prim.p0.xyz, prim.p1.xyz, prim.p1.w, prim.p2);
}

#endif
