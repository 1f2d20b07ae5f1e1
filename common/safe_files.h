/* safe_files.h — files on a node shared with other users
 * (docs/robustness.md, "Shared nodes"), one implementation for medleyc,
 * both runtimes, mdlrun and mdltrace:
 *   - the user's private directory, where a job keeps what its processes
 *     share through files (the MPI runtime's trace parts);
 *   - creating and opening files there so that nothing planted is
 *     followed or taken for the job's own;
 *   - writing a final file (a trace, generated code) so that a link
 *     another user planted is never written through.
 * A directory another user can write to is theirs as much as the user's:
 * what is written there can be replaced afterwards, but never turns into
 * a write to another file. */
#ifndef MDL_SAFE_FILES_H
#define MDL_SAFE_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* The user's private directory: /dev/shm/medley-<uid> (the node's
 * memory), else $XDG_RUNTIME_DIR/medley when /dev/shm cannot be written
 * and that variable is set, else /tmp/medley-<uid>; created with mode
 * 0700 when absent and `create` (else: NULL, errno ENOENT).  Used only
 * when it is a directory (not a link) owned by the user with mode 0700,
 * checked with lstat at every call, in a parent where others cannot
 * replace it (sticky, or not writable by all): once checked, it stays
 * what it is until the user's own processes remove it, empty
 * (mdl_private_dir_release): when `create`, a removal met while it is
 * made and checked makes it again (MDL_PRIVATE_TRIES times in all).
 * malloc'd, or NULL with the reason (naming it) in why. */
#define MDL_PRIVATE_TRIES 8
char *mdl_private_dir(int create, char *why, size_t len);

/* Creates path, which must not exist: O_EXCL, O_NOFOLLOW, close-on-exec,
 * mode 0600; `access` is O_RDWR or O_WRONLY.  The descriptor, or -1 with
 * the reason (naming path) in why and errno set. */
int mdl_create_private(const char *path, int access, char *why, size_t len);

/* Creates `name` in the private directory (made if need be) as
 * mdl_create_private does, *path its malloc'd path.  Another process of
 * the user may remove the directory (mdl_private_dir_release) between
 * its check and the create: on ENOENT it is made, checked and tried again,
 * MDL_PRIVATE_TRIES times in all.  The descriptor, or -1 with the reason
 * in why. */
int mdl_create_in_private(const char *name, int access, char **path, char *why, size_t len);

/* The private directory removed if it is empty, at the end of a
 * process's use of it (no file of the user's jobs left there): checked as
 * mdl_private_dir checks it, then rmdir, which removes nothing else and
 * follows no link; another process's files in it keep it (ENOTEMPTY, not
 * an error). */
void mdl_private_dir_release(void);

/* Opens path read-only if it is a regular file of the user: a link is
 * not followed, and a FIFO or device does not block.  The descriptor, or
 * -1 with the reason (naming path) in why. */
int mdl_open_own(const char *path, char *why, size_t len);

/* How a final file at path is written (one rule for every file medley
 * writes for the user):
 *   MDL_WRITE_REPLACE  it does not exist or is a regular file: a
 *                      temporary beside it (mdl_temp_beside) renamed over
 *                      it, which never follows a link;
 *   MDL_WRITE_THROUGH  a device, a FIFO or a symbolic link that only the
 *                      user (or root) could have put there — its own
 *                      and root's, in a directory of the user or root
 *                      that others cannot write to unless it is sticky
 *                      (`--dot /dev/stdout`): written through its path;
 *   -1                 anything else (a directory, a link another user
 *                      made), with the reason in why: refused. */
enum { MDL_WRITE_REPLACE, MDL_WRITE_THROUGH };
int mdl_write_mode(const char *path, char *why, size_t len);

/* Opens a final file at path for writing, as mdl_write_mode says: a
 * temporary beside it, *tmp its malloc'd name, to rename over path once
 * written; or path itself (*tmp NULL).  Mode `mode` less the umask.  The
 * descriptor, or -1 with the reason (naming path) in why. */
int mdl_open_final(const char *path, mode_t mode, char **tmp, char *why, size_t len);

/* A new temporary file beside path (".NAME.tmp.XXXXXX" in its directory,
 * so that a rename onto path is atomic), made by mkostemp: exclusive,
 * never a file or link that was there.  Mode `mode` less the process's
 * umask (read from /proc/self/status: setting the umask to read it would
 * race with the program's other threads; 0600 without /proc).  The
 * descriptor (close-on-exec) and in *tmp its malloc'd name, or -1 with
 * errno set. */
int mdl_temp_beside(const char *path, mode_t mode, char **tmp);

#endif
