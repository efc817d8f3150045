"""The learner and judge child processes and their zygotes (torch is imported here, and only here)."""
