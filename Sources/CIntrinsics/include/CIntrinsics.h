#ifndef CINTRINSICS_H
#define CINTRINSICS_H

// What point queries and the NMEA reader need from the processor and Swift has no spelling for.

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

/// The edges of `mask` (edge i runs from vertex i to vertex i + 1 of `xy`, pairs of fixed-point x, y)
/// whose crossing with the ray from (qx, qy) towards +x is plain: bit i set in the result when edge i
/// spans qy (one end above it, the other not) with both ends right of qx, and in `*straddling` when it
/// spans qy with one end right of qx and one not, which only a cross product decides. Four edges at a
/// time with SSE2, without a branch on any of these tests, whose outcomes are close to random from one
/// edge to the next. Vertex `limit` and later are not read: edges needing them are tested one by one.
static inline uint64_t fixed_edges_crossing(const int32_t *xy, uint64_t mask, int64_t limit, int32_t qx, int32_t qy,
                                            uint64_t *straddling) {
    uint64_t crossing = 0, straddle = 0;
#if defined(__SSE2__)
    const __m128i x = _mm_set1_epi32(qx), y = _mm_set1_epi32(qy);
    while (mask != 0) {
        const int g = __builtin_ctzll(mask) & ~3;
        if (g + 5 > limit) break;
        const int32_t *p = xy + 2 * g;
        // Vertices g to g + 3, and g + 1 to g + 4, split into x and y lanes.
        const __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)p));
        const __m128 b = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(p + 4)));
        const __m128 c = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(p + 2)));
        const __m128 d = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(p + 6)));
        const __m128i x0 = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
        const __m128i y0 = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
        const __m128i x1 = _mm_castps_si128(_mm_shuffle_ps(c, d, _MM_SHUFFLE(2, 0, 2, 0)));
        const __m128i y1 = _mm_castps_si128(_mm_shuffle_ps(c, d, _MM_SHUFFLE(3, 1, 3, 1)));
        const __m128i spans = _mm_xor_si128(_mm_cmpgt_epi32(y0, y), _mm_cmpgt_epi32(y1, y));
        const __m128i right0 = _mm_cmpgt_epi32(x0, x), right1 = _mm_cmpgt_epi32(x1, x);
        const uint64_t group = (mask >> g) & 15;
        crossing |= (uint64_t)(_mm_movemask_ps(_mm_castsi128_ps(_mm_and_si128(spans, _mm_and_si128(right0, right1)))) & group) << g;
        straddle |= (uint64_t)(_mm_movemask_ps(_mm_castsi128_ps(_mm_and_si128(spans, _mm_xor_si128(right0, right1)))) & group) << g;
        mask &= ~((uint64_t)15 << g);
    }
#endif
    while (mask != 0) {
        const int i = __builtin_ctzll(mask);
        mask &= mask - 1;
        const int32_t x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * i + 2], y1 = xy[2 * i + 3];
        if ((y0 > qy) == (y1 > qy)) continue;
        if (x0 > qx && x1 > qx) crossing |= (uint64_t)1 << i;
        else if ((x0 > qx) != (x1 > qx)) straddle |= (uint64_t)1 << i;
    }
    *straddling = straddle;
    return crossing;
}

/// What one pass over a common NMEA line finds (`nmea_scan_line`).
struct nmea_line_scan {
    /// Offsets from the body (just after `$`) of the first `*` and of the line feed after it.
    long star, line_feed;
    /// The XOR of the body's bytes before the `*`: the sentence's checksum.
    uint8_t checksum;
};

#if defined(__SSE2__)
/// The block `v` at offset `i` holding a line's first `*`, `$` or line feed (bits `stops`): 0 unless it is a `*` at
/// most `maximum_body` bytes in; else the star, the block's bytes before it added to `sum`, and in `ends` the `$`s
/// and line feeds after it.
static inline int nmea_star_block(const uint8_t *p, long i, __m128i v, __m128i line_end, int stops, long maximum_body,
                                  __m128i *sum, int *ends, struct nmea_line_scan *out) {
    const int k = __builtin_ctz((unsigned)stops);
    if (p[i + k] != '*' || i + k > maximum_body) return 0;
    out->star = i + k;
    const __m128i lanes = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    *sum = _mm_xor_si128(*sum, _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8((char)k), lanes)));
    *ends = _mm_movemask_epi8(line_end) & ~((2 << k) - 1);
    return 1;
}
#endif

