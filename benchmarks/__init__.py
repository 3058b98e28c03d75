"""Benchmarks: run each as `.venv/bin/python benchmarks/<name>.py`."""
