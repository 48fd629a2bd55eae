/* posix_memalign that fails (a size no allocator grants) leaves the caller's pointer as it was; one that succeeds
   gives aligned memory. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int sentinel;
    void *p = &sentinel;
    int failed = posix_memalign(&p, sizeof(void *), (size_t)-1);
    printf("failed %d kept %d\n", failed != 0, p == (void *)&sentinel);
    void *q = NULL;
    int ok = posix_memalign(&q, 64, 256);
    printf("ok %d aligned %d\n", ok, q != NULL && (unsigned long)q % 64 == 0);
    free(q);
    return 0;
}
