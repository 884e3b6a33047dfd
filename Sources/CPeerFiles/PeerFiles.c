#define _GNU_SOURCE
#include "PeerFiles.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

int geowake_open_as(const char *path, uid_t uid, gid_t gid) {
    // Per thread on Linux: other threads of the daemon keep their identity meanwhile.
    uid_t previous_uid = (uid_t)setfsuid(uid);
    gid_t previous_gid = (gid_t)setfsgid(gid);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    int saved = errno;
    setfsgid(previous_gid);
    setfsuid(previous_uid);
    if (fd < 0) {
        errno = saved;
        return -1;
    }
    // The daemon's supplementary groups took part in that check; the peer's own are unknown. Allow only what the
    // peer's uid, primary gid or everyone may read.
    struct stat status;
    int readable = fstat(fd, &status) == 0 && S_ISREG(status.st_mode)
        && ((status.st_uid == uid && (status.st_mode & S_IRUSR))
            || (status.st_gid == gid && (status.st_mode & S_IRGRP))
            || (status.st_mode & S_IROTH));
    if (!readable) {
        close(fd);
        errno = EACCES;
        return -1;
    }
    return fd;
}
