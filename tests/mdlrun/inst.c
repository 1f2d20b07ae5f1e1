/* inst — a stand-in instance for the launcher tests.  It maps the job
 * segment itself through shm_job.h (the launcher's side of the contract
 * is what is tested, independently of libmdl_shm) and runs its arguments
 * as a little script, in order:
 *
 *   check=NSLOTS,NGROUPS  verify env, header and own slot; exit 10 if wrong
 *   fds                   verify no launcher descriptor but the segment leaked; exit 11
 *   print                 print "slot S group G" on stdout
 *   pid=DIR               write the pid to DIR/<slot>.pid
 *   await=DIR,N           wait (5 s at most) until DIR holds N .pid files
 *   end                   set the slot to ENDED (what MDL_End does)
 *   exit=N                exit with status N
 *   kill=SIG              raise SIG
 *   ignterm               ignore SIGTERM and SIGINT
 *   sleep                 wait for a signal
 *   bell=DIR              sleep on the doorbell until `aborting`; then
 *                         create DIR/<slot>.woke and exit 3
 *   abort=MS              what a fatal error does (be_abort): record this
 *                         slot as the one that failed, set `aborting`, ring
 *                         every doorbell; then exit 1 MS ms later
 *   stdin                 print "slot S read N bytes" after reading stdin to EOF
 *   @K:CMD                run CMD only in slot K
 *   @gG:CMD               run CMD only in group G
 *
 * Every instance dies after 20 s whatever happens (alarm), so that a broken
 * launcher cannot leave the test machine full of processes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shm/shm_job.h"

static mdl_shm_header *hdr;
static int seg_fd = -1;
static unsigned slot;

static void die(int code, const char *what)
{
    fprintf(stderr, "inst[slot %u]: %s\n", slot, what);
    exit(code);
}

static void attach(void)
{
    const char *fd = getenv("MDL_SHM_FD"), *sl = getenv("MDL_SHM_SLOT");
    if (!fd || !sl)
        die(10, "MDL_SHM_FD or MDL_SHM_SLOT not set");
    seg_fd = atoi(fd);
    slot = (unsigned)atoi(sl);
    /* Header first, then the whole slot table once nslots is known. */
    hdr = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, seg_fd, 0);
    if (hdr == MAP_FAILED)
        die(10, "cannot map the segment");
    size_t len = mdl_shm_lib_offset(hdr->nslots);
    munmap(hdr, 4096);
    hdr = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, seg_fd, 0);
    if (hdr == MAP_FAILED)
        die(10, "cannot map the slots");
    if (slot >= hdr->nslots)
        die(10, "slot out of range");
}

static void write_file(const char *dir, const char *ext, long value)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%u.%s", dir, slot, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        die(12, "cannot write a file");
    fprintf(f, "%ld\n", value);
    fclose(f);
}

static void check(const char *arg)
{
    unsigned ns, ng;
    if (sscanf(arg, "%u,%u", &ns, &ng) != 2)
        die(10, "bad check= argument");
    if (hdr->magic != MDL_SHM_MAGIC || hdr->abi != MDL_SHM_ABI)
        die(10, "bad magic or abi");
    if (hdr->nslots != ns || hdr->ngroups != ng)
        die(10, "wrong nslots or ngroups");
    if (hdr->size != MDL_SHM_SEGMENT_SIZE || hdr->lib_offset != mdl_shm_lib_offset(ns))
        die(10, "wrong size or lib_offset");
    if (hdr->aborting)
        die(10, "aborting already set");
    const mdl_shm_slot *s = &hdr->slots[slot];
    if (s->pid != getpid() || s->state != MDL_SLOT_STARTED || s->group < 0
        || (unsigned)s->group >= ng)
        die(10, "bad slot contents");
    /* Slots are numbered group by group. */
    if (slot > 0 && hdr->slots[slot - 1].group > s->group)
        die(10, "slots not in group order");
    off_t size = lseek(seg_fd, 0, SEEK_END);
    if (size != (off_t)MDL_SHM_SEGMENT_SIZE)
        die(10, "segment has the wrong size");
    char link[64], target[256];
    snprintf(link, sizeof link, "/proc/self/fd/%d", seg_fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0)
        die(10, "cannot read the segment's link");
    target[n] = '\0';
    char want[64];
    snprintf(want, sizeof want, "/memfd:mdl-job-%d ", (int)getppid());
    if (strncmp(target, want, strlen(want)) != 0)
        die(10, "segment is not the launcher's memfd");
}

/* Whether `fd` of process `pid` is close-on-exec (-1: not open). */
static int cloexec(pid_t pid, int fd)
{
    char path[64], line[128];
    snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", (int)pid, fd);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int r = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "flags:", 6) == 0)
            r = (strtoul(line + 6, NULL, 8) & O_CLOEXEC) != 0;
    fclose(f);
    return r;
}

