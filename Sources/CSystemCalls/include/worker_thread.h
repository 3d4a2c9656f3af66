#ifndef LUMATRACE_WORKER_THREAD_H
#define LUMATRACE_WORKER_THREAD_H

/// Names the calling thread for ps, top and debuggers (pthread_setname_np, a GNU extension Swift
/// does not see): at most 15 bytes of `name` are kept, which is all Linux keeps.
void lumatrace_name_this_thread(const char *name);

#endif
