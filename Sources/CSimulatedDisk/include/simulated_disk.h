#ifndef SIMULATED_DISK_H
#define SIMULATED_DISK_H

/// Wraps SQLite's default VFS and makes the wrapper the default, so that every database this process opens
/// reports each completed sync to `on_sync` with the file's path: the simulator learns which part of a WAL file
/// a power cut cannot take. Returns SQLite's result code; calling it again only replaces the callback.
int simulated_disk_install(void (*on_sync)(const char *path));

#endif
