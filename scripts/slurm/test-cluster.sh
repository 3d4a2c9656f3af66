# Shared by scripts/slurm/test-regress and scripts/slurm/test-sweep (sourced, not run): a one-node
# Slurm cluster in a scratch folder for the length of the test, and a wait for a merge job.
#
#   test_cluster_start NAME   sets LUMATRACE (built if missing), scratch (torn down with the cluster
#                             however the script ends) and SLURM_CONF
#   test_cluster_wait NAME JOB TIMEOUT PARTS
#                             waits for JOB (a merge job) to leave the queue, at most TIMEOUT
#                             seconds; fails, with the shards' logs in PARTS, when a shard failed

test_cluster_start() {
  local name=$1
  if [ -z "${LUMATRACE:-}" ]; then
    [ -x .build/debug/lumatrace ] || swift build --product lumatrace >/dev/null
    LUMATRACE=$PWD/.build/debug/lumatrace
  fi
  export LUMATRACE
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/lumatrace-slurm-XXXXXX")
  trap 'scripts/slurm/local-cluster stop "$scratch/cluster" || true; rm -rf "$scratch"' EXIT
  eval "$(scripts/slurm/local-cluster start "$scratch/cluster")"
  echo "$name: one-node Slurm cluster up ($SLURM_CONF)" >&2
}

test_cluster_wait() {
  local name=$1 job=$2 timeout=$3 parts=$4
  local deadline=$(( $(date +%s) + timeout ))
  while squeue -h -j "$job" 2>/dev/null | grep -q .; do
    if squeue -h -j "$job" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied; then
      echo "$name: a shard failed, so the merge job will never run; the shards' logs:" >&2
      cat "$parts"/shard-*.log >&2 2>/dev/null || true
      exit 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "$name: the merge job did not finish within $timeout s" >&2
      squeue >&2 || true
      exit 1
    fi
    sleep 1
  done
}