/* The instance must hold the segment and otherwise only what the launcher
 * itself holds inheritable (what mdlrun's caller gave it): none of the
 * launcher's own descriptors may leak, and the launcher keeps the segment
 * close-on-exec so that nothing else inherits it. */
static void fds(void)
{
    pid_t launcher = getppid();
    if (cloexec(launcher, seg_fd) != 1)
        die(11, "the launcher's segment descriptor is inheritable");
    if (cloexec(getpid(), seg_fd) != 0)
        die(11, "the segment descriptor is close-on-exec in the instance");
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        die(11, "cannot list fds");
    int self = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        int fd = atoi(e->d_name);
        if (fd > 2 && fd != seg_fd && fd != self && cloexec(launcher, fd) != 0) {
            fprintf(stderr, "inst[slot %u]: fd %d leaked from the launcher\n", slot, fd);
            exit(11);
        }
    }
    closedir(d);
}

static void await_pids(const char *arg)
{
    char dir[PATH_MAX];
    unsigned want;
    const char *comma = strrchr(arg, ',');
    if (!comma || (size_t)(comma - arg) >= sizeof dir || sscanf(comma + 1, "%u", &want) != 1)
        die(13, "bad await= argument");
    snprintf(dir, sizeof dir, "%.*s", (int)(comma - arg), arg);
    for (int tries = 0; tries < 500; tries++) {
        DIR *d = opendir(dir);
        if (!d)
            die(13, "cannot list the await= directory");
        unsigned n = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            n += len > 4 && strcmp(e->d_name + len - 4, ".pid") == 0;
        }
        closedir(d);
        if (n >= want)
            return;
        usleep(10000);
    }
    die(13, "await= timed out");
}

static void bell(const char *dir)
{
    uint32_t *word = &hdr->slots[slot].doorbell;
    for (;;) {
        uint32_t seen = __atomic_load_n(word, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&hdr->aborting, __ATOMIC_SEQ_CST))
            break;
        syscall(SYS_futex, word, FUTEX_WAIT, seen, NULL, NULL, 0);
    }
    write_file(dir, "woke", 1);
    exit(3);
}

static void abort_job(const char *ms)
{
    uint32_t none = 0;
    __atomic_compare_exchange_n(&hdr->failed, &none, slot + 1, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
    __atomic_store_n(&hdr->aborting, 1, __ATOMIC_SEQ_CST);
    for (unsigned s = 0; s < hdr->nslots; s++) {
        __atomic_fetch_add(&hdr->slots[s].doorbell, 1, __ATOMIC_SEQ_CST);
        syscall(SYS_futex, &hdr->slots[s].doorbell, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    }
    usleep((useconds_t)atoi(ms) * 1000);
    exit(1);
}

static void run(const char *cmd)
{
    if (cmd[0] == '@') {
        const char *colon = strchr(cmd, ':');
        if (!colon)
            die(13, "bad @ command");
        int group = cmd[1] == 'g';
        unsigned k = (unsigned)atoi(cmd + 1 + group);
        if (group ? (unsigned)hdr->slots[slot].group == k : slot == k)
            run(colon + 1);
        return;
    }
    if (strncmp(cmd, "check=", 6) == 0)
        check(cmd + 6);
    else if (strcmp(cmd, "fds") == 0)
        fds();
    else if (strcmp(cmd, "print") == 0) {
        printf("slot %u group %d\n", slot, hdr->slots[slot].group);
        fflush(stdout);
    } else if (strncmp(cmd, "pid=", 4) == 0)
        write_file(cmd + 4, "pid", (long)getpid());
    else if (strncmp(cmd, "await=", 6) == 0)
        await_pids(cmd + 6);
    else if (strcmp(cmd, "end") == 0)
        __atomic_store_n(&hdr->slots[slot].state, MDL_SLOT_ENDED, __ATOMIC_RELEASE);
    else if (strncmp(cmd, "exit=", 5) == 0)
        exit(atoi(cmd + 5));
    else if (strncmp(cmd, "kill=", 5) == 0)
        raise(atoi(cmd + 5));
    else if (strcmp(cmd, "ignterm") == 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
    } else if (strcmp(cmd, "sleep") == 0) {
        for (;;)
            pause();
    } else if (strncmp(cmd, "bell=", 5) == 0)
        bell(cmd + 5);
    else if (strncmp(cmd, "abort=", 6) == 0)
        abort_job(cmd + 6);
    else if (strcmp(cmd, "stdin") == 0) {
        char buf[256];
        size_t n = 0, r;
        while ((r = fread(buf, 1, sizeof buf, stdin)) > 0)
            n += r;
        printf("slot %u read %zu bytes\n", slot, n);
        fflush(stdout);
    } else
        die(13, "unknown command");
}

int main(int argc, char **argv)
{
    alarm(20);
    attach();
    for (int i = 1; i < argc; i++)
        run(argv[i]);
    return 0;
}
