"""What a worker keeps between requests, told by the database whoever writes: README.md."""
