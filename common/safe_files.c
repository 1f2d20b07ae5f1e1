/* safe_files.c — files on a node shared with other users (safe_files.h).
 * The models: OpenSSH's checks of ~/.ssh (owner and modes before
 * anything is trusted), systemd's runtime directories (created 0700 and
 * verified, files created O_EXCL|O_NOFOLLOW), and mkstemp + rename for
 * every file replaced. */
#include "safe_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The user's directory, in a parent anyone may write to when it is
 * sticky (only an entry's owner can then remove or rename it). */
static char *private_dir_path(void)
{
    char *p = NULL;
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    unsigned uid = (unsigned)geteuid();
    if (access("/dev/shm", W_OK | X_OK) == 0) {
        if (asprintf(&p, "/dev/shm/medley-%u", uid) < 0)
            p = NULL;
    } else if (xdg && xdg[0] == '/') {
        if (asprintf(&p, "%s/medley", xdg) < 0)
            p = NULL;
    } else if (asprintf(&p, "/tmp/medley-%u", uid) < 0) {
        p = NULL;
    }
    return p;
}

/* Whether a directory of mode `mode` lets another user replace its
 * entries: writable by all and not sticky. */
static int open_to_all(mode_t mode)
{
    return (mode & S_IWOTH) && !(mode & S_ISVTX);
}

/* The parent of path (a copy), "." when it has none. */
static char *parent_of(const char *path)
{
    size_t n = strlen(path);
    while (n && path[n - 1] != '/')
        n--;
    if (n == 0)
        return strdup(".");
    return strndup(path, n == 1 ? 1 : n - 1);
}

char *mdl_private_dir(int create, char *why, size_t len)
{
    char *dir = private_dir_path();
    char *parent = dir ? parent_of(dir) : NULL;
    if (!dir || !parent) {
        free(dir);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    static const char rule[] = "medley keeps the files your jobs share only in a directory of "
                               "your own with mode 0700";
    struct stat st;
    uid_t me = geteuid();
    if (stat(parent, &st) == 0 && open_to_all(st.st_mode)) {
        snprintf(why, len, "%s: every user can replace what is in %s (mode %04o, not sticky): %s",
                 dir, parent, (unsigned)(st.st_mode & 07777), rule);
        goto refuse;
    }
    /* Another process of the user may remove it, empty, at any moment
     * (mdl_private_dir_release): then it is made again. */
    for (int tries = 1;; tries++) {
        int again = create && tries < MDL_PRIVATE_TRIES;
        if (create && mkdir(dir, 0700) == 0) {
            /* ours: the umask may have taken more than the group's and
             * others' bits; set on what was made, never through a link
             * put at its name since */
            int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            int rc = fd < 0 ? -1 : fchmod(fd, 0700);
            int e = errno;
            if (fd >= 0)
                close(fd);
            if (rc < 0 && e == ENOENT && again)
                continue;
            if (rc < 0) {
                snprintf(why, len, "cannot set the mode of %s: %s", dir, strerror(e));
                goto refuse;
            }
        } else if (create && errno != EEXIST) {
            snprintf(why, len, "cannot create %s: %s", dir, strerror(errno));
            goto refuse;
        }
        if (lstat(dir, &st) == 0)
            break;
        int e = errno;
        if (e == ENOENT && again)
            continue;
        snprintf(why, len, "%s: %s", dir, strerror(e));
        free(parent);
        free(dir);
        errno = e;
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, len, "%s is not a directory (a %s): %s", dir,
                 S_ISLNK(st.st_mode) ? "symbolic link" : "file", rule);
        goto refuse;
    }
    if (st.st_uid != me) {
        snprintf(why, len, "%s belongs to user %u, not to you (user %u): %s; remove it (its "
                 "owner or root can)", dir, (unsigned)st.st_uid, (unsigned)me, rule);
        goto refuse;
    }
    if ((st.st_mode & 07777) != 0700) {
        snprintf(why, len, "%s has mode %04o: %s (chmod 700 it once you have checked what is "
                 "in it)", dir, (unsigned)(st.st_mode & 07777), rule);
        goto refuse;
    }
    free(parent);
    return dir;
refuse:
    free(parent);
    free(dir);
    errno = EACCES;             /* not ENOENT: the directory is there, and refused */
    return NULL;
}

int mdl_create_private(const char *path, int access, char *why, size_t len)
{
    int fd = open(path, access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        snprintf(why, len, "cannot create %s: %s", path, strerror(e));
        errno = e;
    }
    return fd;
}

int mdl_create_in_private(const char *name, int access, char **path, char *why, size_t len)
{
    for (int tries = 1;; tries++) {
        char *dir = mdl_private_dir(1, why, len), *p = NULL;
        if (!dir)
            return -1;
        if (asprintf(&p, "%s/%s", dir, name) < 0) {
            free(dir);
            snprintf(why, len, "out of memory");
            return -1;
        }
        free(dir);
        int fd = mdl_create_private(p, access, why, len);
        if (fd >= 0) {
            *path = p;
            return fd;
        }
        int e = errno;
        free(p);
        if (e != ENOENT || tries == MDL_PRIVATE_TRIES)
            return -1;
    }
}

void mdl_private_dir_release(void)
{
    char why[512];
    char *dir = mdl_private_dir(0, why, sizeof why);
    if (dir)
        (void)rmdir(dir);
    free(dir);
}

int mdl_open_own(const char *path, char *why, size_t len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, len, "%s: %s", path,
                 errno == ELOOP ? "a symbolic link, not followed" : strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
        snprintf(why, len, "%s: not a regular file of yours", path);
        close(fd);
        return -1;
    }
    return fd;
}

