/* Launch errors of the shared-memory runtime, in one process:
 *   shm_launch abi      a segment from an mdlrun of another build
 *   shm_launch notseg   MDL_SHM_FD is not a segment at all
 *   shm_launch plain    started without mdlrun (the suite runs it bare)
 * MDL_Init must return MDL_ERR_LAUNCH (MDL_ERRORS=return) after one line
 * on stderr; without MDL_ERRORS the process exits non-zero. */
#include "shm_rtt.h"

#include <sys/mman.h>
#include <unistd.h>

#include "shm/shm_job.h"

struct T {
    int x;
    mdl_rt *mdl_rt_;
};

static const char *const tasks[] = {"t"};
static const mdl_task_desc desc = {
    MDL_ABI, "shm_launch.mdl", 0xabc, 1, tasks, 0, 0, {0, 0, 0}, 0, 0, NULL, 0, NULL, sizeof(struct T), 0,
    0, NULL, 0, NULL, /* no run-time-sized variables */
};

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    if (strcmp(argv[1], "plain") != 0) {
        int fd = memfd_create("shm_launch", 0);
        CHECK(fd >= 0 && ftruncate(fd, 1 << 20) == 0);
        mdl_shm_header *h = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        CHECK(h != MAP_FAILED);
        if (strcmp(argv[1], "abi") == 0) {
            h->magic = MDL_SHM_MAGIC;
            h->abi = MDL_SHM_ABI + 7;
            h->nslots = 1;
            h->size = 1 << 20;
            h->lib_offset = mdl_shm_lib_offset(1);
        }
        char buf[16];
        snprintf(buf, sizeof buf, "%d", fd);
        setenv("MDL_SHM_FD", buf, 1);
        setenv("MDL_SHM_SLOT", "0", 1);
    }
    void *t;
    mdl_rt *rt;
    int rc = mdl_init(&desc, &argc, &argv, &t, &rt);
    printf("mdl_init: %d\n", rc);
    return rc == MDL_ERR_LAUNCH ? 0 : 1;
}
