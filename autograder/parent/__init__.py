"""The parent's engine: zygotes, sandbox, runs, reruns, the warm server and the cluster (no torch)."""
