/* The latency benchmark's subscriber in C, so that the figure is the daemon's and not a Python wake-up's:
 * connects to geowaked's socket, registers, starts standard updates, and for every event takes CLOCK_MONOTONIC as soon
 * as recv returns, acks it, and prints the time of each location event (seconds, one a line) until the `ended` status.
 *   cc -O2 -o latency_reader Benchmarks/latency_reader.c && latency_reader SOCKET CLIENT_ID */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int fd;
static char buffer[1 << 20];
static size_t used;

static void fail(const char *what) {
    fprintf(stderr, "latency_reader: %s\n", what);
    exit(1);
}

static void send_line(const char *line) {
    size_t length = strlen(line);
    if (write(fd, line, length) != (ssize_t)length) fail("cannot write to the socket");
}

/* Reads once; returns the monotonic time right after recv. */
static double fill(void) {
    if (used == sizeof buffer) fail("a line longer than 1 MiB");
    ssize_t n = recv(fd, buffer + used, sizeof buffer - used, 0);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (n <= 0) fail("the daemon closed the connection");
    used += (size_t)n;
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* Removes the first complete line into `line`; 0 when there is none yet. */
static int take_line(char *line) {
    char *newline = memchr(buffer, '\n', used);
    if (!newline) return 0;
    size_t length = (size_t)(newline - buffer);
    memcpy(line, buffer, length);
    line[length] = 0;
    memmove(buffer, newline + 1, used - length - 1);
    used -= length + 1;
    return 1;
}

static char line[1 << 20];

/* Sends a request and reads until its reply (the setup has no events yet). */
static void request(const char *text) {
    send_line(text);
    for (;;) {
        while (take_line(line)) {
            if (strstr(line, "\"type\":\"reply\"")) {
                if (!strstr(line, "\"ok\":true")) fail(line);
                return;
            }
        }
        fill();
    }
}

int main(int argc, char **argv) {
    if (argc != 3) fail("usage: latency_reader SOCKET CLIENT_ID");
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("cannot connect to the socket");
    while (!take_line(line)) fill(); /* the server's hello */
    char text[512];
    request("{\"id\":1,\"op\":\"hello\",\"protocol\":1}\n");
    snprintf(text, sizeof text, "{\"id\":2,\"op\":\"register\",\"client\":\"%s\"}\n", argv[2]);
    request(text);
    send_line("{\"id\":3,\"op\":\"startStandard\"}\n");
    int id = 3;
    for (;;) {
        double received = fill();
        while (take_line(line)) {
            if (!strstr(line, "\"type\":\"event\"")) continue;
            char *seq = strstr(line, "\"seq\":");
            if (!seq) fail(line);
            snprintf(text, sizeof text, "{\"id\":%d,\"op\":\"ack\",\"seq\":%lld}\n", ++id, atoll(seq + 6));
            send_line(text);
            if (strstr(line, "\"event\":\"location\"")) printf("%.9f\n", received);
            if (strstr(line, "\"state\":\"ended\"")) return 0;
        }
    }
}
