"""What crosses between the processes: framing and typed records (no torch: both sides import it)."""
