#ifndef CEPOLL_H
#define CEPOLL_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <malloc.h>

// accept4 is declared only under _GNU_SOURCE, which the Glibc module does not define.
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// The EPOLL* constants are enum values or macros whose types differ between libcs; expose them as plain uint32_t.
static inline unsigned int cepoll_in(void) { return EPOLLIN; }
static inline unsigned int cepoll_out(void) { return EPOLLOUT; }
static inline unsigned int cepoll_err(void) { return EPOLLERR; }
static inline unsigned int cepoll_hup(void) { return EPOLLHUP; }
static inline unsigned int cepoll_rdhup(void) { return EPOLLRDHUP; }
static inline unsigned int cepoll_et(void) { return EPOLLET; }

// Relaxed atomic counters in a plain buffer (Swift's Atomic cannot live in one): each event loop adds to its own
// cells, so the add never contends; a metrics scrape reads them from another thread.
static inline void cepoll_counter_add(unsigned long long *cell, unsigned long long n) { __atomic_fetch_add(cell, n, __ATOMIC_RELAXED); }
static inline unsigned long long cepoll_counter_load(const unsigned long long *cell) { return __atomic_load_n(cell, __ATOMIC_RELAXED); }
#endif
#endif
