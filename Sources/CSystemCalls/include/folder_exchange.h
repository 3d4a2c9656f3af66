#ifndef LUMATRACE_FOLDER_EXCHANGE_H
#define LUMATRACE_FOLDER_EXCHANGE_H

/// Swaps the names of two existing entries of the file system in one step (renameat2 with
/// RENAME_EXCHANGE, which Swift's Glibc does not declare): after it, `a` names what `b` named and
/// `b` what `a` named; there is no moment when either name is missing. Returns 0, or -1 with errno
/// set (EINVAL or ENOSYS where the kernel or the file system cannot exchange).
int lumatrace_exchange_names(const char *a, const char *b);

#endif
