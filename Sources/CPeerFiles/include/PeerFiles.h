#ifndef GEOWAKE_PEER_FILES_H
#define GEOWAKE_PEER_FILES_H

#include <sys/types.h>

/// Opens `path` read-only with the calling thread's filesystem uid and gid switched to `uid` and `gid`, so the kernel
/// checks the peer's permissions, not the daemon's; switches back before returning. Returns the descriptor, or -1 with
/// errno set (EACCES also when only the daemon's own supplementary groups would have allowed the read).
int geowake_open_as(const char *path, uid_t uid, gid_t gid);

#endif
