/* test_safe_files.c — the user's private directory (common/safe_files.h):
 * removed once empty by mdl_private_dir_release, and making it or a
 * create in it that meets its removal by another process
 * makes it again, MDL_PRIVATE_TRIES times at most: that process is
 * played by the wrappers of mkdir and open below, which the unit test
 * binary's link puts between common/safe_files.o and the C library
 * (-Wl,--wrap, tests/unit/README.md) — the library carries no hook.
 * Each test runs in a child; as root in a mount namespace of its own
 * with a fresh tmpfs on /dev/shm, so that the jobs of other runs of the
 * same user are neither seen nor disturbed (else on the user's directory
 * as it is). */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safe_files.h"
#include "unit.h"

/* In the child: a failed condition ends the test body, returning its line. */
#define EXPECT(cond) if (!(cond)) return __LINE__

static void in_child(int (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int isolated = geteuid() == 0 && unshare(CLONE_NEWNS) == 0;
        if (isolated && (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
                         mount("tmpfs", "/dev/shm", "tmpfs", 0, "size=1m,mode=1777") != 0))
            _exit(255);
        _exit(body());
    }
    int st = -1;
    CU_ASSERT_EQUAL_FATAL(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fprintf(stderr, "test_safe_files.c: the check at line %d failed (255: no tmpfs)\n",
                WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static char why[512];
static int removals, remove_first, remove_made;

/* Another process of the user removing the directory, empty, the first
 * remove_first times it is in the window chosen: just made (remove_made),
 * or checked before a create in it.  remove_first is 0 outside the
 * bodies below: the wrappers then only pass the calls on. */
static void remove_dir(const char *dir, int made)
{
    if (made == remove_made && removals < remove_first && rmdir(dir) == 0)
        removals++;
}

int __real_mkdir(const char *path, mode_t mode);
int __real_open(const char *path, int flags, ...);

/* The window between mdl_private_dir's mkdir and its mode set. */
int __wrap_mkdir(const char *path, mode_t mode)
{
    int rc = __real_mkdir(path, mode);
    if (rc == 0)
        remove_dir(path, 1);
    return rc;
}

/* The window between the directory's check and mdl_create_private's
 * exclusive create in it. */
int __wrap_open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (flags & O_EXCL) {
        char *copy = strdup(path);
        if (copy)
            remove_dir(dirname(copy), 0);
        free(copy);
    }
    return __real_open(path, flags, mode);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Met once (another job's end), and as often as it may be. */
static int body_retried(void)
{
    const int races[] = { 1, MDL_PRIVATE_TRIES - 1 };
    for (int k = 0; k < 2; k++) {
        char *dir = mdl_private_dir(1, why, sizeof why), *path = NULL;
        EXPECT(dir);
        removals = 0;
        remove_first = races[k];
        int fd = mdl_create_in_private("part", O_RDWR, &path, why, sizeof why);
        EXPECT(fd >= 0);
        EXPECT(removals == races[k]);
        struct stat st;
        EXPECT(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0600);
        char want[4096];
        snprintf(want, sizeof want, "%s/part", dir);
        EXPECT(strcmp(path, want) == 0);
        close(fd);
        /* in use: kept */
        mdl_private_dir_release();
        EXPECT(exists(dir) && exists(path));
        /* the last file gone: removed */
        EXPECT(unlink(path) == 0);
        mdl_private_dir_release();
        EXPECT(!exists(dir));
        free(path);
        free(dir);
    }
    return 0;
}

static int body_bounded(void)
{
    char *dir = mdl_private_dir(1, why, sizeof why), *path = NULL;
    EXPECT(dir);
    remove_first = MDL_PRIVATE_TRIES + 1;
    EXPECT(mdl_create_in_private("part", O_RDWR, &path, why, sizeof why) == -1);
    EXPECT(removals == MDL_PRIVATE_TRIES);
    char want[4096];
    snprintf(want, sizeof want, "cannot create %s/part: %s", dir, strerror(ENOENT));
    EXPECT(strcmp(why, want) == 0);
    EXPECT(path == NULL);
    free(dir);
    return 0;
}

/* Removed as soon as made (before its mode is set): made again. */
static int body_made_again(void)
{
    remove_first = 1;
    remove_made = 1;
    char *dir = mdl_private_dir(1, why, sizeof why);
    EXPECT(dir);
    EXPECT(removals == 1);
    struct stat st;
    EXPECT(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700);
    mdl_private_dir_release();
    EXPECT(!exists(dir));
    free(dir);
    return 0;
}

/* Only the user's own directory, checked, is removed: not a link at its
 * name (nor the directory it names), not one of another mode. */
static int body_only_own(void)
{
    char *dir = mdl_private_dir(1, why, sizeof why);
    EXPECT(dir);
    EXPECT(rmdir(dir) == 0);
    char target[4096];
    snprintf(target, sizeof target, "%s.target", dir);
    EXPECT(mkdir(target, 0700) == 0 && symlink(target, dir) == 0);
    mdl_private_dir_release();
    struct stat st;
    EXPECT(lstat(dir, &st) == 0 && S_ISLNK(st.st_mode) && exists(target));
    EXPECT(unlink(dir) == 0 && rmdir(target) == 0);
    EXPECT(mkdir(dir, 0700) == 0 && chmod(dir, 0755) == 0);
    mdl_private_dir_release();
    EXPECT(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    EXPECT(rmdir(dir) == 0);
    free(dir);
    return 0;
}

static void test_retried(void) { in_child(body_retried); }
static void test_bounded(void) { in_child(body_bounded); }
static void test_only_own(void) { in_child(body_only_own); }
static void test_made_again(void) { in_child(body_made_again); }

static const mdl_unit_test tests[] = {
    { "create_retried", test_retried },
    { "create_bounded", test_bounded },
    { "release_only_own", test_only_own },
    { "dir_made_again", test_made_again },
    { NULL, NULL },
};
MDL_UNIT_SUITE("safe_files", tests)