int mdl_write_mode(const char *path, char *why, size_t len)
{
    struct stat st, to;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
        return MDL_WRITE_REPLACE;
    if (S_ISDIR(st.st_mode) || (stat(path, &to) == 0 && S_ISDIR(to.st_mode))) {
        snprintf(why, len, "%s", strerror(EISDIR));
        return -1;
    }
    const char *kind = S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISFIFO(st.st_mode) ? "a FIFO"
                                                                                    : "a device";
    uid_t me = geteuid();
    if (st.st_uid != me && st.st_uid != 0) {
        snprintf(why, len, "%s of another user (uid %u): not written through", kind,
                 (unsigned)st.st_uid);
        return -1;
    }
    char *dir = parent_of(path);
    int ok = dir && stat(dir, &to) == 0 && (to.st_uid == me || to.st_uid == 0) &&
             !open_to_all(to.st_mode);
    if (!ok)
        snprintf(why, len, "%s in %s, a directory another user can change: not written "
                 "through", kind, dir ? dir : "its directory");
    free(dir);
    return ok ? MDL_WRITE_THROUGH : -1;
}

/* The umask, without setting it (which would race with other threads),
 * or -1 when /proc cannot say. */
static int current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return -1;
    char line[256];
    unsigned mask;
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1)
            found = (int)(mask & 0777);
    fclose(f);
    return found;
}

int mdl_temp_beside(const char *path, mode_t mode, char **tmp)
{
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) + 1 : 0;
    char *name;
    if (asprintf(&name, "%.*s.%s.tmp.XXXXXX", dirlen, path, path + dirlen) < 0) {
        errno = ENOMEM;
        return -1;
    }
    int fd = mkostemp(name, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        free(name);
        errno = e;
        return -1;
    }
    /* A failure here is not fatal: the file stays usable by its owner. */
    int mask = current_umask();
    if (mask >= 0)
        (void)fchmod(fd, mode & ~(mode_t)mask);
    *tmp = name;
    return fd;
}

int mdl_open_final(const char *path, mode_t mode, char **tmp, char *why, size_t len)
{
    char reason[256];
    int how = mdl_write_mode(path, reason, sizeof reason), fd = -1;
    *tmp = NULL;
    if (how < 0) {
        snprintf(why, len, "cannot write '%s': %s", path, reason);
        return -1;
    }
    if (how == MDL_WRITE_THROUGH)
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, mode);
    else
        fd = mdl_temp_beside(path, mode, tmp);
    if (fd < 0)
        snprintf(why, len, "cannot write '%s': %s", path, strerror(errno));
    return fd;
}
