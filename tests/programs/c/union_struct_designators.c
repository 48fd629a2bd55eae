/* Designated initializers naming several members of an anonymous struct inside a union, as vector and color
   types of graphics code are written (`union { struct { float x, y, z; }; float v[3]; }`): globals, statics and
   locals, in order and out of order, and such a union inside a struct. */
#include <stdio.h>

typedef union { struct { float x, y, z; }; float v[3]; } vec3;
typedef union { struct { unsigned char r, g, b, a; }; unsigned rgba; } color;
struct vertex { vec3 pos; color tint; int id; };

vec3 up = {.x = 0, .y = 1, .z = 0};
vec3 skew = {.z = 5, .x = 4};
static const color amber = {.r = 255, .g = 191, .a = 255};
struct vertex origin = {.pos = {.y = 2, .x = 1}, .tint = {.b = 9, .r = 3}, .id = 7};

int main(void) {
  vec3 local = {.x = 7, .y = 8, .z = 9};
  vec3 partial = {.z = 1, .x = 2};
  struct vertex v = {.pos.z = 3, .pos.x = 1, .tint = {.g = 4}, .id = 2};
  printf("%g %g %g | %g %g %g | %08x\n", up.v[0], up.v[1], up.v[2], skew.v[0], skew.v[1], skew.v[2], amber.rgba);
  printf("%g %g %g %08x %d\n", origin.pos.v[0], origin.pos.v[1], origin.pos.v[2], origin.tint.rgba, origin.id);
  printf("%g %g %g | %g %g %g\n", local.v[0], local.v[1], local.v[2], partial.v[0], partial.v[1], partial.v[2]);
  printf("%g %g %g %08x %d\n", v.pos.v[0], v.pos.v[1], v.pos.v[2], v.tint.rgba, v.id);
  return 0;
}
