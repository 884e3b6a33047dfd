#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "simulated_disk.h"

// A file of the wrapping VFS: the real file's handle follows this struct in the same allocation.
typedef struct {
    sqlite3_file base;
    sqlite3_file *real;
    char *path;
} SimulatedFile;

static sqlite3_vfs *real_vfs;
static sqlite3_vfs wrapping_vfs;
static sqlite3_io_methods wrapping_io;
static void (*sync_callback)(const char *path);
static int cut_countdown;
static void (*cut_callback)(void);

#define REAL(f) (((SimulatedFile *)(f))->real)

static int sd_close(sqlite3_file *f) {
    SimulatedFile *file = (SimulatedFile *)f;
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free(file->path);
    file->path = NULL;
    return rc;
}
static int sd_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), b, n, o); }
static int sd_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o) {
    if (cut_countdown > 0 && --cut_countdown == 0 && cut_callback) cut_callback();
    return REAL(f)->pMethods->xWrite(REAL(f), b, n, o);
}
static int sd_truncate(sqlite3_file *f, sqlite3_int64 s) { return REAL(f)->pMethods->xTruncate(REAL(f), s); }
static int sd_sync(sqlite3_file *f, int flags) {
    int rc = REAL(f)->pMethods->xSync(REAL(f), flags);
    SimulatedFile *file = (SimulatedFile *)f;
    if (rc == SQLITE_OK && sync_callback && file->path) sync_callback(file->path);
    return rc;
}
static int sd_file_size(sqlite3_file *f, sqlite3_int64 *s) { return REAL(f)->pMethods->xFileSize(REAL(f), s); }
static int sd_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int sd_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int sd_check_reserved_lock(sqlite3_file *f, int *r) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), r); }
static int sd_file_control(sqlite3_file *f, int op, void *a) { return REAL(f)->pMethods->xFileControl(REAL(f), op, a); }
static int sd_sector_size(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int sd_device_characteristics(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int sd_shm_map(sqlite3_file *f, int i, int s, int e, void volatile **p) { return REAL(f)->pMethods->xShmMap(REAL(f), i, s, e, p); }
static int sd_shm_lock(sqlite3_file *f, int o, int n, int fl) { return REAL(f)->pMethods->xShmLock(REAL(f), o, n, fl); }
static void sd_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int sd_shm_unmap(sqlite3_file *f, int d) { return REAL(f)->pMethods->xShmUnmap(REAL(f), d); }
static int sd_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p) { return REAL(f)->pMethods->xFetch(REAL(f), o, n, p); }
static int sd_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

static int sd_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags) {
    SimulatedFile *file = (SimulatedFile *)f;
    memset(file, 0, sizeof(SimulatedFile));
    file->real = (sqlite3_file *)&file[1];
    int rc = real_vfs->xOpen(real_vfs, name, file->real, flags, out_flags);
    if (file->real->pMethods) {
        file->path = name ? strdup(name) : NULL;
        f->pMethods = &wrapping_io;
    } else {
        f->pMethods = NULL;
    }
    (void)vfs;
    return rc;
}

int simulated_disk_install(void (*on_sync)(const char *path)) {
    sync_callback = on_sync;
    if (real_vfs) return SQLITE_OK;
    real_vfs = sqlite3_vfs_find(NULL);
    if (!real_vfs) return SQLITE_ERROR;
    wrapping_vfs = *real_vfs;
    wrapping_vfs.zName = "geowake-simulated-disk";
    wrapping_vfs.szOsFile = (int)sizeof(SimulatedFile) + real_vfs->szOsFile;
    wrapping_vfs.xOpen = sd_open;
    wrapping_vfs.pNext = NULL;
    wrapping_io = (sqlite3_io_methods){
        3, sd_close, sd_read, sd_write, sd_truncate, sd_sync, sd_file_size, sd_lock, sd_unlock,
        sd_check_reserved_lock, sd_file_control, sd_sector_size, sd_device_characteristics,
        sd_shm_map, sd_shm_lock, sd_shm_barrier, sd_shm_unmap, sd_fetch, sd_unfetch,
    };
    return sqlite3_vfs_register(&wrapping_vfs, 1);
}

void simulated_disk_cut_at_write(int writes, void (*on_cut)(void)) {
    cut_callback = on_cut;
    cut_countdown = writes;
}

int simulated_disk_close_without_checkpoint(void *db) {
    return sqlite3_db_config((sqlite3 *)db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
