#ifndef SIMULATED_DISK_H
#define SIMULATED_DISK_H

/// Wraps SQLite's default VFS and makes the wrapper the default, so that every database this process opens
/// reports each completed sync to `on_sync` with the file's path: the simulator learns which part of a WAL file
/// a power cut cannot take. Returns SQLite's result code; calling it again only replaces the callback.
int simulated_disk_install(void (*on_sync)(const char *path));

/// Calls `on_cut` once, just before the `writes`-th file write from now (0 disarms): the moment a simulated power
/// cut lands, in the middle of whatever the daemon was doing.
void simulated_disk_cut_at_write(int writes, void (*on_cut)(void));

/// Makes closing the connection `db` (a `sqlite3 *`) leave the WAL as it is, as a killed process does: SQLite
/// otherwise checkpoints it into the database and deletes it as the last connection closes.
int simulated_disk_close_without_checkpoint(void *db);

#endif
