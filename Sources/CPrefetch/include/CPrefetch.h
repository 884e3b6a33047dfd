#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the processor to start loading the cache line holding `address`, without waiting for it: point
/// queries announce the records of all their candidates before testing the first, so that the cache
/// misses overlap instead of following one another. Swift has no spelling for this.
static inline void prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
