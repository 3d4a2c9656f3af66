// Naming a thread (see worker_thread.h).
#define _GNU_SOURCE
#include "worker_thread.h"

#include <pthread.h>
#include <string.h>

void lumatrace_name_this_thread(const char *name) {
    char kept[16];
    strncpy(kept, name, sizeof kept - 1);
    kept[sizeof kept - 1] = 0;
    pthread_setname_np(pthread_self(), kept);
}