/// One pass over the line whose body starts at `p` (`n` bytes available), sixteen bytes a step with SSE2: the first
/// of `*`, `$` and line feed must be a `*` at offset at most `maximum_body`, and the first `$` or line feed after it a
/// line feed; then `out` holds the line's parts and the result is 1. Otherwise 0, and `out` is not to be used.
/// Finding the `*`, then the line feed, then summing the checksum, in passes of their own, cost more than reading
/// the common line's fields. Reads nothing at or past `p + n`.
static inline int nmea_scan_line(const uint8_t *p, long n, long maximum_body, struct nmea_line_scan *out) {
#if defined(__SSE2__)
    const __m128i star = _mm_set1_epi8('*'), dollar = _mm_set1_epi8('$'), line_feed = _mm_set1_epi8('\n');
    __m128i sum = _mm_setzero_si128(), v;
    long i = 0;
    int ends;
    if (n >= 144) {
        // Nearly every line: its `*` within 128 bytes, the buffer going on past them: no check for the buffer's end.
        for (i = 0; i < 128; i += 16) {
            v = _mm_loadu_si128((const __m128i *)(p + i));
            const __m128i line_end = _mm_or_si128(_mm_cmpeq_epi8(v, dollar), _mm_cmpeq_epi8(v, line_feed));
            const int stops = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, star), line_end));
            if (stops != 0) {
                if (!nmea_star_block(p, i, v, line_end, stops, maximum_body, &sum, &ends, out)) return 0;
                break;
            }
            sum = _mm_xor_si128(sum, v);
        }
        if (i >= 128) return 0;
        while (ends == 0) {
            i += 16;
            if (i + 16 > n) return 0;
            v = _mm_loadu_si128((const __m128i *)(p + i));
            ends = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, dollar), _mm_cmpeq_epi8(v, line_feed)));
        }
        goto found;
    }
    // The last bytes of the buffer are copied to a zeroed block: a zero matches nothing and sums to nothing.
#define NMEA_LOAD_BLOCK() \
    if (i + 16 <= n) { \
        v = _mm_loadu_si128((const __m128i *)(p + i)); \
    } else { \
        uint8_t tail[16] = {0}; \
        for (long k = 0; k < n - i; k++) tail[k] = p[i + k]; \
        v = _mm_loadu_si128((const __m128i *)tail); \
    }
    for (;; i += 16) {
        if (i >= n || i > maximum_body) return 0;
        NMEA_LOAD_BLOCK()
        const __m128i line_end = _mm_or_si128(_mm_cmpeq_epi8(v, dollar), _mm_cmpeq_epi8(v, line_feed));
        const int stops = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, star), line_end));
        if (stops == 0) {
            sum = _mm_xor_si128(sum, v);
            continue;
        }
        if (!nmea_star_block(p, i, v, line_end, stops, maximum_body, &sum, &ends, out)) return 0;
        break;
    }
    while (ends == 0) {
        i += 16;
        if (i >= n) return 0;
        NMEA_LOAD_BLOCK()
        ends = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, dollar), _mm_cmpeq_epi8(v, line_feed)));
    }
#undef NMEA_LOAD_BLOCK
found:;
    const long end = i + __builtin_ctz((unsigned)ends);
    if (p[end] != '\n') return 0;
    out->line_feed = end;
    sum = _mm_xor_si128(sum, _mm_srli_si128(sum, 8));
    sum = _mm_xor_si128(sum, _mm_srli_si128(sum, 4));
    sum = _mm_xor_si128(sum, _mm_srli_si128(sum, 2));
    sum = _mm_xor_si128(sum, _mm_srli_si128(sum, 1));
    out->checksum = (uint8_t)_mm_cvtsi128_si32(sum);
    return 1;
#else
    uint8_t checksum = 0;
    long i = 0;
    for (; i < n && p[i] != '*' && p[i] != '$' && p[i] != '\n'; i++) checksum ^= p[i];
    if (i >= n || p[i] != '*' || i > maximum_body) return 0;
    out->star = i;
    for (i++; i < n && p[i] != '$' && p[i] != '\n'; i++) {}
    if (i >= n || p[i] != '\n') return 0;
    out->line_feed = i;
    out->checksum = checksum;
    return 1;
#endif
}

#endif
