"""End-to-end tests: the real bot process against a loopback fake of Discord."""
