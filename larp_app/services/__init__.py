"""Use cases: each takes plain values and models, flushes, and leaves the commit to its caller."""
