"""The checker's differential fuzzer: random torch programs, checked by mypy and run by torch.

`generate` writes programs (`menu` lists the ops), `truth` runs torch and mypy on them,
`revealed` reads mypy's revealed types as shapes, `score` compares the two and builds the
failure catalogue, and `run.fuzz` does all of it.  `python -m scripts.fuzz_checker` is the
command line; tests/test_fuzz_checker.py runs a fixed slice.
"""
