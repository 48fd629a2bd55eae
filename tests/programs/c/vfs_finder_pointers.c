/* A virtual file system's table in the style of sqlite's os layer: each entry's opaque data is the address of a
   const function pointer (a "finder"), called back through `(**(finder_t *)p)(...)`. The two `*` do different
   things: the inner one loads the function pointer stored at p, the outer one designates its function. */
#include <stdio.h>

typedef struct file { int flags; const char *path; } file_t;
typedef const char *(*finder_t)(const char *, file_t *);

static const char *posix_impl(const char *z, file_t *f) { f->flags |= 1; return z + 1; }
static const char *dotfile_impl(const char *z, file_t *f) { f->flags |= 2; return z[0] == '.' ? "dot" : z; }
static const char *(*const posix_finder)(const char *, file_t *) = posix_impl;
static finder_t dotfile_finder = dotfile_impl;

struct vfs { const char *name; void *app_data; };
static struct vfs vfs_table[] = {
    {"unix", (void *)&posix_finder},
    {"unix-dotfile", (void *)&dotfile_finder},
    {"unix-none", 0},
};

int main(void) {
    for (unsigned i = 0; i < sizeof vfs_table / sizeof *vfs_table; i++) {
        file_t f = {0, "/tmp/db"};
        const char *style = "none";
        if (vfs_table[i].app_data) {
            style = (**(finder_t *)vfs_table[i].app_data)(f.path, &f);
            style = (*(finder_t *)vfs_table[i].app_data)(style, &f);
        }
        finder_t local = dotfile_impl;
        const char *dot = (***&local)(".x", &f);
        printf("%s %s %d %s\n", vfs_table[i].name, style, f.flags, dot);
    }
    return 0;
}
