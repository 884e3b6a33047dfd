#ifndef CINTRINSICS_H
#define CINTRINSICS_H

// What point queries need from the processor and Swift has no spelling for.

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Asks the processor to start loading the cache line holding `address`, without waiting for it: point
/// queries announce the records of all their candidates before testing the first, so that the cache
/// misses overlap instead of following one another.
static inline void prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Bit k set for each of the 16 boxes at `boxes` that holds sub-cell (x, y), a box being 4 bytes: its
/// low and high column, its low and high row. Swift's vectors can collect a comparison's lanes into bits
/// only by a sum or a lane-by-lane select, each several times the cost of SSE2's movemask.
static inline uint32_t quantized_boxes_holding(const uint32_t *boxes, uint32_t x, uint32_t y) {
    uint32_t mask = 0;
#if defined(__SSE2__)
    const __m128i point = _mm_set1_epi32((int)(x | x << 8 | y << 16 | y << 24));
    const __m128i lows = _mm_set1_epi32(0x00FF00FF);
    for (int k = 0; k < 4; k++) {
        const __m128i box = _mm_loadu_si128((const __m128i *)(boxes + 4 * k));
        // A low bound no greater than the point leaves it unchanged by max, a high one no less by min.
        const __m128i bounded = _mm_or_si128(_mm_and_si128(_mm_max_epu8(box, point), lows),
                                             _mm_andnot_si128(lows, _mm_min_epu8(box, point)));
        const __m128i holds = _mm_cmpeq_epi32(bounded, point);
        mask |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(holds)) << (4 * k);
    }
#else
    for (int k = 0; k < 16; k++) {
        const uint32_t b = boxes[k];
        mask |= (uint32_t)((b & 255) <= x && x <= (b >> 8 & 255) && (b >> 16 & 255) <= y && y <= b >> 24) << k;
    }
#endif
    return mask;
}

#endif
